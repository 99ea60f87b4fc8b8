// Baseline for bench/run.ts: a Fastify hello world with no logging, in its own process so that it
// is measured the same way as the portal (server in one process, autocannon in the bench process).
// Prints one line `listening <port>` on stdout.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`listening ${app.server.address().port}\n`);

const stop = () => app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

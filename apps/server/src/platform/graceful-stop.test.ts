/**
 * The stop's drain: a connection that never carried a request (a client's pre-opened spare, as
 * undici opens one after an aborted fetch) is closed after the grace period like an idle one,
 * instead of holding the stop until its 10 s limit; and a connection the operating system had
 * completed but the server had not yet taken when the stop began is answered, not reset.
 */
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { freePort } from '../db/embedded.js';
import { createTestContext } from '../test/harness.js';
import { stopAccepting } from './graceful-stop.js';

describe('the graceful stop', () => {
  it('closes a connection that never sent a request after the grace period', async () => {
    const ctx = await createTestContext();
    const port = await freePort();
    await ctx.app.listen({ port, host: '127.0.0.1' });
    const spare = connect(port, '127.0.0.1');
    await new Promise((done) => spare.once('connect', done));
    const closedByServer = new Promise<number>((done) => spare.once('close', () => done(performance.now())));
    const started = performance.now();
    await ctx.close();
    const closedAt = await closedByServer;
    // Within the grace period's reach (2 s and a poll), far from the 10 s cut.
    expect(closedAt - started).toBeLessThan(6_000);
  }, 20_000);

  it('answers a connection that was waiting to be accepted when the stop began', async () => {
    const ctx = await createTestContext();
    const port = await freePort();
    await ctx.app.listen({ port, host: '127.0.0.1' });
    // A client in another process connects and sends its request while this process is busy (as
    // a loaded server is between two turns of its event loop): the kernel holds the connection.
    const client = spawn(process.execPath, [
      '-e',
      `const s = require('net').connect(${port}, '127.0.0.1', () => s.write('GET /healthz HTTP/1.1\\r\\nHost: t\\r\\n\\r\\n'));
       s.on('data', (d) => { process.stdout.write(d.toString().split('\\r\\n')[0]); s.destroy(); });
       s.on('error', (e) => process.stdout.write(e.code));`,
    ]);
    let answer = '';
    client.stdout.on('data', (d: Buffer) => (answer += d.toString()));
    const exited = new Promise((done) => client.once('exit', done));
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500);
    await stopAccepting(ctx.app);
    await exited;
    expect(answer).toBe('HTTP/1.1 200 OK');
    await ctx.close();
  }, 20_000);
});

/**
 * Phase 1: the Fastify hello-world baseline (bench/hello-server.mjs in its own process) → req/s.
 */
import { join } from 'node:path';
import { startChild } from '../../child.js';
import { cannon, describe } from '../cannon.js';
import { BENCH_DIR, log, settings } from '../settings.js';

export async function benchHello() {
  const hello = await startChild(
    'hello server',
    [join(BENCH_DIR, 'hello-server.mjs')],
    { PATH: process.env.PATH ?? '' },
    /^listening (\d+)$/m,
  );
  try {
    const url = `http://127.0.0.1:${hello.port}/`;
    const verifyBody = (b: string) => b === '{"hello":"world"}';
    if (settings.warmup > 0) await cannon({ url, connections: settings.connections, duration: settings.warmup });
    log(`hello: ${settings.duration} s × ${settings.connections} connections`);
    const run = await cannon({ url, connections: settings.connections, duration: settings.duration, verifyBody });
    log(`hello: ${describe(run)}`);
    return run;
  } finally {
    await hello.stop();
  }
}

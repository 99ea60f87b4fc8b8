/**
 * The stop's drain: a connection that never carried a request (a client's pre-opened spare, as
 * undici opens one after an aborted fetch) is closed after the grace period like an idle one,
 * instead of holding the stop until its 10 s limit.
 */
import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { freePort } from '../db/embedded.js';
import { createTestContext } from '../test/harness.js';

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
});

/** The invalidation bus between instances, on the run's real PostgreSQL. */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../db/client.js';
import { freshDatabase } from '../test/harness.js';
import { createInvalidationBus, type Invalidation, type InvalidationBus } from './invalidation.js';

let db: Db;
const buses: InvalidationBus[] = [];
beforeAll(async () => {
  db = connect(await freshDatabase('inv'), 4);
});
afterAll(async () => {
  await Promise.all(buses.map((b) => b.close()));
  await db?.$client.end();
});

function bus(retryMs = 50) {
  const seen: Invalidation[] = [];
  const b = createInvalidationBus(db.$client, () => {}, retryMs);
  b.subscribe((e) => seen.push(e));
  buses.push(b);
  return { b, seen };
}

const listeners = async () =>
  (
    await db.$client.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN portal_invalidate'`,
    )
  ).rows;

describe('invalidation bus', () => {
  it('delivers an event to its own subscribers at once and to other instances through PostgreSQL', async () => {
    const a = bus();
    const other = bus();
    await expect.poll(async () => (await listeners()).length).toBe(2);
    const publishing = a.b.publish({ kind: 'session', id: 'abc' });
    expect(a.seen).toContainEqual({ kind: 'session', id: 'abc' }); // before the round trip
    await publishing;
    await expect.poll(() => other.seen).toContainEqual({ kind: 'session', id: 'abc' });
    await a.b.publish({ kind: 'user', id: 7 });
    await expect.poll(() => other.seen).toContainEqual({ kind: 'user', id: 7 });
  });

  it('returns from publish once every other listening instance has applied the event', async () => {
    for (const b of buses.splice(0)) await b.close();
    const a = bus();
    const others = [bus(), bus()];
    await expect.poll(async () => (await listeners()).length).toBe(3);
    for (let i = 0; i < 20; i++) {
      await a.b.publish({ kind: 'session', id: `s${i}` });
      // No polling: an answer sent after publish (a logout's) finds every instance told.
      for (const o of others) expect(o.seen).toContainEqual({ kind: 'session', id: `s${i}` });
    }
  });

  it('waits at most ackWaitMs for a listener that does not confirm', async () => {
    for (const b of buses.splice(0)) await b.close();
    const a = createInvalidationBus(db.$client, () => {}, 50, 300);
    buses.push(a);
    // A listener that counts as an instance but never answers (a stuck process).
    const mute = new pg.Client({ ...db.$client.options, application_name: 'portal-invalidation' });
    await mute.connect();
    await mute.query('LISTEN portal_invalidate');
    try {
      await expect.poll(async () => (await listeners()).length).toBe(2);
      const started = performance.now();
      await a.publish({ kind: 'user', id: 1 });
      expect(performance.now() - started).toBeGreaterThanOrEqual(250);
      expect(performance.now() - started).toBeLessThan(2_000);
    } finally {
      await mute.end();
    }
  });

  it('ignores notifications on its channel that are not its events', async () => {
    for (const b of buses.splice(0)) await b.close();
    const a = bus();
    await expect.poll(async () => (await listeners()).length).toBe(1);
    await db.$client.query(
      `SELECT pg_notify('portal_invalidate', 'garbage'), pg_notify('portal_invalidate', '{"kind":"user","id":"7"}')`,
    );
    await a.b.publish({ kind: 'all' });
    await expect.poll(() => a.seen.filter((e) => e.kind === 'all').length).toBe(2); // own + echo
    expect(a.seen.every((e) => e.kind === 'all')).toBe(true);
  });

  it('tells subscribers to drop everything when its connection is lost, and listens again', async () => {
    for (const b of buses.splice(0)) await b.close();
    const a = bus();
    const other = bus();
    await expect.poll(async () => (await listeners()).length).toBe(2);
    await db.$client.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN portal_invalidate'`,
    );
    await expect.poll(() => other.seen).toContainEqual({ kind: 'all' });
    await expect.poll(async () => (await listeners()).length).toBe(2);
    await a.b.publish({ kind: 'session', id: 'after' });
    await expect.poll(() => other.seen).toContainEqual({ kind: 'session', id: 'after' });
  });

  it('stops listening when closed', async () => {
    for (const b of buses.splice(0)) await b.close();
    await expect.poll(async () => (await listeners()).length).toBe(0);
  });
});

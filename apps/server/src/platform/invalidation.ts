/**
 * Tells every instance that cached state changed (a session ended, a user's profile changed), and
 * which users have new events for their live streams (ids only: the events are read from the
 * database), through
 * PostgreSQL LISTEN/NOTIFY, so instances behind a load balancer need nothing but the database.
 * A publisher applies the change to its own caches at once, before the database round trip. While
 * the listening connection is down, subscribers are told to drop everything (they may have missed
 * events), and the short TTL of local-cache.ts bounds the rest.
 */
import pg from 'pg';

export type Invalidation =
  | { kind: 'session'; id: string }
  | { kind: 'user'; id: number }
  /** Reference data (industries) was replaced. */
  | { kind: 'catalog' }
  /** A tenant's registered applications changed (the origins its documents may use). */
  | { kind: 'apps'; tenant: number }
  /** A tenant's settings or state changed (issue 20): its config.js and switches are read again. */
  | { kind: 'tenant'; tenant: number }
  /** These users have new rows in user_events (their live streams read them). */
  | { kind: 'events'; users: number[] }
  | { kind: 'all' };

export interface InvalidationBus {
  publish(event: Invalidation): Promise<void>;
  subscribe(fn: (event: Invalidation) => void): void;
  close(): Promise<void>;
}

const CHANNEL = 'portal_invalidate';

function parse(payload: string | undefined): Invalidation | null {
  try {
    const e = JSON.parse(payload ?? '') as Invalidation;
    if (e.kind === 'session' && typeof e.id === 'string') return e;
    if (e.kind === 'user' && typeof e.id === 'number') return e;
    if (e.kind === 'all' || e.kind === 'catalog') return e;
    if ((e.kind === 'apps' || e.kind === 'tenant') && Number.isSafeInteger(e.tenant)) return e;
    if (e.kind === 'events' && Array.isArray(e.users) && e.users.every((u) => Number.isSafeInteger(u))) return e;
  } catch {
    // not ours
  }
  return null;
}

export function createInvalidationBus(
  pool: pg.Pool,
  onError: (err: unknown) => void = () => {},
  retryMs = 1_000,
): InvalidationBus {
  const subscribers: ((e: Invalidation) => void)[] = [];
  const deliver = (e: Invalidation) => subscribers.forEach((fn) => fn(e));
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  async function listen(): Promise<void> {
    if (closed) return;
    const c = new pg.Client(pool.options);
    const lost = (err?: unknown) => {
      if (client !== c) return;
      client = null;
      if (err) onError(err);
      deliver({ kind: 'all' });
      c.end().catch(() => undefined);
      if (!closed) retry = setTimeout(() => void listen(), retryMs);
    };
    c.on('error', lost);
    c.on('end', () => lost());
    c.on('notification', (msg) => {
      const e = msg.channel === CHANNEL ? parse(msg.payload) : null;
      if (e) deliver(e);
    });
    client = c;
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANNEL}`);
    } catch (err) {
      lost(err);
    }
  }
  void listen();

  return {
    async publish(event) {
      deliver(event);
      await pool.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify(event)]);
    },
    subscribe(fn) {
      subscribers.push(fn);
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}

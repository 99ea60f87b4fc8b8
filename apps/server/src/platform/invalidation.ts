/**
 * Tells every instance that cached state changed (a session ended, a user's profile changed), and
 * which users have new events for their live streams (ids only: the events are read from the
 * database), through
 * PostgreSQL LISTEN/NOTIFY, so instances behind a load balancer need nothing but the database.
 * A publisher applies the change to its own caches at once, before the database round trip, and
 * returns once every listening instance has confirmed it applied it too (or after `ackWaitMs`), so
 * a logout's answer comes after every instance refuses the token (ADR 030). Published inside a
 * transaction of `db/scope.ts`, an event goes out after the commit. While the listening connection
 * is down, subscribers are told to drop everything (they may have missed events), and the short
 * TTL of local-cache.ts bounds the rest.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterCommit } from '../db/scope.js';

export type Invalidation =
  | { kind: 'session'; id: string }
  | { kind: 'user'; id: number }
  /** Reference data (industries) was replaced. */
  | { kind: 'catalog' }
  /** A tenant's registered applications changed (the origins its documents may use). */
  | { kind: 'apps'; tenant: number }
  /** A tenant's settings or state changed (ADR 031): its config.js and switches are read again. */
  | { kind: 'tenant'; tenant: number }
  /** A tenant's menu changed (an operator's edit): its members' open portals load it again (ADR 046). */
  | { kind: 'menus'; tenant: number }
  /** A tenant's OpenID Provider signing keys changed: every instance builds its provider again. */
  | { kind: 'oidc'; tenant: number }
  /** These users have new rows in user_events (their live streams read them). */
  | { kind: 'events'; users: number[] }
  | { kind: 'all' };

export interface InvalidationBus {
  publish(event: Invalidation): Promise<void>;
  subscribe(fn: (event: Invalidation) => void): void;
  close(): Promise<void>;
}

const CHANNEL = 'portal_invalidate';
/** The listening connections' application_name: how a publisher counts the instances to hear from. */
const LISTENER = 'portal-invalidation';

function parse(payload: string | undefined): Invalidation | null {
  try {
    const e = JSON.parse(payload ?? '') as Invalidation;
    if (e.kind === 'session' && typeof e.id === 'string') return e;
    if (e.kind === 'user' && typeof e.id === 'number') return e;
    if (e.kind === 'all' || e.kind === 'catalog') return e;
    if (
      (e.kind === 'apps' || e.kind === 'tenant' || e.kind === 'menus' || e.kind === 'oidc') &&
      Number.isSafeInteger(e.tenant)
    )
      return e;
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
  ackWaitMs = 1_000,
): InvalidationBus {
  const subscribers: ((e: Invalidation) => void)[] = [];
  const deliver = (e: Invalidation) => subscribers.forEach((fn) => fn(e));
  let client: pg.Client | null = null;
  let listening = false;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;
  // Publications waiting for the instances' confirmations: each notification carries `ask`, an id
  // of this bus; every listener applies the event, then answers {"ack": ask} on the channel.
  const self = randomBytes(6).toString('hex');
  let sent = 0;
  const waiting = new Map<string, { acks: number; need: number; done: () => void }>();
  const acked = (ask: string) => {
    const w = waiting.get(ask);
    if (w && ++w.acks >= w.need) w.done();
  };
  const stopWaiting = () => [...waiting.values()].forEach((w) => w.done());

  async function listen(): Promise<void> {
    if (closed) return;
    const c = new pg.Client({ ...pool.options, application_name: LISTENER, keepAlive: true });
    const lost = (err?: unknown) => {
      if (client !== c) return;
      client = null;
      listening = false;
      stopWaiting();
      if (err) onError(err);
      deliver({ kind: 'all' });
      c.end().catch(() => undefined);
      if (!closed) retry = setTimeout(() => void listen(), retryMs);
    };
    c.on('error', lost);
    c.on('end', () => lost());
    c.on('notification', (msg) => {
      if (msg.channel !== CHANNEL) return;
      if (msg.payload?.startsWith('{"ack":')) {
        const { ack } = JSON.parse(msg.payload) as { ack?: unknown };
        if (typeof ack === 'string') acked(ack);
        return;
      }
      const e = parse(msg.payload);
      if (!e) return;
      const { ask, ...event } = e as Invalidation & { ask?: unknown };
      deliver(event as Invalidation);
      if (typeof ask !== 'string') return;
      // Applied: the publisher may answer. Its own listener confirms without a round trip.
      if (ask.startsWith(`${self}:`)) acked(ask);
      // On this connection, not the pool's: a busy pool would hold every publisher's answer back.
      else c.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify({ ack: ask })]).catch(onError);
    });
    client = c;
    try {
      await c.connect();
      // A listener whose instance vanished without closing its connection is counted by every
      // publisher (and waited for, up to ackWaitMs) until PostgreSQL notices: let it notice in a
      // minute, not the operating system's two hours.
      await c.query('SET tcp_keepalives_idle = 30; SET tcp_keepalives_interval = 10; SET tcp_keepalives_count = 3');
      await c.query(`LISTEN ${CHANNEL}`);
      if (client === c) listening = true;
    } catch (err) {
      lost(err);
    }
  }
  void listen();

  async function publish(event: Invalidation): Promise<void> {
    deliver(event);
    // Live-stream news changes no cached state: it is not worth a wait for every instance.
    if (!listening || event.kind === 'events') {
      await pool.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify(event)]);
      return;
    }
    const ask = `${self}:${++sent}`;
    let done = () => {};
    const confirmed = new Promise<void>((resolve) => {
      const timer = setTimeout(() => done(), ackWaitMs);
      done = () => {
        clearTimeout(timer);
        waiting.delete(ask);
        resolve();
      };
    });
    // Counted with the notification: the instances listening when it was sent (this one too).
    waiting.set(ask, { acks: 0, need: Number.POSITIVE_INFINITY, done });
    try {
      const { rows } = await pool.query<{ listeners: number }>(
        `SELECT pg_notify($1, $2), (SELECT count(*) FROM pg_stat_activity
             WHERE datname = current_database() AND application_name = $3)::int AS listeners`,
        [CHANNEL, JSON.stringify({ ...event, ask }), LISTENER],
      );
      const w = waiting.get(ask);
      if (w) {
        w.need = rows[0]!.listeners;
        if (w.acks >= w.need) w.done();
      }
    } catch (err) {
      done();
      throw err;
    }
    await confirmed;
  }

  return {
    // Inside a transaction, once it has committed: told earlier, an instance would read the old
    // state again and keep it.
    publish: (event) => afterCommit(() => publish(event)),
    subscribe(fn) {
      subscribers.push(fn);
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      listening = false;
      stopWaiting();
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}

/**
 * Live streams (server-sent events, ADR 024). Each open stream is a user's; an event's `id:` is its
 * row id in user_events, which grows for every user, so a reconnect with Last-Event-ID gets exactly
 * what it missed, from PostgreSQL. Instances learn which users have new events through the
 * invalidation bus (LISTEN/NOTIFY, ids only); after the bus was down they re-read every stream.
 */
import type { InvalidationBus } from '../../platform/invalidation.js';
import type { EventsRepository } from './events.repository.js';

export interface Stream {
  tenantId: number;
  userId: number;
  /** The portal session it was opened with: it ends with that session. */
  sessionId: string;
  /** The last event id this stream was sent. */
  last: number;
  write(chunk: string): void;
  end(): void;
}

export interface EventsServiceDeps {
  repo: EventsRepository;
  bus: Pick<InvalidationBus, 'subscribe' | 'publish'>;
  /** The unread notices of users of a tenant, sent with every event (the notices module's counts). */
  unread: (tenantId: number, userIds: number[]) => Promise<Map<number, number>>;
  onError: (err: unknown) => void;
  /** A comment line this often keeps proxies from closing an idle stream. */
  heartbeatMs?: number;
  /** Streams one user may hold open on one instance; the oldest is closed beyond. */
  perUser?: number;
}

/** What one flush may send a stream at once; a longer gap is caught up by the next flush. */
const BATCH = 200;
/** Users per bus message: a NOTIFY payload stays far below PostgreSQL's 8,000 bytes. */
const USERS_PER_MESSAGE = 500;

const frame = (id: number | null, event: string, data: object) =>
  `${id === null ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

export function createEventsService({
  repo,
  bus,
  unread,
  onError,
  heartbeatMs = 25_000,
  perUser = 8,
}: EventsServiceDeps) {
  const streams = new Map<number, Set<Stream>>();
  // Users whose streams have news to read, read together in batches: one published notice makes
  // two statements per batch, not two per recipient.
  const pending = new Set<number>();
  let draining = false;

  async function flushBatch(users: number[]): Promise<void> {
    const from = users.flatMap((userId) => {
      const open = streams.get(userId);
      if (!open || open.size === 0) return [];
      const all = [...open];
      return [{ userId, tenantId: all[0]!.tenantId, after: Math.min(...all.map((s) => s.last)) }];
    });
    if (from.length === 0) return;
    const events = await repo.sinceMany(from, BATCH);
    if (events.length === 0) return;
    const byUser = new Map<number, typeof events>();
    for (const e of events) byUser.set(e.userId, [...(byUser.get(e.userId) ?? []), e]);
    const byTenant = new Map<number, number[]>();
    for (const f of from)
      if (byUser.has(f.userId)) byTenant.set(f.tenantId, [...(byTenant.get(f.tenantId) ?? []), f.userId]);
    const counts = new Map<number, number>();
    for (const [tenantId, ids] of byTenant) for (const [u, n] of await unread(tenantId, ids)) counts.set(u, n);
    for (const [userId, list] of byUser) {
      const count = counts.get(userId) ?? 0;
      for (const s of streams.get(userId) ?? []) {
        for (const e of list) {
          if (e.id <= s.last) continue;
          s.write(frame(e.id, e.kind, { unread: count, noticeId: e.noticeId === null ? null : String(e.noticeId) }));
          s.last = e.id;
        }
      }
      if (list.length === BATCH) pending.add(userId);
    }
  }

  async function drain(): Promise<void> {
    draining = true;
    try {
      while (pending.size > 0) {
        const batch = [...pending].slice(0, USERS_PER_MESSAGE);
        batch.forEach((u) => pending.delete(u));
        await flushBatch(batch).catch(onError);
      }
    } finally {
      draining = false;
    }
  }

  /** Reads what these users' local streams have not been sent yet, soon, batched with others. */
  function flush(users: Iterable<number>): void {
    for (const u of users) if (streams.has(u)) pending.add(u);
    if (!draining && pending.size > 0) void drain();
  }

  const endWhere = (ended: (s: Stream) => boolean) => {
    for (const [userId, open] of streams) {
      for (const s of open) {
        if (!ended(s)) continue;
        open.delete(s);
        s.end();
      }
      if (open.size === 0) streams.delete(userId);
    }
  };

  bus.subscribe((e) => {
    if (e.kind === 'events') flush(e.users);
    else if (e.kind === 'all') flush(streams.keys());
    // A logout or a switch ends the session: its streams end with it (the client reconnects with
    // its new token, or stops).
    else if (e.kind === 'session') endWhere((s) => s.sessionId === e.id);
  });

  const heartbeat = setInterval(() => {
    for (const open of streams.values()) for (const s of open) s.write(': ping\n\n');
  }, heartbeatMs);
  heartbeat.unref();

  return {
    /** Streams open on this instance. */
    openCount(): number {
      let n = 0;
      for (const open of streams.values()) n += open.size;
      return n;
    },

    /**
     * Opens a stream: with `lastEventId` it is sent what came after, else a `hello` with the
     * current count and the newest id to resume from.
     */
    async open(s: Omit<Stream, 'last'>, lastEventId: number | null): Promise<Stream> {
      const stream: Stream = { ...s, last: lastEventId ?? (await repo.latest(s.tenantId, s.userId)) };
      const open = streams.get(s.userId) ?? new Set<Stream>();
      streams.set(s.userId, open);
      open.add(stream);
      if (open.size > perUser) {
        const oldest = [...open][0]!;
        open.delete(oldest);
        oldest.end();
      }
      const count = (await unread(s.tenantId, [s.userId])).get(s.userId) ?? 0;
      stream.write(`retry: 3000\n${frame(null, 'hello', { unread: count, last: stream.last })}`);
      if (lastEventId !== null) flush([s.userId]);
      return stream;
    },

    close(stream: Stream): void {
      const open = streams.get(stream.userId);
      open?.delete(stream);
      if (open?.size === 0) streams.delete(stream.userId);
    },

    /** Tells every instance these users have new events. */
    async announce(userIds: number[]): Promise<void> {
      for (let i = 0; i < userIds.length; i += USERS_PER_MESSAGE) {
        await bus.publish({ kind: 'events', users: userIds.slice(i, i + USERS_PER_MESSAGE) });
      }
    },

    /** Ends every stream (the server is stopping): clients reconnect to another instance. */
    endAll(): void {
      clearInterval(heartbeat);
      for (const open of streams.values()) for (const s of open) s.end();
      streams.clear();
    },
  };
}

export type EventsService = ReturnType<typeof createEventsService>;

/**
 * Live streams (server-sent events, ADR 024). Each open stream is a user's; an event's `id:` is its
 * row id in user_events, which grows for every user, so a reconnect with Last-Event-ID gets exactly
 * what it missed, from PostgreSQL. Instances learn which users have new events through the
 * invalidation bus (LISTEN/NOTIFY, ids only); after the bus was down they re-read every stream.
 *
 * A stream lives only as long as its session. Whenever the bus says a session may have ended (a
 * session, a user, a tenant, or everything changed), the streams it may concern are held (nothing
 * is written to them) while their sessions are read again from the database, and end unless still
 * live; and before any event is written, the sessions of the streams it goes to are read again.
 */
import type { Invalidation, InvalidationBus } from '../../platform/invalidation.js';
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
  /** Of these sessions, the live ones, read from the database (the auth module's rule). */
  liveSessions: (sessionIds: string[]) => Promise<Set<string>>;
  onError: (err: unknown) => void;
  /** A comment line this often keeps proxies from closing an idle stream; every session is read again then too. */
  heartbeatMs?: number;
  /** Streams one user may hold open on one instance; the oldest is closed beyond. */
  perUser?: number;
}

/** What one flush may send a stream at once; a longer gap is caught up by the next flush. */
const BATCH = 200;
/** Users per bus message: a NOTIFY payload stays far below PostgreSQL's 8,000 bytes. */
const USERS_PER_MESSAGE = 500;
/** Sessions read in one statement. */
const SESSIONS_PER_READ = 1000;

const frame = (id: number | null, event: string, data: object) =>
  `${id === null ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** Which streams an invalidation may have ended the session of; null for one that ends none. */
function concerned(e: Invalidation): ((s: Stream) => boolean) | null {
  switch (e.kind) {
    case 'session':
      return (s) => s.sessionId === e.id;
    case 'user':
      return (s) => s.userId === e.id;
    case 'tenant':
      return (s) => s.tenantId === e.tenant;
    case 'all':
      return () => true;
    default:
      return null;
  }
}

export function createEventsService({
  repo,
  bus,
  unread,
  liveSessions,
  onError,
  heartbeatMs = 25_000,
  perUser = 8,
}: EventsServiceDeps) {
  const streams = new Map<number, Set<Stream>>();
  // Streams whose session is being read again, each with the latest such read: nothing is written
  // to them until it has answered.
  const checking = new Map<Stream, { done: Promise<void> }>();
  // Streams a flush passed over while they were held or not yet greeted: flushed once they are free.
  const passed = new Set<Stream>();
  // Streams opened whose `hello` is not written yet: no event goes before it.
  const greeting = new Set<Stream>();
  // Held streams a menu change passed over: told once their session was read again and is live.
  const menuMissed = new Set<Stream>();
  // Users whose streams have news to read, read together in batches: one published notice makes
  // two statements per batch, not two per recipient.
  const pending = new Set<number>();
  let draining = false;

  const isOpen = (s: Stream) => streams.get(s.userId)?.has(s) === true;

  function endStream(s: Stream): void {
    const open = streams.get(s.userId);
    if (!open?.delete(s)) return;
    if (open.size === 0) streams.delete(s.userId);
    checking.delete(s);
    passed.delete(s);
    greeting.delete(s);
    menuMissed.delete(s);
    s.end();
  }

  async function liveOf(list: Stream[]): Promise<Set<string>> {
    const ids = [...new Set(list.map((s) => s.sessionId))];
    const live = new Set<string>();
    for (let i = 0; i < ids.length; i += SESSIONS_PER_READ) {
      for (const id of await liveSessions(ids.slice(i, i + SESSIONS_PER_READ))) live.add(id);
    }
    return live;
  }

  /**
   * Holds these streams while their sessions are read again, then ends those no longer live (all of
   * them when the database cannot say: a client reconnects, and is refused if its session ended).
   */
  function recheck(list: Stream[]): Promise<void> {
    if (list.length === 0) return Promise.resolve();
    const check = { done: Promise.resolve() };
    for (const s of list) checking.set(s, check);
    check.done = (async () => {
      let live: Set<string> | null = null;
      try {
        live = await liveOf(list);
      } catch (err) {
        onError(err);
      }
      const free: number[] = [];
      for (const s of list) {
        if (checking.get(s) !== check) continue; // ended meanwhile, or a later read decides
        checking.delete(s);
        if (!live?.has(s.sessionId)) endStream(s);
        else {
          if (!greeting.has(s) && menuMissed.delete(s)) s.write(frame(null, 'menu', {}));
          if (passed.delete(s)) free.push(s.userId);
        }
      }
      flush(free);
    })();
    return check.done;
  }

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
    // The last read before writing: no event goes to a stream whose session is no longer live.
    const targets = [...byUser.keys()].flatMap((u) => [...(streams.get(u) ?? [])]);
    const live = await liveOf(targets);
    for (const s of targets) {
      if (!isOpen(s)) continue;
      if (!live.has(s.sessionId)) {
        endStream(s);
        continue;
      }
      if (checking.has(s) || greeting.has(s)) {
        passed.add(s);
        continue;
      }
      const list = byUser.get(s.userId)!;
      const count = counts.get(s.userId) ?? 0;
      for (const e of list) {
        if (e.id <= s.last) continue;
        s.write(frame(e.id, e.kind, { unread: count, noticeId: e.noticeId === null ? null : String(e.noticeId) }));
        s.last = e.id;
      }
    }
    for (const [userId, list] of byUser) if (list.length === BATCH) pending.add(userId);
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

  const all = () => [...streams.values()].flatMap((open) => [...open]);

  /**
   * The tenant's menu changed: each of its open streams is told (`event: menu`, no id: nothing to
   * replay; a client that reconnects loads its menu anyway), so the member's portal loads its
   * menu again without a reload (ADR 046).
   */
  function menuChanged(tenantId: number): void {
    for (const s of all()) {
      if (s.tenantId !== tenantId) continue;
      if (checking.has(s) || greeting.has(s)) menuMissed.add(s);
      else s.write(frame(null, 'menu', {}));
    }
  }

  bus.subscribe((e) => {
    if (e.kind === 'events') return flush(e.users);
    if (e.kind === 'menus') return menuChanged(e.tenant);
    // Anything that may end a session (a logout or switch, a disabled user or tenant, a password
    // set, a role or enterprise taken away) holds the streams it may concern until their sessions
    // are read again. After the bus was down every stream is read again, and flushed.
    const hit = concerned(e);
    if (hit) void recheck(all().filter(hit));
    if (e.kind === 'all') flush(streams.keys());
  });

  const heartbeat = setInterval(() => {
    const open = all();
    for (const s of open) if (!checking.has(s)) s.write(': ping\n\n');
    // A session can also end without a word on the bus (it expired, or the bus was down).
    void recheck(open);
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
     * Opens a stream: a `hello` with the current count and the newest id to resume from, then what
     * came after `lastEventId` (or after the newest, without one). A session found no longer live
     * ends the stream before anything is written.
     */
    async open(s: Omit<Stream, 'last'>, lastEventId: number | null): Promise<Stream> {
      const stream: Stream = { ...s, last: lastEventId ?? (await repo.latest(s.tenantId, s.userId)) };
      const open = streams.get(s.userId) ?? new Set<Stream>();
      streams.set(s.userId, open);
      open.add(stream);
      greeting.add(stream);
      if (open.size > perUser) endStream([...open][0]!);
      const count = (await unread(s.tenantId, [s.userId])).get(s.userId) ?? 0;
      // Read last before the hello is written; and any read the bus started meanwhile is waited for.
      await recheck([stream]);
      while (checking.has(stream)) await checking.get(stream)!.done;
      if (!isOpen(stream)) return stream;
      greeting.delete(stream);
      passed.delete(stream);
      stream.write(`retry: 3000\n${frame(null, 'hello', { unread: count, last: stream.last })}`);
      if (menuMissed.delete(stream)) stream.write(frame(null, 'menu', {}));
      flush([s.userId]);
      return stream;
    },

    close(stream: Stream): void {
      const open = streams.get(stream.userId);
      if (!open?.delete(stream)) return;
      if (open.size === 0) streams.delete(stream.userId);
      checking.delete(stream);
      passed.delete(stream);
      greeting.delete(stream);
      menuMissed.delete(stream);
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
      for (const s of all()) endStream(s);
    },
  };
}

export type EventsService = ReturnType<typeof createEventsService>;

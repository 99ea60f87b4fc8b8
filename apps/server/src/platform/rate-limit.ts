/**
 * Fixed-window counters in PostgreSQL, so that a limit holds across every instance
 * (docs/architecture.md#state). One statement per hit: it opens a new window when the old one is over.
 */
import type pg from 'pg';
import { named } from '../db/named.js';
import { errors } from './errors.js';

export interface RateLimiter {
  /** Counts one hit on `key`; throws 429 with Retry-After when the window already holds `limit`. */
  hit(key: string, limit: number, windowSeconds: number): Promise<void>;
  /** Locks `key` for `seconds` (a longer lock already in place stays). */
  lock(key: string, seconds: number): Promise<void>;
  /**
   * `hit` unless `lockKey` is locked, in one statement: the seconds left of the lock (the hit not
   * counted), or 0 after counting; throws 429 like `hit` over the limit.
   */
  hitUnlessLocked(key: string, lockKey: string, limit: number, windowSeconds: number): Promise<number>;
  /**
   * Adds each allowance's `amount` to its key's window, all of them or none: when one would pass its
   * limit, nothing is counted and the answer names it (its index) with the seconds until its window
   * ends. The rows are locked while they are read and written, so instances taking from the same
   * keys at once never together pass a limit.
   */
  take(allowances: Allowance[]): Promise<{ taken: Taken[] } | { refused: number; retrySeconds: number }>;
  /** Gives back what `take` counted and was not used, to the windows it was counted in (not to later ones). */
  giveBack(taken: Taken[]): Promise<void>;
}

/** An amount to take from a fixed window of `windowSeconds` that holds at most `limit`. */
export interface Allowance {
  key: string;
  amount: number;
  limit: number;
  windowSeconds: number;
}

/** What `take` counted: the key, the window it went into, and how much. */
export interface Taken {
  key: string;
  window: string;
  amount: number;
}

const HIT_SET = `count = CASE WHEN r.window_start <= now() - make_interval(secs => $2) THEN 1 ELSE r.count + 1 END,
  window_start = CASE WHEN r.window_start <= now() - make_interval(secs => $2) THEN now() ELSE r.window_start END`;
const HIT_RETURNING = `count, EXTRACT(EPOCH FROM (r.window_start + make_interval(secs => $2) - now()))::float8 AS retry`;

// Named: planned once per connection, they run on every login and captcha.
const HIT = named<{ count: number; retry: number }>(
  'rate_limit_hit',
  `INSERT INTO rate_limits AS r (key, window_start, count) VALUES ($1, now(), 1)
   ON CONFLICT (key) DO UPDATE SET ${HIT_SET} RETURNING ${HIT_RETURNING}`,
);
const HIT_UNLESS_LOCKED = named<{ locked: number | null; count: number | null; retry: number | null }>(
  'rate_limit_hit_unless_locked',
  `WITH l AS (
     SELECT ceil(extract(epoch FROM until - now()))::int AS locked FROM rate_locks WHERE key = $3 AND until > now()),
   h AS (
     INSERT INTO rate_limits AS r (key, window_start, count)
     SELECT $1, now(), 1 WHERE NOT EXISTS (SELECT 1 FROM l)
     ON CONFLICT (key) DO UPDATE SET ${HIT_SET} RETURNING ${HIT_RETURNING})
   SELECT (SELECT locked FROM l) AS locked, h.count, h.retry FROM (SELECT 1) AS one LEFT JOIN h ON true`,
);
const LOCK = named(
  'rate_lock_set',
  `INSERT INTO rate_locks AS l (key, until) VALUES ($1, now() + make_interval(secs => $2))
   ON CONFLICT (key) DO UPDATE SET until = greatest(l.until, EXCLUDED.until)`,
);

const TAKE_ENSURE = `INSERT INTO rate_limits (key, window_start, count) SELECT unnest($1::text[]), now(), 0
   ON CONFLICT (key) DO NOTHING`;
// Locked in key order (ORDER BY sorts before FOR UPDATE locks), so that two takes of overlapping keys
// wait for each other instead of deadlocking.
const TAKE_READ = `SELECT r.key, r.count, r.window_start <= now() - make_interval(secs => w.secs) AS over,
     EXTRACT(EPOCH FROM (r.window_start + make_interval(secs => w.secs) - now()))::float8 AS retry
   FROM rate_limits r JOIN unnest($1::text[], $2::int[]) AS w (key, secs) ON w.key = r.key
   ORDER BY r.key COLLATE "C" FOR UPDATE OF r`;
const TAKE_WRITE = `UPDATE rate_limits r SET
     count = CASE WHEN r.window_start <= now() - make_interval(secs => w.secs) THEN w.amount ELSE r.count + w.amount END,
     window_start = CASE WHEN r.window_start <= now() - make_interval(secs => w.secs) THEN now() ELSE r.window_start END
   FROM unnest($1::text[], $2::int[], $3::int[]) AS w (key, secs, amount) WHERE r.key = w.key
   RETURNING r.key, r.window_start::text AS window`;
const GIVE_BACK = `UPDATE rate_limits r SET count = greatest(r.count - w.amount, 0)
   FROM unnest($1::text[], $2::text[], $3::int[]) AS w (key, win, amount)
   WHERE r.key = w.key AND r.window_start = w.win::timestamptz`;

/** `pool`: the relaxed pool (db/client.ts connectRelaxed). */
export function createRateLimiter(pool: pg.Pool): RateLimiter {
  return {
    async take(allowances) {
      const keys = allowances.map((a) => a.key);
      const secs = allowances.map((a) => a.windowSeconds);
      const client = await pool.connect();
      let failed = false;
      try {
        await client.query('BEGIN');
        // In key order, as they are locked below: two takes wait for each other, never in a cycle.
        await client.query(TAKE_ENSURE, [[...keys].sort()]);
        const read = await client.query<{ key: string; count: number; over: boolean; retry: number }>(TAKE_READ, [
          keys,
          secs,
        ]);
        const held = new Map(read.rows.map((r) => [r.key, r]));
        const refused = allowances.findIndex((a) => {
          const r = held.get(a.key)!;
          return (r.over ? 0 : r.count) + a.amount > a.limit;
        });
        if (refused >= 0) {
          await client.query('ROLLBACK');
          const r = held.get(allowances[refused]!.key)!;
          return { refused, retrySeconds: r.over ? allowances[refused]!.windowSeconds : r.retry };
        }
        const written = await client.query<{ key: string; window: string }>(TAKE_WRITE, [
          keys,
          secs,
          allowances.map((a) => a.amount),
        ]);
        await client.query('COMMIT');
        const windows = new Map(written.rows.map((r) => [r.key, r.window]));
        return { taken: allowances.map((a) => ({ key: a.key, window: windows.get(a.key)!, amount: a.amount })) };
      } catch (err) {
        failed = true;
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        // A connection that failed mid-transaction is closed rather than given back to the pool.
        client.release(failed);
      }
    },
    async giveBack(taken) {
      const back = taken.filter((t) => t.amount > 0);
      if (back.length === 0) return;
      await pool.query(GIVE_BACK, [back.map((t) => t.key), back.map((t) => t.window), back.map((t) => t.amount)]);
    },
    async hit(key, limit, windowSeconds) {
      const res = await HIT(pool, [key, windowSeconds]);
      const row = res.rows[0];
      if (row && row.count > limit) throw errors.tooManyRequests(row.retry);
    },
    async hitUnlessLocked(key, lockKey, limit, windowSeconds) {
      const res = await HIT_UNLESS_LOCKED(pool, [key, windowSeconds, lockKey]);
      const row = res.rows[0]!;
      if (row.locked) return row.locked;
      if (row.count !== null && row.count > limit) throw errors.tooManyRequests(row.retry ?? 1);
      return 0;
    },
    async lock(key, seconds) {
      await LOCK(pool, [key, seconds]);
    },
  };
}

/**
 * Fixed-window counters in PostgreSQL, so that a limit holds across every instance (ARCHITECTURE
 * §1). One statement per hit: it opens a new window when the old one is over.
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

/** `pool`: the relaxed pool (db/client.ts connectRelaxed). */
export function createRateLimiter(pool: pg.Pool): RateLimiter {
  return {
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

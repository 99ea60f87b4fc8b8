/**
 * Fixed-window counters in PostgreSQL, so that a limit holds across every instance (ARCHITECTURE
 * §1). One statement per hit: it opens a new window when the old one is over.
 */
import type pg from 'pg';
import { errors } from './errors.js';

export interface RateLimiter {
  /** Counts one hit on `key`; throws 429 with Retry-After when the window already holds `limit`. */
  hit(key: string, limit: number, windowSeconds: number): Promise<void>;
  /** Locks `key` for `seconds` (a longer lock already in place stays). */
  lock(key: string, seconds: number): Promise<void>;
  /** Whole seconds left of the lock on `key`; 0 when there is none. */
  lockedFor(key: string): Promise<number>;
}

/** `pool`: the relaxed pool (db/client.ts connectRelaxed). */
export function createRateLimiter(pool: pg.Pool): RateLimiter {
  return {
    async hit(key, limit, windowSeconds) {
      const res = await pool.query<{ count: number; retry: number }>({
        // Named: planned once per connection, it runs on every login and captcha.
        name: 'rate_limit_hit',
        text: `INSERT INTO rate_limits AS r (key, window_start, count) VALUES ($1, now(), 1)
          ON CONFLICT (key) DO UPDATE SET
            count = CASE WHEN r.window_start <= now() - make_interval(secs => $2) THEN 1 ELSE r.count + 1 END,
            window_start = CASE WHEN r.window_start <= now() - make_interval(secs => $2) THEN now() ELSE r.window_start END
          RETURNING count, EXTRACT(EPOCH FROM (r.window_start + make_interval(secs => $2) - now()))::float8 AS retry`,
        values: [key, windowSeconds],
      });
      const row = res.rows[0];
      if (row && row.count > limit) throw errors.tooManyRequests(row.retry);
    },
    async lock(key, seconds) {
      await pool.query({
        name: 'rate_lock_set',
        text: `INSERT INTO rate_locks AS l (key, until) VALUES ($1, now() + make_interval(secs => $2))
          ON CONFLICT (key) DO UPDATE SET until = greatest(l.until, EXCLUDED.until)`,
        values: [key, seconds],
      });
    },
    async lockedFor(key) {
      const res = await pool.query<{ left: number }>({
        name: 'rate_lock_get',
        text: 'SELECT ceil(extract(epoch FROM until - now()))::int AS left FROM rate_locks WHERE key = $1 AND until > now()',
        values: [key],
      });
      return res.rows[0]?.left ?? 0;
    },
  };
}

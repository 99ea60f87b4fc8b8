/**
 * Fixed-window counters in PostgreSQL, so that a limit holds across every instance (ARCHITECTURE
 * §1). One statement per hit: it opens a new window when the old one is over.
 */
import type pg from 'pg';
import { errors } from './errors.js';

export interface RateLimiter {
  /** Counts one hit on `key`; throws 429 with Retry-After when the window already holds `limit`. */
  hit(key: string, limit: number, windowSeconds: number): Promise<void>;
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
  };
}

/**
 * Fixed-window counters in PostgreSQL, so that a limit holds across every instance (ARCHITECTURE
 * §1). One statement per hit: it opens a new window when the old one is over.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { errors } from './errors.js';

export interface RateLimiter {
  /** Counts one hit on `key`; throws 429 with Retry-After when the window already holds `limit`. */
  hit(key: string, limit: number, windowSeconds: number): Promise<void>;
}

export function createRateLimiter(db: Db): RateLimiter {
  return {
    async hit(key, limit, windowSeconds) {
      const res = await db.execute<{ count: number; retry: number }>(sql`
        INSERT INTO rate_limits AS r (key, window_start, count) VALUES (${key}, now(), 1)
        ON CONFLICT (key) DO UPDATE SET
          count = CASE WHEN r.window_start <= now() - make_interval(secs => ${windowSeconds}) THEN 1 ELSE r.count + 1 END,
          window_start = CASE WHEN r.window_start <= now() - make_interval(secs => ${windowSeconds}) THEN now() ELSE r.window_start END
        RETURNING count, EXTRACT(EPOCH FROM (r.window_start + make_interval(secs => ${windowSeconds}) - now()))::float8 AS retry`);
      const row = res.rows[0];
      if (row && row.count > limit) throw errors.tooManyRequests(row.retry);
    },
  };
}

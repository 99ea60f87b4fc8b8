/**
 * Deletes what has expired: nonces, captchas, rate-limit windows and locks, long-dead sessions (the
 * portal's and the example system's).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { LIMITS } from '@portal/contracts';

export async function sweep(db: Db): Promise<void> {
  const keep = LIMITS.signatureWindowSeconds * 2 + 60;
  await db.execute(sql`DELETE FROM request_nonces WHERE seen_at < now() - make_interval(secs => ${keep})`);
  await db.execute(sql`DELETE FROM image_captchas WHERE expires_at < now()`);
  await db.execute(sql`DELETE FROM captcha_challenges WHERE expires_at < now()`);
  await db.execute(sql`DELETE FROM captcha_verifications WHERE expires_at < now()`);
  await db.execute(sql`DELETE FROM rate_locks WHERE until < now()`);
  await db.execute(sql`DELETE FROM rate_limits WHERE window_start < now() - interval '1 day'`);
  await db.execute(sql`DELETE FROM sessions WHERE expires_at < now() - interval '30 days'`);
  await db.execute(sql`DELETE FROM example_system_sessions WHERE expires_at < now() - interval '1 day'`);
}

export function startHousekeeping(db: Db, onError: (err: unknown) => void, everyMs = 60_000): () => void {
  const timer = setInterval(() => sweep(db).catch(onError), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Deletes what has expired: nonces, captchas, rate-limit windows and locks, long-dead sessions (the
 * portal's and the example systems'), the OpenID Provider's expired payloads, pending sign-ins and
 * passkey ceremonies past their minutes, remembered browsers that skip nothing any more, and device
 * readings older than 30 days (a device's latest
 * values stay on the device); and runs the modules' own tasks (uploads nothing names, files on disk
 * no row names).
 */
import { lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import {
  captchaChallenges,
  captchaVerifications,
  deviceReadings,
  exampleSystemSessions,
  oidcExampleSessions,
  imageCaptchas,
  loginChallenges,
  oidcPayloads,
  passkeyChallenges,
  rateLimits,
  rateLocks,
  rememberedBrowsers,
  requestNonces,
  sessions,
} from '../db/schema.js';
import { LIMITS } from '@portal/contracts';

const ago = (interval: string) => sql`now() - ${interval}::interval`;

export async function sweep(db: Db): Promise<void> {
  const keep = LIMITS.signatureWindowSeconds * 2 + 60;
  await db.delete(requestNonces).where(lt(requestNonces.seenAt, ago(`${keep} seconds`)));
  await db.delete(imageCaptchas).where(lt(imageCaptchas.expiresAt, sql`now()`));
  await db.delete(captchaChallenges).where(lt(captchaChallenges.expiresAt, sql`now()`));
  await db.delete(captchaVerifications).where(lt(captchaVerifications.expiresAt, sql`now()`));
  await db.delete(rateLocks).where(lt(rateLocks.until, sql`now()`));
  await db.delete(rateLimits).where(lt(rateLimits.windowStart, ago('1 day')));
  await db.delete(sessions).where(lt(sessions.expiresAt, ago('30 days')));
  await db.delete(exampleSystemSessions).where(lt(exampleSystemSessions.expiresAt, ago('1 day')));
  await db.delete(oidcExampleSessions).where(lt(oidcExampleSessions.expiresAt, ago('1 day')));
  // The OpenID Provider's codes, tokens, sessions and interactions past their lifetime.
  await db.delete(oidcPayloads).where(lt(oidcPayloads.expiresAt, sql`now()`));
  // Pending sign-ins and ceremonies past their minutes (answered ones too: spent), and remembered
  // browsers that no longer skip anything (expired, or revoked a day ago).
  await db.delete(loginChallenges).where(lt(loginChallenges.expiresAt, sql`now()`));
  await db.delete(passkeyChallenges).where(lt(passkeyChallenges.expiresAt, sql`now()`));
  await db
    .delete(rememberedBrowsers)
    .where(or(lt(rememberedBrowsers.expiresAt, sql`now()`), lt(rememberedBrowsers.revokedAt, ago('1 day'))));
  await db.delete(deviceReadings).where(lt(deviceReadings.recordedAt, ago('30 days')));
}

/**
 * Work of a module's that housekeeping runs on its own period (removing uploads nothing names):
 * `app.ts` builds these from the modules, `main.ts` starts them with the sweep.
 */
export interface HousekeepingTask {
  name: string;
  everyMs: number;
  run: () => Promise<unknown>;
}

export function startHousekeeping(
  db: Db,
  onError: (err: unknown, task: string) => void,
  everyMs = 60_000,
  tasks: readonly HousekeepingTask[] = [],
): () => void {
  const timers = [{ name: 'sweep', everyMs, run: () => sweep(db) }, ...tasks].map((task) => {
    // A round still running when the next is due is not run twice at once.
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      task
        .run()
        .catch((err: unknown) => onError(err, task.name))
        .finally(() => {
          running = false;
        });
    }, task.everyMs);
    timer.unref();
    return timer;
  });
  return () => timers.forEach((t) => clearInterval(t));
}

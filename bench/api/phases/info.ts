/**
 * Phase 3: signed, authenticated GET infoV2 under load → req/s, p50/p99, and the database
 * statistics before the run.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { signRequest } from '@portal/contracts/node-signing';
import type { Db } from '../../../apps/server/src/db/client.js';
import { cannon, describe } from '../cannon.js';
import type { Portal } from '../client.js';
import { dbSnapshot } from '../db-stats.js';
import { INFO_PATH, log, settings } from '../settings.js';

export async function benchInfo(portal: Portal, token: string, db: Db | null) {
  const url = `${portal.base}${INFO_PATH}`;
  // Signed headers are made ahead, outside the measured time (like the login's captchas): signing
  // in the load generator would take CPU from the server on these same cores. Each set is used once
  // and made moments before the run, well inside the 300 s window of its timestamp.
  const made: Record<string, string>[] = [];
  let used = 0;
  const headersPool = (count: number) => {
    made.length = 0;
    used = 0;
    for (let i = 0; i < count; i++)
      made.push({ ...signRequest(portal.secret, INFO_PATH, null), authorization_front: token });
  };
  const requests = [
    {
      method: 'GET',
      path: INFO_PATH,
      setupRequest: (req: { headers?: Record<string, string> }) => {
        req.headers = made[used++] ?? { ...signRequest(portal.secret, INFO_PATH, null), authorization_front: token };
        return req;
      },
    },
  ];
  const verifyBody = (b: string) => b.startsWith('{"status":200,') && b.includes('"username":"member"');
  if (settings.warmup > 0) {
    headersPool(settings.warmup * 40_000);
    const w = await cannon({ url, connections: settings.connections, duration: settings.warmup, requests, verifyBody });
    if (w.non2xx || w.mismatches) throw new Error(`infoV2 warm-up was refused: ${JSON.stringify(w.statusCodes)}`);
  }
  // PostgreSQL publishes a backend's counters when it goes idle, at most every 10 s: let the
  // set-up and warm-up settle so that they are not counted against the measured requests.
  if (db) {
    log('infoV2: waiting 11 s for PostgreSQL statistics to settle');
    await sleep(11_000);
  }
  headersPool(Math.min(settings.duration, 250) * 40_000);
  const before = db ? await dbSnapshot(db) : null;
  log(`infoV2: ${settings.duration} s × ${settings.connections} connections, fresh nonce + signature per request`);
  const run = await cannon({
    url,
    connections: settings.connections,
    duration: settings.duration,
    requests,
    verifyBody,
  });
  log(`infoV2: ${describe(run)}`);
  return { run, before, endedAt: performance.now() };
}

/**
 * Phase 4: raw argon2id verifies with the server's parameters, in this process → verifies/s (the
 * ceiling for logins).
 */
import { performance } from 'node:perf_hooks';
import { verify as argon2Verify } from '@node-rs/argon2';
import { ARGON2_OPTIONS, hashPassword } from '../../../apps/server/src/platform/passwords.js';
import { round } from '../../common.js';
import { cpuMeter } from '../cpu.js';
import { DEMO_PASSWORD, log, settings } from '../settings.js';

export async function benchArgon2() {
  const hash = await hashPassword(DEMO_PASSWORD);
  if (!(await argon2Verify(hash, DEMO_PASSWORD, ARGON2_OPTIONS))) throw new Error('argon2 verify returned false');
  log(
    `argon2: ${settings.argon2Seconds} s, concurrency ${settings.argon2Concurrency} (${hash.split('$').slice(1, 4).join(' ')})`,
  );
  let count = 0;
  const meter = cpuMeter();
  const started = performance.now();
  const deadline = started + settings.argon2Seconds * 1000;
  await Promise.all(
    Array.from({ length: settings.argon2Concurrency }, async () => {
      while (performance.now() < deadline) {
        if (!(await argon2Verify(hash, DEMO_PASSWORD, ARGON2_OPTIONS))) throw new Error('argon2 verify returned false');
        count++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = meter();
  const perSec = round(count / seconds, 1);
  log(
    `argon2: ${count} verifies in ${round(seconds)} s = ${perSec}/s; CPU (% of machine) bench ${cpu.benchPct}, other processes ${cpu.foreignPct}`,
  );
  return { verifies: count, seconds: round(seconds, 3), perSec, params: hash.split('$').slice(1, 4).join('$'), cpu };
}

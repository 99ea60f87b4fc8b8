/**
 * Phase 5: logins under load, each with a pre-fetched captcha and a fresh RSA ciphertext and signature
 * → logins/s.
 */
import { performance } from 'node:perf_hooks';
import { signRequest } from '@portal/contracts/node-signing';
import { round } from '../../common.js';
import { cannon, describe } from '../cannon.js';
import type { Portal } from '../client.js';
import { DEMO_PASSWORD, LOGIN_PATH, log, settings } from '../settings.js';

export async function benchLogin(portal: Portal, encrypt: (p: string) => string, argon2PerSec: number | null) {
  // Each login spends one captcha; fetch more than the argon2 ceiling can possibly use.
  const ceiling = (argon2PerSec ?? 150) * settings.loginDuration;
  const want = Math.max(200, Math.ceil(ceiling * 1.5) + settings.loginConnections * 4);
  log(`login: pre-fetching ${want} captchas (concurrency ${settings.captchaConcurrency})`);
  const keys: string[] = [];
  const t0 = performance.now();
  let issued = 0;
  await Promise.all(
    Array.from({ length: settings.captchaConcurrency }, async () => {
      while (issued < want) {
        issued++;
        keys.push(await portal.fetchCaptcha());
      }
    }),
  );
  const captchaSeconds = (performance.now() - t0) / 1000;
  const captchaPerSec = round(keys.length / captchaSeconds, 1);
  log(`login: ${keys.length} captchas in ${round(captchaSeconds)} s (${captchaPerSec}/s); they live 120 s`);

  // Each login's body (fresh RSA ciphertext) and signed headers are made ahead, as for infoV2, so
  // that the load generator's own RSA and HMAC work does not compete with the portal for the cores.
  const prepared = keys.map((captchaKey) => {
    const fields = { username: 'member', password: encrypt(DEMO_PASSWORD), imgvercode: '8888', captchaKey };
    return {
      body: JSON.stringify(fields),
      headers: { 'content-type': 'application/json', ...signRequest(portal.secret, LOGIN_PATH, fields) },
    };
  });
  let next = 0;
  let exhausted = 0;
  const requests = [
    {
      method: 'POST',
      path: LOGIN_PATH,
      setupRequest: (req: { headers?: Record<string, string>; body?: string | Buffer }) => {
        const p = prepared[next++];
        if (!p) {
          exhausted++;
          req.body = '{"captchaKey":"exhausted-captcha-pool"}'; // refused by the server: shows up as non-2xx
          return req;
        }
        req.body = p.body;
        req.headers = { ...req.headers, ...p.headers };
        return req;
      },
    },
  ];
  log(
    `login: ${settings.loginDuration} s × ${settings.loginConnections} connections, one captcha + fresh RSA + signature each`,
  );
  // `amount` = the pool, so no request can go out without a captcha; the timer ends the run.
  const run = await cannon(
    {
      url: `${portal.base}${LOGIN_PATH}`,
      connections: settings.loginConnections,
      amount: keys.length,
      requests,
      verifyBody: (b) => b.startsWith('{"status":200,'),
      timeout: 30,
    },
    settings.loginDuration,
  );
  const poolDrained = next >= keys.length;
  log(`login: ${describe(run)}${poolDrained ? ' (captcha pool drained before the time was up)' : ''}`);
  return {
    run,
    loginsPerSec: round(run.ok2xx / run.wallS, 1),
    captchas: keys.length,
    captchasUsed: Math.min(next, keys.length),
    captchaPerSec,
    poolDrained,
    exhausted,
  };
}

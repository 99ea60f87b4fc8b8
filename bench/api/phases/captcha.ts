/**
 * Phase 6: the behavioural captcha, get (slider puzzles, their image sizes) and check.
 */
import { createCipheriv, randomBytes } from 'node:crypto';
import { signRequest } from '@portal/contracts/node-signing';
import type { Db } from '../../../apps/server/src/db/client.js';
import { round } from '../../common.js';
import { cannon, describe } from '../cannon.js';
import type { Portal } from '../client.js';
import { CAPTCHA_CHECK_PATH, CAPTCHA_GET_PATH, log, settings } from '../settings.js';

/**
 * Behavioural captcha: `get` of slider puzzles (image drawing dominates), the size of the images,
 * and `check` of correct slider answers. Check tokens are written straight into the database
 * beforehand (as many as the run can use), so the check run measures checks, not gets.
 */
export async function benchCaptcha(portal: Portal, db: Db) {
  const sizes = { blockPuzzle: [] as number[], clickWord: [] as number[] };
  for (const type of ['blockPuzzle', 'clickWord'] as const) {
    for (let i = 0; i < 20; i++) {
      const res = await fetch(portal.base + CAPTCHA_GET_PATH, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...signRequest(portal.secret, CAPTCHA_GET_PATH, { captchaType: type }),
        },
        body: JSON.stringify({ captchaType: type }),
      });
      const body = (await res.json()) as { repCode: string; repData: { originalImageBase64: string } };
      if (body.repCode !== '0000') throw new Error(`captcha get: ${JSON.stringify(body).slice(0, 200)}`);
      sizes[type].push(Buffer.from(body.repData.originalImageBase64, 'base64').length / 1024);
    }
  }
  const sizeKb = {
    blockPuzzleMean: round(sizes.blockPuzzle.reduce((a, b) => a + b, 0) / sizes.blockPuzzle.length, 1),
    blockPuzzleMax: round(Math.max(...sizes.blockPuzzle), 1),
    clickWordMean: round(sizes.clickWord.reduce((a, b) => a + b, 0) / sizes.clickWord.length, 1),
    clickWordMax: round(Math.max(...sizes.clickWord), 1),
  };
  log(`captcha: image sizes (KB) ${JSON.stringify(sizeKb)}`);

  const getBody = JSON.stringify({ captchaType: 'blockPuzzle' });
  const getHeaders = Array.from({ length: settings.duration * 2_000 }, () => ({
    'content-type': 'application/json',
    ...signRequest(portal.secret, CAPTCHA_GET_PATH, { captchaType: 'blockPuzzle' }),
  }));
  let g = 0;
  log(`captcha get: ${settings.duration} s × 8 connections, slider puzzles`);
  const get = await cannon({
    url: portal.base + CAPTCHA_GET_PATH,
    connections: 8,
    duration: settings.duration,
    requests: [
      {
        method: 'POST',
        path: CAPTCHA_GET_PATH,
        setupRequest: (req: { headers?: Record<string, string>; body?: string | Buffer }) => {
          req.headers = getHeaders[g++] ?? getHeaders[0]!;
          req.body = getBody;
          return req;
        },
      },
    ],
    verifyBody: (b: string) => b.startsWith('{"repCode":"0000"'),
  });
  log(`captcha get: ${describe(get)}`);

  // Tokens for the check run, each with its own key, answered correctly (test mode: x = 150).
  const count = settings.duration * 25_000;
  const tokens = Array.from({ length: count }, () => randomBytes(16).toString('hex'));
  const keys = tokens.map(() => randomBytes(12).toString('base64url').slice(0, 16));
  await db.$client.query(
    `INSERT INTO captcha_challenges (token, type, answer, secret_key, expires_at)
     SELECT t, 'blockPuzzle', '{"x":150,"y":40}'::jsonb, k, now() + interval '10 minutes'
     FROM unnest($1::text[], $2::text[]) AS u(t, k)`,
    [tokens, keys],
  );
  const checks = tokens.map((token, i) => {
    const cipher = createCipheriv('aes-128-ecb', Buffer.from(keys[i]!, 'utf8'), null);
    const pointJson = Buffer.concat([cipher.update('{"x":150,"y":5}', 'utf8'), cipher.final()]).toString('base64');
    const fields = { captchaType: 'blockPuzzle', pointJson, token };
    return {
      body: JSON.stringify(fields),
      headers: {
        'content-type': 'application/json',
        // Many browsers, as in life: limits count per client, and one client's counter is one row.
        'user-agent': `bench-client-${i % 1000}`,
        ...signRequest(portal.secret, CAPTCHA_CHECK_PATH, fields),
      },
    };
  });
  let c = 0;
  log(`captcha check: ${settings.duration} s × ${settings.connections} connections, correct slider answers`);
  const check = await cannon(
    {
      url: portal.base + CAPTCHA_CHECK_PATH,
      connections: settings.connections,
      amount: count,
      requests: [
        {
          method: 'POST',
          path: CAPTCHA_CHECK_PATH,
          setupRequest: (req: { headers?: Record<string, string>; body?: string | Buffer }) => {
            const p = checks[c++]!;
            req.headers = p.headers;
            req.body = p.body;
            return req;
          },
        },
      ],
      verifyBody: (b: string) => b.startsWith('{"repCode":"0000"'),
    },
    settings.duration,
  );
  log(`captcha check: ${describe(check)}`);
  return { sizeKb, get, check };
}

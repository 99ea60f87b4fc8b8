/**
 * The factor step of the sign-in (ADR 051) in real Chromium against the built server: a member
 * with an authenticator signs in with the password, is asked for the code (keyboard only), types a
 * wrong one and then the right one, at desktop and phone widths, in Chinese and English; and a
 * person the policy requires a factor of adds one during the sign-in (QR code, key, first code).
 */
import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { STILL, closeContexts, openPage, sharedBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';

const SHOTS = process.env.FACTOR_SHOTS ?? 'e2e/artifacts';
let server: RunningServer;
let browser: Browser;
let db: pg.Client;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startServer();
  browser = await sharedBrowser();
  db = new pg.Client({ connectionString: server.databaseUrl });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await closeContexts(browser);
  await server?.stop();
});

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const base32 = (buf: Buffer) => {
  let bits = '';
  for (const b of buf) bits += b.toString(2).padStart(8, '0');
  return (bits.match(/.{1,5}/g) ?? []).map((c) => BASE32[parseInt(c.padEnd(5, '0'), 2)]).join('');
};
const unbase32 = (s: string) => {
  const bits = [...s].map((c) => BASE32.indexOf(c).toString(2).padStart(5, '0')).join('');
  return Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => parseInt(b, 2)));
};
/** RFC 6238: what an authenticator app shows for `secret` now (`steps` steps later). */
function totp(secret: string, steps = 0): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000) + steps));
  const mac = createHmac('sha1', unbase32(secret)).update(counter).digest();
  const at = mac[mac.length - 1]! & 0xf;
  return String((mac.readUInt32BE(at) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/** A new member of the demo with a confirmed authenticator (secret encrypted as the server keeps it). */
async function memberWithAuthenticator(): Promise<{ username: string; secret: string }> {
  const username = `e2e${randomBytes(4).toString('hex')}`;
  const secret = base32(randomBytes(20));
  const key = Buffer.from(
    (await db.query<{ value: string }>(`SELECT value FROM server_secrets WHERE name = 'factor_key'`)).rows[0]!.value,
    'base64url',
  );
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  const stored = ['v1', iv, body, cipher.getAuthTag()].map((p) =>
    typeof p === 'string' ? p : p.toString('base64url'),
  );
  await db.query(
    `INSERT INTO users (tenant_id, username, password_hash, name)
     SELECT tenant_id, $1, password_hash, $1 FROM users WHERE username = 'member'`,
    [username],
  );
  await db.query(
    `INSERT INTO user_factors (tenant_id, user_id, kind, name, secret_cipher, confirmed_at)
     SELECT tenant_id, id, 'totp', 'Phone', $2, now() FROM users WHERE username = $1`,
    [username, stored.join('.')],
  );
  return { username, secret };
}

/** Sets the demo's policy and tells the server, as the console's save does (the invalidation bus). */
async function policy(p: Record<string, unknown>) {
  const { rows } = await db.query<{ id: string }>(
    `UPDATE tenants SET security_policy = $1::jsonb WHERE code = 'demo' RETURNING id`,
    [JSON.stringify(p)],
  );
  await db.query(`SELECT pg_notify('portal_invalidate', $1)`, [
    JSON.stringify({ kind: 'tenant', tenant: Number(rows[0]!.id) }),
  ]);
}

/** The password step, by keyboard. */
async function password(page: Page, username: string) {
  await page.goto(`${server.url}/center/login`);
  await page.locator('.login-captcha-image img').waitFor();
  await page.locator('#username').fill(username);
  await page.keyboard.press('Tab');
  await page.keyboard.type('Demo@2026!');
  await page.locator('#imgvercode').fill('8888');
  await page.keyboard.press('Enter');
}

const SIZES = [
  { name: '1440', viewport: { width: 1440, height: 900 } },
  { name: '390', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
] as const;

describe('the factor step', () => {
  for (const lang of ['zh', 'en'] as const) {
    for (const size of SIZES) {
      it(`asks for the authenticator's code and signs in (${lang}, ${size.name} px)`, async () => {
        const { username, secret } = await memberWithAuthenticator();
        const { context, page, errors } = await openPage(browser, { ...STILL, ...size }, lang);
        await password(page, username);
        const code = page.getByLabel(lang === 'zh' ? '动态验证码' : 'Code', { exact: true });
        await code.waitFor();
        await page.screenshot({ path: `${SHOTS}/factor-step-${lang}-${size.name}.png` });
        // Focus is in the code field: type a wrong code, Enter.
        await page.keyboard.type('000000');
        await page.keyboard.press('Enter');
        await page
          .getByText(lang === 'zh' ? '验证码不正确或已使用' : 'The code is wrong or was already used')
          .waitFor();
        await page.screenshot({ path: `${SHOTS}/factor-step-wrong-${lang}-${size.name}.png` });
        await code.fill(totp(secret));
        await page.keyboard.press('Enter');
        await page.waitForURL(/\/center\/index/);
        if (errors.length) throw new Error(errors.join('\n'));
        await context.close();
      });
    }
  }

  it('lets a person the policy requires a factor of add one during the sign-in', async () => {
    const username = `e2e${randomBytes(4).toString('hex')}`;
    await db.query(
      `INSERT INTO users (tenant_id, username, password_hash, name)
       SELECT tenant_id, $1, password_hash, $1 FROM users WHERE username = 'member'`,
      [username],
    );
    await policy({ factorRequirement: 'everyone' });
    try {
      for (const size of SIZES) {
        for (const lang of ['zh', 'en'] as const) {
          const { context, page } = await openPage(browser, { ...STILL, ...size }, lang);
          await password(page, username);
          await page.getByRole('button', { name: lang === 'zh' ? '以后再说' : 'Later' }).waitFor();
          await page.screenshot({ path: `${SHOTS}/factor-enrol-ask-${lang}-${size.name}.png` });
          await context.close();
        }
      }
      const { context, page } = await openPage(browser, { ...STILL, viewport: { width: 1440, height: 900 } });
      await password(page, username);
      await page.getByRole('button', { name: '添加身份验证器' }).click();
      const key = page.getByLabel('手动输入的密钥');
      await key.waitFor();
      await page.screenshot({ path: `${SHOTS}/factor-enrol-qr-zh-1440.png` });
      const secret = (await key.textContent())!.replace(/\s/g, '');
      await page.getByLabel('动态验证码', { exact: true }).fill(totp(secret));
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/center\/index/);
      await context.close();
    } finally {
      await policy({});
    }
  });
});

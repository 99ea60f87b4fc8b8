/**
 * The factor step of the sign-in (ADR 051) in real Chromium against the built server: a member
 * with an authenticator signs in with the password, is asked for the code (keyboard only), types a
 * wrong one and then the right one, at desktop and phone widths, in Chinese and English; and a
 * person the policy requires a factor of adds one during the sign-in (QR code, key, first code,
 * then the recovery codes shown once); a person with a verified mobile answers with an SMS code;
 * and the console's step-up dialog offers the SMS code.
 */
import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { STILL, closeContexts, openPage, sharedBrowser } from './support/browser.js';
import { go, signInAsOperator } from './support/shell.js';
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
      // The recovery codes of the new authenticator, shown once before the sign-in goes on.
      const codes = page.getByLabel('保存你的恢复码').locator('pre');
      await codes.waitFor();
      if ((await codes.textContent())!.trim().split('\n').length !== 10) throw new Error('not ten recovery codes');
      await page.screenshot({ path: `${SHOTS}/factor-enrol-codes-zh-1440.png` });
      await page.getByRole('button', { name: '我已保存，继续登录' }).click();
      await page.waitForURL(/\/center\/index/);
      await context.close();
    } finally {
      await policy({});
    }
  });

  it('signs in with an SMS code sent to the verified mobile', async () => {
    await policy({ factorRequirement: 'everyone', allowedFactors: ['totp', 'webauthn', 'sms', 'recovery'] });
    try {
      let n = 0;
      for (const lang of ['zh', 'en'] as const) {
        for (const size of SIZES) {
          const username = `e2e${randomBytes(4).toString('hex')}`;
          const mobile = `1380013${String(1000 + n++).slice(-4)}`;
          await db.query(
            `INSERT INTO users (tenant_id, username, password_hash, name, mobile, verified_mobile)
             SELECT tenant_id, $1, password_hash, $1, $2, $2 FROM users WHERE username = 'member'`,
            [username, mobile],
          );
          const { context, page, errors } = await openPage(browser, { ...STILL, ...size }, lang);
          await password(page, username);
          const send = page.getByRole('button', { name: lang === 'zh' ? '发送验证码' : 'Send code' });
          await send.waitFor();
          await page.getByText(`138****${mobile.slice(-4)}`).waitFor();
          await page.screenshot({ path: `${SHOTS}/factor-sms-${lang}-${size.name}.png` });
          // Keyboard: from the code field, Tab reaches the button.
          await page.keyboard.press('Tab');
          await page.keyboard.press('Enter');
          await page.getByRole('button', { name: lang === 'zh' ? /秒后重新发送/ : /Send again in/ }).waitFor();
          await page.screenshot({ path: `${SHOTS}/factor-sms-sent-${lang}-${size.name}.png` });
          const { rows } = await db.query<{ body: string }>(
            `SELECT body FROM sms_outbox WHERE phone = $1 ORDER BY id DESC LIMIT 1`,
            [mobile],
          );
          const code = /验证码是(\d{6})/.exec(rows[0]!.body)![1]!;
          // Sent: the focus is back in the code field.
          await page.keyboard.type(code);
          await page.keyboard.press('Enter');
          await page.waitForURL(/\/center\/index/);
          if (errors.length) throw new Error(errors.join('\n'));
          await context.close();
        }
      }
    } finally {
      await policy({});
    }
  });

  it("offers the SMS code in the console's step-up dialog", async () => {
    await policy({ factorRequirement: 'optional', allowedFactors: ['totp', 'webauthn', 'sms', 'recovery'] });
    // The demo admin's own mobile, verified (the installation's word).
    const mobile = '13800000001';
    try {
      for (const lang of ['zh', 'en'] as const) {
        for (const size of SIZES) {
          const { context, page } = await openPage(browser, { ...STILL, ...size }, lang);
          await signInAsOperator(page, server.url);
          // The sign-in's proof is past the step-up minutes.
          await db.query(`UPDATE sessions SET factor_at = now() - interval '1 hour' WHERE factor_at IS NOT NULL`);
          await db.query(`UPDATE sso_sessions SET factor_at = now() - interval '1 hour' WHERE factor_at IS NOT NULL`);
          // A sensitive action: disabling a user (the confirmation, then 40309 and the dialog).
          await db.query(`UPDATE users SET disabled_at = NULL WHERE username = 'member'`);
          await go(page, '/system/users');
          await page
            .getByRole('button', { name: lang === 'zh' ? 'member 的更多操作' : 'More actions for member' })
            .click();
          await page.getByRole('menuitem', { name: lang === 'zh' ? '停用' : 'Disable' }).click();
          await page
            .getByRole('dialog')
            .getByRole('button', { name: lang === 'zh' ? /停\s?用/ : 'Disable' })
            .click();
          const dialog = page.getByRole('dialog', { name: lang === 'zh' ? '请再次验证身份' : 'Confirm it is you' });
          await dialog.getByText(`138****${mobile.slice(-4)}`).waitFor();
          await page.screenshot({ path: `${SHOTS}/step-up-sms-${lang}-${size.name}.png` });
          if (lang === 'zh' && size.name === '1440') {
            await dialog.getByRole('button', { name: '发送验证码' }).click();
            await dialog.getByRole('button', { name: /秒后重新发送/ }).waitFor();
            const { rows } = await db.query<{ body: string }>(
              `SELECT body FROM sms_outbox WHERE phone = $1 ORDER BY id DESC LIMIT 1`,
              [mobile],
            );
            await dialog.getByLabel('短信验证码').fill(/验证码是(\d{6})/.exec(rows[0]!.body)![1]!);
            await dialog.getByRole('button', { name: /验\s?证/ }).click();
            await dialog.waitFor({ state: 'hidden' });
          }
          await context.close();
        }
      }
    } finally {
      await db.query(`UPDATE users SET disabled_at = NULL WHERE username = 'member'`);
      await policy({});
    }
  });
});

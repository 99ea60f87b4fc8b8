/**
 * What a tenant operator may write into texts others read (ADR 036): every text of the tenant's
 * settings has a length and a character rule, refused with 400 and a message that says the rule;
 * the SMS the platform sends carries the installation's signature, never a tenant's words; the
 * installation's own names (SITE_NAME, PORTAL_RUNTIME_CONFIG, SMS_SIGNATURE) are held to the same
 * rule at start; and a value stored before the rule existed is never served.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../platform/config.js';
import { createTestContext, type TestContext } from '../../test/harness.js';

let ctx: TestContext;
let operator: string;

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_RATE_PER_MINUTE: '100000', SMS_SIGNATURE: '星河门户' });
  operator = await ctx.asRole(await ctx.login('admin'), 'park_operator');
});
afterAll(async () => ctx?.close());

const putSettings = (body: Record<string, unknown>, lang = '') =>
  ctx.call({ method: 'PUT', url: `/api/admin/settings${lang}`, body, token: operator });
const answer = (res: { json(): unknown }) => res.json() as { status: number; message: string };

/** Sends a registration code to `phone` and answers the text that went out. */
async function smsTo(phone: string, c = ctx): Promise<string> {
  const number = randomBytes(8).toString('hex');
  await c.call({ url: `/api/front/account/auth/kaptcha?number=${number}` });
  const res = await c.call({
    url: '/api/front/member/sendPhoneCode',
    body: { phone, type: 2, imageCode: '8888', number },
  });
  expect(res.statusCode, res.body).toBe(200);
  const { rows } = await c.db.execute<{ body: string }>(
    sql`SELECT body FROM sms_outbox WHERE phone = ${phone} ORDER BY id DESC LIMIT 1`,
  );
  return rows[0]!.body;
}

describe("a tenant's settings texts", () => {
  it('refuses a 5,000-character site name with 400 and a message naming the limit', async () => {
    const res = await putSettings({ siteName: '长'.repeat(5000) });
    expect(res.statusCode).toBe(400);
    expect(answer(res).message).toContain('siteName 最多 60 个字符');
    const stored = await ctx.db.execute(sql`SELECT settings FROM tenants WHERE code = 'demo'`);
    expect(JSON.stringify(stored.rows[0])).not.toContain('长长长');
  });

  it('refuses a site name that carries a link or a domain name, saying so in either language', async () => {
    for (const siteName of [
      '园区https://evil.example/verify',
      'https://evil.example/',
      '园区 evil.example',
      'www.evil.cn',
      '园区 evil。example',
      'evil\u3002example',
      '园区 192.168.1.10',
      '客服 a@evil.example',
    ]) {
      const res = await putSettings({ siteName });
      expect(res.statusCode, siteName).toBe(400);
      expect(answer(res).message, siteName).toMatch(/^请求参数不正确：siteName 只能包含.*不能包含网址或域名$/);
    }
    const en = await putSettings({ siteNameEn: 'Park https://evil.example' }, '?language=eng');
    expect(en.statusCode).toBe(400);
    expect(answer(en).message).toMatch(/siteNameEn .*no link or domain name/);
  });

  it('refuses control, format and separator characters, and spaces at the ends', async () => {
    for (const siteName of ['园区\u202e', '园\u200b区', '园\u2028区', '园\r\n区', ' 园区', '园区 ', '园  区', '']) {
      const res = await putSettings({ siteName });
      expect(res.statusCode, JSON.stringify(siteName)).toBe(400);
    }
  });

  it('gives every other text a length and a character rule', async () => {
    for (const body of [
      { theme: '<script>' },
      { apptheme: 'a'.repeat(33) },
      { registerTheme: 'card split' },
      { domianURL: `https://park.example.com/${'a'.repeat(1100)}` },
      { domianURL: 'https://park.example.com/"onmouseover="x' },
      { domianURL: 'javascript:alert(1)' },
      { logo: 'https://elsewhere.example.com/logo.png' },
      { logo: '/cas/logout' },
    ]) {
      const res = await putSettings(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(answer(res).message).toMatch(/^请求参数不正确：/);
    }
  });

  it('takes a name in any script with the usual marks', async () => {
    for (const siteName of ['星河园区', 'Star River Park (North)', '张江·高科 A&B 园区', 'Co., Ltd.']) {
      const res = await putSettings({ siteName, siteNameEn: '', theme: 'top', domianURL: 'https://park.example.com/' });
      expect(answer(res).status, `${siteName}: ${res.body}`).toBe(200);
    }
    await putSettings({});
  });
});

describe('the SMS text', () => {
  it("carries the installation's signature, never the tenant's site name", async () => {
    expect(answer(await putSettings({ siteName: '东湖科创园' })).status).toBe(200);
    const text = await smsTo('13912346001');
    expect(text).toMatch(/^【星河门户】您的验证码是\d{6}，5分钟内有效。/);
    expect(text).not.toContain('东湖科创园');
    await putSettings({});
  });

  it('carries no tenant-written link even when one was stored before the rule', async () => {
    // As a row written by an earlier version, or by hand; read by an instance that starts after it.
    const link = '园区https://evil.example/verify';
    await ctx.db.execute(sql`UPDATE tenants SET settings = ${JSON.stringify({ siteName: link })}::jsonb
      WHERE code = 'demo'`);
    const fresh = await createTestContext({ SMS_SIGNATURE: '星河门户' }, { databaseUrl: ctx.url });
    try {
      const text = await smsTo('13912346002', fresh);
      expect(text).not.toMatch(/https?:|evil/);
      expect(text.startsWith('【星河门户】')).toBe(true);
      // Nor is it served to the tenant's pages: the park's own name applies.
      const config = await fresh.app.inject({ url: '/center/config.js?tc=demo' });
      expect(config.body).not.toContain('evil.example');
      expect(config.body).toContain('"siteName":"演示园区"');
    } finally {
      await fresh.close();
      await ctx.db.execute(sql`UPDATE tenants SET settings = '{}'::jsonb WHERE code = 'demo'`);
    }
  });
});

describe("the installation's names at start", () => {
  const refused = (env: Record<string, string>): string => {
    try {
      loadConfig(env);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as Error).message;
    }
    throw new Error(`started with ${JSON.stringify(env)}`);
  };

  it('holds SITE_NAME, SITE_NAME_EN and PORTAL_RUNTIME_CONFIG to the settings rule', () => {
    expect(refused({ SITE_NAME: '园区https://evil.example/verify' })).toMatch(
      /^SITE_NAME must be a name of at most 60/,
    );
    expect(refused({ SITE_NAME: '长'.repeat(5000) })).toMatch(/^SITE_NAME must be/);
    expect(refused({ SITE_NAME_EN: 'Park\u202e' })).toMatch(/^SITE_NAME_EN must be empty, or a name/);
    expect(refused({ PORTAL_RUNTIME_CONFIG: JSON.stringify({ siteName: 'x'.repeat(61) }) })).toMatch(
      /^PORTAL_RUNTIME_CONFIG.siteName must be a name of at most 60/,
    );
    expect(refused({ PORTAL_RUNTIME_CONFIG: JSON.stringify({ theme: '<b>' }) })).toMatch(
      /^PORTAL_RUNTIME_CONFIG.theme must be a word/,
    );
  });

  it('takes the SMS signature from SMS_SIGNATURE, else the site name, and holds it to a short name', () => {
    expect(loadConfig({}).sms.signature).toBe('企业服务门户');
    expect(loadConfig({ SITE_NAME: '星河园区' }).sms.signature).toBe('星河园区');
    expect(loadConfig({ PORTAL_RUNTIME_CONFIG: JSON.stringify({ siteName: '东湖园区' }) }).sms.signature).toBe(
      '东湖园区',
    );
    expect(loadConfig({ SMS_SIGNATURE: '星河' }).sms.signature).toBe('星河');
    expect(refused({ SMS_SIGNATURE: 'evil.example' })).toMatch(/^SMS_SIGNATURE must be a name of 2 to 20 characters/);
    expect(refused({ SMS_SIGNATURE: '园' })).toMatch(/^SMS_SIGNATURE must be/);
    // A site name too long to sign with needs a signature of its own, and says which variable to set.
    expect(refused({ SITE_NAME: 'Star River Science Park Enterprise Portal' })).toMatch(
      /^SMS_SIGNATURE must be set: the site name .* is not a short name/,
    );
  });
});

/** sendPhoneCode over HTTP: number, captcha, tenant and type checks in order, both verbs, messages. */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.js';

const PATH = '/api/front/member/sendPhoneCode';
let ctx: TestContext;

/** A registration captcha of its own (test mode: the answer is 8888). */
async function captcha(): Promise<string> {
  const number = randomBytes(8).toString('hex');
  const res = await ctx.call({ url: `/api/front/account/auth/kaptcha?number=${number}` });
  expect(res.statusCode).toBe(200);
  return number;
}

async function outbox(phone: string): Promise<string[]> {
  const res = await ctx.db.execute<{ body: string }>(
    sql`SELECT body FROM sms_outbox WHERE phone = ${phone} ORDER BY id`,
  );
  return res.rows.map((r) => r.body);
}

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

describe('sendPhoneCode', () => {
  it('sends a code by POST after a valid captcha, then asks to wait (in the request language)', async () => {
    const phone = '13912340001';
    const res = await ctx.call({ url: PATH, body: { phone, type: 2, imageCode: '8888', number: await captcha() } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 200, data: null });
    const sent = await outbox(phone);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^【企业服务门户】您的验证码是\d{6}，5分钟内有效。/);

    const again = await ctx.call({
      url: `${PATH}?language=eng`,
      body: { phone, type: 2, imageCode: '8888', number: await captcha() },
    });
    expect(again.statusCode).toBe(429);
    expect(again.json().message).toMatch(/^A code was just sent; try again in \d+ s$/);
    expect(await outbox(phone)).toHaveLength(1);
  });

  it('answers the GET form of the same request', async () => {
    const phone = '13912340002';
    const number = await captcha();
    const res = await ctx.call({ url: `${PATH}?phone=${phone}&type=2&imageCode=8888&number=${number}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(await outbox(phone)).toHaveLength(1);
  });

  it('refuses a wrong number before spending the captcha, then a wrong or spent captcha', async () => {
    const number = await captcha();
    const bad = await ctx.call({ url: PATH, body: { phone: '12345', type: 2, imageCode: '8888', number } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('请输入正确手机号');
    // The captcha was not spent by the refused number.
    const good = await ctx.call({ url: PATH, body: { phone: '13912340003', type: 2, imageCode: '8888', number } });
    expect(good.statusCode, good.body).toBe(200);
    // Spent now: the same captcha again is refused, as is a wrong answer.
    const reused = await ctx.call({ url: PATH, body: { phone: '13912340004', type: 2, imageCode: '8888', number } });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().message).toBe('验证码错误或已失效，请重新验证');
    const wrong = await ctx.call({
      url: PATH,
      body: { phone: '13912340004', type: 2, imageCode: '0000', number: await captcha() },
    });
    expect(wrong.statusCode).toBe(400);
    expect(await outbox('13912340004')).toHaveLength(0);
  });

  it('refuses an unknown tenant and any purpose but registration (reset codes come from the reset flow)', async () => {
    const tenant = await ctx.call({
      url: PATH,
      body: { phone: '13912340005', type: 2, imageCode: '8888', number: await captcha(), tenantCode: 'nope' },
    });
    expect(tenant.statusCode).toBe(400);
    expect(tenant.json().message).toBe('租户不存在');
    for (const type of [3, 4]) {
      const purpose = await ctx.call({
        url: PATH,
        body: { phone: '13912340005', type, imageCode: '8888', number: await captcha() },
      });
      expect(purpose.statusCode).toBe(400);
    }
    expect(await outbox('13912340005')).toHaveLength(0);
  });
});

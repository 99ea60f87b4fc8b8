/**
 * Forgot password and change password over HTTP: the round trip, no account enumeration, one use
 * per grant, the docs/product/validation.md#registration rule, and the user's other sessions ended.
 */
import { randomBytes } from 'node:crypto';
import { signRequest } from '@portal/contracts/node-signing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, DEMO_PASSWORD, type TestContext } from '../../test/harness.js';

let ctx: TestContext;
const NEW_PASSWORD = 'Kp7$wq2Zr';

async function captcha(): Promise<string> {
  const number = randomBytes(8).toString('hex');
  expect((await ctx.call({ url: `/api/front/account/auth/kaptcha?number=${number}` })).statusCode).toBe(200);
  return number;
}

async function outbox(phone: string): Promise<string[]> {
  const res = await ctx.db.execute<{ body: string }>(
    sql`SELECT body FROM sms_outbox WHERE phone = ${phone} ORDER BY id`,
  );
  return res.rows.map((r) => r.body);
}

/** The code sent after the answer (the lookup runs after it), as the phone would show it. */
async function waitForCode(phone: string, before: number): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const sent = await outbox(phone);
    if (sent.length > before) return /验证码是(\d{6})/.exec(sent.at(-1)!)![1]!;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('no code sent');
}

async function requestCode(username: string, mobile: string) {
  return ctx.call({
    url: '/api/front/account/reset/code',
    body: { tenantCode: 'demo', username, mobile, imageCode: '8888', number: await captcha() },
  });
}

async function newUser(username: string, mobile: string): Promise<void> {
  await ctx.db.execute(sql`
    INSERT INTO users (tenant_id, username, password_hash, name, mobile)
    SELECT tenant_id, ${username}, password_hash, ${username}, ${mobile} FROM users WHERE username = 'member'`);
}

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

describe('forgot password', () => {
  it('resets with the code sent to the account’s own number and ends every session', async () => {
    await newUser('forgetful', '13612340001');
    const token = await ctx.login('forgetful');
    const res = await requestCode('forgetful', '13612340001');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('若账号与手机号匹配，验证码已发送至该手机');
    const code = await waitForCode('13612340001', 0);

    const verify = await ctx.call({
      url: '/api/front/account/reset/verify',
      body: { tenantCode: 'demo', username: 'forgetful', mobile: '13612340001', smsCode: code },
    });
    expect(verify.statusCode, verify.body).toBe(200);
    const { resetToken } = verify.json().data as { resetToken: string };

    const weak = await ctx.call({
      url: '/api/front/account/reset/finish',
      body: { resetToken, password: ctx.encrypt('forgetful#A1') },
    });
    expect(weak.json().message).toMatch(/^密码/);
    const finish = await ctx.call({
      url: '/api/front/account/reset/finish',
      body: { resetToken, password: ctx.encrypt(NEW_PASSWORD) },
    });
    expect(finish.statusCode, finish.body).toBe(200);
    expect(finish.json().message).toBe('密码已修改，请重新登录');
    const again = await ctx.call({
      url: '/api/front/account/reset/finish?language=eng',
      body: { resetToken, password: ctx.encrypt('Other#Pw9x') },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('This reset has expired; please verify your mobile number again');

    expect((await ctx.call({ url: '/api/front/member/front/infoV2', token })).statusCode).toBe(401);
    await expect(ctx.login('forgetful', DEMO_PASSWORD)).rejects.toThrow();
    await expect(ctx.login('forgetful', NEW_PASSWORD)).resolves.toMatch(/^ey/);
  });

  it('answers a pair that is no account exactly like one that is, and sends nothing', async () => {
    const cases = [
      ['nobody-here', '13612340002'],
      ['member', '13612340003'],
    ];
    for (const [username, mobile] of cases) {
      const res = await requestCode(username!, mobile!);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 200, message: '若账号与手机号匹配，验证码已发送至该手机', data: null });
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(await outbox('13612340002')).toEqual([]);
    expect(await outbox('13612340003')).toEqual([]);
    const verify = await ctx.call({
      url: '/api/front/account/reset/verify',
      body: { tenantCode: 'demo', username: 'nobody-here', mobile: '13612340002', smsCode: '123456' },
    });
    expect(verify.statusCode).toBe(400);
    expect(verify.json().message).toBe('短信验证码错误或已失效，请重新获取');
  });

  it('refuses the code for another account, a wrong number and a missing captcha', async () => {
    await newUser('twin', '13612340004');
    const res = await requestCode('twin', '13612340004');
    expect(res.statusCode).toBe(200);
    const code = await waitForCode('13612340004', 0);
    const other = await ctx.call({
      url: '/api/front/account/reset/verify',
      body: { tenantCode: 'demo', username: 'member', mobile: '13612340004', smsCode: code },
    });
    expect(other.statusCode).toBe(400);
    const phone = await requestCode('twin', '123');
    expect(phone.json().message).toBe('请输入正确手机号');
    const human = await ctx.call({
      url: '/api/front/account/reset/code',
      body: { tenantCode: 'demo', username: 'twin', mobile: '13612340004', imageCode: '0000', number: await captcha() },
    });
    expect(human.json().message).toBe('验证码错误或已失效，请重新验证');
  });
});

describe('reset abuse', () => {
  it('limits code tries per address, so nobody can burn through someone else’s code', async () => {
    const url = '/api/front/account/reset/verify';
    const body = { tenantCode: 'demo', username: 'member', mobile: '13800000002', smsCode: '000000' };
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await ctx.app.inject({
        method: 'POST',
        url,
        payload: body,
        remoteAddress: '10.8.8.8',
        headers: signRequest(ctx.secrets.signSecret, url, body),
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 30).every((s) => s === 400)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});

describe('change password', () => {
  async function loginCaptcha(): Promise<string> {
    const key = randomBytes(8).toString('hex');
    await ctx.call({ url: `/api/auth/kaptcha/get?type=LOGIN&data=${key}` });
    return key;
  }

  it('with the old password (no session): one refusal for a wrong password and an unknown user', async () => {
    await newUser('changer', '13612340005');
    const token = await ctx.login('changer');
    const call = async (username: string, oldPwd: string, captchaKey?: string) =>
      ctx.call({
        url: '/api/front/account/auth/changePassword',
        body: {
          tenantCode: 'demo',
          username,
          oldPwd: ctx.encrypt(oldPwd),
          newPwd: ctx.encrypt(NEW_PASSWORD),
          imgvercode: '8888',
          captchaKey: captchaKey ?? (await loginCaptcha()),
        },
      });
    // A refused new password is refused before the old one is looked at: the captcha stays unspent.
    const key = await loginCaptcha();
    const weak = await ctx.call({
      url: '/api/front/account/auth/changePassword',
      body: {
        username: 'changer',
        oldPwd: ctx.encrypt(DEMO_PASSWORD),
        newPwd: ctx.encrypt('weak'),
        imgvercode: '8888',
        captchaKey: key,
      },
    });
    expect(weak.json().message).toBe('密码长度至少8位');
    const wrong = await call('changer', 'Wrong#Pw9x');
    const unknown = await call('nobody-here', DEMO_PASSWORD);
    expect(wrong.statusCode).toBe(400);
    expect(unknown.json()).toEqual(wrong.json());
    // The captcha the refused new password came with was not spent: it proves this change.
    const ok = await call('changer', DEMO_PASSWORD, key);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await ctx.call({ url: '/api/front/member/front/infoV2', token })).statusCode).toBe(401);
    await expect(ctx.login('changer', NEW_PASSWORD)).resolves.toMatch(/^ey/);
  });

  it('signed in (updatePassword): the old password checked, other sessions end, this one stays', async () => {
    await newUser('dialog', '13612340006');
    const here = await ctx.login('dialog');
    const elsewhere = await ctx.login('dialog');
    const call = (oldPwd: string, newPwd: string) =>
      ctx.call({
        url: '/api/front/account/auth/updatePassword',
        token: here,
        body: { oldPwd: ctx.encrypt(oldPwd), newPwd: ctx.encrypt(newPwd) },
      });
    expect((await call('Wrong#Pw9x', NEW_PASSWORD)).json().message).toBe('原密码错误');
    expect((await call(DEMO_PASSWORD, 'short')).json().message).toBe('密码长度至少8位');
    const ok = await call(DEMO_PASSWORD, NEW_PASSWORD);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await ctx.call({ url: '/api/front/member/front/infoV2', token: here })).statusCode).toBe(200);
    expect((await ctx.call({ url: '/api/front/member/front/infoV2', token: elsewhere })).statusCode).toBe(401);
    const noSession = await ctx.call({
      url: '/api/front/account/auth/updatePassword',
      body: { oldPwd: ctx.encrypt(NEW_PASSWORD), newPwd: ctx.encrypt(DEMO_PASSWORD) },
    });
    expect(noSession.statusCode).toBe(401);
  });

  it("signed in: wrong old passwords count towards the login's lockout", async () => {
    await newUser('guesser', '13612340007');
    const token = await ctx.login('guesser');
    const call = (oldPwd: string) =>
      ctx.call({
        url: '/api/front/account/auth/updatePassword',
        token,
        body: { oldPwd: ctx.encrypt(oldPwd), newPwd: ctx.encrypt(NEW_PASSWORD) },
      });
    for (let i = 0; i < 5; i++) expect((await call(`Wrong#Pw${i}x`)).json().message).toBe('原密码错误');
    // Locked now: the right password changes nothing here, and the login is refused as well.
    const locked = await call(DEMO_PASSWORD);
    expect(locked.json()).toMatchObject({ status: 400, message: '密码错误次数过多，请稍后再试' });
    await expect(ctx.login('guesser')).rejects.toThrow(/login failed/);
    const audit = await ctx.db.execute<{ action: string }>(
      sql`SELECT action FROM audit_log a JOIN users u ON u.id = a.user_id
          WHERE u.username = 'guesser' AND a.action LIKE 'password.%' ORDER BY a.id`,
    );
    expect(audit.rows.map((r) => r.action)).toEqual([
      ...Array<string>(5).fill('password.confirm_failed'),
      'password.locked',
    ]);
  });
});

describe('proving one’s own mobile number (验证手机号)', () => {
  const MOBILE = '/api/front/account/mobile';
  const codeOf = async (phone: string) => /验证码是(\d{6})/.exec((await outbox(phone)).at(-1)!)![1]!;
  const answer = (res: { json(): unknown }) => res.json() as { status: number; message: string; data: unknown };

  it('sends a code to the account’s own number only, and the right code proves it (audited)', async () => {
    await newUser('prover', '13612340101');
    const token = await ctx.login('prover');
    expect(answer(await ctx.call({ url: MOBILE, token })).data).toEqual({ mobile: '136****0101', verified: false });
    // A number in the body is not where the code goes: the account's own number is.
    const sent = await ctx.call({ url: `${MOBILE}/code`, token, body: { phone: '13612340199' } });
    expect(answer(sent)).toMatchObject({ status: 200, message: '验证码已发送至 136****0101' });
    expect(await outbox('13612340199')).toEqual([]);
    const again = await ctx.call({ url: `${MOBILE}/code`, token, body: {} });
    expect(answer(again).status).toBe(429);

    const code = await codeOf('13612340101');
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const refused = await ctx.call({ url: `${MOBILE}/verify?language=eng`, token, body: { smsCode: wrong } });
    expect(answer(refused)).toMatchObject({
      status: 400,
      message: 'The text message code is wrong or has expired; please get a new one',
    });
    const proved = await ctx.call({ url: `${MOBILE}/verify`, token, body: { smsCode: code } });
    expect(answer(proved).status, proved.body).toBe(200);
    expect(answer(await ctx.call({ url: MOBILE, token })).data).toEqual({ mobile: '136****0101', verified: true });
    const audit = await ctx.db.execute(sql`
      SELECT 1 FROM audit_log a JOIN users u ON u.id = a.user_id
      WHERE a.action = 'mobile.verified' AND u.username = 'prover'`);
    expect(audit.rows).toHaveLength(1);
    // Proven once: nothing more is sent.
    expect(answer(await ctx.call({ url: `${MOBILE}/code`, token, body: {} }))).toMatchObject({
      status: 400,
      message: '手机号已验证',
    });
  });

  it('proves nothing when the number changed after the code was sent, or when there is none', async () => {
    await newUser('moved', '13612340102');
    const token = await ctx.login('moved');
    expect(answer(await ctx.call({ url: `${MOBILE}/code`, token, body: {} })).status).toBe(200);
    const code = await codeOf('13612340102');
    await ctx.db.execute(sql`UPDATE users SET mobile = '13612340103' WHERE username = 'moved'`);
    const late = await ctx.call({ url: `${MOBILE}/verify`, token, body: { smsCode: code } });
    expect(answer(late).status).toBe(400);
    expect(answer(await ctx.call({ url: MOBILE, token })).data).toEqual({ mobile: '136****0103', verified: false });

    await ctx.db.execute(sql`UPDATE users SET mobile = NULL WHERE username = 'moved'`);
    expect(answer(await ctx.call({ url: MOBILE, token })).data).toEqual({ mobile: null, verified: false });
    const none = await ctx.call({ url: `${MOBILE}/code?language=eng`, token, body: {} });
    expect(answer(none)).toMatchObject({
      status: 400,
      message: 'Your account has no mobile number; ask an administrator',
    });
    expect((await ctx.call({ url: MOBILE })).statusCode).toBe(401);
  });
});

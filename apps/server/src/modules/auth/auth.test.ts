import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, DEMO_PASSWORD, type TestContext } from '../../test/harness.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

const key = () => randomBytes(8).toString('hex');

async function attempt(username: string, password: string, answer = '8888', captchaKey = key(), fetch = true) {
  if (fetch) await ctx.call({ url: `/api/auth/kaptcha/get?type=LOGIN&data=${captchaKey}` });
  return ctx.call({
    url: '/api/auth/jwt/front/token?tenantCode=demo',
    body: { username, password: ctx.encrypt(password), imgvercode: answer, captchaKey },
  });
}

describe('password transport', () => {
  it('publishes an RSA public key with a key id', async () => {
    const res = await ctx.call({ url: '/api/front/account/auth/publicKey' });
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(data.keyId).toMatch(/^[0-9a-f]{16}$/);
  });

  it('refuses a password that is not OAEP ciphertext under our key', async () => {
    const captchaKey = key();
    await ctx.call({ url: `/api/auth/kaptcha/get?type=LOGIN&data=${captchaKey}` });
    const res = await ctx.call({
      url: '/api/auth/jwt/front/token',
      body: {
        username: 'member',
        password: Buffer.from('x'.repeat(256)).toString('base64'),
        imgvercode: '8888',
        captchaKey,
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('密码加密数据无效，请刷新页面后重试');
  });
});

describe('image captcha', () => {
  it('returns a PNG bound to the client id', async () => {
    const res = await ctx.call({ url: `/api/auth/kaptcha/get?type=LOGIN&data=${key()}` });
    const { data } = res.json();
    expect(data.image).toMatch(/^data:image\/png;base64,/);
    const png = Buffer.from(data.image.split(',')[1], 'base64');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
  });

  it('rejects a missing or malformed client id in the request language', async () => {
    const zh = await ctx.call({ url: '/api/auth/kaptcha/get?type=LOGIN' });
    expect(zh.statusCode).toBe(400);
    expect(zh.json().message).toBe('请求参数不正确：缺少必填字段 data');
    const en = await ctx.call({ url: '/api/auth/kaptcha/get?type=LOGIN&data=<script>&language=eng' });
    expect(en.statusCode).toBe(400);
    expect(en.json().message).toMatch(/^Invalid request: data/);
  });

  it('is spent by one attempt, right or wrong', async () => {
    const captchaKey = key();
    const first = await attempt('member', 'wrong-Password1!', '8888', captchaKey);
    expect(first.json().status).toBe(40002);
    const second = await attempt('member', DEMO_PASSWORD, '8888', captchaKey, false);
    expect(second.json().status).toBe(40002);
  });

  it('expires', async () => {
    const captchaKey = key();
    await ctx.call({ url: `/api/auth/kaptcha/get?type=LOGIN&data=${captchaKey}` });
    await ctx.db.execute(
      sql`UPDATE image_captchas SET expires_at = now() - interval '1 second' WHERE client_id = ${`login:${captchaKey}`}`,
    );
    const res = await attempt('member', DEMO_PASSWORD, '8888', captchaKey, false);
    expect(res.json().status).toBe(40002);
  });

  it('is the only proof while the behavioural captcha is off: a verification does not replace it', async () => {
    const body = { username: 'member', password: ctx.encrypt(DEMO_PASSWORD) };
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'imgvercode'],
      [{ imgvercode: '8888' }, 'captchaKey'],
      [{ captchaVerification: 'token---{"x":150,"y":5}' }, 'imgvercode'],
    ];
    for (const [proof, missing] of cases) {
      const res = await ctx.call({ url: '/api/auth/jwt/front/token', body: { ...body, ...proof } });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(`请求参数不正确：缺少必填字段 ${missing}`);
    }
  });
});

describe('login', () => {
  it('signs in, serves user info and the role menu, and logs out for good', async () => {
    const token = await ctx.login('member');
    const info = await ctx.call({ url: '/api/front/member/front/infoV2', token });
    expect(info.statusCode).toBe(200);
    expect(info.json().data).toMatchObject({
      username: 'member',
      name: '张敏',
      tenantCode: 'demo',
      groupName: '星河科技有限公司',
      homeUri: '/index',
    });

    const perm = await ctx.call({ url: '/api/front/member/front/allPermissionV2', token });
    const { data } = perm.json();
    expect(data.auth.map((p: { action: string }) => p.action)).toEqual(['messageIndex']);
    expect(data.allAuth.map((p: { action: string }) => p.action)).toContain('colist');
    const depth = (items: Array<{ children?: unknown[] }>): number =>
      items.length === 0 ? 0 : 1 + Math.max(...items.map((i) => depth((i.children ?? []) as never)));
    expect(depth(data.menu)).toBe(4);
    // The member role does not see the admin-only entry.
    expect(JSON.stringify(data.menu)).not.toContain('entMemberInvite');

    const out = await ctx.call({ url: '/api/auth/jwt/logout', method: 'POST', token });
    expect(out.json().status).toBe(200);
    const after = await ctx.call({ url: '/api/front/member/front/infoV2', token });
    expect(after.statusCode).toBe(401);
    expect(after.json().status).toBe(401);
  });

  it('gives one message for a wrong user, a wrong password and a wrong captcha', async () => {
    const a = await attempt('nobody', DEMO_PASSWORD);
    const b = await attempt('admin', 'Wrong@2026!x');
    const c = await attempt('admin', DEMO_PASSWORD, '1234');
    for (const r of [a, b, c]) {
      expect(r.statusCode).toBe(400);
      expect(r.json()).toEqual({ status: 40002, message: '用户名、密码或验证码错误', data: null });
    }
  });

  it('locks an account after 5 failures without saying so, and unlocks after the wait', async () => {
    for (let i = 0; i < 5; i++) expect((await attempt('admin', `Wrong@2026!${i}`)).json().status).toBe(40002);
    const locked = await attempt('admin', DEMO_PASSWORD);
    expect(locked.json()).toEqual({ status: 40002, message: '用户名、密码或验证码错误', data: null });
    const { rows } = await ctx.db.execute<{ s: number }>(
      sql`SELECT extract(epoch FROM locked_until - now())::int AS s FROM users WHERE username = 'admin'`,
    );
    expect(rows[0]!.s).toBeGreaterThan(50);
    expect(rows[0]!.s).toBeLessThanOrEqual(60);
    await ctx.db.execute(sql`UPDATE users SET locked_until = now() - interval '1 second' WHERE username = 'admin'`);
    const ok = await attempt('admin', DEMO_PASSWORD);
    expect(ok.json().status).toBe(200);
  });

  it('tells a disabled account so only after its right password; a wrong one is any wrong password, and counts', async () => {
    await ctx.db.execute(sql`UPDATE users SET disabled_at = now() WHERE username = 'member'`);
    const failures = async () =>
      (await ctx.db.execute<{ n: number }>(sql`SELECT failed_logins AS n FROM users WHERE username = 'member'`))
        .rows[0]!.n;
    try {
      const before = await failures();
      const wrong = await attempt('member', 'Wrong@2026!x');
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({ status: 40002, message: '用户名、密码或验证码错误', data: null });
      expect(await failures()).toBe(before + 1);

      const right = await attempt('member', DEMO_PASSWORD);
      expect(right.statusCode).toBe(403);
      expect(right.json()).toEqual({ status: 40304, message: '该账号已停用，请联系管理员', data: null });
      const key = randomBytes(8).toString('hex');
      await ctx.call({ url: `/api/auth/kaptcha/get?type=LOGIN&data=${key}` });
      const english = await ctx.call({
        url: '/api/auth/jwt/front/token?tenantCode=demo&language=eng',
        body: { username: 'member', password: ctx.encrypt(DEMO_PASSWORD), imgvercode: '8888', captchaKey: key },
      });
      expect(english.json().message).toBe('This account has been disabled. Please contact your administrator');
      // No session, and the refusal is audited as such; the right password resets no count.
      expect(await failures()).toBe(before + 1);
      const { rows } = await ctx.db.execute<{ action: string }>(
        sql`SELECT action FROM audit_log ORDER BY id DESC LIMIT 3`,
      );
      expect(rows.map((r) => r.action)).toEqual(['login.disabled', 'login.disabled', 'login.failed']);

      // A wrong captcha is still one message, whatever the password.
      const noCaptcha = await attempt('member', DEMO_PASSWORD, '1234');
      expect(noCaptcha.json().status).toBe(40002);
      // Enough wrong ones lock it as any account; locked, the right password says nothing more.
      for (let i = 0; i < 5; i++) await attempt('member', `Wrong@2026!${i}`);
      const locked = await attempt('member', DEMO_PASSWORD);
      expect(locked.json().status).toBe(40002);
    } finally {
      await ctx.db.execute(
        sql`UPDATE users SET disabled_at = NULL, locked_until = NULL, failed_logins = 0 WHERE username = 'member'`,
      );
    }
  });

  it('refuses a forged or tampered token', async () => {
    const token = await ctx.login('member');
    const tampered = token.slice(0, -2) + (token.endsWith('A') ? 'BB' : 'AA');
    for (const t of [tampered, 'not-a-jwt', '']) {
      const res = await ctx.call({ url: '/api/front/member/front/infoV2', token: t });
      expect(res.statusCode).toBe(401);
    }
  });

  it('leaves no session behind when a login fails', async () => {
    const before = await ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM sessions`);
    await attempt('member', 'Wrong@2026!');
    const after = await ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM sessions`);
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });
});

describe('several instances on one database', () => {
  it('refuses a token on every instance as soon as it is logged out on one', async () => {
    // Long cache lifetimes, so that only the broadcast can explain a refusal within the poll.
    const env = { CACHE_TTL_MS: '60000' };
    const a = await createTestContext(env);
    const b = await createTestContext(env, { databaseUrl: a.url });
    try {
      await expect
        .poll(
          async () =>
            (
              await a.db.execute(
                sql`SELECT 1 FROM pg_stat_activity WHERE query = 'LISTEN portal_invalidate' AND datname = current_database()`,
              )
            ).rows.length,
        )
        .toBe(2);
      const token = await a.login('member');
      for (const ctxN of [a, b]) {
        const info = await ctxN.call({ url: '/api/front/member/front/infoV2', token });
        expect(info.json().data.username).toBe('member'); // now cached on both
      }
      expect((await a.call({ url: '/api/auth/jwt/logout', method: 'POST', token })).json().status).toBe(200);
      expect((await a.call({ url: '/api/front/member/front/infoV2', token })).statusCode).toBe(401);
      await expect
        .poll(async () => (await b.call({ url: '/api/front/member/front/infoV2', token })).statusCode, {
          timeout: 2_000,
        })
        .toBe(401);
    } finally {
      await b.close();
      await a.close();
    }
  });
});

describe('login rate limit', () => {
  it('answers 429 with Retry-After past the per-address limit', async () => {
    const limited = await createTestContext({ LOGIN_RATE_PER_MINUTE: '2' });
    try {
      const body = { username: 'member', password: limited.encrypt('x'), imgvercode: '0000', captchaKey: key() };
      const codes: number[] = [];
      for (let i = 0; i < 3; i++)
        codes.push((await limited.call({ url: '/api/auth/jwt/front/token', body })).statusCode);
      expect(codes).toEqual([400, 400, 429]);
      const res = await limited.call({ url: '/api/auth/jwt/front/token?language=eng', body });
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
      expect(res.json().message).toBe('Too many requests, please try again later');
    } finally {
      await limited.close();
    }
  });
});

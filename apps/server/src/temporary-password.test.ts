/**
 * Temporary passwords (ADR 033) against the real app and PostgreSQL: a password someone else set
 * (an operator here; the bootstrap in programs/admin/bootstrap.process.test.ts) leaves its owner a session that can
 * change it and log out and nothing else, swept over every session route of the route table; the
 * sign-on server signs such a user in nowhere; the user's own password lifts it, on every instance.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRng, validObject } from './test/fuzz.js';
import { createTestContext, type TestContext } from './test/harness.js';

let ctx: TestContext;
let second: TestContext;
let operator: string;
let userId: string;

const TEMPORARY = 'Welcome#2026x';
const OWN = 'Mine#Only2026q';

const body = (res: { json(): unknown }) => res.json() as { status: number; message: string; data: unknown };

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_RATE_PER_MINUTE: '1000000' });
  second = await createTestContext({ LOGIN_RATE_PER_MINUTE: '1000000' }, { databaseUrl: ctx.url });
  operator = await ctx.asRole(await ctx.login('admin'), 'park_operator');
  const created = await ctx.call({
    url: '/api/admin/users',
    body: { username: 'newcomer', name: '新同事', password: ctx.encrypt(TEMPORARY) },
    token: operator,
  });
  expect(body(created).status, created.body).toBe(200);
  userId = body(created).data as string;
});
afterAll(async () => {
  await second?.close();
  await ctx?.close();
});

/**
 * A call of `route` whose fields are generated from its schemas (a few seeds, as the generator tries
 * patterns rather than solving them), so that the session is what answers.
 */
async function validCall(route: (typeof ctx.app.routeTable)[number], token: string) {
  let res = await generatedCall(route, token, 1);
  for (let seed = 2; seed < 20 && res.statusCode === 400; seed++) res = await generatedCall(route, token, seed);
  return res;
}

function generatedCall(route: (typeof ctx.app.routeTable)[number], token: string, seed: number) {
  const schema = (route.schema ?? {}) as Record<'querystring' | 'params' | 'body', object | undefined>;
  const r = seededRng(seed);
  const params = schema.params ? validObject(schema.params as never, r) : {};
  const query = schema.querystring ? validObject(schema.querystring as never, r) : {};
  const path = route.url.replace(/:(\w+)/g, (_, p: string) => encodeURIComponent(String(params[p] ?? '1')));
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
  return ctx.call({
    method: route.method as 'GET',
    url: qs ? `${path}?${qs}` : path,
    ...(hasBody ? { body: schema.body ? patterned(schema.body, validObject(schema.body as never, r)) : {} } : {}),
    token,
  });
}

/** The generator tries patterns without solving them: a code field gets a value its pattern takes. */
function patterned(schema: object, value: Record<string, unknown>): Record<string, unknown> {
  const props = (schema as { properties?: Record<string, { pattern?: string; minLength?: number }> }).properties ?? {};
  for (const [key, prop] of Object.entries(props)) {
    if (!prop.pattern || typeof value[key] !== 'string') continue;
    const re = new RegExp(prop.pattern, 'u');
    const fits = (v: string) => re.test(v) && v.length >= (prop.minLength ?? 0);
    if (!fits(value[key])) value[key] = ['code-a1', 'code_a1', 'codeA1', '123456'].find(fits) ?? value[key];
  }
  return value;
}

describe('a password an operator set', () => {
  it('is temporary unless the operator says otherwise: set on creation and on a new password', async () => {
    const flag = async () =>
      (
        await ctx.db.execute<{ must: boolean }>(
          sql`SELECT must_change_password AS must FROM users WHERE id = ${Number(userId)}`,
        )
      ).rows[0]!.must;
    expect(await flag()).toBe(true);
    const permanent = await ctx.call({
      url: `/api/admin/users/${userId}/password`,
      body: { password: ctx.encrypt(TEMPORARY), temporary: false },
      token: operator,
    });
    expect(body(permanent).status).toBe(200);
    expect(await flag()).toBe(false);
    const token = await ctx.login('newcomer', TEMPORARY);
    expect(body(await ctx.call({ url: '/api/front/member/front/infoV2', token })).status).toBe(200);
    const again = await ctx.call({
      url: `/api/admin/users/${userId}/password`,
      body: { password: ctx.encrypt(TEMPORARY) },
      token: operator,
    });
    expect(body(again).status).toBe(200);
    expect(await flag()).toBe(true);
    // The new password ended the session that was open.
    expect((await ctx.call({ url: '/api/front/member/front/infoV2', token })).statusCode).toBe(401);
  });

  it('leaves a session that can change it and log out, and answers 40305 on every other session route', async () => {
    const token = await ctx.login('newcomer', TEMPORARY);
    const routes = ctx.app.routeTable.filter((r) => r.session && r.method !== 'HEAD');
    expect(routes.length).toBeGreaterThan(100);
    const open = routes.filter((r) => r.pendingPasswordChange).map((r) => `${r.method} ${r.url}`);
    expect(open.sort()).toEqual(['POST /api/auth/jwt/logout', 'POST /api/front/account/auth/updatePassword']);
    const answered: string[] = [];
    for (const route of routes.filter((r) => !r.pendingPasswordChange)) {
      const res = await validCall(route, token);
      const status = route.stream && res.statusCode === 200 ? 200 : body(res).status;
      if (status !== 40305) answered.push(`${route.method} ${route.url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      else expect(res.statusCode).toBe(403);
    }
    expect(answered).toEqual([]);
    const zh = body(await ctx.call({ url: '/api/front/member/front/infoV2', token }));
    expect(zh).toMatchObject({
      status: 40305,
      message: '当前密码为他人设置的临时密码或已过期，请先修改密码',
      data: null,
    });
    const en = body(await ctx.call({ url: '/api/front/member/front/infoV2?language=eng', token }));
    expect(en.message).toBe('Your password is a temporary one someone else set, or it has expired: change it first');
    // The logout is open to it.
    expect(body(await ctx.call({ url: '/api/auth/jwt/logout', body: {}, token })).status).toBe(200);
    expect((await ctx.call({ url: '/api/front/member/front/infoV2', token })).statusCode).toBe(401);
  });

  it('refuses a change to the same password, and the user is free once they chose their own, on every instance', async () => {
    const token = await ctx.login('newcomer', TEMPORARY);
    // The second instance has read (and cached) the session as it was.
    expect(body(await second.call({ url: '/api/front/member/front/infoV2', token })).status).toBe(40305);
    const same = await ctx.call({
      url: '/api/front/account/auth/updatePassword',
      body: { oldPwd: ctx.encrypt(TEMPORARY), newPwd: ctx.encrypt(TEMPORARY) },
      token,
    });
    expect(body(same)).toMatchObject({ status: 400, message: '新密码不能与当前密码相同' });
    const weak = await ctx.call({
      url: '/api/front/account/auth/updatePassword',
      body: { oldPwd: ctx.encrypt(TEMPORARY), newPwd: ctx.encrypt('password') },
      token,
    });
    expect(body(weak).status).toBe(400);
    const changed = await ctx.call({
      url: '/api/front/account/auth/updatePassword',
      body: { oldPwd: ctx.encrypt(TEMPORARY), newPwd: ctx.encrypt(OWN) },
      token,
    });
    expect(body(changed).status, changed.body).toBe(200);
    // The same token now works in full, here and on the other instance (within a second).
    expect(body(await ctx.call({ url: '/api/front/member/front/infoV2', token })).status).toBe(200);
    let there = 0;
    for (let i = 0; i < 50 && there !== 200; i++) {
      there = body(await second.call({ url: '/api/front/member/front/infoV2', token })).status;
      if (there !== 200) await new Promise((r) => setTimeout(r, 20));
    }
    expect(there).toBe(200);
  });
});

describe('the sign-on server and a temporary password', () => {
  async function casLogin(password: string) {
    const captchaKey = randomBytes(8).toString('hex');
    await ctx.call({ url: `/api/auth/kaptcha/get?type=LOGIN&data=${captchaKey}` });
    return ctx.app.inject({
      method: 'POST',
      url: '/cas/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      payload: new URLSearchParams({
        username: 'newcomer',
        password: ctx.encrypt(password),
        imgvercode: '8888',
        captchaKey,
        tenantCode: 'demo',
      }).toString(),
    });
  }

  it('signs such a user in nowhere (40305, no sign-on cookie); the change with the old password lifts it', async () => {
    await ctx.call({
      url: `/api/admin/users/${userId}/password`,
      body: { password: ctx.encrypt(TEMPORARY) },
      token: operator,
    });
    const refused = await casLogin(TEMPORARY);
    expect(body(refused).status).toBe(40305);
    expect(refused.headers['set-cookie']).toBeUndefined();
    const { rows } = await ctx.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM sso_sessions WHERE user_id = ${Number(userId)}`,
    );
    expect(rows[0]!.n).toBe(0);

    // /user/register-result without a session: the account, its (temporary) password and the captcha.
    const captchaKey = randomBytes(8).toString('hex');
    await ctx.call({ url: `/api/auth/kaptcha/get?type=LOGIN&data=${captchaKey}` });
    const changed = await ctx.call({
      url: '/api/front/account/auth/changePassword',
      body: {
        tenantCode: 'demo',
        username: 'newcomer',
        oldPwd: ctx.encrypt(TEMPORARY),
        newPwd: ctx.encrypt(OWN),
        imgvercode: '8888',
        captchaKey,
      },
    });
    expect(body(changed).status, changed.body).toBe(200);
    const signedIn = await casLogin(OWN);
    expect(body(signedIn).status, signedIn.body).toBe(200);
  });
});

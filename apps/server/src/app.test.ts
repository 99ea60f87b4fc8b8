/**
 * Bad input through the real app: whatever a client sends, the answer is a 4xx `{status, message,
 * data: null}` envelope in the request's language, never a 500.
 */
import { randomBytes } from 'node:crypto';
import { signRequest } from '@portal/contracts/node-signing';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './test/harness.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

const LOGIN = '/api/auth/jwt/front/token';
const CJK = /[\u4e00-\u9fff]/;

const key = () => randomBytes(8).toString('hex');
const loginBody = (over: Record<string, unknown> = {}) => ({
  username: 'member',
  password: ctx.encrypt('Wrong@2026!'),
  imgvercode: '8888',
  captchaKey: key(),
  ...over,
});

/** Checks the error envelope exactly and returns its message. */
function expectError(res: LightMyRequestResponse, http: number, status = http, lang: 'zh' | 'en' = 'zh'): string {
  expect(res.statusCode, res.body).toBe(http);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json<{ status: number; message: string; data: unknown }>();
  expect(Object.keys(body).sort()).toEqual(['data', 'message', 'status']);
  expect(body.status).toBe(status);
  expect(body.data).toBeNull();
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  if (lang === 'zh') expect(body.message).toMatch(CJK);
  else expect(body.message).not.toMatch(CJK);
  return body.message;
}

/** A POST with a raw payload and content type, signed over the query only (no parsable body). */
function rawPost(
  url: string,
  payload: string | Buffer,
  contentType: string,
  signBody: Record<string, unknown> | null = null,
) {
  return ctx.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { 'content-type': contentType, ...signRequest(ctx.secrets.signSecret, url, signBody) },
  });
}

describe('schema validation', () => {
  it('refuses wrong types with the field named', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ username: { name: 'member' } }, 'username 的类型应为 string'],
      [{ password: ['a', 'b'] }, 'password 的类型应为 string'],
      [{ imgvercode: { answer: '8888' } }, 'imgvercode 的类型应为 string'],
      [{ captchaKey: { k: 1 } }, 'captchaKey 的类型应为 string'],
    ];
    for (const [over, detail] of cases) {
      const res = await ctx.call({ url: LOGIN, body: loginBody(over) });
      expect(expectError(res, 400)).toBe(`请求参数不正确：${detail}`);
    }
  });

  it('refuses missing fields with the field named', async () => {
    for (const field of ['username', 'password', 'imgvercode', 'captchaKey']) {
      const body: Record<string, unknown> = loginBody();
      delete body[field];
      const res = await ctx.call({ url: LOGIN, body });
      expect(expectError(res, 400)).toBe(`请求参数不正确：缺少必填字段 ${field}`);
    }
  });

  it('refuses strings out of their limits', async () => {
    const tooLong = await ctx.call({ url: LOGIN, body: loginBody({ username: 'x'.repeat(65) }) });
    expect(expectError(tooLong, 400)).toBe('请求参数不正确：username 最多 64 个字符');
    const empty = await ctx.call({ url: LOGIN, body: loginBody({ username: '' }) });
    expect(expectError(empty, 400)).toBe('请求参数不正确：username 至少 1 个字符');
    const pattern = await ctx.call({ url: LOGIN, body: loginBody({ captchaKey: 'bad key!!' }) });
    expect(expectError(pattern, 400)).toBe('请求参数不正确：captchaKey 的格式不正确');
    const query = await ctx.call({ url: `${LOGIN}?tenantCode=${'t'.repeat(65)}`, body: loginBody() });
    expect(expectError(query, 400)).toBe('请求参数不正确：tenantCode 最多 64 个字符');
  });

  it('refuses a body that is a JSON array, string or null', async () => {
    for (const payload of ['[1,2]', '"member"', 'null', '42']) {
      const res = await rawPost(LOGIN, payload, 'application/json');
      expect(expectError(res, 400), payload).toMatch(/^请求参数不正确：/);
    }
  });

  it('ignores extra fields: they change nothing and cause no error', async () => {
    const withExtra = await ctx.call({
      url: LOGIN,
      body: loginBody({ isAdmin: true, tenantId: 1, role: { code: 'x' } }),
    });
    expect(expectError(withExtra, 400, 40002)).toBe('用户名、密码或验证码错误');
    const extraQuery = await ctx.call({ url: '/api/front/account/auth/publicKey?debug=1&x=y' });
    expect(extraQuery.statusCode).toBe(200);
  });

  it('answers schema errors in English with language=eng', async () => {
    const body: Record<string, unknown> = loginBody();
    delete body.captchaKey;
    const res = await ctx.call({ url: `${LOGIN}?language=eng`, body });
    expect(expectError(res, 400, 400, 'en')).toBe('Invalid request: missing required field captchaKey');
    const type = await ctx.call({ url: `${LOGIN}?language=eng`, body: loginBody({ username: { a: 1 } }) });
    expect(expectError(type, 400, 400, 'en')).toBe('Invalid request: username must be of type string');
  });
});

describe('bodies the server cannot read', () => {
  it('refuses a body over BODY_LIMIT_BYTES with 413', async () => {
    const small = await createTestContext({ BODY_LIMIT_BYTES: '2048' });
    try {
      const body = loginBody({ username: 'member', host: 'h'.repeat(3000) });
      const res = await small.call({ url: LOGIN, body });
      expect(expectError(res, 413)).toBe('请求体过大');
      const en = await small.call({ url: `${LOGIN}?language=eng`, body });
      expect(expectError(en, 413, 413, 'en')).toBe('The request body is too large');
      // Just under the limit is read (and then refused for what it says, not for its size).
      const fits = await small.call({ url: LOGIN, body: loginBody({ host: 'h'.repeat(200) }) });
      expect(fits.statusCode).toBe(400);
      expect(fits.json().status).toBe(40002);
    } finally {
      await small.close();
    }
  });

  it('refuses garbage JSON with 400', async () => {
    for (const payload of ['{"username":', '{username: "member"}', "{'a':1}", '{"a":1}}', '\u0000']) {
      const res = await rawPost(LOGIN, payload, 'application/json');
      expect(expectError(res, 400), payload).toBe('请求体不是合法的 JSON');
    }
    const en = await rawPost(`${LOGIN}?language=eng`, '{"username":', 'application/json');
    expect(expectError(en, 400, 400, 'en')).toBe('The request body is not valid JSON');
  });

  it('refuses an empty JSON body with 400', async () => {
    const res = await rawPost(LOGIN, '', 'application/json');
    expectError(res, 400);
  });

  it('reads null in a string field as empty (type coercion), then refuses it for its length', async () => {
    const res = await ctx.call({ url: LOGIN, body: loginBody({ imgvercode: null }) });
    expect(expectError(res, 400)).toBe('请求参数不正确：imgvercode 至少 1 个字符');
  });

  it('refuses text/plain with 415', async () => {
    const body = loginBody();
    const res = await rawPost(LOGIN, JSON.stringify(body), 'text/plain');
    expect(expectError(res, 415)).toBe('不支持的请求内容类型');
    const en = await rawPost(`${LOGIN}?language=eng`, JSON.stringify(body), 'text/plain; charset=utf-8');
    expect(expectError(en, 415, 415, 'en')).toBe('Unsupported content type');
  });

  // A route without a body schema must not act on a text body either (logout here).
  it('refuses text/plain with 415 on a route without a body schema', async () => {
    const token = await ctx.login('member');
    const logout = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/jwt/logout',
      payload: 'bye',
      headers: {
        'content-type': 'text/plain',
        authorization_front: token,
        ...signRequest(ctx.secrets.signSecret, '/api/auth/jwt/logout'),
      },
    });
    expect(expectError(logout, 415)).toBe('不支持的请求内容类型');
  });

  it('refuses other content types with 415', async () => {
    for (const type of [
      'application/xml',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'image/png',
    ]) {
      const res = await rawPost(LOGIN, 'a=1', type);
      expect(expectError(res, 415), type).toBe('不支持的请求内容类型');
    }
  });
});

describe('unknown paths and methods', () => {
  it('answers an unknown /api path with a 404 envelope, signed or not', async () => {
    const signed = await ctx.call({ url: '/api/front/does/not/exist' });
    expect(expectError(signed, 404)).toBe('请求的资源不存在');
    const unsigned = await ctx.app.inject({ url: '/api/nothing/here' });
    expect(expectError(unsigned, 404)).toBe('请求的资源不存在');
    const en = await ctx.app.inject({ url: '/api/nothing/here?language=eng' });
    expect(expectError(en, 404, 404, 'en')).toBe('The requested resource does not exist');
  });

  it('answers a known path with the wrong method with a 404 envelope', async () => {
    const res = await ctx.call({ url: LOGIN, method: 'GET' });
    expectError(res, 404);
    const del = await ctx.call({ url: '/api/front/account/auth/publicKey', method: 'DELETE' });
    expectError(del, 404);
  });
});

describe('odd but well-formed values never reach a 500', () => {
  it('refuses role ids that are no role with 403', async () => {
    const token = await ctx.login('member');
    for (const roleId of [
      'abc',
      '-1',
      '0',
      '1.5',
      '1e3',
      '99999999999999999999',
      '9007199254740991',
      '%27%3B--',
      ' ',
    ]) {
      const res = await ctx.call({ url: `/api/front/member/front/allPermissionV2?roleId=${roleId}`, token });
      expect(res.statusCode, `roleId=${roleId}: ${res.body}`).toBeLessThan(500);
      // A role id that names no row is bad input (ADR 021); a well-formed one not held is refused.
      if (roleId === '9007199254740991') expect(expectError(res, 403, 40303), roleId).toBe('当前用户不拥有该角色');
      else if (roleId.trim()) expect(expectError(res, 400), roleId).toBe('编号格式不正确');
    }
  });

  it('survives odd strings in every login field', async () => {
    for (const odd of ["' OR 1=1 --", '\u0000', '😀'.repeat(16), '<script>', '%00', '../../etc/passwd']) {
      const res = await ctx.call({
        url: `${LOGIN}?tenantCode=${encodeURIComponent(odd)}`,
        body: loginBody({ username: odd }),
      });
      expect(res.statusCode, `${JSON.stringify(odd)}: ${res.body}`).toBe(400);
      expectError(res, 400, res.json().status);
    }
  });

  it('refuses a password that is not base64 ciphertext with 400', async () => {
    for (const password of ['plain-text-password', '!!!', 'QUJD', ctx.encrypt('x').slice(0, 20)]) {
      const res = await ctx.call({ url: LOGIN, body: loginBody({ password }) });
      expect(res.statusCode, `${password}: ${res.body}`).toBe(400);
      expectError(res, 400, res.json().status);
    }
  });

  it('refuses odd tokens with 401', async () => {
    for (const token of ['x', 'a.b.c', 'Bearer abc', 'eyJhbGciOiJub25lIn0.eyJqdGkiOiIxIn0.', '😀']) {
      const res = await ctx.call({ url: '/api/front/member/front/infoV2', token: encodeURIComponent(token) });
      expect(expectError(res, 401)).toBe('你已被登出，可以取消继续留在该页面，或者重新登录');
    }
  });
});

describe('operations endpoints', () => {
  it('answers /healthz and /readyz', async () => {
    const health = await ctx.app.inject({ url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await ctx.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
  });

  it('reports not ready with 503 when the database is gone, while still alive', async () => {
    const other = await createTestContext();
    await other.db.$client.end();
    try {
      const ready = await other.app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable' });
      expect((await other.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await other.app.close();
    }
  });
});

describe('security headers', () => {
  it('sends API answers the short set: nothing loads from them, frames them or caches them', async () => {
    for (const res of [
      await ctx.call({ url: '/api/front/account/auth/publicKey' }),
      await ctx.app.inject({ url: '/api/nothing' }),
      await ctx.app.inject({ url: '/api/front/member/front/infoV2' }),
    ]) {
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('sends a content security policy without upgrade-insecure-requests on every other kind of answer', async () => {
    const answers = [
      await ctx.app.inject({ url: '/healthz' }),
      await ctx.app.inject({ url: '/center/config.js' }),
      await ctx.app.inject({ url: '/cas/login' }),
    ];
    for (const res of answers) {
      const csp = String(res.headers['content-security-policy'] ?? '');
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("frame-ancestors 'self'");
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });
});

describe('hostile input found by the fuzz run (ADR 014)', () => {
  const CONTROL = '不能包含控制字符';

  it('refuses a body nested 5,000 levels deep with 400, before the signature is checked', async () => {
    for (const url of [LOGIN, '/api/front/member/switchContext', '/api/front/captcha/get']) {
      for (const payload of [
        `{"x":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`,
        `{"x":${'['.repeat(5000)}${']'.repeat(5000)}}`,
      ]) {
        const res = await ctx.app.inject({
          method: 'POST',
          url,
          payload,
          headers: { 'content-type': 'application/json' },
        });
        expect(expectError(res, 400), url).toBe('请求体嵌套层级过深');
      }
    }
    const wide = await rawPost(LOGIN, `{"x":[${'0,'.repeat(1500)}0]}`, 'application/json');
    expect(expectError(wide, 400)).toBe('请求体中的列表项过多');
    // 32 levels are fine: a body that deep is read (and refused for what it says).
    const ok = await ctx.call({ url: LOGIN, body: loginBody({ host: 'h' }) });
    expect(ok.json().status).toBe(40002);
  });

  it('refuses NUL and other control characters in any text field with 400 naming the field', async () => {
    const token = await ctx.login('member');
    const cases: Array<[string, Parameters<TestContext['call']>[0]]> = [
      ['tenantCode', { url: `${LOGIN}?tenantCode=a%00b`, body: loginBody() }],
      ['username', { url: LOGIN, body: loginBody({ username: 'a\u0000b' }) }],
      [
        'mobile',
        { url: '/api/front/member/registerMember', body: { username: 'u', password: 'p', mobile: '138\u00000000000' } },
      ],
      ['nickName', { url: '/api/front/member/updateNickName', body: { userId: 1, nickName: 'a\u0007b' }, token }],
      ['fastAppCode', { url: '/api/front/member/checkAppCodeAuth?fastAppCode=ENT%00', token }],
      [
        'token',
        { url: '/api/front/captcha/check', body: { captchaType: 'blockPuzzle', token: 'a\u0000', pointJson: 'x' } },
      ],
      [
        'username',
        {
          url: '/api/front/account/reset/code',
          body: { username: '\u001b[31m', mobile: '13800000002', imageCode: 'x' },
        },
      ],
    ];
    for (const [field, call] of cases) {
      const res = await ctx.call(call);
      expect(expectError(res, 400), call.url).toBe(`请求参数不正确：${field} ${CONTROL}`);
    }
    // Unsigned and outside /api, as the product's path is.
    const check = await ctx.app.inject({ url: '/sys/user/checkOnlyUser?username=a%00b' });
    expect(expectError(check, 400)).toBe(`请求参数不正确：username ${CONTROL}`);
    const en = await ctx.call({ url: `${LOGIN}?language=eng`, body: loginBody({ username: 'a\u0000b' }) });
    expect(expectError(en, 400, 400, 'en')).toBe('Invalid request: username must not contain control characters');
    // Tab, line feed and carriage return are text.
    const multiLine = await ctx.call({ url: LOGIN, body: loginBody({ host: 'a\tb\r\nc' }) });
    expect(multiLine.json().status).toBe(40002);
  });

  it('refuses Infinity, -Infinity and 1e400 as numbers with 400; a refused switch spends nothing', async () => {
    const token = await ctx.login('admin');
    for (const v of ['Infinity', '-Infinity', '1e400', '-1e400']) {
      for (const q of [`page=${v}`, `limit=${v}`]) {
        const res = await ctx.call({ url: `/api/front/ent/joinEntList?${q}`, token });
        expect(expectError(res, 400), q).toMatch(/^请求参数不正确：(page|limit) (不是有效的数值|不能大于|不能小于)/);
      }
    }
    const spent = async () =>
      Number(
        (
          await ctx.db.$client.query<{ n: number }>(
            `SELECT COALESCE(sum(count), 0)::int AS n FROM rate_limits WHERE key LIKE 'switch:%'`,
          )
        ).rows[0]!.n,
      );
    const before = await spent();
    for (const roleId of ['Infinity', '-Infinity', '1e400']) {
      const res = await ctx.call({ url: '/api/front/member/switchContext', body: { roleId }, token });
      expectError(res, 400);
    }
    const raw = await ctx.app.inject({
      method: 'POST',
      url: '/api/front/member/switchContext',
      payload: '{"roleId":1e400}',
      headers: {
        'content-type': 'application/json',
        authorization_front: token,
        ...signRequest(ctx.secrets.signSecret, '/api/front/member/switchContext', { roleId: Infinity }),
      },
    });
    expect(expectError(raw, 400)).toBe('编号格式不正确');
    expect(await spent()).toBe(before);
  });

  it('answers what the router refuses with the envelope in the request language', async () => {
    const bad = await ctx.call({ url: '/api/front/page/definition/%' });
    expect(expectError(bad, 400)).toBe('请求地址格式不正确');
    const long = await ctx.call({ url: `/api/front/page/definition/${'x'.repeat(300)}?language=eng` });
    expect(expectError(long, 414, 414, 'en')).toBe('The request address is too long');
  });
});

/**
 * Three classes of input that reached a 5xx, refused with a 400 on every route by one rule each
 * (platform/input-guard.ts, ADR 014): half of a UTF-16 surrogate pair (or a NUL) anywhere in a
 * request, also in a field no schema names; a PATCH that names nothing its route changes; a
 * multipart body without a valid boundary, or broken. Each is swept over the whole route table,
 * then tried where it was found, checking that nothing was written and nothing audited. And the
 * routes outside /api (pages, config.js, the sign-on server), which read their query and cookies
 * without a schema, take the same characters there without a 5xx.
 */
import { signRequest } from '@portal/contracts/node-signing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './db/embedded.js';
import { createTestContext, type TestContext } from './test/harness.js';
import { watchWrites, type WriteWatch } from './test/writes.js';

let ctx: TestContext;
let writes: WriteWatch;
let operator: string;
beforeAll(async () => {
  // The server listens at its public address, so that what calls it over HTTP (the demo's OpenID
  // Connect example system asking its provider) reaches it.
  const port = await freePort();
  ctx = await createTestContext({ LOGIN_RATE_PER_MINUTE: '100000', PUBLIC_URL: `http://127.0.0.1:${port}` });
  await ctx.app.listen({ port, host: '127.0.0.1' });
  operator = await ctx.asRole(await ctx.login('admin'), 'park_operator');
  writes = await watchWrites(ctx.db);
});
afterAll(async () => {
  await writes?.stop();
  await ctx?.close();
});

const routes = () =>
  ctx.app.routeTable.filter((r) => r.method !== 'HEAD' && r.method !== 'GET' && !r.url.startsWith('/center'));
const pathOf = (url: string) => url.replace(/:(\w+)/g, '1');
const audited = async () =>
  Number((await ctx.db.execute<{ n: number }>(sql`SELECT count(*) AS n FROM audit_log`)).rows[0]!.n);

/** A signed call whose body is JSON text as given (so `\ud800` arrives as the escape it is). */
function rawJson(method: string, url: string, text: string, token?: string, parsed?: Record<string, unknown>) {
  return ctx.app.inject({
    method: method as 'POST',
    url,
    payload: text,
    headers: {
      'content-type': 'application/json',
      ...signRequest(ctx.secrets.signSecret, url, parsed ?? (JSON.parse(text) as Record<string, unknown>)),
      ...(token ? { authorization_front: token } : {}),
    },
  });
}

describe('half of a surrogate pair, or a NUL, anywhere in a request', () => {
  it('is refused by every route that takes a JSON body, in a value or in a key, before anything runs', async () => {
    const found: string[] = [];
    for (const route of routes()) {
      for (const text of ['{"x":"a\\ud800"}', '{"a\\udc00b":1}', '{"x":{"y":["\\u0000"]}}']) {
        const before = await writes.count();
        const res = await rawJson(route.method, `${pathOf(route.url)}?language=eng`, text, operator, {});
        const what = `${route.method} ${route.url} ${text}`;
        if (res.statusCode >= 500) found.push(`${what}: ${res.statusCode}`);
        if ((await writes.since(before)).length > 0) found.push(`${what}: wrote`);
        // Every JSON route refuses it at parse time; the others never parse JSON (415, or their own).
        if (res.statusCode === 400 && route.url.startsWith('/api/')) {
          expect(res.json().message, what).toMatch(
            /^Invalid request: (x|a\?b|x\.y\.0) (contains an invalid character \(half of a UTF-16 surrogate pair\)|must not contain control characters)$/,
          );
        }
      }
    }
    expect(found).toEqual([]);
  });

  it.each([
    [
      'the login',
      'POST',
      '/api/auth/jwt/front/token?tenantCode=demo',
      { username: 'a\ud800', password: 'x', imgvercode: '8888', captchaKey: 'abcdefgh1234' },
      false,
    ],
    [
      'a password change without a session',
      'POST',
      '/api/front/account/auth/changePassword',
      { username: 'member', oldPwd: 'x', newPwd: 'y\udfff', imgvercode: '8888', captchaKey: 'abcdefgh1234' },
      false,
    ],
    ['a new user', 'POST', '/api/admin/users', { username: 'ok-name', name: '名\ud800', password: 'x' }, true],
    ['the settings', 'PUT', '/api/admin/settings', { siteName: 'a\ud800' }, true],
    ['the agreement', 'PUT', '/api/admin/agreement', { html: '<p>\ud800</p>' }, true],
    ['a new role', 'POST', '/api/admin/roles', { code: 'r_surrogate', title: 'a\udbff' }, true],
    [
      'a sign-on service, in a field it ignores',
      'POST',
      '/api/admin/sso-services',
      { name: 'OA', pattern: 'https://oa.example/', extra: '\ud800' },
      true,
    ],
  ] as const)('is refused in %s (a 400 naming the field, nothing written)', async (_, method, url, body, session) => {
    const before = await writes.count();
    const audits = await audited();
    const text = JSON.stringify(body);
    expect(text).toMatch(/\\ud[89ab]|\\ud[c-f]/);
    const res = await rawJson(method, url, text, session ? operator : undefined);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(/含有无效的字符（不成对的 UTF-16 代理项）$/);
    expect(await writes.since(before)).toEqual([]);
    expect(await audited()).toBe(audits);
  });

  it('is refused in a field an operator change ignores, so no change escapes the audit log', async () => {
    const devices = await ctx.call({ url: '/api/admin/devices', token: operator });
    const id = (devices.json().data.records ?? devices.json().data)[0].id as string;
    for (const text of ['{"a":"\\u0000"}', '{"a":"\\ud800"}']) {
      const before = await writes.count();
      const audits = await audited();
      const res = await rawJson('POST', `/api/admin/devices/${id}/credentials`, text, operator);
      expect(res.statusCode, res.body).toBe(400);
      expect(await writes.since(before)).toEqual([]);
      expect(await audited()).toBe(audits);
    }
  });
});

describe('a PATCH that names nothing its route changes', () => {
  it('is a 400 saying which fields it takes, on every PATCH route', async () => {
    const patches = ctx.app.routeTable.filter((r) => r.method === 'PATCH');
    expect(patches.map((r) => r.url)).toEqual(
      expect.arrayContaining([
        '/api/admin/users/:id',
        '/api/admin/roles/:id',
        '/api/admin/permissions/:id',
        '/api/admin/sso-services/:id',
      ]),
    );
    for (const route of patches) {
      const fields = Object.keys((route.schema?.body as { properties?: object } | undefined)?.properties ?? {});
      expect(fields.length, route.url).toBeGreaterThan(0);
      for (const body of [{}, { unknown: 1 }, { nothing: 'x', else: null }]) {
        const url = `${pathOf(route.url)}?language=eng`;
        const res = await ctx.call({ method: 'PATCH', url, body, token: operator });
        expect(res.statusCode, `${route.url} ${JSON.stringify(body)}: ${res.body}`).toBe(400);
        expect(res.json()).toEqual({
          status: 400,
          message: `Invalid request: the body changes nothing: give at least one of ${fields.join(', ')}`,
          data: null,
        });
      }
    }
  });

  it('is told in Chinese too, and one known field is enough', async () => {
    const res = await ctx.call({ method: 'PATCH', url: '/api/admin/roles/1', body: {}, token: operator });
    expect(res.json().message).toBe('请求参数不正确：请求体中没有可修改的字段，可修改的有：title, titleEn, isDefault');
    const roles = (await ctx.call({ url: '/api/admin/roles', token: operator })).json().data as Array<{
      id: string;
      code: string;
    }>;
    const member = roles.find((r) => r.code === 'ent_member')!;
    const ok = await ctx.call({
      method: 'PATCH',
      url: `/api/admin/roles/${member.id}`,
      body: { title: '企业成员', extra: 1 },
      token: operator,
    });
    expect(ok.json()).toMatchObject({ status: 200 });
  });
});

describe('multipart bodies', () => {
  const send = (url: string, contentType: string, payload: string, token = operator) =>
    ctx.app.inject({
      method: 'POST',
      url,
      payload,
      headers: { 'content-type': contentType, authorization_front: token, ...signRequest(ctx.secrets.signSecret, url) },
    });

  it('without a valid boundary are a 400 on every route, before anything reads them', async () => {
    const found: string[] = [];
    for (const route of routes()) {
      for (const type of [
        'multipart/form-data',
        'multipart/form-data; boundary=',
        'Multipart/Form-Data; charset=utf-8',
      ]) {
        const res = await send(pathOf(route.url), type, 'abc');
        if (res.statusCode !== 400) found.push(`${route.method} ${route.url} (${type}): ${res.statusCode}`);
      }
    }
    expect(found).toEqual([]);
  });

  it.each([
    ['/api/admin/settings/logo', () => operator],
    ['/api/front/letter/uploadReplyFile', () => ctx.login('member')],
  ])('%s: no boundary, and a body that ends early or is not multipart, are 400s that say so', async (url, token) => {
    const t = await token();
    const noBoundary = await send(url, 'multipart/form-data', 'abc', t);
    expect(noBoundary.json()).toEqual({
      status: 400,
      message: '上传的请求格式不正确：multipart/form-data 缺少有效的 boundary',
      data: null,
    });
    const part = '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc';
    for (const payload of ['abc', part]) {
      const before = await writes.count();
      const res = await send(url, 'multipart/form-data; boundary=xyz', payload, t);
      expect(res.json(), payload).toEqual({
        status: 400,
        message: '上传的请求格式不正确：multipart/form-data 内容不完整或已损坏',
        data: null,
      });
      expect(await writes.since(before)).toEqual([]);
    }
  });
});

describe('the routes outside /api', () => {
  it('answer a NUL, half a pair or a bidi control in the query and the cookies without a 5xx', async () => {
    const names = ['tc', 'tenantCode', 'service', 'ticket', 'url', 'TARGET', 'format', 'logoutRequest'];
    const failed: string[] = [];
    for (const route of ctx.app.routeTable.filter((r) => !r.url.startsWith('/api/') && r.method !== 'HEAD')) {
      for (const value of ['%00', '%ED%A0%80', '%E2%80%AE', 'a%0D%0Ab']) {
        const url = `${route.url.replace(/\*$/, 'x').replace(/:(\w+)/g, 'x')}?${names.map((n) => `${n}=${value}`).join('&')}`;
        const res = await ctx.app.inject({
          method: route.method as 'GET',
          url,
          cookies: { portal_tenant: value, CASTGC: `TGC-${value}` },
        });
        if (res.statusCode >= 500) failed.push(`${route.method} ${url}: ${res.statusCode}`);
      }
    }
    expect(failed).toEqual([]);
  });
});

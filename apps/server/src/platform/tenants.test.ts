/**
 * One rule for the tenant a request names (docs/product/screens.md#tenant-code), at every entry point that takes a code: login,
 * the sign-on server, registration. An absent or empty code, or `null`/`undefined` in any case,
 * means the default tenant; a code is trimmed; an unknown code is never the default tenant.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, DEMO_PASSWORD, type TestContext } from '../test/harness.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

/** The raw query values that all mean the default tenant (demo). */
const DEFAULT_ONES = ['', 'null', 'NULL', 'undefined', ' demo '];
const query = (code: string) => `tenantCode=${encodeURIComponent(code)}`;

describe('the tenant a request names, everywhere alike', () => {
  it('login', async () => {
    for (const code of DEFAULT_ONES) {
      await expect(ctx.login('member', DEMO_PASSWORD, encodeURIComponent(code)), JSON.stringify(code)).resolves.toMatch(
        /\S/,
      );
    }
    await expect(ctx.login('member', DEMO_PASSWORD, 'nope')).rejects.toThrow(/login failed/);
  });

  it("the sign-on server's form", async () => {
    const tenantOfPage = async (q: string) => {
      const res = await ctx.app.inject({ url: `/cas/login?${q}` });
      return /<meta name="sso-tenant-code" content="([^"]*)">/.exec(res.body)?.[1] ?? `HTTP ${res.statusCode}`;
    };
    for (const code of DEFAULT_ONES) expect(await tenantOfPage(query(code)), JSON.stringify(code)).toBe('demo');
    expect(await tenantOfPage(query('nope'))).not.toBe('demo');
  });

  it('registration', async () => {
    const agreement = async (q: string) =>
      (await ctx.call({ url: `/api/front/registerContent/getInfoByTenantCode?${q}` })).json();
    for (const code of DEFAULT_ONES) {
      const body = await agreement(query(code));
      expect(body.data?.registerAgreement, JSON.stringify(code)).toContain('演示园区企业服务平台用户注册协议');
    }
    expect(await agreement(query('nope'))).toMatchObject({ status: 400, message: '租户不存在' });
  });
});

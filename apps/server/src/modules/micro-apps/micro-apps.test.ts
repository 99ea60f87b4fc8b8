/**
 * The tenant's registered applications over HTTP against the real database: the §7 list for the
 * caller's own tenant only, the park's home page, the operators' registration (permission,
 * entries refused), and the content security policy of the tenant's documents.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.js';
import { documentPolicy } from '../../platform/security-headers.js';

let ctx: TestContext;
let member: string;
let operator: string;
let tenantId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  member = await ctx.login('member');
  operator = await ctx.asRole(await ctx.login('admin'), 'park_operator');
  tenantId = (await ctx.call({ url: '/api/front/member/front/infoV2', token: member })).json().data.tenantId;
});
afterAll(async () => ctx?.close());

const LIST = '/api/front/microFrontend/service/selectAllByTenant';
const ADMIN = '/api/admin/micro-apps';
const frameSrc = (csp: string) => csp.split(';').find((d) => d.startsWith('frame-src '))!;
const scriptSrc = (csp: string) => csp.split(';').find((d) => d.startsWith('script-src '))!;

describe('selectAllByTenant and getDefaultSubManList', () => {
  it("lists the caller's tenant's applications, in either language", async () => {
    const res = await ctx.call({ url: `${LIST}/${tenantId}`, token: member });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([
      { name: '园区服务', code: 'park-services', entry: '/micro/park-services/', serviceType: 0 },
      { name: '园区大厅', code: 'park-hall', entry: 'https://park.example.com/', serviceType: 1 },
      { name: '云服务订单', code: 'cloud-orders', entry: 'https://cloud.example.com/', serviceType: 1 },
    ]);
    const en = await ctx.call({ url: `${LIST}/${tenantId}?language=eng`, token: member });
    expect(en.json().data[0].name).toBe('Park services');
  });

  it("refuses another tenant's id, and asks for a session", async () => {
    const other = await ctx.call({ url: `${LIST}/${Number(tenantId) + 1}`, token: member });
    expect(other.json()).toMatchObject({ status: 40303, message: '只能查看本租户的应用' });
    expect((await ctx.call({ url: `${LIST}/abc`, token: member })).json().status).toBe(400);
    expect((await ctx.call({ url: `${LIST}/${tenantId}` })).json().status).toBe(401);
  });

  it("answers the park's home page", async () => {
    const res = await ctx.call({ url: '/api/front/subsystemManagement/getDefaultSubManList', token: member });
    expect(res.json().data).toEqual({ homeUrl: 'https://park.example.com/' });
  });
});

describe("the operators' registration", () => {
  it('needs microapp:manage', async () => {
    const body = { code: 'crm', name: '客户管理', entry: 'https://crm.example.org/', serviceType: 0 };
    for (const call of [{ url: ADMIN }, { url: ADMIN, body }, { url: `${ADMIN}/1/remove`, body: {} }]) {
      const res = await ctx.call({ ...call, token: member });
      expect(res.json().status, call.url).toBe(40303);
    }
    const count = await ctx.db.execute(sql`SELECT count(*)::int AS n FROM micro_apps WHERE code = 'crm'`);
    expect(count.rows[0]).toEqual({ n: 0 });
  });

  it('refuses entries that are no http(s) address or own path', async () => {
    for (const entry of [
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      '//evil.example/',
      'ftp://files.example/',
      'https://user:pass@crm.example.org/',
      'https://crm.example.org/#x',
      '/micro/\\evil',
      'crm.example.org',
    ]) {
      const res = await ctx.call({
        url: ADMIN,
        body: { code: 'bad', name: '坏', entry, serviceType: 0 },
        token: operator,
      });
      expect(res.json(), entry).toMatchObject({
        status: 400,
        message: '入口地址须为 http(s) 地址，或以 / 开头的本站路径',
      });
    }
    const bad = await ctx.call({
      url: ADMIN,
      body: { code: 'Bad Code', name: '坏', entry: '/x/', serviceType: 0 },
      token: operator,
    });
    expect(bad.json().status).toBe(400);
  });

  it("registers, replaces by code and removes; the tenant's documents follow at once", async () => {
    const doc = async (query = '?tc=demo') => {
      const res = await ctx.app.inject({ url: `/center/index${query}` });
      return res.headers['content-security-policy'] as string;
    };
    const before = await doc();
    expect(frameSrc(before)).toBe("frame-src 'self' https://cloud.example.com https://park.example.com");
    expect(scriptSrc(before)).toBe("script-src 'self'");

    const saved = await ctx.call({
      url: ADMIN,
      body: { code: 'crm', name: '客户管理', entry: ' https://crm.example.org:8443/app/ ', serviceType: 0 },
      token: operator,
    });
    expect(saved.json().status, saved.body).toBe(200);
    const id = saved.json().data as string;
    const listed = (await ctx.call({ url: ADMIN, token: operator })).json().data as { code: string }[];
    expect(listed.find((a) => a.code === 'crm')).toEqual({
      id,
      code: 'crm',
      name: '客户管理',
      entry: 'https://crm.example.org:8443/app/',
      serviceType: 0,
      sort: 0,
      origin: 'https://crm.example.org:8443',
    });
    const withApp = await doc();
    expect(scriptSrc(withApp)).toBe("script-src 'self' https://crm.example.org:8443");
    expect(frameSrc(withApp)).toContain('https://crm.example.org:8443');

    // The same code again replaces the entry; a framed service is not allowed to run scripts.
    const replaced = await ctx.call({
      url: ADMIN,
      body: { code: 'crm', name: '客户管理', entry: 'https://crm2.example.org/', serviceType: 1 },
      token: operator,
    });
    expect(replaced.json().data).toBe(id);
    const framed = await doc();
    expect(scriptSrc(framed)).toBe("script-src 'self'");
    expect(frameSrc(framed)).toContain('https://crm2.example.org');
    expect(framed).not.toContain('crm.example.org:8443');

    // Another tenant's document, and the default one without a named tenant, know nothing of it.
    expect(await doc('?tc=nosuch')).not.toContain('crm2');
    const cookie = await ctx.app.inject({ url: '/center/index', headers: { cookie: 'portal_tenant=demo' } });
    expect(cookie.headers['content-security-policy']).toContain('crm2');

    const removed = await ctx.call({ url: `${ADMIN}/${id}/remove`, body: {}, token: operator });
    expect(removed.json().status).toBe(200);
    expect(await doc()).toBe(before);
    const again = await ctx.call({ url: `${ADMIN}/${id}/remove`, body: {}, token: operator });
    expect(again.json()).toMatchObject({ status: 404, message: '应用不存在' });
  });

  it("the policy without registered origins is the portal's own", () => {
    expect(documentPolicy({ apps: [], frames: [] })).toBe(
      "default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data: blob:;" +
        "font-src 'self' data:;connect-src 'self';frame-src 'self';frame-ancestors 'self';object-src 'none';" +
        "base-uri 'self';form-action 'self'",
    );
  });
});

/**
 * The tenant's registered applications over HTTP against the real database: the docs/product/calls.md#call-list list for the
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

describe('what microapp:manage alone may do', () => {
  /** A session whose role holds microapp:manage and nothing that administers the tenant beyond it. */
  let keeper: string;
  beforeAll(async () => {
    await ctx.db.execute(sql`INSERT INTO roles (tenant_id, code, title)
      SELECT id, 'app_keeper', '应用维护' FROM tenants WHERE code = 'demo'`);
    await ctx.db.execute(sql`INSERT INTO role_permissions (role_id, permission_id)
      SELECT r.id, p.id FROM roles r JOIN permissions p ON p.tenant_id = r.tenant_id AND p.code = 'microapp:manage'
      WHERE r.code = 'app_keeper'`);
    await ctx.db.execute(sql`INSERT INTO user_roles (user_id, role_id)
      SELECT u.id, r.id FROM users u JOIN roles r ON r.tenant_id = u.tenant_id AND r.code = 'app_keeper'
      JOIN tenants t ON t.id = u.tenant_id WHERE t.code = 'demo' AND u.username = 'admin'`);
    keeper = await ctx.asRole(await ctx.login('admin'), 'app_keeper');
  });

  it('registers new codes, but replacing or removing an existing entry needs system:manage and is audited', async () => {
    const fresh = await ctx.call({
      url: ADMIN,
      body: { code: 'forms', name: '表单', entry: 'https://forms.example.org/', serviceType: 1 },
      token: keeper,
    });
    expect(fresh.json().status, fresh.body).toBe(200);
    // Its name and order may change while the entry stays.
    const renamed = await ctx.call({
      url: ADMIN,
      body: { code: 'forms', name: '在线表单', entry: 'https://forms.example.org/', serviceType: 1, sort: 5 },
      token: keeper,
    });
    expect(renamed.json().status, renamed.body).toBe(200);
    // The demo's sub-application runs in every user's session: its entry is not this role's to replace.
    for (const body of [
      { code: 'park-services', name: '园区服务', entry: 'https://evil.example/', serviceType: 0 },
      { code: 'forms', name: '在线表单', entry: 'https://forms.example.org/', serviceType: 0 },
    ]) {
      const res = await ctx.call({ url: ADMIN, body, token: keeper });
      expect(res.json(), body.code).toMatchObject({
        status: 40303,
        message: `应用“${body.code}”已登记，替换它的入口需要系统管理权限（system:manage）`,
      });
    }
    const { rows } = await ctx.db.execute<{ entry: string; service_type: number }>(
      sql`SELECT entry, service_type FROM micro_apps WHERE code IN ('park-services', 'forms') ORDER BY code`,
    );
    expect(rows).toEqual([
      { entry: 'https://forms.example.org/', service_type: 1 },
      { entry: '/micro/park-services/', service_type: 0 },
    ]);
    // Nor may it remove one and register the code anew.
    const listed = (await ctx.call({ url: ADMIN, token: keeper })).json().data as { id: string; code: string }[];
    const parkServices = listed.find((a) => a.code === 'park-services')!;
    const removed = await ctx.call({ url: `${ADMIN}/${parkServices.id}/remove`, body: {}, token: keeper });
    expect(removed.json().status).toBe(40303);

    // An operator replaces it, and the audit keeps what it was.
    const replaced = await ctx.call({
      url: ADMIN,
      body: { code: 'forms', name: '在线表单', entry: 'https://forms2.example.org/', serviceType: 1 },
      token: operator,
    });
    expect(replaced.json().status, replaced.body).toBe(200);
    const audit = await ctx.db.execute<{ detail: unknown; username: string }>(sql`
      SELECT a.detail, u.username FROM audit_log a JOIN users u ON u.id = a.user_id
      WHERE a.action = 'microapp.replaced' ORDER BY a.id DESC LIMIT 1`);
    expect(audit.rows[0]).toEqual({
      username: 'admin',
      detail: {
        code: 'forms',
        from: { entry: 'https://forms.example.org/', serviceType: 1 },
        to: { entry: 'https://forms2.example.org/', serviceType: 1 },
      },
    });
  });

  it('refuses an entry whose host is not a plain host name: a * would become a wildcard in the policy', async () => {
    for (const entry of [
      'https://*.evil.example/',
      'https://*/',
      'https://a*b.example/',
      'https://a;script-src.example/',
      'https://a,b.example/',
      "https://a'b.example/",
    ]) {
      const res = await ctx.call({
        url: ADMIN,
        body: { code: 'wild', name: '通配', entry, serviceType: 0 },
        token: operator,
      });
      expect(res.json(), entry).toMatchObject({
        status: 400,
        message: '入口地址的主机名只能由字母、数字、连字符和点组成（不能使用 * 等通配符）',
      });
    }
    const count = await ctx.db.execute(sql`SELECT count(*)::int AS n FROM micro_apps WHERE code = 'wild'`);
    expect(count.rows[0]).toEqual({ n: 0 });
  });

  it('keeps a stored wildcard entry out of every policy and allow-list', async () => {
    // As a row written before the rule, or by hand.
    await ctx.db.execute(sql`INSERT INTO micro_apps (tenant_id, code, name, entry, service_type)
      SELECT id, 'wild-old', '旧通配', 'https://*.evil.example/', 0 FROM tenants WHERE code = 'demo'`);
    await ctx.db.execute(sql`INSERT INTO micro_apps (tenant_id, code, name, entry, service_type)
      SELECT id, 'wild-frame', '旧通配', 'https://*/', 1 FROM tenants WHERE code = 'demo'`);
    const fresh = await createTestContext({}, { databaseUrl: ctx.url });
    try {
      const res = await fresh.app.inject({ url: '/center/index?tc=demo' });
      expect(res.statusCode).toBe(200);
      const csp = res.headers['content-security-policy'] as string;
      expect(csp).not.toContain('*');
      expect(scriptSrc(csp)).toBe("script-src 'self'");
      // Nor may a page frame it.
      const saved = await fresh.call({
        url: '/api/admin/pages/wild-frame/versions',
        body: {
          baseVersion: 0,
          document: {
            format: 1,
            title: { zh: '通配' },
            widgets: [{ id: 'f', x: 0, y: 0, w: 6, h: 3, kind: 'iframe', props: { url: 'https://x.evil.example/' } }],
          },
        },
        token: await fresh.asRole(await fresh.login('admin'), 'park_operator'),
      });
      expect(saved.json().status).toBe(400);
    } finally {
      await fresh.close();
      await ctx.db.execute(sql`DELETE FROM micro_apps WHERE code IN ('wild-old', 'wild-frame')`);
    }
  });

  it('writes only plain origins into a policy, whatever it is given', () => {
    const csp = documentPolicy({
      apps: [
        'https://ok.example',
        'https://*.evil.example',
        'https://a;b',
        "'unsafe-inline'",
        'https://x.example:8443',
      ],
      frames: ['https://*', 'http://[::1]:8080', 'https://frame.example'],
    });
    expect(scriptSrc(csp)).toBe("script-src 'self' https://ok.example https://x.example:8443");
    expect(frameSrc(csp)).toBe(
      "frame-src 'self' https://ok.example https://x.example:8443 http://[::1]:8080 https://frame.example",
    );
  });
});

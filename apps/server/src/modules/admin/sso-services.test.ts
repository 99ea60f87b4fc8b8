/**
 * Registering sign-on services (POST/PATCH /api/admin/sso-services): addresses the server may not
 * send requests to are refused when registered, under the installation's address rule (ADR 034);
 * and an address belongs to one tenant in its canonical form, whatever way it is written.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, createTestContext, type TestContext } from '../../test/harness.js';

let ctx: TestContext;
/** The same installation started in production: no address beyond public ones is allowed. */
let production: TestContext;
let operator: string;
let platform: string;

const statusOf = (res: { json(): unknown }) => (res.json() as { status: number }).status;
const messageOf = (res: { json(): unknown }) => (res.json() as { message: string }).message;

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_RATE_PER_MINUTE: '100000' });
  production = await createTestContext({ NODE_ENV: 'production', PORTAL_TEST_CAPTCHA: '0' }, { databaseUrl: ctx.url });
  operator = await ctx.asRole(await ctx.login('admin'), 'park_operator');
  platform = await ctx.login('platform', DEMO_PASSWORD, 'platform');
});
afterAll(async () => {
  await production?.close();
  await ctx?.close();
});

const count = async (c: TestContext) =>
  Number((await c.db.execute<{ n: string }>(sql`SELECT count(*) AS n FROM sso_services`)).rows[0]!.n);

const sample = (text: string, name: string, labels: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
};

describe('addresses the server may not send to', () => {
  const ZH =
    '该地址指向本机、内网、链路本地或云元数据地址，服务器不向这类地址发送请求，不能登记（安装者可在 OUTBOUND_ALLOWED_CIDRS 中列出允许的网段）';
  const EN =
    'This address points to this machine, a private network, a link-local or a cloud metadata address; the server sends no requests there, so it cannot be registered (the installation can list allowed ranges in OUTBOUND_ALLOWED_CIDRS)';
  const hosts = [
    '127.0.0.1',
    'localhost',
    '[::1]',
    '2130706433',
    '10.0.0.5',
    '169.254.169.254',
    '0x7f.1',
    '017700000001',
    '[::ffff:127.0.0.1]',
    'localhost.',
    '0.0.0.0',
    '192.168.1.20:8080',
    '100.100.100.200',
    '[fd00:ec2::254]',
  ];

  it.each(hosts)(
    'refuses %s as a pattern or a logout address in production, with a 409 in either language',
    async (host) => {
      const before = await count(ctx);
      const asPattern = await production.call({
        url: '/api/admin/sso-services',
        body: { name: 'Internal', pattern: `http://${host}/app/` },
        token: operator,
      });
      expect(asPattern.statusCode, host).toBe(409);
      expect(asPattern.json()).toEqual({ status: 409, message: ZH, data: null });
      const asLogout = await production.call({
        url: '/api/admin/sso-services?language=eng',
        body: { name: 'Internal', pattern: 'https://public-app.example.com/', logoutUrl: `http://${host}/slo` },
        token: operator,
      });
      expect(asLogout.statusCode, host).toBe(409);
      expect(messageOf(asLogout)).toBe(EN);
      expect(await count(ctx)).toBe(before);
    },
  );

  it('refuses them on a change too, and counts every refusal in the metrics', async () => {
    const created = await production.call({
      url: '/api/admin/sso-services',
      body: { name: 'Public', pattern: 'https://erp.public-park.example.com/' },
      token: operator,
    });
    expect(statusOf(created)).toBe(200);
    const id = (created.json() as { data: string }).data;
    for (const body of [{ pattern: 'http://10.0.0.5/' }, { logoutUrl: 'http://169.254.169.254/latest/' }]) {
      const res = await production.call({
        method: 'PATCH',
        url: `/api/admin/sso-services/${id}`,
        body,
        token: operator,
      });
      expect(res.statusCode, JSON.stringify(body)).toBe(409);
    }
    const [row] = (
      await ctx.db.execute<{ pattern: string; logout_url: string | null }>(
        sql`SELECT pattern, logout_url FROM sso_services WHERE id = ${Number(id)}`,
      )
    ).rows;
    expect(row).toEqual({ pattern: 'https://erp.public-park.example.com/', logout_url: null });
    const text = await production.app.metrics.registry.metrics();
    expect(
      sample(text, 'portal_outbound_refused_total', 'purpose="sso_registration",reason="private"'),
    ).toBeGreaterThanOrEqual(3);
    expect(
      sample(text, 'portal_outbound_refused_total', 'purpose="sso_registration",reason="metadata"'),
    ).toBeGreaterThanOrEqual(7);
  });

  it('takes a host name (judged when called, on what it then resolves to) and what the installation lists', async () => {
    const named = await production.call({
      url: '/api/admin/sso-services',
      body: { name: 'OA', pattern: 'https://oa.intranet-park.example.com/' },
      token: operator,
    });
    expect(statusOf(named)).toBe(200);
    const listed = await createTestContext(
      { NODE_ENV: 'production', PORTAL_TEST_CAPTCHA: '0', OUTBOUND_ALLOWED_CIDRS: '10.20.0.0/16' },
      { databaseUrl: ctx.url },
    );
    try {
      const ok = await listed.call({
        url: '/api/admin/sso-services',
        body: { name: 'Listed', pattern: 'http://10.20.3.4/app/' },
        token: operator,
      });
      expect(statusOf(ok)).toBe(200);
      const other = await listed.call({
        url: '/api/admin/sso-services',
        body: { name: 'Unlisted', pattern: 'http://10.30.3.4/app/' },
        token: operator,
      });
      expect(statusOf(other)).toBe(409);
    } finally {
      await listed.close();
    }
  });

  it('allows loopback alone in test mode; private and metadata addresses stay refused', async () => {
    const loop = await ctx.call({
      url: '/api/admin/sso-services',
      body: { name: 'Local', pattern: 'http://127.0.0.1:9999/local/' },
      token: operator,
    });
    expect(statusOf(loop)).toBe(200);
    for (const pattern of ['http://10.0.0.5/', 'http://169.254.169.254/', 'http://[fe80::1]/']) {
      const res = await ctx.call({ url: '/api/admin/sso-services', body: { name: 'x', pattern }, token: operator });
      expect(res.statusCode, pattern).toBe(409);
    }
  });
});

describe("one owner per address, whatever way it is written (another tenant's sign-on address)", () => {
  beforeAll(async () => {
    for (const pattern of ['https://erp.a.example/', 'https://apps.a.example/hr/', 'https://erp.bücher.example/']) {
      const res = await ctx.call({ url: '/api/admin/sso-services', body: { name: 'Demo', pattern }, token: operator });
      expect(statusOf(res), pattern).toBe(200);
    }
  });

  it.each([
    'https://erp.a.example./',
    'https://erp.a.example./finance/',
    'HTTP://ERP.A.EXAMPLE/',
    'http://erp.a.example:80/portal',
    'https://erp.a.example:443/x',
    'http://erp.a.example:443/',
    'https://apps.a.example/HR/',
    'https://apps.a.example/%68r/list',
    'https://apps.a.example/',
    'https://apps.a.example//hr/',
    'https://apps.a.example/hr;jsessionid=1/',
    'https://apps.a.example/hr%3Bx/',
    'https://apps.a.example/hr',
    'https://apps.a.example/HR/team/list',
    'https://erp.xn--bcher-kva.example/',
    'https://ERP.BÜCHER.EXAMPLE./',
  ])('refuses %s to another tenant when the demo holds it', async (pattern) => {
    const res = await ctx.call({
      url: '/api/admin/sso-services?tenant=platform',
      body: { name: 'Taken', pattern },
      token: platform,
    });
    expect(res.statusCode, pattern).toBe(409);
    expect(messageOf(res)).toBe('该地址已登记在其他租户下，同一地址只能属于一个租户');
  });

  it('refuses it on a change of another tenant’s service too, and lets other hosts, ports and paths be', async () => {
    const created = await ctx.call({
      url: '/api/admin/sso-services?tenant=platform',
      body: { name: 'Own', pattern: 'https://erp.b.example/' },
      token: platform,
    });
    expect(statusOf(created)).toBe(200);
    const id = (created.json() as { data: string }).data;
    const moved = await ctx.call({
      method: 'PATCH',
      url: `/api/admin/sso-services/${id}?tenant=platform`,
      body: { pattern: 'https://erp.a.example./' },
      token: platform,
    });
    expect(moved.statusCode).toBe(409);
    for (const pattern of [
      'https://apps.a.example/finance/',
      'https://erp.a.example:8443/',
      'https://crm.a.example/',
    ]) {
      const res = await ctx.call({
        url: '/api/admin/sso-services?tenant=platform',
        body: { name: 'Other', pattern },
        token: platform,
      });
      expect(statusOf(res), pattern).toBe(200);
    }
  });
});

/**
 * The operators' API (ADR 031) against the real server and database: who may call it, what it
 * does to sessions on another instance, the platform operator's tenants, settings per tenant in
 * config.js, the menu's way out and back in, the review of an enterprise, and the audit of it all.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AUDIT_ACTIONS, isAuditAction } from '@portal/contracts';
import { signRequest } from '@portal/contracts/node-signing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../db/client.js';
import { ADMIN_ROUTE_ACTIONS } from '../../platform/audit.js';
import { permittedRequestFor, seededRng, type FuzzRequest } from '../../test/fuzz.js';
import { DEMO_PASSWORD, createTestContext, type TestContext } from '../../test/harness.js';

let ctx: TestContext;
let second: TestContext;
let operator: string;

const data = (res: { json(): unknown }) => (res.json() as { data: unknown }).data;
const statusOf = (res: { json(): unknown }) => (res.json() as { status: number }).status;

async function idOf(query: ReturnType<typeof sql>): Promise<string> {
  const { rows } = await ctx.db.execute<{ id: string }>(query);
  return String(rows[0]!.id);
}

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_RATE_PER_MINUTE: '100000' });
  second = await createTestContext({ LOGIN_RATE_PER_MINUTE: '100000' }, { databaseUrl: ctx.url });
  operator = await ctx.asRole(await ctx.login('admin'), 'park_operator');
});
afterAll(async () => {
  await second?.close();
  await ctx?.close();
});

describe('the operators API', () => {
  /** Every route under /api/admin/ (HEAD is its GET), and a request its caller could be allowed to make. */
  const permitted = () => {
    const routes = ctx.app.routeTable.filter((r) => r.url.startsWith('/api/admin/') && r.method !== 'HEAD');
    expect(routes.length).toBeGreaterThan(30);
    const r = seededRng(2026);
    return routes.map((route) => {
      const req = permittedRequestFor(route, r);
      if (!req) throw new Error(`${route.method} ${route.url}: no request its schemas take was drawn`);
      return { route, req };
    });
  };
  const send = (req: FuzzRequest, token: string, query: Record<string, unknown> = {}) => {
    const qs = new URLSearchParams(Object.entries({ ...req.query, ...query }).map(([k, v]) => [k, String(v)]));
    return ctx.call({
      method: req.method as 'GET',
      url: qs.size > 0 ? `${req.path}?${qs}` : req.path,
      token,
      ...(req.body && 'json' in req.body ? { body: req.body.json } : {}),
    });
  };

  it('answers 40303 to a session without system:manage, on every admin route of the table, to a valid request', async () => {
    const member = await ctx.login('member');
    const answered: string[] = [];
    for (const { route, req } of permitted()) {
      // Valid by the schemas, its ids ones that can name a row: only the permission may refuse it.
      const res = await send(req, member);
      if (statusOf(res) !== 40303) answered.push(`${route.method} ${route.url} [${req.path}]: ${res.body}`);
      // An id that can name no row is read after the permission is asked for, not before.
      if (/^[^:]*:id(\/[^:]*)?$/.test(route.url)) {
        const unparsed = await send({ ...req, path: route.url.replace(':id', 'not-a-row') }, member);
        if (statusOf(unparsed) !== 40303) answered.push(`${route.method} ${route.url} [not-a-row]: ${unparsed.body}`);
      }
    }
    expect(answered).toEqual([]);
  });

  it('answers 40303 to a tenant operator naming another tenant, on every admin route that takes a tenant', async () => {
    let named = 0;
    const answered: string[] = [];
    for (const { route, req } of permitted()) {
      const query = (route.schema?.querystring ?? {}) as { properties?: Record<string, unknown> };
      // The other modules' routes under /api/admin/ take no tenant: they act on the session's own.
      if (!query.properties?.tenant) continue;
      named++;
      for (const tenant of ['platform', 'no-such-park']) {
        const res = await send(req, operator, { tenant });
        if (statusOf(res) !== 40303) answered.push(`${route.method} ${route.url}?tenant=${tenant}: ${res.body}`);
      }
    }
    expect(named).toBeGreaterThan(30);
    expect(answered).toEqual([]);
  });

  it('keeps a tenant operator to its own tenant, whatever tenant a call names', async () => {
    const mine = await ctx.call({ url: '/api/admin/users?tenant=demo', token: operator });
    expect(statusOf(mine)).toBe(200);
    expect(statusOf(await ctx.call({ url: '/api/admin/tenants', token: operator }))).toBe(40303);
  });

  it('disables a user: every session ends at once on a second instance, and the login is refused', async () => {
    const memberId = await idOf(sql`SELECT u.id FROM users u JOIN tenants t ON t.id = u.tenant_id
      WHERE t.code = 'demo' AND u.username = 'member'`);
    const token = await ctx.login('member');
    // The second instance has the session cached.
    expect(statusOf(await second.call({ url: '/api/front/member/front/infoV2', token }))).toBe(200);
    const res = await ctx.call({ url: `/api/admin/users/${memberId}/disable`, body: {}, token: operator });
    expect(statusOf(res)).toBe(200);
    let answer = 0;
    for (let i = 0; i < 50 && answer !== 401; i++) {
      answer = (await second.call({ url: '/api/front/member/front/infoV2', token })).statusCode;
      if (answer !== 401) await new Promise((r) => setTimeout(r, 20));
    }
    expect(answer).toBe(401);
    await expect(ctx.login('member')).rejects.toThrow(/login failed/);
    expect(statusOf(await ctx.call({ url: `/api/admin/users/${memberId}/enable`, body: {}, token: operator }))).toBe(
      200,
    );
    expect(await ctx.login('member')).toMatch(/\./);
  });

  it("sets a user's password, which the user then signs in with; refuses the operator's own account", async () => {
    const memberId = await idOf(sql`SELECT u.id FROM users u JOIN tenants t ON t.id = u.tenant_id
      WHERE t.code = 'demo' AND u.username = 'member'`);
    const weak = await ctx.call({
      url: `/api/admin/users/${memberId}/password`,
      body: { password: ctx.encrypt('123') },
      token: operator,
    });
    expect(statusOf(weak)).toBe(400);
    const set = await ctx.call({
      url: `/api/admin/users/${memberId}/password`,
      body: { password: ctx.encrypt('Fresh#Pass2026') },
      token: operator,
    });
    expect(statusOf(set)).toBe(200);
    expect(await ctx.login('member', 'Fresh#Pass2026')).toMatch(/\./);
    await ctx.call({
      url: `/api/admin/users/${memberId}/password`,
      body: { password: ctx.encrypt(DEMO_PASSWORD) },
      token: operator,
    });
    const adminId = await idOf(sql`SELECT u.id FROM users u JOIN tenants t ON t.id = u.tenant_id
      WHERE t.code = 'demo' AND u.username = 'admin'`);
    const self = await ctx.call({ url: `/api/admin/users/${adminId}/disable`, body: {}, token: operator });
    expect(statusOf(self)).toBe(400);
  });

  it('creates a user with roles who can sign in, and names a taken username', async () => {
    const roles = data(await ctx.call({ url: '/api/admin/roles', token: operator })) as { id: string; code: string }[];
    const member = roles.find((r) => r.code === 'ent_member')!;
    const body = {
      username: 'newcomer',
      name: '新同事',
      nameEn: 'New colleague',
      password: ctx.encrypt('Welcome#2026x'),
      roleIds: [member.id],
    };
    const res = await ctx.call({ url: '/api/admin/users', body, token: operator });
    expect(statusOf(res), res.body).toBe(200);
    expect(await ctx.login('newcomer', 'Welcome#2026x')).toMatch(/\./);
    const again = await ctx.call({ url: '/api/admin/users', body, token: operator });
    expect(again.statusCode).toBe(409);
    const list = data(await ctx.call({ url: '/api/admin/users?q=newcomer', token: operator })) as {
      records: { username: string; roles: { name: string }[] }[];
      total: number;
    };
    expect(list.total).toBe(1);
    expect(list.records[0]!.roles.map((r) => r.name)).toEqual(['企业成员']);
    // English mode means English data too (ADR 020).
    const english = data(
      await ctx.call({ url: '/api/admin/users?q=newcomer&language=eng', token: operator }),
    ) as typeof list;
    expect(english.records[0]!.roles.map((r) => r.name)).toEqual(['Enterprise member']);
  });

  it('reviews an enterprise: a refusal needs a reason, which its members then read', async () => {
    const entId = await idOf(sql`SELECT e.id FROM enterprises e JOIN tenants t ON t.id = e.tenant_id
      WHERE t.code = 'demo' ORDER BY e.id LIMIT 1`);
    const bare = await ctx.call({
      url: `/api/admin/enterprises/${entId}/review`,
      body: { estatus: 2 },
      token: operator,
    });
    expect(statusOf(bare)).toBe(400);
    const refused = await ctx.call({
      url: `/api/admin/enterprises/${entId}/review`,
      body: { estatus: 2, reason: '营业执照照片不清晰' },
      token: operator,
    });
    expect(statusOf(refused)).toBe(200);
    const queue = data(await ctx.call({ url: '/api/admin/enterprises?estatus=2', token: operator })) as {
      records: { id: string; reviewReason: string }[];
    };
    expect(queue.records.find((e) => e.id === entId)?.reviewReason).toBe('营业执照照片不清晰');
    // A member whose current enterprise it is reads why.
    const adminToken = await ctx.login('admin');
    const switched = await ctx.call({ url: '/api/front/member/switchEnterprises', body: { entId }, token: adminToken });
    const current = data(
      await ctx.call({ url: '/api/front/ent/current', token: (data(switched) as string | null) ?? adminToken }),
    ) as { estatus: number; reviewReason: string | null };
    expect(current).toMatchObject({ estatus: 2, reviewReason: '营业执照照片不清晰' });
  });

  it("opens an application as registered, in the reader's language, and no other tenant's", async () => {
    const entId = await idOf(sql`SELECT e.id FROM enterprises e JOIN tenants t ON t.id = e.tenant_id
      WHERE t.code = 'demo' AND e.name = '蓝海智能制造有限公司'`);
    const zh = data(await ctx.call({ url: `/api/admin/enterprises/${entId}`, token: operator }));
    expect(zh).toMatchObject({
      id: entId,
      name: '蓝海智能制造有限公司',
      creditCode: '91320500MA1MX2QW7B',
      contacts: '周建华',
      position: '总经理',
      estatus: 0,
      industry: { code: '3911', names: ['制造业', '计算机、通信和其他电子设备制造业', '计算机制造', '计算机整机制造'] },
      region: { code: '320505', names: ['江苏省', '苏州市', '虎丘区'] },
      // Its first member, with the number whole (docs/security.md: operators' powers).
      registrant: { username: 'admin', name: '系统管理员', mobile: '13800000001', mobileVerified: true },
    });
    expect((zh as { createdAt: string }).createdAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const en = data(await ctx.call({ url: `/api/admin/enterprises/${entId}?language=eng`, token: operator }));
    expect(en).toMatchObject({
      nameEn: 'Lanhai Intelligent Manufacturing Co., Ltd.',
      contactsEn: 'Zhou Jianhua',
      positionEn: 'General manager',
      industry: { code: '3911', names: ['Manufacturing'] },
      region: { code: '320505', names: ['Jiangsu'] },
      registrant: { nameEn: 'System Administrator' },
    });
    // Every seeded application names its contact, in the list too.
    const queue = data(await ctx.call({ url: '/api/admin/enterprises?limit=100', token: operator })) as {
      records: { contacts: string | null; contactsEn: string }[];
    };
    expect(queue.records.length).toBeGreaterThan(10);
    expect(queue.records.filter((e) => !e.contacts || !e.contactsEn)).toEqual([]);
    // Another tenant's enterprise and an unknown id are not found (a member is refused first: the
    // first test of this file, over every route).
    const platformEnt = await idOf(sql`INSERT INTO enterprises (tenant_id, name)
      SELECT id, '平台的企业' FROM tenants WHERE code = 'platform' RETURNING id`);
    for (const id of [platformEnt, '999999999']) {
      const res = await ctx.call({ url: `/api/admin/enterprises/${id}`, token: operator });
      expect([res.statusCode, statusOf(res)]).toEqual([404, 404]);
    }
  });

  it('exports the menu and imports it back unchanged; moves an entry; refuses a cycle', async () => {
    const exported = data(await ctx.call({ url: '/api/admin/menus/export', token: operator })) as {
      format: 1;
      menus: unknown[];
    };
    expect(exported.menus.length).toBeGreaterThan(2);
    const before = data(await ctx.call({ url: '/api/admin/menus', token: operator })) as {
      id: string;
      parentId: string | null;
      name: string;
    }[];
    const count = await ctx.call({ url: '/api/admin/menus/import', body: exported, token: operator });
    expect(statusOf(count), count.body).toBe(200);
    expect(data(count)).toBe(before.length);
    expect(data(await ctx.call({ url: '/api/admin/menus/export', token: operator }))).toEqual(exported);

    const after = data(await ctx.call({ url: '/api/admin/menus', token: operator })) as typeof before;
    const parent = after.find((m) => m.name === 'system')!;
    const child = after.find((m) => m.parentId === parent.id)!;
    const cycle = await ctx.call({
      url: `/api/admin/menus/${parent.id}/move`,
      body: { parentId: child.id, index: 0 },
      token: operator,
    });
    expect(statusOf(cycle)).toBe(400);
    const moved = await ctx.call({
      url: `/api/admin/menus/${child.id}/move`,
      body: { parentId: null, index: 0 },
      token: operator,
    });
    expect(statusOf(moved)).toBe(200);
    const top = (data(await ctx.call({ url: '/api/admin/menus', token: operator })) as typeof before).filter(
      (m) => m.parentId === null,
    );
    expect(top[0]!.id).toBe(child.id);
    const unknownRole = await ctx.call({
      url: '/api/admin/menus/import',
      body: { format: 1, menus: [{ name: 'x', path: '/x', component: '', title: 'X', roles: ['no_such_role'] }] },
      token: operator,
    });
    expect(statusOf(unknownRole)).toBe(400);
    expect((data(await ctx.call({ url: '/api/admin/menus', token: operator })) as unknown[]).length).toBe(after.length);
  });

  it("serves each tenant's own switches in config.js, applied without a restart", async () => {
    const put = await ctx.call({
      method: 'PUT',
      url: '/api/admin/settings',
      body: { siteName: '星河园区', apptheme: 'top', languageSwitch: true },
      token: operator,
    });
    expect(statusOf(put)).toBe(200);
    const demo = await ctx.app.inject({ url: '/center/config.js?tc=demo' });
    expect(demo.body).toContain('"siteName":"星河园区"');
    expect(demo.body).toContain('"apptheme":"top"');
    const other = await ctx.app.inject({ url: '/center/config.js?tc=platform' });
    expect(other.body).not.toContain('星河园区');
    // The page names its tenant in the script's address.
    const page = await ctx.app.inject({ url: '/center/login?tc=demo' });
    if (page.statusCode === 200) expect(page.body).toContain('config.js?tc=demo');
    // The second instance hears of it too.
    const there = await second.app.inject({ url: '/center/config.js?tc=demo' });
    expect(there.body).toContain('星河园区');
    const unknown = await ctx.call({
      method: 'PUT',
      url: '/api/admin/settings',
      body: { signSecret: 'x' },
      token: operator,
    });
    expect(statusOf(await ctx.call({ url: '/api/admin/settings', token: operator }))).toBe(200);
    expect(JSON.stringify(data(unknown))).not.toContain('signSecret');
    await ctx.call({ method: 'PUT', url: '/api/admin/settings', body: {}, token: operator });
  });

  it('lets the platform operator create a tenant whose operator signs in, and act on it', async () => {
    const platform = await ctx.login('platform', DEMO_PASSWORD, 'platform');
    const created = await ctx.call({
      url: '/api/admin/tenants',
      body: {
        code: 'north-park',
        name: '北区园区',
        nameEn: 'North Park',
        operator: { username: 'north', name: '北区运营', password: ctx.encrypt('Harbour#2026x') },
      },
      token: platform,
    });
    expect(statusOf(created)).toBe(200);
    // The platform operator chose that password: the tenant's operator chooses their own first (ADR 033).
    const theirs = await ctx.login('north', 'Harbour#2026x', 'north-park');
    expect(statusOf(await ctx.call({ url: '/api/admin/users', token: theirs }))).toBe(40305);
    const own = await ctx.call({
      url: '/api/front/account/auth/updatePassword',
      body: { oldPwd: ctx.encrypt('Harbour#2026x'), newPwd: ctx.encrypt('Lantern#2026q') },
      token: theirs,
    });
    expect(statusOf(own)).toBe(200);
    expect(statusOf(await ctx.call({ url: '/api/admin/users', token: theirs }))).toBe(200);
    // Its users see the park by its name, in their language.
    for (const [lang, name] of [
      ['', '北区园区'],
      ['?language=eng', 'North Park'],
    ]) {
      const info = data(await ctx.call({ url: `/api/front/member/front/infoV2${lang}`, token: theirs }));
      expect(info).toMatchObject({ tenantCode: 'north-park', tenantName: name });
    }
    const users = data(await ctx.call({ url: '/api/admin/users?tenant=north-park', token: platform })) as {
      total: number;
    };
    expect(users.total).toBe(1);
    // Until its operator names the site, its pages (the login page first) carry the park's own name,
    // in English its English one; never the installation's.
    const configOf = async (tc: string) => (await ctx.app.inject({ url: `/center/config.js?tc=${tc}` })).body;
    const fresh = await configOf('north-park');
    expect(fresh).toContain('"siteName":"北区园区"');
    expect(fresh).toContain('"siteNameEn":"North Park"');
    expect(await configOf('platform')).toContain('"siteName":"企业服务门户"');
    // The console says so: an unset site name follows the park's name.
    const view = data(await ctx.call({ url: '/api/admin/settings?tenant=north-park', token: platform })) as {
      defaults: Record<string, unknown>;
    };
    expect(view.defaults).toMatchObject({ siteName: '北区园区', siteNameEn: 'North Park' });
    const settings = await ctx.call({
      method: 'PUT',
      url: '/api/admin/settings?tenant=north-park',
      body: { siteName: '北区园区门户', theme: 'dark' },
      token: platform,
    });
    expect(statusOf(settings)).toBe(200);
    const named = await configOf('north-park');
    expect(named).toContain('"siteName":"北区园区门户"');
    // A name set in Chinese only shows in English too, not the park's or the installation's English one.
    expect(named).toContain('"siteNameEn":""');
    const disabled = await ctx.call({
      method: 'PATCH',
      url: `/api/admin/tenants/${data(created) as string}`,
      body: { disabled: true },
      token: platform,
    });
    expect(statusOf(disabled)).toBe(200);
    expect((await ctx.call({ url: '/api/admin/users', token: theirs })).statusCode).toBe(401);
    await expect(ctx.login('north', 'Lantern#2026q', 'north-park')).rejects.toThrow(/login failed/);
  });

  it('keeps a service address to one tenant, the operator code enforced, and the platform closed to sign-ups', async () => {
    const platform = await ctx.login('platform', DEMO_PASSWORD, 'platform');
    const service = { name: 'ERP', pattern: 'https://erp.demo-park.example.com/' };
    expect(statusOf(await ctx.call({ url: '/api/admin/sso-services', body: service, token: operator }))).toBe(200);
    // Another tenant may not take the same addresses, nor any above or below them.
    for (const pattern of ['https://erp.demo-park.example.com/', 'https://erp.demo-park.example.com/app/login']) {
      const taken = await ctx.call({
        url: '/api/admin/sso-services?tenant=platform',
        body: { name: 'ERP', pattern },
        token: platform,
      });
      expect(taken.statusCode, pattern).toBe(409);
    }
    for (const pattern of ['https://erp.example.com/*', 'javascript:alert(1)', '{PORTAL}']) {
      const bad = await ctx.call({ url: '/api/admin/sso-services', body: { name: 'x', pattern }, token: operator });
      expect(bad.statusCode, pattern).toBe(400);
    }
    const perms = data(await ctx.call({ url: '/api/admin/permissions', token: operator })) as {
      id: string;
      code: string;
    }[];
    const manage = perms.find((p) => p.code === 'system:manage')!;
    const opened = await ctx.call({
      method: 'PATCH',
      url: `/api/admin/permissions/${manage.id}`,
      body: { status: 0 },
      token: operator,
    });
    expect(opened.statusCode).toBe(400);
    const sms = await ctx.call({
      url: '/api/front/member/sendPhoneCode',
      body: { phone: '13912340000', type: 2, tenantCode: 'platform', imageCode: '8888' },
    });
    expect((sms.json() as { message: string }).message).toBe('该园区暂不开放注册');
    for (const from of ['2026-02-30', '2026-01-01T25:00Z']) {
      const res = await ctx.call({ url: `/api/admin/audit?from=${encodeURIComponent(from)}`, token: operator });
      expect(res.statusCode, from).toBe(400);
    }
  });

  it("takes a tenant's logo as an uploaded PNG or JPEG, serves it inline, and refuses anything else", async () => {
    const upload = (fileName: string, content: Buffer) => {
      const url = '/api/admin/settings/logo';
      const boundary = '----portal-logo-boundary';
      return ctx.app.inject({
        method: 'POST',
        url,
        payload: Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
              'Content-Type: application/octet-stream\r\n\r\n',
          ),
          content,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          authorization_front: operator,
          ...signRequest(ctx.secrets.signSecret, url),
        },
      });
    };
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
        '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
      'hex',
    );
    const res = await upload('park.png', png);
    expect(res.statusCode, res.body).toBe(200);
    const { logo } = data(res) as { logo: string };
    const served = await ctx.app.inject({ url: logo });
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(png)).toBe(true);
    expect((await upload('park.svg', Buffer.from('<svg onload="alert(1)"/>'))).statusCode).toBe(400);
    const large = await upload('big.png', Buffer.concat([png, Buffer.alloc(600 * 1024)]));
    expect(large.statusCode).toBe(413);
    expect((large.json() as { message: string }).message).toBe('标志图片不能超过 512 KB');
    const settings = { logo: 'https://elsewhere.example.com/logo.png' };
    const put = await ctx.call({ method: 'PUT', url: '/api/admin/settings', body: settings, token: operator });
    expect(put.statusCode).toBe(400);
    const home = { domianURL: 'javascript:alert(1)' };
    expect(
      (await ctx.call({ method: 'PUT', url: '/api/admin/settings', body: home, token: operator })).statusCode,
    ).toBe(400);
  });

  it('moves menu entries concurrently without a server error', async () => {
    const menus = data(await ctx.call({ url: '/api/admin/menus', token: operator })) as {
      id: string;
      parentId: string | null;
    }[];
    const top = menus.filter((m) => m.parentId === null).slice(0, 6);
    const answers = await Promise.all(
      top.map((m, i) =>
        ctx.call({
          url: `/api/admin/menus/${m.id}/move`,
          body: { parentId: null, index: (i * 3) % 6 },
          token: operator,
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(top.map(() => 200));
  });

  it('writes every change to the audit log, secrets taken out, and reads it back filtered', async () => {
    // A read of the SMS outbox shows live codes: it is recorded like a change; other reads are not.
    expect(statusOf(await ctx.call({ url: '/api/admin/sms-outbox?q=138', token: operator }))).toBe(200);
    expect(statusOf(await ctx.call({ url: '/api/admin/users', token: operator }))).toBe(200);
    const log = data(await ctx.call({ url: '/api/admin/audit?actor=admin&limit=100', token: operator })) as {
      records: { action: string; actor: { username: string } | null; detail: Record<string, unknown> }[];
      total: number;
    };
    const actions = log.records.map((r) => r.action);
    for (const action of [
      'user.disable',
      'user.enable',
      'user.password.set',
      'user.create',
      'enterprise.review',
      'menu.import',
      'menu.move',
      'settings.update',
      'sms_outbox.read',
    ]) {
      expect(actions, action).toContain(action);
    }
    // Every row carries a code of the catalogue.
    expect(actions.filter((a) => !isAuditAction(a))).toEqual([]);
    const outboxRead = log.records.find((r) => r.action === 'sms_outbox.read')!;
    expect(outboxRead.detail.query).toMatchObject({ q: '138' });
    // Refused calls are not changes: nothing of them is written.
    expect(actions.filter((a) => a === 'enterprise.review')).toHaveLength(1);
    expect(log.records.every((r) => r.actor?.username === 'admin')).toBe(true);
    expect(JSON.stringify(log.records)).not.toMatch(/Fresh#Pass2026|"password":"(?!\[redacted\])/);
    // The filter takes a code (that action only) or a group ending in a dot.
    const byCode = data(await ctx.call({ url: '/api/admin/audit?action=user.password.set', token: operator })) as {
      records: { action: string }[];
    };
    expect(new Set(byCode.records.map((r) => r.action))).toEqual(new Set(['user.password.set']));
    const byGroup = data(await ctx.call({ url: '/api/admin/audit?action=user.&limit=100', token: operator })) as {
      records: { action: string }[];
    };
    expect(byGroup.records.every((r) => r.action.startsWith('user.'))).toBe(true);
    expect(new Set(byGroup.records.map((r) => r.action))).toContain('user.disable');
    const partial = data(await ctx.call({ url: '/api/admin/audit?action=user.pass', token: operator })) as {
      total: number;
    };
    expect(partial.total).toBe(0);
    // The platform operator's changes to another tenant are that tenant's record.
    const north = data(
      await ctx.call({
        url: '/api/admin/audit?tenant=north-park',
        token: await ctx.login('platform', DEMO_PASSWORD, 'platform'),
      }),
    ) as { records: { action: string }[] };
    expect(north.records.map((r) => r.action)).toContain('settings.update');
    const none = data(await ctx.call({ url: '/api/admin/audit?actor=nobody', token: operator })) as { total: number };
    expect(none.total).toBe(0);
  });

  it("writes one audit row for a platform operator's change of another tenant: that tenant's, naming the operator's own", async () => {
    const platform = await ctx.login('platform', DEMO_PASSWORD, 'platform');
    const demo = await idOf(sql`SELECT id FROM tenants WHERE code = 'demo'`);
    const own = await idOf(sql`SELECT id FROM tenants WHERE code = 'platform'`);
    const agreement = data(await ctx.call({ url: '/api/admin/agreement?tenant=demo', token: platform }));
    const last = await idOf(sql`SELECT coalesce(max(id), 0) AS id FROM audit_log`);
    const saved = await ctx.call({
      method: 'PUT',
      url: '/api/admin/agreement?tenant=demo',
      body: agreement as Record<string, unknown>,
      token: platform,
    });
    expect(statusOf(saved)).toBe(200);
    const { rows } = await ctx.db.execute(sql`SELECT tenant_id::text AS tenant, action,
      detail ->> 'operatorTenant' AS "operatorTenant" FROM audit_log WHERE id > ${last}`);
    expect(rows).toEqual([{ tenant: demo, action: 'agreement.update', operatorTenant: own }]);
  });

  it('maps every audited operator route to a code of the catalogue, and no other route', async () => {
    // A route added later without a code stops the server at start-up (platform/operators.ts); the
    // map names no route that is gone, and only the reads recorded: the one that shows live codes,
    // and the exports of the audit log (ADR 044), of people's replies to a notice (ADR 043) and of the
    // login history (ADR 052).
    const audited = ctx.app.routeTable
      .filter((r) => r.url.startsWith('/api/admin/') && !['GET', 'HEAD'].includes(r.method))
      .map((r) => `${r.method} ${r.url}`);
    expect(Object.keys(ADMIN_ROUTE_ACTIONS).sort()).toEqual(
      [
        ...audited,
        'GET /api/admin/sms-outbox',
        'GET /api/admin/audit/export',
        'GET /api/admin/notices/:id/recipients/export',
        'GET /api/admin/login-history/export',
      ].sort(),
    );
    // Each code names one kind of change.
    const codes = Object.values(ADMIN_ROUTE_ACTIONS);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(AUDIT_ACTIONS[code].zh && AUDIT_ACTIONS[code].en).toBeTruthy();
    // Other reads write nothing.
    const before = await idOf(sql`SELECT count(*) AS id FROM audit_log`);
    expect(statusOf(await ctx.call({ url: '/api/admin/users', token: operator }))).toBe(200);
    expect(await idOf(sql`SELECT count(*) AS id FROM audit_log`)).toBe(before);
  });

  it('turns the rows written before the catalogue into its codes, and keeps a text it has no code for', async () => {
    const migration = await readFile(join(MIGRATIONS_DIR, '0018_audit_action_codes.sql'), 'utf8');
    const pairs = [...migration.matchAll(/\('(admin:[^']+)', '([^']+)'\)/g)].map((m) => [m[1]!, m[2]!] as const);
    expect(pairs.length).toBeGreaterThan(40);
    for (const [old, code] of pairs) {
      expect(isAuditAction(code), code).toBe(true);
      expect(old.replace(/^admin:HEAD /, 'admin:GET ')).toBe(
        `admin:${Object.entries(ADMIN_ROUTE_ACTIONS).find(([, c]) => c === code)![0]}`,
      );
    }
    const tenant = await idOf(sql`SELECT id FROM tenants WHERE code = 'demo'`);
    await ctx.db.execute(sql`INSERT INTO audit_log (tenant_id, action, detail) VALUES
      (${tenant}, 'admin:POST /api/admin/users/:id/password', '{"old":1}'),
      (${tenant}, 'admin:POST /api/admin/gone', '{"old":2}')`);
    await ctx.db.execute(sql.raw(migration));
    const { rows } = await ctx.db.execute<{ action: string }>(
      sql`SELECT action FROM audit_log WHERE detail ? 'old' ORDER BY detail ->> 'old'`,
    );
    expect(rows.map((r) => r.action)).toEqual(['user.password.set', 'admin:POST /api/admin/gone']);
    // The console shows the text of a row the catalogue has no code for: the API answers it as it is.
    const log = data(
      await ctx.call({
        url: `/api/admin/audit?action=${encodeURIComponent('admin:POST /api/admin/gone')}`,
        token: operator,
      }),
    ) as { records: { action: string }[] };
    expect(log.records.map((r) => r.action)).toEqual(['admin:POST /api/admin/gone']);
  });

  it('makes no change that it cannot audit: the change and its audit row commit together', async () => {
    // The audit log refuses this one row, as a full disk or a lost connection would.
    await ctx.db.execute(sql`ALTER TABLE audit_log ADD CONSTRAINT refuse_one
      CHECK (detail -> 'body' ->> 'username' IS DISTINCT FROM 'unaudited')`);
    try {
      const roles = data(await ctx.call({ url: '/api/admin/roles', token: operator })) as {
        id: string;
        code: string;
      }[];
      const body = {
        username: 'unaudited',
        name: '未审计',
        password: ctx.encrypt('Welcome#2026x'),
        roleIds: [roles.find((r) => r.code === 'ent_member')!.id],
      };
      const res = await ctx.call({ url: '/api/admin/users', body, token: operator });
      expect(res.statusCode).not.toBe(200);
      const { rows } = await ctx.db.execute(sql`SELECT id FROM users WHERE username = 'unaudited'`);
      expect(rows).toEqual([]);
      // Whatever a request carries, its row can be written: a NUL in a field no schema reads once
      // made the row fail after the change had committed.
      const device = await idOf(sql`SELECT d.id FROM devices d JOIN tenants t ON t.id = d.tenant_id
        WHERE t.code = 'demo' ORDER BY d.id LIMIT 1`);
      const before = await idOf(sql`SELECT count(*) AS id FROM audit_log`);
      const odd = await ctx.call({
        url: `/api/admin/devices/${device}/credentials`,
        body: { a: 'x\u0000\ud800' },
        token: operator,
      });
      const after = await idOf(sql`SELECT count(*) AS id FROM audit_log`);
      if (odd.statusCode === 200) expect(Number(after)).toBe(Number(before) + 1);
      else expect([odd.statusCode, after]).toEqual([400, before]);
    } finally {
      await ctx.db.execute(sql`ALTER TABLE audit_log DROP CONSTRAINT refuse_one`);
    }
  });
});

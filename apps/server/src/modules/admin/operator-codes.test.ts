/**
 * The default role, which every newcomer gets, never holds a code that administers the tenant
 * (contracts OPERATOR_CODES, ADR 036): on every path that could make it so — marking a role as the
 * default, granting a code to the default role, a new default role, opening a code to everyone
 * (status 0), a new code, a new tenant — the answer is a refusal with a message and nothing
 * changes; and a default role made so outside the API (by hand, by an older version) hands
 * nothing of it to a newcomer.
 */
import { randomBytes } from 'node:crypto';
import { OPERATOR_CODES } from '@portal/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRolesHoldingOperatorCodes } from '../../db/role-powers.js';
import { DEMO_PASSWORD, createTestContext, type TestContext } from '../../test/harness.js';

const PASSWORD = 'Zq9#mVt2x';
let ctx: TestContext;
let operator: string;
let roles: { id: string; code: string; isDefault: boolean; permissionIds: string[] }[];
let perms: { id: string; code: string }[];

const data = (res: { json(): unknown }) => (res.json() as { data: unknown }).data;
const answer = (res: { json(): unknown }) => res.json() as { status: number; message: string };
const role = (code: string) => roles.find((r) => r.code === code)!;
const perm = (code: string) => perms.find((p) => p.code === code)!;
const load = async (token = operator) => {
  roles = data(await ctx.call({ url: '/api/admin/roles', token })) as typeof roles;
  perms = data(await ctx.call({ url: '/api/admin/permissions', token })) as typeof perms;
};

/** Registers a member of the demo tenant through the public form: the answer. */
async function register(mobile: string) {
  const number = randomBytes(8).toString('hex');
  await ctx.call({ url: `/api/front/account/auth/kaptcha?number=${number}` });
  await ctx.call({
    url: '/api/front/member/sendPhoneCode',
    body: { phone: mobile, type: 2, imageCode: '8888', number, tenantCode: 'demo' },
  });
  const { rows } = await ctx.db.execute<{ body: string }>(
    sql`SELECT body FROM sms_outbox WHERE phone = ${mobile} ORDER BY id DESC LIMIT 1`,
  );
  const smsCode = /(\d{6})/.exec(rows[0]?.body ?? '')?.[1] ?? '000000';
  return ctx.call({
    url: '/api/front/member/registerMember',
    body: { username: `u${mobile}`, mobile, password: ctx.encrypt(PASSWORD), smsCode, tenantCode: 'demo' },
  });
}

/** A newcomer of the demo tenant, registered and signed in. */
async function newcomer(mobile: string): Promise<string> {
  const res = await register(mobile);
  expect(answer(res).status, res.body).toBe(200);
  return ctx.login(`u${mobile}`, PASSWORD);
}

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_RATE_PER_MINUTE: '100000' });
  operator = await ctx.asRole(await ctx.login('admin'), 'park_operator');
  await load();
});
afterAll(async () => ctx?.close());

describe('the default role and the codes that administer', () => {
  it('refuses to make a role holding an operator code the default (409), and nothing changes', async () => {
    const res = await ctx.call({
      method: 'PATCH',
      url: `/api/admin/roles/${role('park_operator').id}`,
      body: { isDefault: true },
      token: operator,
    });
    expect(res.statusCode).toBe(409);
    expect(answer(res).message).toMatch(/^默认角色不能拥有管理权限：.*system:manage/);
    const en = await ctx.call({
      method: 'PATCH',
      url: `/api/admin/roles/${role('park_operator').id}?language=eng`,
      body: { isDefault: true },
      token: operator,
    });
    expect(answer(en).message).toMatch(/^The default role cannot hold codes that administer the tenant: /);
    await load();
    expect(role('park_operator').isDefault).toBe(false);
    expect(role('ent_member').isDefault).toBe(true);
    // A stranger who registers now is a member, not an operator.
    const stranger = await newcomer('13712348001');
    expect(answer(await ctx.call({ url: '/api/admin/users', token: stranger })).status).toBe(40303);
  });

  it('refuses to give the default role any operator code (409)', async () => {
    const member = role('ent_member');
    for (const code of OPERATOR_CODES) {
      const res = await ctx.call({
        method: 'PUT',
        url: `/api/admin/roles/${member.id}/permissions`,
        body: { permissionIds: [...member.permissionIds, perm(code).id] },
        token: operator,
      });
      expect(res.statusCode, code).toBe(409);
      expect(answer(res).message, code).toContain(code);
    }
    // Other codes may still be given to it.
    const colist = await ctx.call({
      method: 'PUT',
      url: `/api/admin/roles/${member.id}/permissions`,
      body: { permissionIds: [...member.permissionIds, perm('colist').id] },
      token: operator,
    });
    expect(answer(colist).status, colist.body).toBe(200);
    await load();
    expect(role('ent_member').permissionIds).toEqual([...member.permissionIds, perm('colist').id].sort());
  });

  it('makes a new role the default only while it holds no operator code', async () => {
    const created = await ctx.call({
      url: '/api/admin/roles',
      body: { code: 'visitor', title: '访客', isDefault: true },
      token: operator,
    });
    expect(answer(created).status, created.body).toBe(200);
    const id = data(created) as string;
    const grant = await ctx.call({
      method: 'PUT',
      url: `/api/admin/roles/${id}/permissions`,
      body: { permissionIds: [perm('page:design').id] },
      token: operator,
    });
    expect(grant.statusCode).toBe(409);
    // Given back to the member role, the new one may then hold it.
    await ctx.call({
      method: 'PATCH',
      url: `/api/admin/roles/${role('ent_member').id}`,
      body: { isDefault: true },
      token: operator,
    });
    const later = await ctx.call({
      method: 'PUT',
      url: `/api/admin/roles/${id}/permissions`,
      body: { permissionIds: [perm('page:design').id] },
      token: operator,
    });
    expect(answer(later).status, later.body).toBe(200);
    const back = await ctx.call({
      method: 'PATCH',
      url: `/api/admin/roles/${id}`,
      body: { isDefault: true },
      token: operator,
    });
    expect(back.statusCode).toBe(409);
  });

  it('keeps every operator code enforced: its status and type are fixed, for new codes too', async () => {
    for (const code of OPERATOR_CODES) {
      for (const body of [{ status: 0 }, { type: 2 }]) {
        const res = await ctx.call({
          method: 'PATCH',
          url: `/api/admin/permissions/${perm(code).id}`,
          body,
          token: operator,
        });
        expect(res.statusCode, `${code} ${JSON.stringify(body)}`).toBe(400);
        expect(answer(res).message).toMatch(/^管理权限必须保持生效/);
      }
    }
    const describeOnly = await ctx.call({
      method: 'PATCH',
      url: `/api/admin/permissions/${perm('device:manage').id}`,
      body: { describe: '设备与凭据' },
      token: operator,
    });
    expect(answer(describeOnly).status).toBe(200);
    // A tenant that lacks a code may add it, but only enforced.
    await ctx.db.execute(sql`DELETE FROM permissions WHERE code = 'alert:handle'
      AND tenant_id = (SELECT id FROM tenants WHERE code = 'demo')`);
    const open = await ctx.call({
      url: '/api/admin/permissions',
      body: { code: 'alert:handle', describe: '处理告警', status: 0 },
      token: operator,
    });
    expect(open.statusCode).toBe(400);
    const enforced = await ctx.call({
      url: '/api/admin/permissions',
      body: { code: 'alert:handle', describe: '处理告警' },
      token: operator,
    });
    expect(answer(enforced).status, enforced.body).toBe(200);
  });

  it('makes new tenants whose default role holds no operator code', async () => {
    const platform = await ctx.login('platform', DEMO_PASSWORD, 'platform');
    const created = await ctx.call({
      url: '/api/admin/tenants',
      body: {
        code: 'east-park',
        name: '东区园区',
        operator: { username: 'east', name: '东区运营', password: ctx.encrypt('Harbour#2026x') },
      },
      token: platform,
    });
    expect(answer(created).status, created.body).toBe(200);
    const { rows } = await ctx.db.execute<{ code: string }>(sql`
      SELECT p.code FROM roles r JOIN role_permissions rp ON rp.role_id = r.id JOIN permissions p ON p.id = rp.permission_id
      JOIN tenants t ON t.id = r.tenant_id WHERE t.code IN ('east-park', 'platform', 'demo') AND r.is_default`);
    expect(rows.map((r) => r.code).filter((c) => (OPERATOR_CODES as readonly string[]).includes(c))).toEqual([]);
  });

  it('hands a newcomer nothing of a default role that holds an operator code by hand', async () => {
    // As an older version, or an edit in the database, could have left it.
    await ctx.db.execute(sql`INSERT INTO role_permissions (role_id, permission_id)
      SELECT r.id, p.id FROM roles r JOIN permissions p ON p.tenant_id = r.tenant_id AND p.code = 'system:manage'
      WHERE r.is_default AND r.tenant_id = (SELECT id FROM tenants WHERE code = 'demo')`);
    const res = await register('13712348002');
    expect(answer(res)).toMatchObject({ status: 400, message: '该园区暂未开放注册，请联系园区管理员' });
    const { rows } = await ctx.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM users WHERE mobile = '13712348002'`,
    );
    expect(rows[0]!.n).toBe(0);
    // The start-up report names it.
    expect(await defaultRolesHoldingOperatorCodes(ctx.db)).toEqual([{ tenant: 'demo', codes: ['system:manage'] }]);
    await ctx.db.execute(sql`DELETE FROM role_permissions WHERE permission_id IN
      (SELECT id FROM permissions WHERE code = 'system:manage') AND role_id IN (SELECT id FROM roles WHERE is_default)`);
    expect(await defaultRolesHoldingOperatorCodes(ctx.db)).toEqual([]);
  });
});

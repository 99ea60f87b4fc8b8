/**
 * What a member holds and their own settings (ADR 011): lists of the caller's roles,
 * applications and workbenches, nickname and defaults; nothing of another user or another tenant.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.js';

let ctx: TestContext;
let member: string;
let memberId: string;
let otherTenantRole: number;
let otherTenantApp: number;

async function id(query: ReturnType<typeof sql>): Promise<number> {
  return Number((await ctx.db.execute<{ id: number }>(query)).rows[0]!.id);
}

beforeAll(async () => {
  ctx = await createTestContext();
  member = await ctx.login('member');
  memberId = (await ctx.call({ url: '/api/front/member/front/infoV2', token: member })).json().data.userId;
  const other = await id(sql`INSERT INTO tenants (code, name) VALUES ('other', '其他园区') RETURNING id`);
  otherTenantRole = await id(
    sql`INSERT INTO roles (tenant_id, code, title) VALUES (${other}, 'x', '他人角色') RETURNING id`,
  );
  otherTenantApp = await id(
    sql`INSERT INTO applications (tenant_id, code, name) VALUES (${other}, 'ENT_SERVICE', '他人应用') RETURNING id`,
  );
});
afterAll(async () => ctx?.close());

describe('what the caller holds', () => {
  it("lists the caller's roles, applications and workbenches", async () => {
    const roles = await ctx.call({ url: `/api/front/member/getUserRolesNew?userId=${memberId}`, token: member });
    expect(
      roles
        .json()
        .data.map((r: { title: string }) => r.title)
        .sort(),
    ).toEqual(['企业成员', '企业管理员']);
    const apps = await ctx.call({ url: '/api/front/apply/info/getNewApplyList', token: member });
    const codes = apps.json().data.map((a: { appCode: string }) => a.appCode);
    expect(codes).toContain('ENT_SERVICE');
    expect(codes).not.toContain('PARK_OPS');
    const benches = await ctx.call({ url: '/api/front/member/getWorkbenchList', token: member });
    expect(benches.json().data.map((w: { appCode: string }) => w.appCode)).toEqual(['WB_ENT', 'WB_PARK']);
  });

  it("refuses another user's roles, and answers application checks and names within the tenant", async () => {
    const admin = await id(sql`SELECT id FROM users WHERE username = 'admin'`);
    const other = await ctx.call({ url: `/api/front/member/getUserRolesNew?userId=${admin}`, token: member });
    expect(other.statusCode).toBe(403);
    expect(other.json()).toMatchObject({ status: 40303, message: '只能查看和修改自己的账号信息' });
    const held = await ctx.call({ url: '/api/front/member/checkAppCodeAuth?fastAppCode=ENT_SERVICE', token: member });
    expect(held.json().data).toBe(true);
    const notHeld = await ctx.call({ url: '/api/front/member/checkAppCodeAuth?fastAppCode=PARK_OPS', token: member });
    expect(notHeld.json().data).toBe(false);
    const name = await ctx.call({ url: '/api/front/member/getAppNameByCode/PARK_OPS', token: member });
    expect(name.json().data).toBe('园区运营平台');
    const unknown = await ctx.call({ url: '/api/front/member/getAppNameByCode/NOPE?language=eng', token: member });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('No such application');
    expect((await ctx.call({ url: '/api/front/member/getWorkbenchList' })).statusCode).toBe(401);
  });
});

describe('own settings', () => {
  it('sets the nickname (required, at most 32 characters), only for oneself', async () => {
    const set = (userId: string | number, nickName: string) =>
      ctx.call({ url: '/api/front/member/updateNickName', token: member, body: { userId, nickName } });
    expect((await set(memberId, '  ')).json().message).toBe('请输入昵称');
    expect((await set(memberId, '长'.repeat(33))).json().message).toBe('昵称不能超过32个字符');
    const admin = await id(sql`SELECT id FROM users WHERE username = 'admin'`);
    expect((await set(admin, '冒名')).statusCode).toBe(403);
    expect((await set(memberId, ' 小敏 ')).statusCode).toBe(200);
    const info = await ctx.call({ url: '/api/front/member/front/infoV2', token: member });
    expect(info.json().data.name).toBe('小敏');
    expect((await ctx.db.execute(sql`SELECT 1 FROM users WHERE id = ${admin} AND nickname = '冒名'`)).rows).toEqual([]);
  });

  it('sets default role, workbench and application only to ones held, applied at the next login', async () => {
    const post = (url: string, body: Record<string, unknown>) => ctx.call({ url, token: member, body });
    const LOGIN = '/api/front/member/front/updateDefaultLogin';
    const APPLY = '/api/front/member/front/updateDefaultApply';
    const park = await id(sql`SELECT id FROM roles WHERE code = 'park_operator'`);
    const admin = await id(
      sql`SELECT r.id FROM roles r JOIN tenants t ON t.id = r.tenant_id WHERE t.code = 'demo' AND r.code = 'ent_admin'`,
    );
    const opsApp = await id(sql`SELECT id FROM applications WHERE code = 'PARK_OPS'`);
    expect((await post(LOGIN, { defaultRoleId: park })).json()).toMatchObject({
      status: 40303,
      message: '当前用户不拥有该角色',
    });
    expect((await post(LOGIN, { defaultRoleId: otherTenantRole })).statusCode).toBe(403);
    expect((await post(LOGIN, { defaultWorkbenchCode: 'WB_NONE' })).json().message).toBe('当前用户无该工作台权限');
    expect((await post(APPLY, { defaultApplyId: opsApp })).json().message).toBe('当前用户无该应用权限');
    expect((await post(APPLY, { defaultApplyId: otherTenantApp })).statusCode).toBe(403);
    // An id that can name no row is bad input (400), not a permission question.
    for (const bad of ['x', 0, '-1']) {
      const res = await post(APPLY, { defaultApplyId: bad });
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json().message).toBe('编号格式不正确');
    }
    expect((await post(LOGIN, { defaultRoleId: 'abc' })).statusCode).toBe(400);

    expect((await post(LOGIN, { defaultRoleId: String(admin), defaultWorkbenchCode: 'WB_PARK' })).statusCode).toBe(200);
    const row = await ctx.db.execute<{ role: string; bench: string }>(sql`
      SELECT r.code AS role, w.code AS bench FROM users u
      JOIN roles r ON r.id = u.default_role_id JOIN workbenches w ON w.id = u.default_workbench_id
      WHERE u.username = 'member'`);
    expect(row.rows[0]).toEqual({ role: 'ent_admin', bench: 'WB_PARK' });
    // The next login's session starts in the new default role and workbench (infoV2 names both).
    const bench = await id(sql`SELECT id FROM workbenches WHERE code = 'WB_PARK'`);
    const next = await ctx.login('member');
    const info = (await ctx.call({ url: '/api/front/member/front/infoV2', token: next })).json().data;
    expect(info).toMatchObject({
      roleId: String(admin),
      defaultRoleId: String(admin),
      workbenchId: String(bench),
      defaultWorkbenchId: String(bench),
    });
  });
});

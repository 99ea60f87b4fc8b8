/**
 * Switching role, application, workbench and enterprise (ADR 011): each answers a new token and
 * revokes the old one; only to what the user holds in the session's tenant (IDOR refused).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.js';

let ctx: TestContext;

async function id(query: ReturnType<typeof sql>): Promise<number> {
  return Number((await ctx.db.execute<{ id: number }>(query)).rows[0]!.id);
}
const demo = (table: 'roles' | 'applications' | 'workbenches', code: string) =>
  id(
    sql`SELECT x.id FROM ${sql.raw(table)} x JOIN tenants t ON t.id = x.tenant_id WHERE t.code = 'demo' AND x.code = ${code}`,
  );
const info = (token: string) => ctx.call({ url: '/api/front/member/front/infoV2', token });
const session = async (token: string) => {
  const jti = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).jti as string;
  return (await ctx.db.execute<Record<string, unknown>>(sql`SELECT * FROM sessions WHERE id = ${jti}`)).rows[0]!;
};

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

describe('switchContext', () => {
  it('switches the role: a new token with the new role, the old token refused', async () => {
    const old = await ctx.login('member');
    const admin = await demo('roles', 'ent_admin');
    const res = await ctx.call({ url: '/api/front/member/switchContext', token: old, body: { roleId: admin } });
    expect(res.statusCode, res.body).toBe(200);
    const fresh = res.json().data as string;
    expect(fresh).not.toBe(old);
    expect((await info(old)).statusCode).toBe(401);
    const now = await info(fresh);
    expect(now.statusCode).toBe(200);
    // infoV2 names the session's current role, which the dialogs preselect, next to the defaults.
    const defaultRole = String(await demo('roles', 'ent_member'));
    expect(now.json().data).toMatchObject({ roleId: String(admin), defaultRoleId: defaultRole });
    const s = await session(fresh);
    expect(Number(s.role_id)).toBe(admin);
    expect(s.revoked_at).toBeNull();
    // The rest of the context and the expiry are kept.
    const before = await session(old);
    expect([s.application_id, s.workbench_id, s.enterprise_id]).toEqual([
      before.application_id,
      before.workbench_id,
      before.enterprise_id,
    ]);
    expect(String(s.expires_at)).toBe(String(before.expires_at));
  });

  it('switches application and workbench together', async () => {
    const token = await ctx.login('admin');
    const ops = await demo('applications', 'PARK_OPS');
    const park = await demo('workbenches', 'WB_PARK');
    const res = await ctx.call({
      url: '/api/front/member/switchContext',
      token,
      body: { applyId: ops, workbenchId: park },
    });
    expect(res.statusCode, res.body).toBe(200);
    const s = await session(res.json().data);
    expect([Number(s.application_id), Number(s.workbench_id)]).toEqual([ops, park]);
    expect((await info(res.json().data)).json().data).toMatchObject({
      applyId: String(ops),
      workbenchId: String(park),
      defaultWorkbenchId: String(await demo('workbenches', 'WB_ENT')),
    });
  });

  it('refuses what is not held — another role, application, another tenant — and keeps the old token', async () => {
    const token = await ctx.login('member');
    const other = await id(sql`INSERT INTO tenants (code, name) VALUES ('other', '其他园区') RETURNING id`);
    const foreignRole = await id(
      sql`INSERT INTO roles (tenant_id, code, title) VALUES (${other}, 'ent_admin', '他人') RETURNING id`,
    );
    const cases: [Record<string, number>, string][] = [
      [{ roleId: await demo('roles', 'park_operator') }, '当前用户不拥有该角色'],
      [{ roleId: foreignRole }, '当前用户不拥有该角色'],
      [{ applyId: await demo('applications', 'PARK_OPS') }, '当前用户无该应用权限'],
      [{ workbenchId: 999_999 }, '当前用户无该工作台权限'],
    ];
    // Another tenant's application and workbench, and a demo workbench the member does not hold.
    const foreignApp = await id(
      sql`INSERT INTO applications (tenant_id, code, name) VALUES (${other}, 'ENT_SERVICE', '他人') RETURNING id`,
    );
    const foreignBench = await id(
      sql`INSERT INTO workbenches (tenant_id, code, name) VALUES (${other}, 'WB_ENT', '他人') RETURNING id`,
    );
    const userId = await id(sql`SELECT id FROM users WHERE username = 'member' AND tenant_id <> ${other}`);
    await ctx.db.execute(
      sql`INSERT INTO user_applications (user_id, application_id) VALUES (${userId}, ${foreignApp})`,
    );
    await ctx.db.execute(sql`INSERT INTO user_workbenches (user_id, workbench_id) VALUES (${userId}, ${foreignBench})`);
    const unheldBench = await id(sql`
      INSERT INTO workbenches (tenant_id, code, name) SELECT tenant_id, 'WB_NEW', '新工作台' FROM workbenches
      WHERE id = ${await demo('workbenches', 'WB_ENT')} RETURNING id`);
    cases.push(
      [{ applyId: foreignApp }, '当前用户无该应用权限'],
      [{ workbenchId: foreignBench }, '当前用户无该工作台权限'],
      [{ workbenchId: unheldBench }, '当前用户无该工作台权限'],
    );
    const sessions = async () =>
      Number((await ctx.db.execute<{ n: number }>(sql`SELECT count(*) AS n FROM sessions`)).rows[0]!.n);
    const before = await sessions();
    for (const [body, message] of cases) {
      const res = await ctx.call({ url: '/api/front/member/switchContext', token, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(403);
      expect(res.json()).toMatchObject({ status: 40303, message });
    }
    expect(await sessions()).toBe(before);
    expect((await info(token)).statusCode).toBe(200);
  });

  it('refuses without a session, with a revoked token, with nothing to switch and with ids no row can have', async () => {
    const old = await ctx.login('member');
    const role = await demo('roles', 'ent_admin');
    const noSession = await ctx.call({ url: '/api/front/member/switchContext', body: { roleId: role } });
    expect(noSession.statusCode).toBe(401);
    const fresh = await ctx.call({ url: '/api/front/member/switchContext', token: old, body: { roleId: role } });
    expect(fresh.statusCode).toBe(200);
    // The revoked token cannot mint another one.
    const again = await ctx.call({ url: '/api/front/member/switchContext', token: old, body: { roleId: role } });
    expect(again.statusCode).toBe(401);
    const token = fresh.json().data as string;
    const empty = await ctx.call({ url: '/api/front/member/switchContext', token, body: {} });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('请选择要切换的角色、应用或工作台');
    for (const body of [{ roleId: 1e20 }, { workbenchId: 0 }, { applyId: -1 }]) {
      expect((await ctx.call({ url: '/api/front/member/switchContext', token, body })).statusCode).toBe(400);
    }
    const huge = await ctx.call({
      url: '/api/front/member/switchEnterprises',
      method: 'PUT',
      token,
      body: { entId: 1e20 },
    });
    expect(huge.statusCode).toBe(400);
    expect((await info(token)).statusCode).toBe(200);
  });
});

describe('switchEnterprises', () => {
  it('switches to a joined enterprise (group name follows) and refuses one not joined or of another tenant', async () => {
    const token = await ctx.login('member');
    const blue = await id(sql`SELECT id FROM enterprises WHERE name = '蓝海智能制造有限公司'`);
    const res = await ctx.call({
      url: '/api/front/member/switchEnterprises',
      method: 'PUT',
      token,
      body: { entId: blue },
    });
    expect(res.statusCode, res.body).toBe(200);
    const fresh = res.json().data as string;
    expect((await info(fresh)).json().data.groupName).toBe('蓝海智能制造有限公司');
    expect((await info(token)).statusCode).toBe(401);

    const foreign = await id(sql`
      INSERT INTO enterprises (tenant_id, name) SELECT id, '他园企业' FROM tenants WHERE code = 'other' RETURNING id`);
    await ctx.db.execute(sql`
      INSERT INTO enterprise_members (enterprise_id, user_id) SELECT ${foreign}, id FROM users WHERE username = 'member'`);
    const notJoined = await id(
      sql`INSERT INTO enterprises (tenant_id, name) SELECT id, '未加入企业' FROM tenants WHERE code = 'demo' RETURNING id`,
    );
    for (const entId of [foreign, notJoined]) {
      const refused = await ctx.call({
        url: '/api/front/member/switchEnterprises',
        method: 'PUT',
        token: fresh,
        body: { entId },
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe('当前用户未加入该企业');
    }
    expect((await info(fresh)).statusCode).toBe(200);
    const bad = await ctx.call({
      url: '/api/front/member/switchEnterprises',
      method: 'PUT',
      token: fresh,
      body: { entId: 'x' },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('makes the enterprise switched to the default one: user info names it, the next login starts there', async () => {
    const token = await ctx.login('admin');
    const before = (await info(token)).json().data;
    const target = (
      await ctx.db.execute<{ id: number; guid: string }>(sql`
      SELECT e.id, e.guid::text AS guid FROM enterprises e JOIN tenants t ON t.id = e.tenant_id
      WHERE t.code = 'demo' AND e.name = '青松物流有限公司'`)
    ).rows[0]!;
    expect(before.defaultEntId).not.toBe(String(target.id));
    const res = await ctx.call({
      url: '/api/front/member/switchEnterprises',
      method: 'PUT',
      token,
      body: { entId: target.id },
    });
    const after = (await info(res.json().data as string)).json().data;
    expect(after).toMatchObject({
      groupId: String(target.id),
      groupName: '青松物流有限公司',
      defaultEntId: String(target.id),
      defaultEntGuId: target.guid,
    });
    const next = (await info(await ctx.login('admin'))).json().data;
    expect(next).toMatchObject({ groupId: String(target.id), defaultEntId: String(target.id) });
  });
});

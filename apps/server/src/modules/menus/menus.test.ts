/**
 * allPermissionV2 (role switch, application menus, entry flags), tenant isolation of the menu and
 * of infoV2, and the tree builder.
 */
import type { MenuItem, MenuData, PermissionItem } from '@portal/contracts';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, DEMO_PASSWORD, type TestContext } from '../../test/harness.js';
import type { MenuRow } from './menus.repository.js';
import { buildTree } from './menus.service.js';
import { hashPassword } from '../../platform/passwords.js';

const MENU_URL = '/api/front/member/front/allPermissionV2';
const INFO_URL = '/api/front/member/front/infoV2';
const OTHER_PASSWORD = 'Other#Pw2026!';

let ctx: TestContext;
let memberToken: string;
/** Role ids of tenant demo by code. */
let demoRole: Record<string, number>;
let other: { tenantId: number; roleId: number; userId: number; enterpriseId: number; menuId: number };

async function one<T extends Record<string, unknown>>(query: ReturnType<typeof sql>): Promise<T> {
  const res = await ctx.db.execute(query);
  return res.rows[0] as T;
}

/** A second tenant `other`, with a user named `member` like demo's, one role, one menu entry. */
async function insertOtherTenant() {
  const { id: tenantId } = await one<{ id: number }>(
    sql`INSERT INTO tenants (code, name) VALUES ('other', '其他园区') RETURNING id`,
  );
  const { id: roleId } = await one<{ id: number }>(
    sql`INSERT INTO roles (tenant_id, code, title) VALUES (${tenantId}, 'ent_member', '其他成员') RETURNING id`,
  );
  const { id: appId } = await one<{ id: number }>(
    sql`INSERT INTO applications (tenant_id, code, name) VALUES (${tenantId}, 'ENT_SERVICE', '其他服务') RETURNING id`,
  );
  const { id: enterpriseId } = await one<{ id: number }>(
    sql`INSERT INTO enterprises (tenant_id, name, estatus) VALUES (${tenantId}, '远山贸易有限公司', 1) RETURNING id`,
  );
  const passwordHash = await hashPassword(OTHER_PASSWORD);
  const { id: userId } = await one<{ id: number }>(sql`
    INSERT INTO users (tenant_id, username, password_hash, name, home_uri, default_role_id, default_application_id, default_enterprise_id)
    VALUES (${tenantId}, 'member', ${passwordHash}, '李雷', '/other', ${roleId}, ${appId}, ${enterpriseId}) RETURNING id`);
  await ctx.db.execute(sql`
    INSERT INTO users (tenant_id, username, password_hash, name) VALUES (${tenantId}, 'norole', ${passwordHash}, '无角色')`);
  await ctx.db.execute(sql`INSERT INTO user_roles (user_id, role_id) VALUES (${userId}, ${roleId})`);
  await ctx.db.execute(sql`INSERT INTO user_applications (user_id, application_id) VALUES (${userId}, ${appId})`);
  await ctx.db.execute(
    sql`INSERT INTO enterprise_members (enterprise_id, user_id) VALUES (${enterpriseId}, ${userId})`,
  );
  const { id: menuId } = await one<{ id: number }>(sql`
    INSERT INTO menus (tenant_id, name, path, component, meta)
    VALUES (${tenantId}, 'otherHome', '/other', 'other/home', ${JSON.stringify({ title: '其他首页' })}::jsonb) RETURNING id`);
  await ctx.db.execute(sql`INSERT INTO role_menus (role_id, menu_id) VALUES (${roleId}, ${menuId})`);
  const { id: permId } = await one<{ id: number }>(sql`
    INSERT INTO permissions (tenant_id, code, describe) VALUES (${tenantId}, 'otherPerm', '其他权限') RETURNING id`);
  await ctx.db.execute(sql`INSERT INTO role_permissions (role_id, permission_id) VALUES (${roleId}, ${permId})`);
  return { tenantId, roleId, userId, enterpriseId, menuId };
}

beforeAll(async () => {
  ctx = await createTestContext();
  const res = await ctx.db.execute<{ id: number; code: string }>(
    sql`SELECT r.id, r.code FROM roles r JOIN tenants t ON t.id = r.tenant_id WHERE t.code = 'demo'`,
  );
  demoRole = Object.fromEntries(res.rows.map((r) => [r.code, r.id]));
  other = await insertOtherTenant();
  memberToken = await ctx.login('member');
});
afterAll(async () => ctx?.close());

async function menuData(token: string, query = ''): Promise<MenuData> {
  const res = await ctx.call({ url: `${MENU_URL}${query}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: MenuData }>().data;
}

function flatten(items: MenuItem[]): MenuItem[] {
  return items.flatMap((i) => [i, ...flatten(i.children ?? [])]);
}
const names = (items: MenuItem[]) => flatten(items).map((i) => i.name);
const actions = (items: PermissionItem[]) => items.map((p) => p.action);
const find = (items: MenuItem[], name: string) => flatten(items).find((i) => i.name === name);

function expectNoPermission(res: LightMyRequestResponse) {
  expect(res.statusCode).toBe(403);
  expect(res.json()).toEqual({ status: 40303, message: '当前用户不拥有该角色', data: null });
}

describe('role switch', () => {
  it("uses the session's role without roleId", async () => {
    const data = await menuData(memberToken);
    expect(actions(data.auth)).toEqual(['messageIndex']);
    expect(names(data.menu)).not.toContain('entMemberInvite');
    expect(names(data.menu)).toContain('entMemberList');
  });

  it('switches to another role the user holds', async () => {
    const data = await menuData(memberToken, `?roleId=${demoRole.ent_admin}`);
    expect(names(data.menu)).toContain('entMemberInvite');
    expect(actions(data.auth)).toEqual(['colist', 'ent:invite', 'messageIndex', 'repair:handle']);
    const back = await menuData(memberToken, `?roleId=${demoRole.ent_member}`);
    expect(names(back.menu)).not.toContain('entMemberInvite');
  });

  it('refuses a role of the tenant that the user does not hold with 403 / 40303', async () => {
    expectNoPermission(await ctx.call({ url: `${MENU_URL}?roleId=${demoRole.park_operator}`, token: memberToken }));
    const en = await ctx.call({ url: `${MENU_URL}?roleId=${demoRole.park_operator}&language=eng`, token: memberToken });
    expect(en.statusCode).toBe(403);
    expect(en.json()).toEqual({ status: 40303, message: 'You do not hold this role', data: null });
  });

  it("refuses another tenant's role with 403 / 40303", async () => {
    expectNoPermission(await ctx.call({ url: `${MENU_URL}?roleId=${other.roleId}`, token: memberToken }));
  });

  it('needs a session', async () => {
    const res = await ctx.call({ url: `${MENU_URL}?roleId=${demoRole.ent_admin}` });
    expect(res.statusCode).toBe(401);
    expect(res.json().status).toBe(401);
  });
});

describe('application menus', () => {
  it('shows only common entries for the default application ENT_SERVICE', async () => {
    const data = await menuData(memberToken);
    expect(data.menu.map((m) => m.name)).toEqual([
      'enterprise',
      'messageCenter',
      'parkServices',
      'parkNews',
      'parkLinks',
    ]);
  });

  it('adds the ENT_WORKBENCH entries with appCodes=ENT_WORKBENCH, in order', async () => {
    const data = await menuData(memberToken, '?appCodes=ENT_WORKBENCH');
    expect(data.menu.map((m) => m.name)).toEqual([
      'enterprise',
      'messageCenter',
      'workbenchApps',
      'parkServices',
      'parkNews',
      'parkLinks',
    ]);
    expect(find(data.menu, 'workbenchApps')!.children!.map((c) => c.name)).toEqual(['wbDashboard', 'wbCloudOrders']);
    const spaced = await menuData(memberToken, `?appCodes=${encodeURIComponent(' ENT_WORKBENCH , ,')}`);
    expect(names(spaced.menu)).toContain('workbenchApps');
  });

  it('adds nothing for an application the user does not hold, even when the role has its entries', async () => {
    // Give member's role the PARK_OPS entries (the directory, 入驻企业, 运营看板, 页面设计), so only
    // the missing application keeps them out.
    const granted = await ctx.db.execute(sql`
      INSERT INTO role_menus (role_id, menu_id)
      SELECT ${demoRole.ent_member}, m.id FROM menus m JOIN applications a ON a.id = m.application_id
      WHERE a.code = 'PARK_OPS' AND a.tenant_id = m.tenant_id RETURNING menu_id`);
    expect(granted.rows.length).toBe(4);
    try {
      const data = await menuData(memberToken, '?appCodes=PARK_OPS');
      expect(names(data.menu)).not.toContain('parkOps');
      expect(names(data.menu)).not.toContain('opsEnterprises');
      expect(names(data.menu)).not.toContain('workbenchApps');
      const both = await menuData(memberToken, '?appCodes=ENT_WORKBENCH,PARK_OPS');
      expect(names(both.menu)).toContain('workbenchApps');
      expect(names(both.menu)).not.toContain('parkOps');
      // admin holds PARK_OPS and the park_operator role: there the entries do show.
      const admin = await ctx.login('admin');
      const ops = await menuData(admin, `?roleId=${demoRole.park_operator}&appCodes=PARK_OPS`);
      expect(names(ops.menu)).toEqual(expect.arrayContaining(['parkOps', 'opsEnterprises']));
    } finally {
      await ctx.db.execute(sql`
        DELETE FROM role_menus WHERE role_id = ${demoRole.ent_member}
          AND menu_id IN (SELECT m.id FROM menus m JOIN applications a ON a.id = m.application_id WHERE a.code = 'PARK_OPS')`);
    }
  });

  it('adds nothing for an application code of another tenant or one that does not exist', async () => {
    const data = await menuData(memberToken, '?appCodes=NOPE,otherHome');
    expect(data.menu.map((m) => m.name)).toEqual([
      'enterprise',
      'messageCenter',
      'parkServices',
      'parkNews',
      'parkLinks',
    ]);
  });
});

describe('entry flags are data; the client decides what to show', () => {
  it('keeps route "0", hidden and serviceType 1 entries with their flags', async () => {
    const data = await menuData(memberToken, '?appCodes=ENT_WORKBENCH');
    expect(find(data.menu, 'entDraft')).toMatchObject({ route: '0', hidden: false, path: '/ent/draft' });
    expect(find(data.menu, 'entDetail')).toMatchObject({ route: '1', hidden: true, component: 'ent/detail' });
    const cloud = find(data.menu, 'wbCloudOrders')!;
    expect(cloud.meta.serviceType).toBe(1);
    expect(cloud.meta.url).toBe('https://cloud.example.com/orders?wb={workbenchCoding}');
    expect(cloud.path).toBe('cloudOrders');
    expect(find(data.menu, 'parkSite')!.meta).toMatchObject({
      internalOrExternal: true,
      url: 'https://park.example.com/',
    });
    expect(find(data.menu, 'entColist')!.meta).toMatchObject({
      keepAlive: true,
      serviceType: 0,
      module: null,
      title: '企业信息',
    });
  });

  it('gives ids and parent ids as strings that link the tree', async () => {
    const data = await menuData(memberToken);
    for (const root of data.menu) expect(root.parentId).toBeNull();
    for (const item of flatten(data.menu)) {
      expect(item.id).toMatch(/^\d+$/);
      for (const child of item.children ?? []) expect(child.parentId).toBe(item.id);
    }
  });

  it('lists every permission of the tenant in allAuth with type and status', async () => {
    const data = await menuData(memberToken);
    expect(actions(data.allAuth)).toEqual([
      'alert:handle',
      'colist',
      'device:manage',
      'ent:export',
      'ent:invite',
      'messageIndex',
      'microapp:manage',
      'notice:publish',
      'page:design',
      'repair:handle',
      'system:manage',
      'wf:approve',
    ]);
    expect(data.allAuth.find((p) => p.action === 'ent:export')).toMatchObject({ status: '0', type: '1' });
    expect(data.allAuth.find((p) => p.action === 'wf:approve')).toMatchObject({ status: '1', type: '2' });
  });
});

describe('tenant isolation', () => {
  let otherToken: string;
  beforeAll(async () => {
    otherToken = await ctx.login('member', OTHER_PASSWORD, 'other');
  });

  it("gives a user of tenant other only its own tenant's profile", async () => {
    const res = await ctx.call({ url: INFO_URL, token: otherToken });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      username: 'member',
      name: '李雷',
      userId: String(other.userId),
      groupId: String(other.enterpriseId),
      groupName: '远山贸易有限公司',
      tenantId: String(other.tenantId),
      tenantCode: 'other',
      tenantName: '其他园区',
      image: null,
      defaultApplyCode: 'ENT_SERVICE',
      defaultApplyId: expect.stringMatching(/^\d+$/),
      defaultRoleId: String(other.roleId),
      defaultEntId: String(other.enterpriseId),
      defaultEntGuId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      homeUri: '/other',
      defaultWorkbenchId: null,
      // The session's context: the default role, no application or workbench set for this user.
      roleId: String(other.roleId),
      applyId: expect.stringMatching(/^\d+$/),
      workbenchId: null,
    });
  });

  it("gives a user of tenant other only its own tenant's menu and permissions", async () => {
    const data = await menuData(otherToken);
    expect(names(data.menu)).toEqual(['otherHome']);
    expect(actions(data.auth)).toEqual(['otherPerm']);
    expect(actions(data.allAuth)).toEqual(['otherPerm']);
  });

  it("never gives demo's member data of tenant other", async () => {
    const info = await ctx.call({ url: INFO_URL, token: memberToken });
    expect(info.json().data).toMatchObject({ tenantCode: 'demo', name: '张敏', groupName: '星河科技有限公司' });
    for (const query of ['', '?appCodes=ENT_SERVICE,ENT_WORKBENCH', `?roleId=${demoRole.ent_admin}`]) {
      const text = JSON.stringify(await menuData(memberToken, query));
      expect(text).not.toContain('otherHome');
      expect(text).not.toContain('otherPerm');
    }
  });

  it("refuses demo's roles to the user of tenant other", async () => {
    for (const roleId of Object.values(demoRole)) {
      expectNoPermission(await ctx.call({ url: `${MENU_URL}?roleId=${roleId}`, token: otherToken }));
    }
  });

  it('keeps tenants apart even when role rows cross them by mistake', async () => {
    const entColist = await one<{ id: number }>(sql`SELECT id FROM menus WHERE name = 'entColist'`);
    await ctx.db.execute(
      sql`INSERT INTO user_roles (user_id, role_id) VALUES (${other.userId}, ${demoRole.ent_admin})`,
    );
    await ctx.db.execute(sql`INSERT INTO role_menus (role_id, menu_id) VALUES (${other.roleId}, ${entColist.id})`);
    try {
      expectNoPermission(await ctx.call({ url: `${MENU_URL}?roleId=${demoRole.ent_admin}`, token: otherToken }));
      expect(names((await menuData(otherToken)).menu)).toEqual(['otherHome']);
    } finally {
      await ctx.db.execute(
        sql`DELETE FROM user_roles WHERE user_id = ${other.userId} AND role_id = ${demoRole.ent_admin}`,
      );
      await ctx.db.execute(sql`DELETE FROM role_menus WHERE role_id = ${other.roleId} AND menu_id = ${entColist.id}`);
    }
  });

  it('checks the password within the tenant the login names', async () => {
    const attempt = (password: string, tenantCode: string) => ctx.login('member', password, tenantCode);
    await expect(attempt(DEMO_PASSWORD, 'other')).rejects.toThrow(/40002/);
    await expect(attempt(OTHER_PASSWORD, 'demo')).rejects.toThrow(/40002/);
    await expect(attempt(OTHER_PASSWORD, 'nosuchtenant')).rejects.toThrow(/40002/);
  });

  it('gives an empty menu to a user who holds no role', async () => {
    const token = await ctx.login('norole', OTHER_PASSWORD, 'other');
    expect(await menuData(token)).toEqual({ auth: [], allAuth: [], menu: [] });
  });
});

describe('buildTree', () => {
  const row = (id: number, parentId: number | null, over: Partial<MenuRow> = {}): MenuRow => ({
    id,
    parentId,
    name: `m${id}`,
    path: `/m${id}`,
    component: '',
    redirect: null,
    route: '1',
    hidden: false,
    serviceType: 0,
    module: null,
    meta: { title: `M${id}` },
    translations: {},
    ...over,
  });
  const shape = (items: MenuItem[]): unknown[] =>
    items.map((i) => (i.children ? { [i.name]: shape(i.children) } : i.name));

  it('nests children under their parents and keeps the row order', () => {
    const tree = buildTree([row(3, null), row(1, null), row(5, 1), row(4, 1), row(6, 5), row(2, 3)]);
    expect(shape(tree)).toEqual([{ m3: ['m2'] }, { m1: [{ m5: ['m6'] }, 'm4'] }]);
  });

  it('attaches a child that comes before its parent', () => {
    expect(shape(buildTree([row(2, 1), row(1, null)]))).toEqual([{ m1: ['m2'] }]);
  });

  it('drops orphans together with their descendants', () => {
    const tree = buildTree([row(1, null), row(2, 99), row(3, 2), row(4, 1)]);
    expect(shape(tree)).toEqual([{ m1: ['m4'] }]);
  });

  it('maps a row to a menu item with string ids and serviceType/module in meta', () => {
    const [item] = buildTree([
      row(7, null, {
        serviceType: 1,
        module: 'cloud',
        hidden: true,
        route: '0',
        redirect: '/x',
        meta: { title: 'T', icon: 'I' },
      }),
    ]);
    expect(item).toEqual({
      id: '7',
      path: '/m7',
      name: 'm7',
      hidden: true,
      parentId: null,
      component: '',
      redirect: '/x',
      route: '0',
      meta: { title: 'T', icon: 'I', serviceType: 1, module: 'cloud' },
    });
    expect(item).not.toHaveProperty('children');
  });

  it('reads {PORTAL} and {SERVER} at the start of an url as the addresses only the server knows', () => {
    const urls = ['{PORTAL}front/x', '{SERVER}/oidc-example/login', 'https://a.example/{SERVER}'];
    const tree = buildTree(
      urls.map((url, i) => row(i + 1, null, { meta: { title: 'T', url } })),
      'https://p.example/center/',
      'zh',
      'https://p.example',
    );
    expect(tree.map((m) => m.meta.url)).toEqual([
      'https://p.example/center/front/x',
      'https://p.example/oidc-example/login',
      'https://a.example/{SERVER}',
    ]);
  });

  it('gives an empty tree for no rows', () => {
    expect(buildTree([])).toEqual([]);
  });
});

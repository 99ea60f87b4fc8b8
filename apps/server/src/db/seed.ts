/**
 * Demo data, written on first start unless SEED_DEMO=0: tenant `demo` with users `admin` and
 * `member`, roles, applications, workbenches, enterprises in every estatus, a four-level menu tree
 * with every kind of entry the spec names, permission codes and a few notices. One transaction:
 * either all of it is there or none. Later starts add to an existing demo tenant what newer
 * versions of the demo have and it lacks (topUpDemo).
 */
import { sql } from 'drizzle-orm';
import type { Db } from './client.js';
import * as s from './schema.js';
import { sanitizeRichText } from '../platform/html.js';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

interface MenuSeed {
  name: string;
  path: string;
  title: string;
  icon?: string;
  component?: string;
  hidden?: boolean;
  route?: string;
  redirect?: string;
  serviceType?: number;
  module?: string;
  url?: string;
  external?: boolean;
  keepAlive?: boolean;
  pageId?: string;
  app?: string;
  /** Role codes that see the entry; all roles when omitted. */
  roles?: string[];
  children?: MenuSeed[];
}

const ENT_ROLES = ['ent_admin', 'ent_member'];

/**
 * The example external system (modules/example-system) as a service of the sign-on server: its
 * sysCode enters it from the portal, and single logout reaches it at its own address.
 */
const EXAMPLE_SYSTEM = {
  name: '园区物业服务（示例外部系统）',
  pattern: `${s.SERVER_PATTERN}/example-system/`,
  sysCode: 'PROPERTY',
};

/** Enterprises only the demo admin (a park operator) has joined; every estatus. */
const parkEnterprises = (tenantId: number) =>
  PARK_ENTERPRISES.map((name, i) => ({
    tenantId,
    name,
    creditCode: `9131011${String(i).padStart(2, '0')}MA1G${String(7300 + i * 17)}X${'ABCDEFGHJK'[i]}`,
    industryCode: '65',
    regionCode: '310115',
    estatus: i % 3,
  }));

const PARK_ENTERPRISES = [
  '启明生物医药有限公司',
  '远航新能源科技有限公司',
  '云帆数据服务有限公司',
  '恒信精密机械有限公司',
  '锦程文化传媒有限公司',
  '华芯微电子有限公司',
  '绿源环保科技有限公司',
  '博远检测认证有限公司',
  '天工智能装备有限公司',
  '悦享餐饮管理有限公司',
];

const MENU: MenuSeed[] = [
  {
    name: 'enterprise',
    path: '/ent',
    title: '企业服务',
    icon: 'AppstoreOutlined',
    component: 'RouteView',
    roles: ENT_ROLES,
    children: [
      {
        name: 'entManage',
        path: '/ent/manage',
        title: '企业管理',
        icon: 'BankOutlined',
        component: 'RouteView',
        roles: ENT_ROLES,
        children: [
          {
            name: 'entColist',
            path: '/ent/colist',
            title: '企业信息',
            icon: 'IdcardOutlined',
            component: 'ent/colist',
            keepAlive: true,
            roles: ENT_ROLES,
          },
          {
            name: 'entMembers',
            path: '/ent/members',
            title: '成员管理',
            icon: 'TeamOutlined',
            component: 'RouteView',
            roles: ENT_ROLES,
            children: [
              {
                name: 'entMemberList',
                path: '/ent/members/list',
                title: '成员列表',
                component: 'ent/members/list',
                keepAlive: true,
                roles: ENT_ROLES,
              },
              {
                name: 'entMemberInvite',
                path: '/ent/members/invite',
                title: '邀请成员',
                component: 'ent/members/invite',
                roles: ['ent_admin'],
              },
            ],
          },
          {
            name: 'entDetail',
            path: '/ent/detail',
            title: '企业详情',
            component: 'ent/detail',
            hidden: true,
            roles: ENT_ROLES,
          },
        ],
      },
      {
        name: 'entApply',
        path: '/ent/apply',
        title: '服务申请',
        icon: 'FormOutlined',
        component: 'ent/apply',
        roles: ENT_ROLES,
      },
      {
        name: 'entDashboard',
        path: '/ent/dashboard',
        title: '企业看板',
        icon: 'DashboardOutlined',
        component: 'DragPageView',
        pageId: 'ent-dashboard',
        keepAlive: true,
        roles: ENT_ROLES,
      },
      // A path relative to its module: routed as /ent/reports.
      {
        name: 'entReports',
        path: 'reports',
        module: 'ent',
        title: '企业报表',
        component: 'ent/reports',
        roles: ENT_ROLES,
      },
      { name: 'entDraft', path: '/ent/draft', title: '草稿箱', component: 'ent/draft', route: '0', roles: ENT_ROLES },
    ],
  },
  {
    name: 'messageCenter',
    path: '/message',
    title: '消息中心',
    icon: 'BellOutlined',
    component: 'RouteView',
    roles: ENT_ROLES,
    children: [
      { name: 'messageIndex', path: '/message/index', title: '我的消息', component: 'message/index', roles: ENT_ROLES },
    ],
  },
  {
    name: 'workbenchApps',
    path: '/wb',
    title: '工作台应用',
    icon: 'DesktopOutlined',
    component: 'RouteView',
    app: 'ENT_WORKBENCH',
    roles: ENT_ROLES,
    children: [
      {
        name: 'wbDashboard',
        path: '/wb/dashboard',
        title: '数据看板',
        component: 'DragPageView',
        pageId: 'demo-dashboard',
        app: 'ENT_WORKBENCH',
        roles: ENT_ROLES,
      },
      {
        name: 'wbCloudOrders',
        path: 'cloudOrders',
        title: '云服务订单',
        serviceType: 1,
        url: 'https://cloud.example.com/orders?wb={workbenchCoding}',
        app: 'ENT_WORKBENCH',
        roles: ENT_ROLES,
      },
    ],
  },
  {
    name: 'parkServices',
    path: '/services',
    title: '园区服务',
    icon: 'ShopOutlined',
    component: 'RouteView',
    children: [
      { name: 'svcRepair', path: '/services/repair', title: '物业报修', component: 'services/repair', keepAlive: true },
      { name: 'svcMeeting', path: '/services/meeting', title: '会议室预约', component: 'services/meeting' },
      { name: 'svcVisitor', path: '/services/visitor', title: '访客登记', component: 'services/visitor' },
      { name: 'svcParking', path: '/services/parking', title: '停车缴费', component: 'services/parking' },
      // An external service embedded under /IframePageContent, with the workbench code in its address.
      {
        name: 'svcHall',
        path: 'serviceHall',
        title: '服务大厅',
        serviceType: 1,
        url: 'https://park.example.com/hall?wb={workbenchCoding}',
        keepAlive: true,
      },
    ],
  },
  // A root without children: the top menu navigates straight to it.
  {
    name: 'parkNews',
    path: '/news',
    title: '园区资讯',
    icon: 'ReadOutlined',
    // A drag page until the news of the notices issue arrive.
    component: 'DragPageView',
    pageId: 'park-news',
    keepAlive: true,
  },
  {
    name: 'parkLinks',
    path: '/links',
    title: '园区链接',
    icon: 'LinkOutlined',
    component: 'RouteView',
    redirect: '/links/policy',
    children: [
      { name: 'parkSite', path: '/links/site', title: '园区官网', url: 'https://park.example.com/', external: true },
      // An external system entered through the sign-on server (spec §2 /front/esa/system/sso).
      {
        name: 'propertyService',
        path: '/links/property',
        title: '物业服务',
        url: `{PORTAL}front/esa/system/sso?sysCode=${EXAMPLE_SYSTEM.sysCode}`,
        external: true,
      },
      {
        name: 'parkPolicy',
        path: '/links/policy',
        title: '政策解读',
        component: 'IframePageView',
        url: 'https://park.example.com/policy',
        keepAlive: true,
      },
    ],
  },
  {
    name: 'parkOps',
    path: '/ops',
    title: '园区运营',
    icon: 'ClusterOutlined',
    component: 'RouteView',
    app: 'PARK_OPS',
    roles: ['park_operator'],
    children: [
      {
        name: 'opsEnterprises',
        path: '/ops/enterprises',
        title: '入驻企业',
        component: 'ops/enterprises',
        app: 'PARK_OPS',
        roles: ['park_operator'],
      },
    ],
  },
];

/**
 * `created` on first start; on later starts an existing demo tenant gets what newer versions added
 * to the demo (`updated`, with the rows added), else `unchanged`. Data someone changed stays as it is.
 */
export async function seedDemo(
  db: Db,
  opts: { passwordHash: string },
): Promise<{ result: 'created' } | { result: 'updated'; added: number } | { result: 'unchanged' }> {
  return db.transaction(async (tx) => {
    // Serialise concurrent starts of several instances.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(7366002)`);
    const existing = await tx
      .select({ id: s.tenants.id })
      .from(s.tenants)
      .where(sql`code = 'demo'`);
    if (existing.length === 0) {
      await insertDemo(tx, opts.passwordHash);
      return { result: 'created' };
    }
    const added = await topUpDemo(tx, existing[0]!.id);
    return added > 0 ? { result: 'updated', added } : { result: 'unchanged' };
  });
}

/**
 * What later versions added to the demo, for a demo tenant seeded by an earlier one: the default
 * role, the registration agreement, the example external system, menu entries (by name, with their roles), drag pages (by code)
 * and the park operator's enterprises (by name). Each step adds only what is missing.
 */
async function topUpDemo(tx: Tx, tenantId: number): Promise<number> {
  let added = 0;
  const count = (r: { rowCount?: number | null }) => (added += r.rowCount ?? 0);
  count(
    await tx.execute(sql`
      UPDATE roles SET is_default = true WHERE tenant_id = ${tenantId} AND code = 'ent_member'
        AND NOT EXISTS (SELECT 1 FROM roles WHERE tenant_id = ${tenantId} AND is_default)`),
  );
  count(
    await tx.execute(sql`
      INSERT INTO register_agreements (tenant_id, html) VALUES (${tenantId}, ${sanitizeRichText(DEMO_AGREEMENT)})
      ON CONFLICT DO NOTHING`),
  );
  added += (
    await tx
      .insert(s.ssoServices)
      .values({ tenantId, ...EXAMPLE_SYSTEM })
      .onConflictDoNothing()
      .returning()
  ).length;
  const roles = await tx
    .select({ id: s.roles.id, code: s.roles.code })
    .from(s.roles)
    .where(sql`tenant_id = ${tenantId}`);
  const apps = await tx
    .select({ id: s.applications.id, code: s.applications.code })
    .from(s.applications)
    .where(sql`tenant_id = ${tenantId}`);
  added += await ensureMenus(tx, tenantId, roles, apps);
  added += (await tx.insert(s.pageDefinitions).values(demoPages(tenantId)).onConflictDoNothing().returning()).length;
  const ents = await tx
    .insert(s.enterprises)
    .values(parkEnterprises(tenantId))
    .onConflictDoNothing()
    .returning({ id: s.enterprises.id });
  added += ents.length;
  if (ents.length > 0) {
    const [admin] = await tx
      .select({ id: s.users.id })
      .from(s.users)
      .where(sql`tenant_id = ${tenantId} AND username = 'admin'`);
    if (admin) {
      await tx
        .insert(s.enterpriseMembers)
        .values(ents.map((e) => ({ enterpriseId: e.id, userId: admin.id })))
        .onConflictDoNothing();
    }
  }
  return added;
}

/**
 * The seed's menu tree, entries looked up by name: missing ones are inserted under their parent
 * with the roles that see them (roles the tenant lacks are skipped), after the existing ones.
 */
async function ensureMenus(
  tx: Tx,
  tenantId: number,
  roles: { id: number; code: string }[],
  apps: { id: number; code: string }[],
): Promise<number> {
  const existing = new Map(
    (
      await tx
        .select({ id: s.menus.id, name: s.menus.name })
        .from(s.menus)
        .where(sql`tenant_id = ${tenantId}`)
    ).map((m) => [m.name, m.id]),
  );
  const [{ next }] = (
    await tx.execute<{ next: number }>(
      sql`SELECT COALESCE(max(sort) + 1, 0)::int AS next FROM menus WHERE tenant_id = ${tenantId}`,
    )
  ).rows as [{ next: number }];
  let sort = next;
  let added = 0;
  const walk = async (items: MenuSeed[], parentId: number | null) => {
    for (const m of items) {
      let id = existing.get(m.name);
      if (id === undefined) {
        const appId = m.app ? apps.find((a) => a.code === m.app)?.id : null;
        const [row] = await tx
          .insert(s.menus)
          .values({
            tenantId,
            applicationId: appId ?? null,
            parentId,
            name: m.name,
            path: m.path,
            component: m.component ?? '',
            route: m.route ?? '1',
            redirect: m.redirect ?? null,
            hidden: m.hidden ?? false,
            sort: sort++,
            serviceType: m.serviceType ?? 0,
            module: m.module ?? null,
            meta: {
              title: m.title,
              icon: m.icon ?? null,
              url: m.url ?? null,
              internalOrExternal: m.external ?? false,
              keepAlive: m.keepAlive ?? false,
              componentName: m.name,
              pageId: m.pageId ?? null,
            },
          })
          .returning({ id: s.menus.id });
        id = row!.id;
        added++;
        const seeing = roles.filter((r) => (m.roles ?? roles.map((x) => x.code)).includes(r.code));
        if (seeing.length > 0) await tx.insert(s.roleMenus).values(seeing.map((r) => ({ roleId: r.id, menuId: id! })));
      }
      if (m.children) await walk(m.children, id);
    }
  };
  await walk(MENU, null);
  return added;
}

/**
 * A tenant with everything the demo has (users, roles, applications, workbenches, enterprises,
 * menus, permissions, pages, services, notices): the demo tenant, and a second park where one is
 * needed (the tenant-isolation suite).
 */
export async function insertDemo(
  tx: Tx,
  passwordHash: string,
  { code, name }: { code: string; name: string } = { code: 'demo', name: '演示园区' },
): Promise<number> {
  const [tenant] = await tx.insert(s.tenants).values({ code, name }).returning();
  const tenantId = tenant!.id;

  // The portal itself is a service of the sign-on server (its address read from PUBLIC_URL).
  await tx.insert(s.ssoServices).values([
    { tenantId, name: '企业服务门户', pattern: s.PORTAL_PATTERN, logoutUrl: s.PORTAL_SLO },
    { tenantId, ...EXAMPLE_SYSTEM },
  ]);

  const roles = await tx
    .insert(s.roles)
    .values([
      { tenantId, code: 'ent_admin', title: '企业管理员' },
      { tenantId, code: 'ent_member', title: '企业成员', isDefault: true },
      { tenantId, code: 'park_operator', title: '园区运营' },
    ])
    .returning();
  const role = (code: string) => roles.find((r) => r.code === code)!.id;

  const apps = await tx
    .insert(s.applications)
    .values([
      { tenantId, code: 'ENT_SERVICE', name: '企业服务' },
      { tenantId, code: 'ENT_WORKBENCH', name: '企业工作台' },
      { tenantId, code: 'PARK_OPS', name: '园区运营平台' },
    ])
    .returning();
  const app = (code: string) => apps.find((a) => a.code === code)!.id;

  const benches = await tx
    .insert(s.workbenches)
    .values([
      { tenantId, code: 'WB_ENT', name: '企业工作台' },
      { tenantId, code: 'WB_PARK', name: '园区工作台' },
    ])
    .returning();

  const ents = await tx
    .insert(s.enterprises)
    .values([
      {
        tenantId,
        name: '星河科技有限公司',
        creditCode: '91310000MA1FL0XK3A',
        industryCode: '6513',
        regionCode: '310115',
        estatus: 1,
      },
      {
        tenantId,
        name: '蓝海智能制造有限公司',
        creditCode: '91320500MA1MX2QW7B',
        industryCode: '3911',
        regionCode: '320505',
        estatus: 0,
      },
      {
        tenantId,
        name: '青松物流有限公司',
        creditCode: '91330100MA2H8YBN5C',
        industryCode: '59',
        regionCode: '330106',
        estatus: 2,
      },
      // The park operator's own list is long enough to page (10 per page, spec §9).
      ...parkEnterprises(tenantId),
    ])
    .returning();

  const users = await tx
    .insert(s.users)
    .values([
      {
        tenantId,
        username: 'admin',
        passwordHash,
        name: '系统管理员',
        mobile: '13800000001',
        homeUri: '/index',
        defaultRoleId: role('ent_admin'),
        defaultApplicationId: app('ENT_SERVICE'),
        defaultWorkbenchId: benches[0]!.id,
        defaultEnterpriseId: ents[0]!.id,
      },
      {
        tenantId,
        username: 'member',
        passwordHash,
        name: '张敏',
        mobile: '13800000002',
        homeUri: '/index',
        defaultRoleId: role('ent_member'),
        defaultApplicationId: app('ENT_SERVICE'),
        defaultWorkbenchId: benches[0]!.id,
        defaultEnterpriseId: ents[0]!.id,
      },
    ])
    .returning();
  const [admin, member] = users as [(typeof users)[number], (typeof users)[number]];

  await tx.insert(s.userRoles).values([
    { userId: admin.id, roleId: role('ent_admin') },
    { userId: admin.id, roleId: role('park_operator') },
    { userId: member.id, roleId: role('ent_member') },
    { userId: member.id, roleId: role('ent_admin') },
  ]);
  await tx
    .insert(s.userApplications)
    .values([
      ...apps.map((a) => ({ userId: admin.id, applicationId: a.id })),
      { userId: member.id, applicationId: app('ENT_SERVICE') },
      { userId: member.id, applicationId: app('ENT_WORKBENCH') },
    ]);
  await tx
    .insert(s.userWorkbenches)
    .values([
      ...benches.map((b) => ({ userId: admin.id, workbenchId: b.id })),
      ...benches.map((b) => ({ userId: member.id, workbenchId: b.id })),
    ]);
  await tx
    .insert(s.enterpriseMembers)
    .values([
      ...ents.map((e) => ({ enterpriseId: e.id, userId: admin.id })),
      ...ents.slice(0, 3).map((e) => ({ enterpriseId: e.id, userId: member.id })),
    ]);

  const perms = await tx
    .insert(s.permissions)
    .values([
      { tenantId, code: 'messageIndex', describe: '消息通知', type: 1, status: 1 },
      { tenantId, code: 'colist', describe: '企业信息', type: 1, status: 1 },
      { tenantId, code: 'ent:invite', describe: '邀请成员', type: 1, status: 1 },
      { tenantId, code: 'ent:export', describe: '导出', type: 1, status: 0 },
      { tenantId, code: 'wf:approve', describe: '流程审批', type: 2, status: 1 },
    ])
    .returning();
  const perm = (code: string) => perms.find((p) => p.code === code)!.id;
  await tx.insert(s.rolePermissions).values([
    { roleId: role('ent_admin'), permissionId: perm('messageIndex') },
    { roleId: role('ent_admin'), permissionId: perm('colist') },
    { roleId: role('ent_admin'), permissionId: perm('ent:invite') },
    { roleId: role('ent_member'), permissionId: perm('messageIndex') },
    { roleId: role('park_operator'), permissionId: perm('colist') },
  ]);

  await ensureMenus(tx, tenantId, roles, apps);

  await tx.insert(s.pageDefinitions).values(demoPages(tenantId));

  await tx.insert(s.registerAgreements).values({ tenantId, html: sanitizeRichText(DEMO_AGREEMENT) });

  const notices = await tx
    .insert(s.notices)
    .values([
      {
        tenantId,
        title: '关于开展2026年度企业安全生产检查的通知',
        remark: '<p>请各入驻企业于<strong>12月15日</strong>前完成自查并确认。</p>',
        replyWay: 0,
      },
      {
        tenantId,
        title: '园区停电检修通知',
        remark: '<p>本周六 8:00–12:00 园区A区停电检修，请提前做好准备。</p>',
        replyWay: 1,
      },
      { tenantId, title: '高新技术企业认定材料征集', remark: '<p>请符合条件的企业上传申报材料。</p>', replyWay: 2 },
      { tenantId, title: '园区食堂菜单调整', remark: '<p>自下周起食堂新增晚餐供应。</p>', replyWay: 0 },
    ])
    .returning();
  await tx.insert(s.noticeRecipients).values(
    notices.flatMap((n, i) => [
      { noticeId: n.id, userId: member.id, readStatus: i === 3 ? 1 : 0, answerStatus: i === 3 ? 1 : 0 },
      { noticeId: n.id, userId: admin.id },
    ]),
  );
  return tenantId;
}

/** The demo's drag pages. */
const demoPages = (tenantId: number) => [
  {
    tenantId,
    code: 'ent-dashboard',
    title: '企业看板',
    blocks: [
      {
        type: 'stats',
        title: '本月概况',
        items: [
          { label: '服务申请', value: '12', suffix: '件' },
          { label: '待办通知', value: '3', suffix: '条' },
          { label: '成员', value: '28', suffix: '人' },
        ],
      },
      {
        type: 'text',
        title: '园区公告',
        text: '本月园区将开展安全生产检查，请各企业于12月15日前完成自查。',
      },
      {
        type: 'links',
        title: '常用入口',
        items: [
          { title: '服务申请', path: '/ent/apply' },
          { title: '物业报修', path: '/services/repair' },
          { title: '我的消息', path: '/message/index' },
        ],
      },
    ],
  },
  {
    tenantId,
    code: 'park-news',
    title: '园区资讯',
    blocks: [
      {
        type: 'text',
        title: '11月20日 · 园区2026年度企业服务满意度调查启动',
        text: '为持续提升服务质量，园区即日起开展年度企业服务满意度调查，请各企业于12月5日前通过“服务申请”提交问卷。',
      },
      {
        type: 'text',
        title: '11月18日 · 冬季供暖及用电安全提示',
        text: '园区集中供暖将于11月25日开始试运行。请各企业检查办公区域用电线路，下班前关闭非必要电器。',
      },
      {
        type: 'text',
        title: '11月12日 · 科技型中小企业评价政策解读会',
        text: '园区将于12月3日下午在综合服务中心三楼举办政策解读会，欢迎各企业派员参加。',
      },
      {
        type: 'links',
        title: '相关服务',
        items: [
          { title: '服务申请', path: '/ent/apply' },
          { title: '会议室预约', path: '/services/meeting' },
          { title: '我的消息', path: '/message/index' },
        ],
      },
    ],
  },
  {
    tenantId,
    code: 'demo-dashboard',
    title: '数据看板',
    blocks: [
      {
        type: 'stats',
        items: [
          { label: '入驻企业', value: '128', suffix: '家' },
          { label: '本月订单', value: '36', suffix: '单' },
        ],
      },
    ],
  },
];

const DEMO_AGREEMENT = `<h3>演示园区企业服务平台用户注册协议</h3>
<p>欢迎注册演示园区企业服务平台（以下简称“平台”）。请在注册前仔细阅读本协议，勾选并点击“同意”即表示您已阅读并接受本协议的全部内容。</p>
<h4>一、账号注册</h4>
<p>1. 您应提供真实、准确、完整的企业及联系人信息，并在信息变更时及时更新。</p>
<p>2. 企业注册后需经园区审核，审核通过前部分服务不可用。</p>
<h4>二、账号安全</h4>
<p>1. 您应妥善保管账号和密码，因保管不善造成的损失由您自行承担。</p>
<p>2. 发现账号被盗用时，请立即通过“忘记密码”重置密码并联系园区管理员。</p>
<h4>三、个人信息保护</h4>
<p>平台依照《中华人民共和国个人信息保护法》处理您的个人信息，仅用于提供园区服务，未经您同意不向第三方提供。</p>
<h4>四、其他</h4>
<p>本协议的解释及争议解决适用中华人民共和国法律。</p>`;

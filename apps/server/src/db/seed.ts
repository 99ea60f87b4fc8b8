/**
 * Demo data, written on first start unless SEED_DEMO=0: tenant `demo` with users `admin` and
 * `member`, roles, applications, workbenches, enterprises in every estatus, a four-level menu tree
 * with every kind of entry the product reference names, permission codes and a few notices. One transaction:
 * either all of it is there or none. Later starts add to an existing demo tenant what newer
 * versions of the demo have and it lacks (topUpDemo).
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { and, eq, inArray, isNull, max, notExists, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db, Tx } from './client.js';
import { keepDefaultRolePlain } from './role-powers.js';
import * as s from './schema.js';
import { DEMO_PAGES } from './seed-pages.js';
import { newApiKey } from '../platform/hash.js';
import { sanitizeRichText } from '../platform/html.js';

interface MenuSeed {
  name: string;
  path: string;
  title: string;
  /** The title in English (ADR 020). */
  en: string;
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
    en: 'Enterprise services',
    icon: 'AppstoreOutlined',
    component: 'RouteView',
    roles: ENT_ROLES,
    children: [
      {
        name: 'entManage',
        path: '/ent/manage',
        title: '企业管理',
        en: 'Enterprise management',
        icon: 'BankOutlined',
        component: 'RouteView',
        roles: ENT_ROLES,
        children: [
          {
            name: 'entColist',
            path: '/ent/colist',
            title: '企业信息',
            en: 'Enterprise information',
            icon: 'IdcardOutlined',
            component: 'ent/colist',
            keepAlive: true,
            roles: ENT_ROLES,
          },
          {
            name: 'entMembers',
            path: '/ent/members',
            title: '成员管理',
            en: 'Members',
            icon: 'TeamOutlined',
            component: 'RouteView',
            roles: ENT_ROLES,
            children: [
              {
                name: 'entMemberList',
                path: '/ent/members/list',
                title: '成员列表',
                en: 'Member list',
                component: 'ent/members/list',
                keepAlive: true,
                roles: ENT_ROLES,
              },
              {
                name: 'entMemberInvite',
                path: '/ent/members/invite',
                title: '邀请成员',
                en: 'Invite members',
                component: 'ent/members/invite',
                roles: ['ent_admin'],
              },
            ],
          },
          {
            name: 'entDetail',
            path: '/ent/detail',
            title: '企业详情',
            en: 'Enterprise details',
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
        en: 'Service requests',
        icon: 'FormOutlined',
        component: 'ent/apply',
        roles: ENT_ROLES,
      },
      {
        name: 'entDashboard',
        path: '/ent/dashboard',
        title: '企业看板',
        en: 'Enterprise dashboard',
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
        en: 'Enterprise reports',
        component: 'ent/reports',
        roles: ENT_ROLES,
      },
      {
        name: 'entDraft',
        path: '/ent/draft',
        title: '草稿箱',
        en: 'Drafts',
        component: 'ent/draft',
        route: '0',
        roles: ENT_ROLES,
      },
    ],
  },
  {
    name: 'messageCenter',
    path: '/message',
    title: '消息中心',
    en: 'Message center',
    icon: 'BellOutlined',
    component: 'RouteView',
    roles: ENT_ROLES,
    children: [
      {
        name: 'messageIndex',
        path: '/message/index',
        title: '我的消息',
        en: 'My messages',
        component: 'message/index',
        roles: ENT_ROLES,
      },
    ],
  },
  {
    name: 'workbenchApps',
    path: '/wb',
    title: '工作台应用',
    en: 'Workbench apps',
    icon: 'DesktopOutlined',
    component: 'RouteView',
    app: 'ENT_WORKBENCH',
    roles: ENT_ROLES,
    children: [
      {
        name: 'wbDashboard',
        path: '/wb/dashboard',
        title: '数据看板',
        en: 'Data dashboard',
        component: 'DragPageView',
        pageId: 'demo-dashboard',
        app: 'ENT_WORKBENCH',
        roles: ENT_ROLES,
      },
      {
        name: 'wbCloudOrders',
        path: 'cloudOrders',
        title: '云服务订单',
        en: 'Cloud service orders',
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
    en: 'Park services',
    icon: 'ShopOutlined',
    component: 'RouteView',
    children: [
      // Pages of the demo sub-application: the module is its code, the path its route.
      {
        name: 'svcRepair',
        path: 'repair',
        module: 'park-services',
        title: '物业报修',
        en: 'Repair requests',
        component: 'MicroAppView',
        keepAlive: true,
      },
      {
        name: 'svcMeeting',
        path: 'meeting',
        module: 'park-services',
        title: '会议室预约',
        en: 'Meeting rooms',
        component: 'MicroAppView',
        keepAlive: true,
      },
      {
        name: 'svcVisitor',
        path: '/services/visitor',
        title: '访客登记',
        en: 'Visitors',
        component: 'services/visitor',
      },
      {
        name: 'svcParking',
        path: '/services/parking',
        title: '停车缴费',
        en: 'Parking fees',
        component: 'services/parking',
      },
      // An external service embedded under /IframePageContent, with the workbench code in its address.
      {
        name: 'svcHall',
        path: 'serviceHall',
        title: '服务大厅',
        en: 'Service hall',
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
    en: 'Park news',
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
    en: 'Park links',
    icon: 'LinkOutlined',
    component: 'RouteView',
    redirect: '/links/policy',
    children: [
      {
        name: 'parkSite',
        path: '/links/site',
        title: '园区官网',
        en: 'Park website',
        url: 'https://park.example.com/',
        external: true,
      },
      // An external system entered through the sign-on server (docs/product/screens.md#fixed-routes /front/esa/system/sso).
      {
        name: 'propertyService',
        path: '/links/property',
        title: '物业服务',
        en: 'Property services',
        url: `{PORTAL}front/esa/system/sso?sysCode=${EXAMPLE_SYSTEM.sysCode}`,
        external: true,
      },
      {
        name: 'parkPolicy',
        path: '/links/policy',
        title: '政策解读',
        en: 'Policy guides',
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
    en: 'Park operations',
    icon: 'ClusterOutlined',
    component: 'RouteView',
    app: 'PARK_OPS',
    roles: ['park_operator'],
    children: [
      {
        name: 'opsEnterprises',
        path: '/ops/enterprises',
        title: '入驻企业',
        en: 'Resident enterprises',
        component: 'ops/enterprises',
        app: 'PARK_OPS',
        roles: ['park_operator'],
      },
      {
        name: 'opsBoard',
        path: '/ops/board',
        title: '运营看板',
        en: 'Operations board',
        icon: 'DashboardOutlined',
        component: 'DragPageView',
        pageId: 'ops-board',
        app: 'PARK_OPS',
        roles: ['park_operator'],
      },
      {
        name: 'opsPages',
        path: '/ops/pages',
        title: '页面设计',
        en: 'Page designer',
        icon: 'FormOutlined',
        component: 'page/builder',
        app: 'PARK_OPS',
        roles: ['park_operator'],
      },
    ],
  },
];

/** The operators' console (ADR 031): every tenant's, for its operators (`system:manage`). */
const CONSOLE_PAGES: [name: string, title: string, en: string, icon: string][] = [
  ['users', '用户管理', 'Users', 'UserOutlined'],
  ['roles', '角色权限', 'Roles & permissions', 'SafetyCertificateOutlined'],
  ['menus', '菜单管理', 'Menus', 'MenuOutlined'],
  ['enterprises', '企业审核', 'Enterprise review', 'AuditOutlined'],
  ['directory', '应用与工作台', 'Applications & workbenches', 'AppstoreOutlined'],
  ['sign-on', '单点登录', 'Sign-on services', 'LoginOutlined'],
  ['settings', '租户设置', 'Tenant settings', 'SettingOutlined'],
  ['sms', '短信发件箱', 'SMS outbox', 'MessageOutlined'],
  ['audit', '审计日志', 'Audit log', 'FileSearchOutlined'],
];

/** The console's menu group; the platform tenant's also lists the tenants. */
export function consoleMenu(platform: boolean): MenuSeed[] {
  const pages = platform
    ? [['tenants', '租户管理', 'Tenants', 'ApartmentOutlined'] as const, ...CONSOLE_PAGES]
    : CONSOLE_PAGES;
  return [
    {
      name: 'system',
      path: '/system',
      title: '系统管理',
      en: 'System',
      icon: 'ControlOutlined',
      component: 'RouteView',
      roles: ['park_operator'],
      children: pages.map(([page, title, en, icon]) => ({
        name: `system-${page}`,
        path: `/system/${page}`,
        title,
        en,
        icon,
        component: `admin/${page}`,
        roles: ['park_operator'],
      })),
    },
  ];
}

/**
 * A tenant with what every tenant needs and nothing more (ADR 031): its portal as a sign-on
 * service, the three roles, the permission codes, the console's menu and its first operator, who
 * holds the operator role as their default. The platform tenant's operators administer every tenant.
 */
export async function insertTenant(
  tx: Tx,
  t: {
    code: string;
    name: string;
    nameEn?: string | undefined;
    homeUrl?: string | null | undefined;
    platform?: boolean;
  },
  operator: { username: string; name: string; passwordHash: string; mustChangePassword?: boolean },
): Promise<number> {
  const [tenant] = await tx
    .insert(s.tenants)
    .values({
      code: t.code,
      name: t.name,
      homeUrl: t.homeUrl ?? null,
      platform: t.platform ?? false,
      translations: t.nameEn ? { en: { name: t.nameEn } } : {},
    })
    .returning({ id: s.tenants.id });
  const tenantId = tenant!.id;
  await tx
    .insert(s.ssoServices)
    .values({ tenantId, name: '企业服务门户', pattern: s.PORTAL_PATTERN, logoutUrl: s.PORTAL_SLO });
  const roles = await tx
    .insert(s.roles)
    .values([
      { tenantId, code: 'ent_admin', title: '企业管理员', translations: { en: { title: 'Enterprise administrator' } } },
      {
        tenantId,
        code: 'ent_member',
        title: '企业成员',
        translations: { en: { title: 'Enterprise member' } },
        isDefault: true,
      },
      { tenantId, code: 'park_operator', title: '园区运营', translations: { en: { title: 'Park operations' } } },
    ])
    .returning({ id: s.roles.id, code: s.roles.code });
  await ensurePermissions(tx, tenantId, roles);
  await ensureMenus(tx, tenantId, roles, [], consoleMenu(t.platform ?? false));
  const operatorRole = roles.find((r) => r.code === 'park_operator')!.id;
  const [user] = await tx
    .insert(s.users)
    .values({ tenantId, ...operator, defaultRoleId: operatorRole })
    .returning({ id: s.users.id });
  await tx.insert(s.userRoles).values({ userId: user!.id, roleId: operatorRole });
  // The skeleton's default role is the members' (ADR 036): a newcomer is never an operator.
  await keepDefaultRolePlain(tx, tenantId);
  return tenantId;
}

/** The platform tenant of the demo, and its operator `platform`, who administers every tenant. */
export const DEMO_PLATFORM = { code: 'platform', name: '平台运营中心', nameEn: 'Platform operations' };

/** The accounts the demo makes, by tenant code and username, all with the demo's password. */
export const DEMO_ACCOUNTS = [
  { tenant: 'demo', username: 'admin' },
  { tenant: 'demo', username: 'member' },
  { tenant: DEMO_PLATFORM.code, username: 'platform' },
] as const;

/**
 * `created` on first start; on later starts an existing demo tenant gets what newer versions added
 * to the demo (`updated`, with the rows added), else `unchanged`. Data someone changed stays as it is.
 */
export async function seedDemo(
  db: Db,
  opts: {
    passwordHash: string;
    /** Where uploads are kept: the demo notices' attachments go there. */ filesDir?: string;
    /** Where the demo devices' credentials go when they are made (for `npm run devices:simulate`). */
    devicesFile?: string;
  },
): Promise<{ result: 'created' } | { result: 'updated'; added: number } | { result: 'unchanged' }> {
  return db.transaction(async (tx) => {
    // Serialise concurrent starts of several instances.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(7366002)`);
    const existing = await tx.select({ id: s.tenants.id }).from(s.tenants).where(eq(s.tenants.code, 'demo'));
    if (existing.length === 0) {
      const tenantId = await insertDemo(tx, opts.passwordHash, undefined, opts.devicesFile);
      if (opts.filesDir) await attachDemoFiles(tx, tenantId, opts.filesDir);
      await ensurePlatform(tx, opts.passwordHash);
      return { result: 'created' };
    }
    // No platform tenant is added to an installation that exists: its operator, with the demo's
    // well-known password, would administer every tenant there.
    let added = await topUpDemo(tx, existing[0]!.id, opts.devicesFile);
    if (opts.filesDir) added += await attachDemoFiles(tx, existing[0]!.id, opts.filesDir);
    return added > 0 ? { result: 'updated', added } : { result: 'unchanged' };
  });
}

/** The demo's platform tenant, made with a new demo only, unless there is a platform tenant already. */
async function ensurePlatform(tx: Tx, passwordHash: string): Promise<void> {
  const [any] = await tx.select({ id: s.tenants.id }).from(s.tenants).where(eq(s.tenants.platform, true));
  if (any) return;
  await insertTenant(
    tx,
    { ...DEMO_PLATFORM, platform: true },
    { username: 'platform', name: '平台管理员', passwordHash },
  );
}

/** The demo notices' attachments, by the notice's Chinese title: a file name and its text. */
const DEMO_FILES: Record<string, { fileName: string; text: string }> = {
  关于开展2026年度企业安全生产检查的通知: {
    fileName: '2026年度企业安全生产自查表.txt',
    text: '2026年度企业安全生产自查表\n\n一、消防设施：灭火器、消防栓、应急照明是否完好。\n二、用电安全：线路是否老化，是否私拉乱接。\n三、安全通道：是否畅通，标识是否清晰。\n\n自查人：__________  日期：__________\n',
  },
  高新技术企业认定材料征集: {
    fileName: '高新技术企业申报材料清单.txt',
    text: '高新技术企业申报材料清单\n\n1. 企业营业执照副本\n2. 知识产权证明材料\n3. 近三年研发费用明细\n4. 高新技术产品（服务）收入说明\n',
  },
};

/**
 * Gives the demo notices their attachments where they have none yet: each file written under a
 * generated name in `filesDir` and recorded as an upload of the notice's sender, the admin.
 */
async function attachDemoFiles(tx: Tx, tenantId: number, filesDir: string): Promise<number> {
  const [admin] = await tx
    .select({ id: s.users.id })
    .from(s.users)
    .where(and(eq(s.users.tenantId, tenantId), eq(s.users.username, 'admin')));
  let added = 0;
  for (const [title, file] of Object.entries(DEMO_FILES)) {
    const [notice] = await tx
      .select({ id: s.notices.id })
      .from(s.notices)
      .where(
        and(eq(s.notices.tenantId, tenantId), eq(s.notices.title, title), sql`${s.notices.pushFiles} = '[]'::jsonb`),
      );
    if (!notice) continue;
    const id = randomUUID();
    const content = Buffer.from(file.text, 'utf8');
    await mkdir(filesDir, { recursive: true });
    await writeFile(join(filesDir, id), content);
    await tx.insert(s.files).values({
      id,
      tenantId,
      ownerId: admin?.id ?? null,
      purpose: 'notice',
      fileName: file.fileName,
      mediaType: 'text/plain',
      size: content.length,
      sha256: createHash('sha256').update(content).digest('hex'),
    });
    await tx
      .update(s.notices)
      .set({ pushFiles: [{ addr: `files/${id}`, fileName: file.fileName }] })
      .where(eq(s.notices.id, notice.id));
    added++;
  }
  return added;
}

/**
 * What later versions added to the demo, for a demo tenant seeded by an earlier one: the default
 * role, the registration agreement, the example external system, menu entries (by name, with their
 * roles), drag pages (by code), the park operator's enterprises (by name) and English names. Each
 * step adds only what is missing; the count is of rows added or given their English names.
 */
async function topUpDemo(tx: Tx, tenantId: number, devicesFile?: string): Promise<number> {
  let added = 0;
  const anyDefault = tx
    .select({ id: s.roles.id })
    .from(s.roles)
    .where(and(eq(s.roles.tenantId, tenantId), eq(s.roles.isDefault, true)));
  added += (
    await tx
      .update(s.roles)
      .set({ isDefault: true })
      .where(and(eq(s.roles.tenantId, tenantId), eq(s.roles.code, 'ent_member'), notExists(anyDefault)))
      .returning({ id: s.roles.id })
  ).length;
  added += (
    await tx
      .insert(s.registerAgreements)
      .values({ tenantId, html: sanitizeRichText(DEMO_AGREEMENT) })
      .onConflictDoNothing()
      .returning({ tenantId: s.registerAgreements.tenantId })
  ).length;
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
    .where(eq(s.roles.tenantId, tenantId));
  const apps = await tx
    .select({ id: s.applications.id, code: s.applications.code })
    .from(s.applications)
    .where(eq(s.applications.tenantId, tenantId));
  added += await ensureMenus(tx, tenantId, roles, apps);
  added += await ensurePermissions(tx, tenantId, roles);
  added += await ensureApps(tx, tenantId);
  added += await ensureParkServices(tx, tenantId);
  added += await ensureDevices(tx, tenantId, devicesFile);
  added += await moveServicesToSubApp(tx, tenantId);
  added += await ensurePages(tx, tenantId);
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
      .where(and(eq(s.users.tenantId, tenantId), eq(s.users.username, 'admin')));
    if (admin) {
      await tx
        .insert(s.enterpriseMembers)
        .values(ents.map((e) => ({ enterpriseId: e.id, userId: admin.id })))
        .onConflictDoNothing();
    }
  }
  added += await translateDemo(tx, tenantId);
  return added;
}

/** The demo's permission codes (docs/product/permissions.md#action-codes) and the roles that hold them. */
const PERMISSIONS: { code: string; describe: string; type?: number; status?: number; roles: string[] }[] = [
  { code: 'messageIndex', describe: '消息通知', roles: ['ent_admin', 'ent_member'] },
  { code: 'colist', describe: '企业信息', roles: ['ent_admin', 'park_operator'] },
  { code: 'ent:invite', describe: '邀请成员', roles: ['ent_admin'] },
  { code: 'ent:export', describe: '导出', status: 0, roles: [] },
  { code: 'wf:approve', describe: '流程审批', type: 2, roles: [] },
  { code: 'notice:publish', describe: '发布通知', roles: ['park_operator'] },
  { code: 'microapp:manage', describe: '应用管理', roles: ['park_operator'] },
  // The demo sub-application's guarded button (物业报修: 受理 / 完成).
  { code: 'repair:handle', describe: '处理报修', roles: ['ent_admin', 'park_operator'] },
  { code: 'device:manage', describe: '设备管理', roles: ['park_operator'] },
  { code: 'alert:handle', describe: '处理告警', roles: ['park_operator'] },
  { code: 'page:design', describe: '页面设计', roles: ['park_operator'] },
  { code: 'system:manage', describe: '系统管理', roles: ['park_operator'] },
];

/**
 * Adds the permission codes the tenant lacks, each granted to its roles. A code the tenant has
 * already keeps the grants an operator gave it.
 */
/** The demo's drag pages the tenant lacks, each with its version 1 published. */
async function ensurePages(tx: Tx, tenantId: number): Promise<number> {
  const pages = await tx
    .insert(s.pageDefinitions)
    .values(DEMO_PAGES.map((p) => ({ tenantId, code: p.code, publishedVersion: 1 })))
    .onConflictDoNothing()
    .returning({ id: s.pageDefinitions.id, code: s.pageDefinitions.code });
  if (pages.length > 0) {
    await tx
      .insert(s.pageVersions)
      .values(
        pages.map((p) => ({ pageId: p.id, version: 1, document: DEMO_PAGES.find((d) => d.code === p.code)!.document })),
      );
  }
  return pages.length;
}

async function ensurePermissions(tx: Tx, tenantId: number, roles: { id: number; code: string }[]): Promise<number> {
  const created = await tx
    .insert(s.permissions)
    .values(PERMISSIONS.map(({ roles: _, ...p }) => ({ tenantId, type: 1, status: 1, ...p })))
    .onConflictDoNothing()
    .returning({ id: s.permissions.id, code: s.permissions.code });
  const grants = created.flatMap((p) =>
    roles
      .filter((r) => PERMISSIONS.find((d) => d.code === p.code)!.roles.includes(r.code))
      .map((r) => ({ roleId: r.id, permissionId: p.id })),
  );
  if (grants.length > 0) await tx.insert(s.rolePermissions).values(grants);
  return created.length;
}

/**
 * The demo's sub-application (apps/demo-micro-app, served by the portal at modules/web's
 * DEMO_SUB_APP_PATH) and its framed services.
 */
export const DEMO_APPS = [
  { code: 'park-services', name: '园区服务', en: 'Park services', entry: '/micro/park-services/', serviceType: 0 },
  { code: 'park-hall', name: '园区大厅', en: 'Park hall', entry: 'https://park.example.com/', serviceType: 1 },
  { code: 'cloud-orders', name: '云服务订单', en: 'Cloud orders', entry: 'https://cloud.example.com/', serviceType: 1 },
];

async function ensureApps(tx: Tx, tenantId: number): Promise<number> {
  const added = await tx
    .insert(s.microApps)
    .values(DEMO_APPS.map(({ en, ...a }, sort) => ({ tenantId, ...a, sort, translations: { en: { name: en } } })))
    .onConflictDoNothing()
    .returning({ id: s.microApps.id });
  await tx
    .update(s.tenants)
    .set({ homeUrl: 'https://park.example.com/' })
    .where(and(eq(s.tenants.id, tenantId), isNull(s.tenants.homeUrl)));
  return added.length;
}

/** The file under DATA_DIR where the demo devices' credentials go (read by `npm run devices:simulate`). */
export const DEMO_DEVICES_FILE = 'demo-devices.json';

/** The park's devices: public ones show on the open device pages; the substation's meter does not. */
const DEMO_DEVICES: {
  code: string;
  name: string;
  en: string;
  type: string;
  location: string;
  locationEn: string;
  isPublic: boolean;
  latest: Record<string, number>;
  /** Minutes since it last reported (null: now). */
  silentMinutes?: number;
}[] = [
  {
    code: 'EM-A-01',
    name: 'A栋总电表',
    en: 'Building A main meter',
    type: 'meter',
    location: 'A栋配电室',
    locationEn: 'Building A, switch room',
    isPublic: true,
    latest: { power_kw: 86.4, energy_kwh: 12873 },
  },
  {
    code: 'WM-B-01',
    name: 'B栋总水表',
    en: 'Building B water meter',
    type: 'meter',
    location: 'B栋地下一层',
    locationEn: 'Building B, basement 1',
    isPublic: true,
    latest: { flow_m3h: 3.2, volume_m3: 5621 },
  },
  {
    code: 'TH-A3-01',
    name: 'A栋3楼温湿度',
    en: 'Building A floor 3 climate',
    type: 'sensor',
    location: 'A栋3楼走廊',
    locationEn: 'Building A, floor 3 corridor',
    isPublic: true,
    latest: { temperature: 23.5, humidity: 41 },
  },
  {
    code: 'AQ-C1-01',
    name: 'C栋大堂空气质量',
    en: 'Building C lobby air quality',
    type: 'sensor',
    location: 'C栋大堂',
    locationEn: 'Building C, lobby',
    isPublic: true,
    latest: { pm25: 18, co2: 1180 },
  },
  {
    code: 'AC-A-01',
    name: 'A栋空调机组',
    en: 'Building A air handler',
    type: 'hvac',
    location: 'A栋屋顶',
    locationEn: 'Building A, roof',
    isPublic: true,
    latest: { supply_temp: 12.5, return_temp: 19.8 },
  },
  {
    code: 'LIFT-B-02',
    name: 'B栋2号电梯',
    en: 'Building B lift 2',
    type: 'lift',
    location: 'B栋东侧',
    locationEn: 'Building B, east side',
    isPublic: true,
    latest: { floor: 7, load_kg: 320 },
  },
  {
    code: 'GATE-N-01',
    name: '北门道闸',
    en: 'North gate barrier',
    type: 'gate',
    location: '园区北门',
    locationEn: 'North entrance',
    isPublic: true,
    latest: { passes_today: 412 },
  },
  {
    code: 'CAM-E-01',
    name: '东门摄像头',
    en: 'East gate camera',
    type: 'camera',
    location: '园区东门',
    locationEn: 'East entrance',
    isPublic: true,
    latest: { fps: 25 },
    silentMinutes: 135,
  },
  {
    code: 'EM-SUB-01',
    name: '变电站主表',
    en: 'Substation main meter',
    type: 'meter',
    location: '园区变电站',
    locationEn: 'Park substation',
    isPublic: false,
    latest: { power_kw: 1240 },
  },
];

/** Alerts of the demo devices, by device code: open, acknowledged and closed ones. */
const DEMO_ALERTS = [
  {
    device: 'LIFT-B-02',
    severity: 'critical',
    state: 'open',
    minutes: 12,
    message: 'B栋2号电梯困人报警',
    en: 'Building B lift 2: passenger trapped',
  },
  {
    device: 'AQ-C1-01',
    severity: 'warning',
    state: 'acknowledged',
    minutes: 45,
    message: 'C栋大堂二氧化碳浓度偏高（1180 ppm）',
    en: 'Building C lobby: CO₂ high (1180 ppm)',
  },
  {
    device: 'AC-A-01',
    severity: 'warning',
    state: 'open',
    minutes: 90,
    message: 'A栋空调机组回水温度偏高',
    en: 'Building A air handler: return water too warm',
  },
  {
    device: 'GATE-N-01',
    severity: 'info',
    state: 'closed',
    minutes: 600,
    message: '北门道闸每日自检完成',
    en: 'North gate barrier: daily self-test done',
  },
  {
    device: 'EM-SUB-01',
    severity: 'critical',
    state: 'open',
    minutes: 5,
    message: '变电站主表通信中断',
    en: 'Substation main meter: link lost',
  },
];

/**
 * The demo's devices and their alerts, when the tenant has none of them yet; with `devicesFile`,
 * a fresh credential for each public device goes there (the secrets exist nowhere else: only
 * their hashes are stored), for `npm run devices:simulate`.
 */
async function ensureDevices(tx: Tx, tenantId: number, devicesFile?: string): Promise<number> {
  const added = await tx
    .insert(s.devices)
    .values(
      DEMO_DEVICES.map((d) => ({
        tenantId,
        code: d.code,
        name: d.name,
        type: d.type,
        location: d.location,
        isPublic: d.isPublic,
        latest: d.latest,
        lastSeenAt: sql`now() - make_interval(mins => ${d.silentMinutes ?? 0})`,
        translations: { en: { name: d.en, location: d.locationEn } },
      })),
    )
    .onConflictDoNothing()
    .returning({ id: s.devices.id, code: s.devices.code });
  if (added.length === 0) return 0;
  const idOf = new Map(added.map((d) => [d.code, d.id]));
  const alerts = DEMO_ALERTS.filter((a) => idOf.has(a.device));
  if (alerts.length > 0) {
    await tx.insert(s.deviceAlerts).values(
      alerts.map((a) => ({
        tenantId,
        deviceId: idOf.get(a.device)!,
        severity: a.severity,
        state: a.state,
        message: a.message,
        translations: { en: { message: a.en } },
        raisedAt: sql`now() - make_interval(mins => ${a.minutes})`,
        ...(a.state === 'open'
          ? {}
          : { acknowledgedAt: sql`now() - make_interval(mins => ${Math.floor(a.minutes / 2)})` }),
        ...(a.state === 'closed' ? { closedAt: sql`now() - make_interval(mins => ${Math.floor(a.minutes / 3)})` } : {}),
      })),
    );
  }
  if (devicesFile) {
    const tokens: { code: string; name: string; nameEn: string; token: string; latest: Record<string, number> }[] = [];
    for (const d of DEMO_DEVICES.filter((x) => x.isPublic && idOf.has(x.code))) {
      const made = newApiKey();
      await tx.insert(s.deviceCredentials).values({
        tenantId,
        deviceId: idOf.get(d.code)!,
        keyId: made.keyId,
        secretHash: made.secretHash,
      });
      tokens.push({ code: d.code, name: d.name, nameEn: d.en, token: made.token, latest: d.latest });
    }
    await mkdir(dirname(devicesFile), { recursive: true });
    // Only the owner may read it: it holds the demo devices' secrets.
    await writeFile(devicesFile, `${JSON.stringify({ tenant: 'demo', devices: tokens }, null, 2)}\n`, { mode: 0o600 });
  }
  return added.length;
}

/** The meeting rooms of 会议室预约. */
const DEMO_ROOMS = [
  { name: '一号会议室', en: 'Meeting room 1', capacity: 12 },
  { name: '二号会议室', en: 'Meeting room 2', capacity: 8 },
  { name: '路演厅', en: 'Roadshow hall', capacity: 60 },
];

/** The demo member's repair requests, so that 物业报修 shows some at first start. */
const DEMO_REPAIRS = [
  { title: '会议室投影仪无法开机', location: 'A栋 3楼 301', description: '按电源键无反应，已检查插座。', status: 1 },
  { title: '卫生间水龙头漏水', location: 'B栋 2楼 东侧', description: '', status: 0 },
];

/** 会议室预约's rooms and, the first time they arrive, 物业报修's first requests. */
async function ensureParkServices(tx: Tx, tenantId: number): Promise<number> {
  const added = await tx
    .insert(s.parkRooms)
    .values(DEMO_ROOMS.map(({ en, ...r }) => ({ tenantId, ...r, translations: { en: { name: en } } })))
    .onConflictDoNothing()
    .returning({ id: s.parkRooms.id });
  // The first time the rooms arrive, the member's first repair requests do too.
  if (added.length === 0) return 0;
  const [member] = await tx
    .select({ id: s.users.id })
    .from(s.users)
    .where(and(eq(s.users.tenantId, tenantId), eq(s.users.username, 'member')));
  if (member) await tx.insert(s.parkRepairs).values(DEMO_REPAIRS.map((r) => ({ tenantId, userId: member.id, ...r })));
  return added.length;
}

/**
 * 物业报修 and 会议室预约 were placeholders before the demo sub-application (ADR 025): a demo
 * seeded earlier gets them as its pages, unless someone changed the entries since.
 */
async function moveServicesToSubApp(tx: Tx, tenantId: number): Promise<number> {
  let moved = 0;
  for (const m of MENU.flatMap((x) => x.children ?? []).filter((x) => x.module === 'park-services')) {
    const rows = await tx
      .update(s.menus)
      .set({ path: m.path, module: m.module!, component: m.component! })
      .where(and(eq(s.menus.tenantId, tenantId), eq(s.menus.name, m.name), eq(s.menus.component, `services/${m.path}`)))
      .returning({ id: s.menus.id });
    moved += rows.length;
  }
  // The drag pages' links to them follow (in every version, unless the links were changed since).
  for (const [from, to] of [
    ['/services/repair', '/park-services/repair'],
    ['/services/meeting', '/park-services/meeting'],
  ]) {
    const quoted = (p: string) => `"path": "${p}"`;
    const rows = await tx
      .update(s.pageVersions)
      .set({ document: sql`replace(${s.pageVersions.document}::text, ${quoted(from!)}, ${quoted(to!)})::jsonb` })
      .where(
        and(
          inArray(
            s.pageVersions.pageId,
            tx
              .select({ id: s.pageDefinitions.id })
              .from(s.pageDefinitions)
              .where(eq(s.pageDefinitions.tenantId, tenantId)),
          ),
          sql`${s.pageVersions.document}::text LIKE ${`%${quoted(from!)}%`}`,
        ),
      )
      .returning({ version: s.pageVersions.version });
    moved += rows.length;
  }
  return moved;
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
  items: MenuSeed[] = [...MENU, ...consoleMenu(false)],
): Promise<number> {
  const existing = new Map(
    (await tx.select({ id: s.menus.id, name: s.menus.name }).from(s.menus).where(eq(s.menus.tenantId, tenantId))).map(
      (m) => [m.name, m.id],
    ),
  );
  const [last] = await tx
    .select({ sort: max(s.menus.sort) })
    .from(s.menus)
    .where(eq(s.menus.tenantId, tenantId));
  let sort = (last?.sort ?? -1) + 1;
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
            translations: { en: { title: m.en } },
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
  await walk(items, null);
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
  devicesFile?: string,
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
      // The park operator's own list is long enough to page (10 per page, docs/product/limits.md#lists).
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
        // The installation's own accounts: their numbers are its word, as an operator's are (ADR 023).
        verifiedMobile: '13800000001',
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
        verifiedMobile: '13800000002',
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

  await ensurePermissions(tx, tenantId, roles);
  await ensureApps(tx, tenantId);
  await ensureParkServices(tx, tenantId);
  await ensureDevices(tx, tenantId, devicesFile);

  await ensureMenus(tx, tenantId, roles, apps);

  await ensurePages(tx, tenantId);

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
  await translateDemo(tx, tenantId);
  await tx.insert(s.noticeRecipients).values(
    notices.flatMap((n, i) => [
      { noticeId: n.id, userId: member.id, readStatus: i === 3 ? 1 : 0, answerStatus: i === 3 ? 1 : 0 },
      { noticeId: n.id, userId: admin.id },
    ]),
  );
  return tenantId;
}

/** A table with names in other languages. */
type Translated = PgTable & { translations: AnyPgColumn };

/** The demo's names in English, by the key each table is looked up by (ADR 020). */
const DEMO_EN = {
  tenant: 'Demo Park',
  roles: { ent_admin: 'Enterprise administrator', ent_member: 'Enterprise member', park_operator: 'Park operator' },
  applications: {
    ENT_SERVICE: 'Enterprise services',
    ENT_WORKBENCH: 'Enterprise workbench',
    PARK_OPS: 'Park operations platform',
  },
  workbenches: { WB_ENT: 'Enterprise workbench', WB_PARK: 'Park workbench' },
  users: { admin: 'System Administrator', member: 'Zhang Min' },
  enterprises: {
    星河科技有限公司: 'Xinghe Technology Co., Ltd.',
    蓝海智能制造有限公司: 'Lanhai Intelligent Manufacturing Co., Ltd.',
    青松物流有限公司: 'Qingsong Logistics Co., Ltd.',
    启明生物医药有限公司: 'Qiming Biomedicine Co., Ltd.',
    远航新能源科技有限公司: 'Yuanhang New Energy Technology Co., Ltd.',
    云帆数据服务有限公司: 'Yunfan Data Services Co., Ltd.',
    恒信精密机械有限公司: 'Hengxin Precision Machinery Co., Ltd.',
    锦程文化传媒有限公司: 'Jincheng Culture & Media Co., Ltd.',
    华芯微电子有限公司: 'Huaxin Microelectronics Co., Ltd.',
    绿源环保科技有限公司: 'Lvyuan Environmental Technology Co., Ltd.',
    博远检测认证有限公司: 'Boyuan Testing & Certification Co., Ltd.',
    天工智能装备有限公司: 'Tiangong Intelligent Equipment Co., Ltd.',
    悦享餐饮管理有限公司: 'Yuexiang Catering Management Co., Ltd.',
  } as Record<string, string>,
};

/**
 * Gives the demo's rows their English names where they have none yet: on first start, and to a
 * demo seeded before names had translations. A translation someone set is left as it is.
 */
async function translateDemo(tx: Tx, tenantId: number): Promise<number> {
  const menus: [string, object][] = [];
  const walk = (items: MenuSeed[]) =>
    items.forEach((m) => {
      menus.push([m.name, { title: m.en }]);
      if (m.children) walk(m.children);
    });
  walk(MENU);
  const named = (names: Record<string, string>) => Object.entries(names).map(([k, name]) => [k, { name }] as const);
  // Each table with the column that scopes it to the tenant, the column its rows are found by, and
  // what each row's English is.
  const parts: [Translated, AnyPgColumn, AnyPgColumn, (readonly [string | number, object])[]][] = [
    [s.tenants, s.tenants.id, s.tenants.id, [[tenantId, { name: DEMO_EN.tenant }]]],
    [s.roles, s.roles.tenantId, s.roles.code, Object.entries(DEMO_EN.roles).map(([code, title]) => [code, { title }])],
    [s.applications, s.applications.tenantId, s.applications.code, named(DEMO_EN.applications)],
    [s.workbenches, s.workbenches.tenantId, s.workbenches.code, named(DEMO_EN.workbenches)],
    [s.users, s.users.tenantId, s.users.username, named(DEMO_EN.users)],
    [s.enterprises, s.enterprises.tenantId, s.enterprises.name, named(DEMO_EN.enterprises)],
    [s.menus, s.menus.tenantId, s.menus.name, menus],
    [s.notices, s.notices.tenantId, s.notices.title, Object.entries(DEMO_NOTICES_EN)],
    [
      s.registerAgreements,
      s.registerAgreements.tenantId,
      s.registerAgreements.tenantId,
      [[tenantId, { html: sanitizeRichText(DEMO_AGREEMENT_EN) }]],
    ],
  ];
  let updated = 0;
  for (const [table, scope, key, entries] of parts) {
    for (const [value, en] of entries) {
      const rows = await tx
        .update(table)
        .set({ translations: { en } } as never)
        .where(and(eq(scope, tenantId), eq(key, value), sql`${table.translations} = '{}'::jsonb`))
        .returning({ key });
      updated += rows.length;
    }
  }
  return updated;
}

/** The demo notices in English, by their Chinese title. */
const DEMO_NOTICES_EN: Record<string, { title: string; remark: string }> = {
  关于开展2026年度企业安全生产检查的通知: {
    title: 'Work-safety inspection of all enterprises, 2026',
    remark:
      '<p>Every resident enterprise: please complete your self-check and confirm by <strong>December 15</strong>.</p>',
  },
  园区停电检修通知: {
    title: 'Power maintenance in the park',
    remark: '<p>Zone A has no power this Saturday from 8:00 to 12:00 for maintenance; please prepare.</p>',
  },
  高新技术企业认定材料征集: {
    title: 'High-tech enterprise recognition: documents wanted',
    remark: '<p>Enterprises that qualify: please upload your application documents.</p>',
  },
  园区食堂菜单调整: {
    title: 'New canteen menu',
    remark: '<p>From next week the canteen also serves dinner.</p>',
  },
};

const DEMO_AGREEMENT_EN = `<h3>User registration agreement of the Demo Park enterprise service platform</h3>
<p>Welcome to the Demo Park enterprise service platform (the “platform”). Please read this agreement carefully before you register; by ticking the box and clicking “Agree” you confirm that you have read and accept all of it.</p>
<h4>1. Registration</h4>
<p>1. You provide true, accurate and complete information about your enterprise and its contact person, and update it when it changes.</p>
<p>2. A registered enterprise is reviewed by the park; some services are unavailable until it has been approved.</p>
<h4>2. Account security</h4>
<p>1. Keep your account and password safe; you bear any loss caused by failing to do so.</p>
<p>2. If your account is misused, reset your password at once through “Forgot password” and contact the park administrator.</p>
<h4>3. Personal information</h4>
<p>The platform processes your personal information under the Personal Information Protection Law of the People’s Republic of China, only to provide park services, and does not give it to third parties without your consent.</p>
<h4>4. Other</h4>
<p>This agreement is interpreted, and disputes about it are settled, under the laws of the People’s Republic of China.</p>`;

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

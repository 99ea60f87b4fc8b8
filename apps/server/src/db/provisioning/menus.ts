/**
 * Menus every tenant gets, and the way entries are added to a tenant's tree: the operators' console
 * (`consoleMenu`) and `ensureMenus`, which the demo uses for its own tree as well.
 */
import { eq, max } from 'drizzle-orm';
import type { Tx } from '../client.js';
import * as s from '../schema.js';

export interface MenuSeed {
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

/** The operators' console (: every tenant's, for its operators (`system:manage`). */
const CONSOLE_PAGES: [name: string, title: string, en: string, icon: string][] = [
  ['users', '用户管理', 'Users', 'UserOutlined'],
  ['roles', '角色权限', 'Roles & permissions', 'SafetyCertificateOutlined'],
  ['menus', '菜单管理', 'Menus', 'MenuOutlined'],
  ['enterprises', '企业审核', 'Enterprise review', 'AuditOutlined'],
  ['notices', '通知公告', 'Notices', 'NotificationOutlined'],
  ['directory', '应用与工作台', 'Applications & workbenches', 'AppstoreOutlined'],
  ['sign-on', '单点登录', 'Sign-on services', 'LoginOutlined'],
  ['oidc-clients', 'OIDC 客户端', 'OIDC clients', 'KeyOutlined'],
  ['settings', '租户设置', 'Tenant settings', 'SettingOutlined'],
  ['sms', '短信发件箱', 'SMS outbox', 'MessageOutlined'],
  ['audit', '审计日志', 'Audit log', 'FileSearchOutlined'],
  ['online-users', '在线用户', 'Online users', 'TeamOutlined'],
  ['login-history', '登录日志', 'Login history', 'HistoryOutlined'],
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
 * A menu tree's entries the tenant lacks, looked up by name: missing ones are inserted under their parent
 * with the roles that see them (roles the tenant lacks are skipped), after the existing ones.
 */
export async function ensureMenus(
  tx: Tx,
  tenantId: number,
  roles: { id: number; code: string }[],
  apps: { id: number; code: string }[],
  items: MenuSeed[],
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

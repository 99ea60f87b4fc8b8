import type { MenuData, MenuItem, MenuMeta, PermissionItem } from '@portal/contracts';
import { ResultCode } from '@portal/contracts';
import { PORTAL_PATTERN, SERVER_PATTERN } from '../../db/schema.js';
import { AppError } from '../../platform/errors.js';
import { localized, type Lang } from '../../platform/i18n.js';
import { optionalRowId } from '../../platform/ids.js';
import type { MenuRow, MenusRepository, PermissionRow } from './menus.repository.js';

export interface MenuContext {
  tenantId: number;
  userId: number;
  roleId: number | null;
  applicationId: number | null;
}

export interface MenuQuery {
  roleId?: string | undefined;
  appCodes?: string | undefined;
}

const toPermission = (p: PermissionRow): PermissionItem => ({
  action: p.code,
  describe: p.describe,
  type: String(p.type),
  status: String(p.status),
});

/**
 * Builds the menu tree; children of an entry the role cannot see are dropped with it. `portal` is
 * the portal's address that `{PORTAL}` in an entry's url stands for, `server` the server's (PUBLIC_URL)
 * that `{SERVER}` stands for (another application it serves, e.g. the demo's example systems);
 * titles are in `lang`.
 */
export function buildTree(rows: MenuRow[], portal = '', lang: Lang = 'zh', server = ''): MenuItem[] {
  const items = new Map<number, MenuItem>();
  for (const r of rows) {
    const meta = r.meta as MenuMeta;
    const title = localized(lang, { title: meta.title, translations: r.translations }, 'title');
    // An entry's url may start with {PORTAL} or {SERVER}: addresses only the server knows.
    const url = meta.url?.startsWith(PORTAL_PATTERN)
      ? `${portal}${meta.url.slice(PORTAL_PATTERN.length)}`
      : meta.url?.startsWith(SERVER_PATTERN)
        ? `${server}${meta.url.slice(SERVER_PATTERN.length)}`
        : meta.url;
    items.set(r.id, {
      id: String(r.id),
      path: r.path,
      name: r.name,
      hidden: r.hidden,
      parentId: r.parentId === null ? null : String(r.parentId),
      component: r.component,
      redirect: r.redirect,
      route: r.route,
      meta: { ...meta, title, url, serviceType: r.serviceType, module: r.module },
    });
  }
  const roots: MenuItem[] = [];
  for (const r of rows) {
    const item = items.get(r.id)!;
    if (r.parentId === null) roots.push(item);
    else {
      const parent = items.get(r.parentId);
      if (parent) (parent.children ??= []).push(item);
    }
  }
  return roots;
}

export function createMenusService({
  repo,
  portal,
  server = '',
}: {
  repo: MenusRepository;
  portal: string;
  server?: string;
}) {
  return {
    async menuFor(ctx: MenuContext, q: MenuQuery, lang: Lang): Promise<MenuData> {
      let roleId = ctx.roleId;
      const asked = optionalRowId(q.roleId);
      if (asked !== null) {
        if (!(await repo.holdsRole(ctx.tenantId, ctx.userId, asked))) {
          throw new AppError(ResultCode.NO_PERMISSION, 'roleNotHeld');
        }
        roleId = asked;
      }
      if (roleId === null) return { auth: [], allAuth: [], menu: [] };
      const appCodes = q.appCodes
        ? q.appCodes
            .split(',')
            .map((c) => c.trim())
            .filter(Boolean)
        : null;
      const [rows, auth, allAuth] = await Promise.all([
        repo.menusForRole(ctx.tenantId, ctx.userId, roleId, appCodes, ctx.applicationId),
        repo.rolePermissions(ctx.tenantId, roleId),
        repo.allPermissions(ctx.tenantId),
      ]);
      return {
        auth: auth.map(toPermission),
        allAuth: allAuth.map(toPermission),
        menu: buildTree(rows, portal, lang, server),
      };
    },
  };
}

export type MenusService = ReturnType<typeof createMenusService>;

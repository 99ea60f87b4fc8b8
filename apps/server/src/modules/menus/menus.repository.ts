import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  applications,
  menus,
  permissions,
  rolePermissions,
  roles,
  roleMenus,
  userApplications,
  userRoles,
} from '../../db/schema.js';

export type MenuRow = Awaited<ReturnType<MenusRepository['menusForRole']>>[number];
export type PermissionRow = Awaited<ReturnType<MenusRepository['allPermissions']>>[number];

const permission = {
  code: permissions.code,
  describe: permissions.describe,
  type: permissions.type,
  status: permissions.status,
};

export function createMenusRepository(db: Db) {
  return {
    async holdsRole(tenantId: number, userId: number, roleId: number): Promise<boolean> {
      const held = await db
        .select({ one: sql`1` })
        .from(userRoles)
        .innerJoin(roles, eq(roles.id, userRoles.roleId))
        .where(and(eq(userRoles.userId, userId), eq(userRoles.roleId, roleId), eq(roles.tenantId, tenantId)));
      return held.length > 0;
    },

    /**
     * The role's menu entries: common ones (no application) plus those of the applications asked
     * for (by code, else the session's one), counting only applications the user holds. Ordered
     * for tree building.
     */
    menusForRole(tenantId: number, userId: number, roleId: number, appCodes: string[] | null, appId: number | null) {
      const asked =
        appCodes !== null
          ? inArray(applications.code, appCodes)
          : appId !== null
            ? eq(applications.id, appId)
            : sql`false`;
      const granted = db
        .select({ id: applications.id })
        .from(applications)
        .innerJoin(
          userApplications,
          and(eq(userApplications.applicationId, applications.id), eq(userApplications.userId, userId)),
        )
        .where(and(eq(applications.tenantId, tenantId), asked));
      return db
        .select({
          id: menus.id,
          parentId: menus.parentId,
          name: menus.name,
          path: menus.path,
          component: menus.component,
          redirect: menus.redirect,
          route: menus.route,
          hidden: menus.hidden,
          serviceType: menus.serviceType,
          module: menus.module,
          meta: menus.meta,
          translations: menus.translations,
        })
        .from(menus)
        .innerJoin(roleMenus, and(eq(roleMenus.menuId, menus.id), eq(roleMenus.roleId, roleId)))
        .where(
          and(eq(menus.tenantId, tenantId), or(isNull(menus.applicationId), inArray(menus.applicationId, granted))),
        )
        .orderBy(asc(menus.sort), asc(menus.id));
    },

    rolePermissions(tenantId: number, roleId: number) {
      return db
        .select(permission)
        .from(permissions)
        .innerJoin(
          rolePermissions,
          and(eq(rolePermissions.permissionId, permissions.id), eq(rolePermissions.roleId, roleId)),
        )
        .where(eq(permissions.tenantId, tenantId))
        .orderBy(asc(permissions.code));
    },

    allPermissions(tenantId: number) {
      return db
        .select(permission)
        .from(permissions)
        .where(eq(permissions.tenantId, tenantId))
        .orderBy(asc(permissions.code));
    },
  };
}

export type MenusRepository = ReturnType<typeof createMenusRepository>;

import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

export type MenuRow = {
  id: number;
  parentId: number | null;
  name: string;
  path: string;
  component: string;
  redirect: string | null;
  route: string;
  hidden: boolean;
  serviceType: number;
  module: string | null;
  meta: Record<string, unknown>;
};

export type PermissionRow = {
  code: string;
  describe: string;
  type: number;
  status: number;
};

export function createMenusRepository(db: Db) {
  return {
    async holdsRole(tenantId: number, userId: number, roleId: number): Promise<boolean> {
      const res = await db.execute(sql`
        SELECT 1 FROM user_roles ur JOIN roles r ON r.id = ur.role_id
        WHERE ur.user_id = ${userId} AND ur.role_id = ${roleId} AND r.tenant_id = ${tenantId}`);
      return res.rows.length > 0;
    },

    /**
     * The role's menu entries: common ones (no application) plus those of the applications asked
     * for, counting only applications the user holds. Ordered for tree building.
     */
    async menusForRole(
      tenantId: number,
      userId: number,
      roleId: number,
      appCodes: string[] | null,
      appId: number | null,
    ) {
      const res = await db.execute<MenuRow>(sql`
        SELECT m.id, m.parent_id AS "parentId", m.name, m.path, m.component, m.redirect, m.route, m.hidden,
               m.service_type AS "serviceType", m.module, m.meta
        FROM menus m
        JOIN role_menus rm ON rm.menu_id = m.id AND rm.role_id = ${roleId}
        WHERE m.tenant_id = ${tenantId}
          AND (m.application_id IS NULL OR m.application_id IN (
            SELECT a.id FROM applications a JOIN user_applications ua ON ua.application_id = a.id AND ua.user_id = ${userId}
            WHERE a.tenant_id = ${tenantId}
              AND (CASE WHEN ${appCodes === null} THEN a.id = ${appId} ELSE a.code = ANY(string_to_array(${(appCodes ?? []).join(',')}, ',')) END)))
        ORDER BY m.sort, m.id`);
      return res.rows;
    },

    async rolePermissions(tenantId: number, roleId: number): Promise<PermissionRow[]> {
      const res = await db.execute<PermissionRow>(sql`
        SELECT p.code, p.describe, p.type, p.status FROM permissions p
        JOIN role_permissions rp ON rp.permission_id = p.id AND rp.role_id = ${roleId}
        WHERE p.tenant_id = ${tenantId} ORDER BY p.code`);
      return res.rows;
    },

    async allPermissions(tenantId: number): Promise<PermissionRow[]> {
      const res = await db.execute<PermissionRow>(sql`
        SELECT code, describe, type, status FROM permissions WHERE tenant_id = ${tenantId} ORDER BY code`);
      return res.rows;
    },
  };
}

export type MenusRepository = ReturnType<typeof createMenusRepository>;

import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

export type UserInfoRow = {
  username: string;
  name: string;
  nickname: string | null;
  userId: number;
  tenantId: number;
  tenantCode: string;
  image: string | null;
  homeUri: string | null;
  groupId: number | null;
  groupName: string | null;
  defaultApplyId: number | null;
  defaultApplyCode: string | null;
  defaultRoleId: number | null;
  defaultWorkbenchId: number | null;
  defaultEntId: number | null;
  defaultEntGuId: string | null;
};

export function createMembersRepository(db: Db) {
  return {
    /** The user's profile in the context of the session's enterprise; scoped to the tenant. */
    async userInfo(tenantId: number, userId: number, enterpriseId: number | null): Promise<UserInfoRow | null> {
      const res = await db.execute<UserInfoRow>(sql`
        SELECT u.username, u.name, u.nickname, u.id AS "userId", u.tenant_id AS "tenantId", t.code AS "tenantCode",
               u.image, u.home_uri AS "homeUri",
               ge.id AS "groupId", ge.name AS "groupName",
               a.id AS "defaultApplyId", a.code AS "defaultApplyCode",
               u.default_role_id AS "defaultRoleId", u.default_workbench_id AS "defaultWorkbenchId",
               de.id AS "defaultEntId", de.guid::text AS "defaultEntGuId"
        FROM users u
        JOIN tenants t ON t.id = u.tenant_id
        LEFT JOIN enterprises ge ON ge.id = ${enterpriseId} AND ge.tenant_id = u.tenant_id
        LEFT JOIN applications a ON a.id = u.default_application_id AND a.tenant_id = u.tenant_id
        LEFT JOIN enterprises de ON de.id = u.default_enterprise_id AND de.tenant_id = u.tenant_id
        WHERE u.id = ${userId} AND u.tenant_id = ${tenantId}`);
      return res.rows[0] ?? null;
    },

    /** The roles the user holds, in the tenant. */
    async roles(tenantId: number, userId: number): Promise<{ id: number; title: string }[]> {
      const res = await db.execute<{ id: number; title: string }>(sql`
        SELECT r.id, r.title FROM user_roles ur JOIN roles r ON r.id = ur.role_id
        WHERE ur.user_id = ${userId} AND r.tenant_id = ${tenantId} ORDER BY r.id`);
      return res.rows.map((r) => ({ id: Number(r.id), title: r.title }));
    },

    /** The applications the user is granted, in the tenant. */
    async applications(tenantId: number, userId: number): Promise<{ id: number; code: string; name: string }[]> {
      const res = await db.execute<{ id: number; code: string; name: string }>(sql`
        SELECT a.id, a.code, a.name FROM user_applications ua JOIN applications a ON a.id = ua.application_id
        WHERE ua.user_id = ${userId} AND a.tenant_id = ${tenantId} ORDER BY a.id`);
      return res.rows.map((r) => ({ id: Number(r.id), code: r.code, name: r.name }));
    },

    /** The workbenches the user may use, in the tenant. */
    async workbenches(tenantId: number, userId: number): Promise<{ id: number; code: string; name: string }[]> {
      const res = await db.execute<{ id: number; code: string; name: string }>(sql`
        SELECT w.id, w.code, w.name FROM user_workbenches uw JOIN workbenches w ON w.id = uw.workbench_id
        WHERE uw.user_id = ${userId} AND w.tenant_id = ${tenantId} ORDER BY w.id`);
      return res.rows.map((r) => ({ id: Number(r.id), code: r.code, name: r.name }));
    },

    /** The name of the tenant's application with this code, or null. */
    async applicationName(tenantId: number, code: string): Promise<string | null> {
      const res = await db.execute<{ name: string }>(
        sql`SELECT name FROM applications WHERE tenant_id = ${tenantId} AND code = ${code}`,
      );
      return res.rows[0]?.name ?? null;
    },

    async setNickname(tenantId: number, userId: number, nickname: string): Promise<void> {
      await db.execute(sql`UPDATE users SET nickname = ${nickname} WHERE id = ${userId} AND tenant_id = ${tenantId}`);
    },

    /** Sets the defaults given (null: unchanged); the caller has checked that the user holds them. */
    async setDefaults(
      tenantId: number,
      userId: number,
      d: { roleId?: number | null; workbenchId?: number | null; applicationId?: number | null },
    ): Promise<void> {
      await db.execute(sql`
        UPDATE users SET
          default_role_id = coalesce(${d.roleId ?? null}::bigint, default_role_id),
          default_workbench_id = coalesce(${d.workbenchId ?? null}::bigint, default_workbench_id),
          default_application_id = coalesce(${d.applicationId ?? null}::bigint, default_application_id)
        WHERE id = ${userId} AND tenant_id = ${tenantId}`);
    },
  };
}

export type MembersRepository = ReturnType<typeof createMembersRepository>;

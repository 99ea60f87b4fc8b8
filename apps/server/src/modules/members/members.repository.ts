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
               u.default_role_id AS "defaultRoleId",
               de.id AS "defaultEntId", de.guid::text AS "defaultEntGuId"
        FROM users u
        JOIN tenants t ON t.id = u.tenant_id
        LEFT JOIN enterprises ge ON ge.id = ${enterpriseId} AND ge.tenant_id = u.tenant_id
        LEFT JOIN applications a ON a.id = u.default_application_id AND a.tenant_id = u.tenant_id
        LEFT JOIN enterprises de ON de.id = u.default_enterprise_id AND de.tenant_id = u.tenant_id
        WHERE u.id = ${userId} AND u.tenant_id = ${tenantId}`);
      return res.rows[0] ?? null;
    },
  };
}

export type MembersRepository = ReturnType<typeof createMembersRepository>;

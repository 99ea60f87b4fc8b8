import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

export type JoinedRow = { id: number; name: string; creditCode: string | null; joinedAt: string; estatus: number };
export type CurrentRow = JoinedRow & { industry: string | null; regionCode: string | null };
export type MemberRow = { id: number; name: string; username: string; mobile: string | null; joinedAt: string };

/** When the member `m` joined, as the portal shows times: China time, `YYYY-MM-DD HH:mm:ss`. */
const JOINED_AT = sql.raw(`to_char(m.created_at AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD HH24:MI:SS') AS "joinedAt"`);

export function createEnterprisesRepository(db: Db) {
  const count = async (tenantId: number, userId: number): Promise<number> => {
    const res = await db.execute<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM enterprise_members m JOIN enterprises e ON e.id = m.enterprise_id
      WHERE m.user_id = ${userId} AND e.tenant_id = ${tenantId}`);
    return res.rows[0]!.n;
  };
  return {
    /** How many enterprises the user belongs to, in the tenant. */
    count,

    /**
     * The session's current enterprise, if the user is (still) a member of it in the tenant: one
     * statement, the industry's name joined (its code alone means nothing to a reader).
     */
    async current(tenantId: number, userId: number, enterpriseId: number): Promise<CurrentRow | null> {
      const res = await db.execute<CurrentRow>(sql`
        SELECT e.id, e.name, e.credit_code AS "creditCode", i.name AS industry, e.region_code AS "regionCode",
               e.estatus, ${JOINED_AT}
        FROM enterprise_members m JOIN enterprises e ON e.id = m.enterprise_id
        LEFT JOIN industries i ON i.code = e.industry_code
        WHERE m.user_id = ${userId} AND m.enterprise_id = ${enterpriseId} AND e.tenant_id = ${tenantId}`);
      const r = res.rows[0];
      return r ? { ...r, id: Number(r.id) } : null;
    },

    /**
     * The members of an enterprise, earliest first, one page: only when `userId` is one of them, in
     * the tenant (else none), so a session can list only its own enterprise's people.
     */
    async members(
      tenantId: number,
      userId: number,
      enterpriseId: number,
      page: number,
      limit: number,
    ): Promise<{ rows: MemberRow[]; total: number }> {
      const res = await db.execute<MemberRow & { total: number }>(sql`
        SELECT u.id, u.name, u.username, u.mobile,
               ${JOINED_AT},
               count(*) OVER ()::int AS total
        FROM enterprise_members m JOIN enterprises e ON e.id = m.enterprise_id JOIN users u ON u.id = m.user_id
        WHERE m.enterprise_id = ${enterpriseId} AND e.tenant_id = ${tenantId}
          AND EXISTS (SELECT 1 FROM enterprise_members c WHERE c.enterprise_id = ${enterpriseId} AND c.user_id = ${userId})
        ORDER BY m.created_at, u.id
        LIMIT ${limit} OFFSET ${(page - 1) * limit}`);
      return { rows: res.rows.map((r) => ({ ...r, id: Number(r.id) })), total: res.rows[0]?.total ?? 0 };
    },

    /** The enterprises the user has joined, newest first, one page; scoped to the tenant. */
    async joined(
      tenantId: number,
      userId: number,
      page: number,
      limit: number,
    ): Promise<{ rows: JoinedRow[]; total: number }> {
      const res = await db.execute<JoinedRow & { total: number }>(sql`
        SELECT e.id, e.name, e.credit_code AS "creditCode",
               ${JOINED_AT},
               e.estatus, count(*) OVER ()::int AS total
        FROM enterprise_members m JOIN enterprises e ON e.id = m.enterprise_id
        WHERE m.user_id = ${userId} AND e.tenant_id = ${tenantId}
        ORDER BY m.created_at DESC, e.id DESC
        LIMIT ${limit} OFFSET ${(page - 1) * limit}`);
      const total = res.rows[0]?.total ?? (page > 1 ? await count(tenantId, userId) : 0);
      return { rows: res.rows.map((r) => ({ ...r, id: Number(r.id) })), total };
    },
  };
}

export type EnterprisesRepository = ReturnType<typeof createEnterprisesRepository>;

import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

export type JoinedRow = { id: number; name: string; creditCode: string | null; joinedAt: string; estatus: number };

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

    /** The enterprises the user has joined, newest first, one page; scoped to the tenant. */
    async joined(
      tenantId: number,
      userId: number,
      page: number,
      limit: number,
    ): Promise<{ rows: JoinedRow[]; total: number }> {
      const res = await db.execute<JoinedRow & { total: number }>(sql`
        SELECT e.id, e.name, e.credit_code AS "creditCode",
               to_char(m.created_at AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD HH24:MI:SS') AS "joinedAt",
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

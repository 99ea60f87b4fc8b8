import { and, asc, count as countRows, desc, eq, exists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { chinaTime, totalRows } from '../../db/expressions.js';
import { enterpriseMembers, enterprises, industries, users } from '../../db/schema.js';

const joinedAt = chinaTime(enterpriseMembers.joinedAt);
const caller = alias(enterpriseMembers, 'c');

const profile = {
  id: enterprises.id,
  name: enterprises.name,
  translations: enterprises.translations,
  creditCode: enterprises.creditCode,
  estatus: enterprises.estatus,
  joinedAt,
};

export function createEnterprisesRepository(db: Db) {
  const count = async (tenantId: number, userId: number): Promise<number> => {
    const [row] = await db
      .select({ n: countRows() })
      .from(enterpriseMembers)
      .innerJoin(enterprises, eq(enterprises.id, enterpriseMembers.enterpriseId))
      .where(and(eq(enterpriseMembers.userId, userId), eq(enterprises.tenantId, tenantId)));
    return row!.n;
  };
  return {
    /** How many enterprises the user belongs to, in the tenant. */
    count,

    /**
     * The session's current enterprise, if the user is (still) a member of it in the tenant: one
     * statement, the industry's name joined (its code alone means nothing to a reader).
     */
    async current(tenantId: number, userId: number, enterpriseId: number) {
      const [row] = await db
        .select({
          ...profile,
          industry: industries.name,
          regionCode: enterprises.regionCode,
          reviewReason: enterprises.reviewReason,
        })
        .from(enterpriseMembers)
        .innerJoin(enterprises, eq(enterprises.id, enterpriseMembers.enterpriseId))
        .leftJoin(industries, eq(industries.code, enterprises.industryCode))
        .where(
          and(
            eq(enterpriseMembers.userId, userId),
            eq(enterpriseMembers.enterpriseId, enterpriseId),
            eq(enterprises.tenantId, tenantId),
          ),
        );
      return row ?? null;
    },

    /**
     * The members of an enterprise, earliest first, one page: only when `userId` is one of them, in
     * the tenant (else none), so a session can list only its own enterprise's people.
     */
    async members(tenantId: number, userId: number, enterpriseId: number, page: number, limit: number) {
      const rows = await db
        .select({
          id: users.id,
          name: users.name,
          translations: users.translations,
          username: users.username,
          mobile: users.mobile,
          joinedAt,
          total: totalRows(),
        })
        .from(enterpriseMembers)
        .innerJoin(enterprises, eq(enterprises.id, enterpriseMembers.enterpriseId))
        .innerJoin(users, eq(users.id, enterpriseMembers.userId))
        .where(
          and(
            eq(enterpriseMembers.enterpriseId, enterpriseId),
            eq(enterprises.tenantId, tenantId),
            exists(
              db
                .select({ one: sql`1` })
                .from(caller)
                .where(and(eq(caller.enterpriseId, enterpriseId), eq(caller.userId, userId))),
            ),
          ),
        )
        .orderBy(asc(enterpriseMembers.joinedAt), asc(users.id))
        .limit(limit)
        .offset((page - 1) * limit);
      return { rows, total: rows[0]?.total ?? 0 };
    },

    /** The enterprises the user has joined, newest first, one page; scoped to the tenant. */
    async joined(tenantId: number, userId: number, page: number, limit: number) {
      const rows = await db
        .select({ ...profile, total: totalRows() })
        .from(enterpriseMembers)
        .innerJoin(enterprises, eq(enterprises.id, enterpriseMembers.enterpriseId))
        .where(and(eq(enterpriseMembers.userId, userId), eq(enterprises.tenantId, tenantId)))
        .orderBy(desc(enterpriseMembers.joinedAt), desc(enterprises.id))
        .limit(limit)
        .offset((page - 1) * limit);
      return { rows, total: rows[0]?.total ?? (page > 1 ? await count(tenantId, userId) : 0) };
    },
  };
}

export type EnterprisesRepository = ReturnType<typeof createEnterprisesRepository>;

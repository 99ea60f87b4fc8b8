import { and, desc, eq, exists, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { chinaTime, totalRows } from '../../db/expressions.js';
import { enterpriseInvitations as inv, enterpriseMembers, users } from '../../db/schema.js';

const inviter = alias(users, 'inviter');
const joiner = alias(users, 'joiner');
/** The open invitation of a number into an enterprise (the partial unique index's condition). */
const OPEN = sql`joined_at IS NULL AND revoked_at IS NULL`;

export function createInvitationsRepository(db: Db) {
  const memberOf = (enterpriseId: number, userId: number) =>
    db
      .select({ one: sql`1` })
      .from(enterpriseMembers)
      .where(and(eq(enterpriseMembers.enterpriseId, enterpriseId), eq(enterpriseMembers.userId, userId)));
  return {
    /** Whether the user is a member of the enterprise. */
    async isMember(enterpriseId: number, userId: number): Promise<boolean> {
      return (await memberOf(enterpriseId, userId)).length > 0;
    },

    /** Whether someone with this mobile number in the tenant is a member of the enterprise already. */
    async numberIsMember(tenantId: number, enterpriseId: number, mobile: string): Promise<boolean> {
      const rows = await db
        .select({ one: sql`1` })
        .from(users)
        .innerJoin(enterpriseMembers, eq(enterpriseMembers.userId, users.id))
        .where(
          and(eq(users.tenantId, tenantId), eq(users.mobile, mobile), eq(enterpriseMembers.enterpriseId, enterpriseId)),
        );
      return rows.length > 0;
    },

    /**
     * Invites the number, or renews its open invitation (sent again: a new expiry, the new
     * inviter): one statement on the open-invitation index, so two admins inviting at once make one.
     */
    async invite(a: { tenantId: number; enterpriseId: number; mobile: string; invitedBy: number; days: number }) {
      const expiresAt = sql`now() + make_interval(days => ${a.days})`;
      const [row] = await db
        .insert(inv)
        .values({
          tenantId: a.tenantId,
          enterpriseId: a.enterpriseId,
          mobile: a.mobile,
          invitedBy: a.invitedBy,
          expiresAt,
        })
        .onConflictDoUpdate({
          target: [inv.tenantId, inv.mobile, inv.enterpriseId],
          targetWhere: OPEN,
          set: { invitedBy: a.invitedBy, createdAt: sql`now()`, expiresAt },
        })
        .returning({ id: inv.id });
      return row!.id;
    },

    /**
     * The enterprise's invitations, newest first, one page: only when `userId` is one of its members,
     * in the tenant (else none).
     */
    async list(tenantId: number, userId: number, enterpriseId: number, page: number, limit: number) {
      const rows = await db
        .select({
          id: inv.id,
          mobile: inv.mobile,
          invitedBy: { name: inviter.name, translations: inviter.translations },
          joiner: { name: joiner.name, translations: joiner.translations },
          crtTime: chinaTime(inv.createdAt),
          expireTime: chinaTime(inv.expiresAt),
          joinTime: chinaTime(inv.joinedAt),
          joined: sql<boolean>`${inv.joinedAt} IS NOT NULL`,
          revoked: sql<boolean>`${inv.revokedAt} IS NOT NULL`,
          expired: sql<boolean>`${inv.expiresAt} <= now()`,
          total: totalRows(),
        })
        .from(inv)
        .leftJoin(inviter, eq(inviter.id, inv.invitedBy))
        .leftJoin(joiner, eq(joiner.id, inv.joinedUserId))
        .where(
          and(eq(inv.tenantId, tenantId), eq(inv.enterpriseId, enterpriseId), exists(memberOf(enterpriseId, userId))),
        )
        .orderBy(desc(inv.createdAt), desc(inv.id))
        .limit(limit)
        .offset((page - 1) * limit);
      return { rows, total: rows[0]?.total ?? 0 };
    },

    /** Revokes an open invitation of the enterprise; false when there is none by that id. */
    async revoke(tenantId: number, enterpriseId: number, id: number): Promise<boolean> {
      const rows = await db
        .update(inv)
        .set({ revokedAt: sql`now()` })
        .where(
          and(
            eq(inv.id, id),
            eq(inv.tenantId, tenantId),
            eq(inv.enterpriseId, enterpriseId),
            isNull(inv.joinedAt),
            isNull(inv.revokedAt),
          ),
        )
        .returning({ id: inv.id });
      return rows.length > 0;
    },
  };
}

export type InvitationsRepository = ReturnType<typeof createInvitationsRepository>;

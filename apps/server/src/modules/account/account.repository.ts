import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { auditLog, passwordResets, sessions, ssoSessions, users } from '../../db/schema.js';

/** A reset grant that is neither spent nor expired. */
const live = and(isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, sql`now()`));

export function createAccountRepository(db: Db) {
  return {
    /** The user with this username and this mobile number, or null. */
    async userByAccountAndMobile(tenantId: number, username: string, mobile: string): Promise<number | null> {
      const [row] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.tenantId, tenantId), eq(users.username, username), eq(users.mobile, mobile)));
      return row?.id ?? null;
    },

    async createReset(userId: number, tokenHash: string, ttlSeconds: number): Promise<void> {
      await db
        .insert(passwordResets)
        .values({ tokenHash, userId, expiresAt: sql`now() + make_interval(secs => ${ttlSeconds})` });
    },

    /** The live reset's user (and username), or null; the grant is not spent yet. */
    async liveReset(tokenHash: string): Promise<{ userId: number; username: string } | null> {
      const [row] = await db
        .select({ userId: passwordResets.userId, username: users.username })
        .from(passwordResets)
        .innerJoin(users, eq(users.id, passwordResets.userId))
        .where(and(eq(passwordResets.tokenHash, tokenHash), live));
      return row ?? null;
    },

    async username(userId: number): Promise<string> {
      const [row] = await db.select({ username: users.username }).from(users).where(eq(users.id, userId));
      return row!.username;
    },

    /**
     * Sets the password and ends the user's sessions (all but `keepSession`) and sign-on sessions,
     * spending the reset grant when one is given; in one transaction. False when the grant was
     * spent meanwhile.
     */
    async setPassword(p: {
      userId: number;
      passwordHash: string;
      ip: string;
      action: string;
      resetTokenHash?: string;
      keepSession?: string;
    }): Promise<boolean> {
      return db.transaction(async (tx) => {
        if (p.resetTokenHash) {
          const spent = await tx
            .update(passwordResets)
            .set({ usedAt: sql`now()` })
            .where(and(eq(passwordResets.tokenHash, p.resetTokenHash), live))
            .returning({ userId: passwordResets.userId });
          if (spent.length === 0) return false;
        }
        const [user] = await tx
          .update(users)
          // The user's own password now: whatever someone else had set is replaced (ADR 033).
          .set({ passwordHash: p.passwordHash, failedLogins: 0, lockedUntil: null, mustChangePassword: false })
          .where(eq(users.id, p.userId))
          .returning({ tenantId: users.tenantId });
        await tx
          .update(sessions)
          .set({ revokedAt: sql`now()` })
          .where(
            and(
              eq(sessions.userId, p.userId),
              isNull(sessions.revokedAt),
              p.keepSession ? ne(sessions.id, p.keepSession) : undefined,
            ),
          );
        await tx
          .update(ssoSessions)
          .set({ endedAt: sql`now()` })
          .where(and(eq(ssoSessions.userId, p.userId), isNull(ssoSessions.endedAt)));
        if (user)
          await tx.insert(auditLog).values({ tenantId: user.tenantId, userId: p.userId, action: p.action, ip: p.ip });
        return true;
      });
    },
  };
}

export type AccountRepository = ReturnType<typeof createAccountRepository>;

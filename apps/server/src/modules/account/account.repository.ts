import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { storePassword } from '../../db/passwords.js';
import { passwordResets, users } from '../../db/schema.js';
import { writeAudit, type AuditAction } from '../../platform/audit.js';

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

    /** A reset grant for the user, given by a right code sent to `mobile`. */
    async createReset(userId: number, tokenHash: string, ttlSeconds: number, mobile: string): Promise<void> {
      await db
        .insert(passwordResets)
        .values({ tokenHash, userId, mobile, expiresAt: sql`now() + make_interval(secs => ${ttlSeconds})` });
    },

    /** The user's own mobile number and the number last proven theirs (ADR 023). */
    async mobileOf(userId: number): Promise<{ mobile: string | null; verifiedMobile: string | null }> {
      const [row] = await db
        .select({ mobile: users.mobile, verifiedMobile: users.verifiedMobile })
        .from(users)
        .where(eq(users.id, userId));
      return row ?? { mobile: null, verifiedMobile: null };
    },

    /**
     * Records `mobile` as proven to be the user's own, and audits it, in one transaction; false
     * when the user's number is no longer `mobile` (an operator changed it after the code was sent).
     */
    async proveMobile(userId: number, mobile: string, ip: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [user] = await tx
          .update(users)
          .set({ verifiedMobile: mobile })
          .where(and(eq(users.id, userId), eq(users.mobile, mobile)))
          .returning({ tenantId: users.tenantId });
        if (!user) return false;
        await writeAudit(tx, { tenantId: user.tenantId, userId, action: 'mobile.verified', ip });
        return true;
      });
    },

    /** The live reset's user (and username), or null; the grant is not spent yet. */
    async liveReset(tokenHash: string): Promise<{ userId: number; tenantId: number; username: string } | null> {
      const [row] = await db
        .select({ userId: passwordResets.userId, tenantId: users.tenantId, username: users.username })
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
     * spent meanwhile. A reset also proves the number its code went to, if that is still the
     * account's: only now, when the phone's holder has taken the account over (every other session
     * ends), not when the code was checked, or an account whose number a stranger gave would be
     * proven by a reset its holder began and left.
     */
    async setPassword(p: {
      userId: number;
      passwordHash: string;
      ip: string;
      action: Extract<AuditAction, 'password.change' | 'password.reset'>;
      resetTokenHash?: string;
      keepSession?: string;
    }): Promise<boolean> {
      return db.transaction(async (tx) => {
        let proven: string | null = null;
        if (p.resetTokenHash) {
          const [spent] = await tx
            .update(passwordResets)
            .set({ usedAt: sql`now()` })
            .where(and(eq(passwordResets.tokenHash, p.resetTokenHash), live))
            .returning({ userId: passwordResets.userId, mobile: passwordResets.mobile });
          if (!spent) return false;
          proven = spent.mobile;
        }
        // The user's own password now: whatever someone else had set is replaced (ADR 033).
        const tenantId = await storePassword(tx, p.userId, {
          passwordHash: p.passwordHash,
          temporary: false,
          keepSession: p.keepSession,
        });
        if (proven !== null)
          await tx
            .update(users)
            .set({
              verifiedMobile: sql`CASE WHEN ${users.mobile} = ${proven} THEN ${proven} ELSE ${users.verifiedMobile} END`,
            })
            .where(eq(users.id, p.userId));
        if (tenantId !== null) await writeAudit(tx, { tenantId, userId: p.userId, action: p.action, ip: p.ip });
        return true;
      });
    },
  };
}

export type AccountRepository = ReturnType<typeof createAccountRepository>;

/**
 * Storing a user's new password (ADR 038), the one write every setter of a password makes: the
 * old hash kept in the user's password history (ADR 053: the newest 24, for the tenant's "not one
 * of the last N" rule), the new hash and its time (the policy's maximum age runs from it), whether
 * it is temporary (someone else set it: it must be changed at the next sign-in, ADR 033), the
 * lockout lifted, the user's remembered browsers forgotten, and the user's portal sessions ended —
 * all of them, or all but the one that made the change — with every sign-on session, so no new
 * ticket is given out for them.
 */
import { and, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from './client.js';
import { passwordHistory, rememberedBrowsers, sessions, ssoSessions, users } from './schema.js';

/** The most earlier passwords kept per user: the policy's history cannot ask for more. */
export const PASSWORD_HISTORY_KEPT = 24;

export interface StoredPassword {
  passwordHash: string;
  /** Set by someone else: the user must change it first (ADR 033). */
  temporary: boolean;
  /** The session that made the change and stays open (a user's own change); none: every one ends. */
  keepSession?: string | undefined;
}

/** Stores the password inside the caller's transaction; the user's tenant, or null when there is no such user. */
export async function storePassword(tx: Db | Tx, userId: number, p: StoredPassword): Promise<number | null> {
  // The hash being replaced joins the history first (one statement: it reads the row before the update).
  await tx.execute(
    sql`INSERT INTO password_history (user_id, password_hash) SELECT id, password_hash FROM users WHERE id = ${userId}`,
  );
  await tx.execute(sql`DELETE FROM password_history WHERE user_id = ${userId} AND id NOT IN (
      SELECT id FROM password_history WHERE user_id = ${userId} ORDER BY created_at DESC, id DESC LIMIT ${PASSWORD_HISTORY_KEPT})`);
  const [user] = await tx
    .update(users)
    .set({
      passwordHash: p.passwordHash,
      passwordChangedAt: sql`now()`,
      mustChangePassword: p.temporary,
      failedLogins: 0,
      lockedUntil: null,
      lastFailedAt: null,
    })
    .where(eq(users.id, userId))
    .returning({ tenantId: users.tenantId });
  await tx
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        p.keepSession ? ne(sessions.id, p.keepSession) : undefined,
      ),
    );
  await tx
    .update(ssoSessions)
    .set({ endedAt: sql`now()` })
    .where(and(eq(ssoSessions.userId, userId), isNull(ssoSessions.endedAt)));
  await tx
    .update(rememberedBrowsers)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(rememberedBrowsers.userId, userId), isNull(rememberedBrowsers.revokedAt)));
  return user?.tenantId ?? null;
}

/** The user's current password hash and the earlier ones, newest first, `n` in all at most (the history rule's). */
export async function recentPasswordHashes(db: Db, userId: number, n: number): Promise<string[]> {
  const [current] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, userId));
  if (!current) return [];
  if (n <= 1) return [current.hash];
  const earlier = await db
    .select({ hash: passwordHistory.passwordHash })
    .from(passwordHistory)
    .where(eq(passwordHistory.userId, userId))
    .orderBy(desc(passwordHistory.createdAt), desc(passwordHistory.id))
    .limit(Math.min(n, PASSWORD_HISTORY_KEPT + 1) - 1);
  return [current.hash, ...earlier.map((r) => r.hash)];
}

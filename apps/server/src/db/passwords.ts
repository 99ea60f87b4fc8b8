/**
 * Storing a user's new password (ADR 038), the one write every setter of a password makes: the
 * hash, whether it is temporary (someone else set it: it must be changed at the next sign-in, ADR
 * 033), the lockout lifted, and the user's portal sessions ended — all of them, or all but the one
 * that made the change — with every sign-on session, so no new ticket is given out for them.
 */
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from './client.js';
import { sessions, ssoSessions, users } from './schema.js';

export interface StoredPassword {
  passwordHash: string;
  /** Set by someone else: the user must change it first (ADR 033). */
  temporary: boolean;
  /** The session that made the change and stays open (a user's own change); none: every one ends. */
  keepSession?: string | undefined;
}

/** Stores the password inside the caller's transaction; the user's tenant, or null when there is no such user. */
export async function storePassword(tx: Db | Tx, userId: number, p: StoredPassword): Promise<number | null> {
  const [user] = await tx
    .update(users)
    .set({
      passwordHash: p.passwordHash,
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
  return user?.tenantId ?? null;
}

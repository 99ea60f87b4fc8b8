/**
 * Passkeys: WebAuthn credentials in user_factors (kind 'webauthn') and the ceremonies in progress
 * (passkey_challenges). Every read and write of a person's passkeys names the tenant and the person,
 * so a passkey of another tenant or person is no one's.
 */
import { and, asc, count, eq, gt, isNotNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { chinaTime } from '../../db/expressions.js';
import { passkeyChallenges, tenants, userFactors, users } from '../../db/schema.js';
import { afterFactorRemoved } from '../../db/factors.js';
import { writeAudit, type AuditRow } from '../../platform/audit.js';

export const WEBAUTHN = 'webauthn';

export type ChallengePurpose = 'sign_in' | 'enrol';

/** A stored credential, as verification needs it. */
export interface StoredPasskey {
  id: number;
  tenantId: number;
  userId: number;
  credentialId: string;
  publicKey: string;
  signCount: number;
  transports: string[];
}

/** A credential and the state of its person, for a passwordless sign-in. */
export interface PasskeyOwner extends StoredPasskey {
  username: string;
  /** The user handle the authenticator keeps (the account's fixed random subject). */
  subject: string;
  locked: boolean;
  disabled: boolean;
  mustChangePassword: boolean;
}

export interface NewPasskey {
  tenantId: number;
  userId: number;
  name: string;
  credentialId: string;
  publicKey: string;
  signCount: number;
  transports: string[];
  aaguid: string;
  backedUp: boolean;
  passwordless: boolean;
}

const stored = {
  id: userFactors.id,
  tenantId: userFactors.tenantId,
  userId: userFactors.userId,
  credentialId: sql<string>`${userFactors.credentialId}`,
  publicKey: sql<string>`${userFactors.publicKey}`,
  signCount: sql<number>`coalesce(${userFactors.signCount}, 0)::int8`.mapWith(Number),
  transports: sql<string[]>`coalesce(${userFactors.transports}, '{}')`,
};

const mine = (tenantId: number, userId: number) =>
  and(eq(userFactors.tenantId, tenantId), eq(userFactors.userId, userId), eq(userFactors.kind, WEBAUTHN));

export function createPasskeysRepository(db: Db) {
  return {
    /** Keeps a ceremony's challenge until `ttlSeconds` from now. */
    async saveChallenge(challenge: string, purpose: ChallengePurpose, userId: number | null, ttlSeconds: number) {
      await db.insert(passkeyChallenges).values({
        challenge,
        purpose,
        userId,
        expiresAt: sql`now() + make_interval(secs => ${ttlSeconds})`,
      });
    },

    /**
     * Spends a challenge: true once, for a live challenge of this purpose (and person, for an
     * enrolment); a second answer with the same challenge, or a late one, gets false.
     */
    async takeChallenge(challenge: string, purpose: ChallengePurpose, userId: number | null): Promise<boolean> {
      const taken = await db
        .delete(passkeyChallenges)
        .where(
          and(
            eq(passkeyChallenges.challenge, challenge),
            eq(passkeyChallenges.purpose, purpose),
            userId === null ? sql`${passkeyChallenges.userId} IS NULL` : eq(passkeyChallenges.userId, userId),
            gt(passkeyChallenges.expiresAt, sql`now()`),
          ),
        )
        .returning({ challenge: passkeyChallenges.challenge });
      return taken.length > 0;
    },

    /** Housekeeping: the ceremonies nobody finished. */
    async removeExpiredChallenges(): Promise<number> {
      const gone = await db
        .delete(passkeyChallenges)
        .where(lt(passkeyChallenges.expiresAt, sql`now()`))
        .returning({ challenge: passkeyChallenges.challenge });
      return gone.length;
    },

    /** The person's passkeys, oldest first. */
    async list(tenantId: number, userId: number) {
      return db
        .select({
          id: userFactors.id,
          name: userFactors.name,
          createdAt: chinaTime(userFactors.createdAt),
          lastUsedAt: chinaTime(userFactors.lastUsedAt),
          passwordless: userFactors.passwordless,
          backedUp: sql<boolean>`coalesce(${userFactors.backedUp}, false)`,
        })
        .from(userFactors)
        .where(and(mine(tenantId, userId), isNotNull(userFactors.confirmedAt)))
        .orderBy(asc(userFactors.createdAt), asc(userFactors.id));
    },

    /** The person's credentials, for an authenticator to leave out (enrolment) or to use (factor step). */
    async credentialsOf(tenantId: number, userId: number): Promise<StoredPasskey[]> {
      return db
        .select(stored)
        .from(userFactors)
        .where(and(mine(tenantId, userId), isNotNull(userFactors.confirmedAt)));
    },

    /** What an enrolment's options show the authenticator of the person. */
    async person(
      tenantId: number,
      userId: number,
    ): Promise<{ username: string; name: string; subject: string } | null> {
      const [row] = await db
        .select({ username: users.username, name: users.name, subject: users.subject })
        .from(users)
        .where(and(eq(users.id, userId), eq(users.tenantId, tenantId)));
      return row ? { username: row.username, name: row.name || row.username, subject: row.subject } : null;
    },

    /** A credential of the tenant by its id, with its person's state; null for any other. */
    async owner(tenantId: number, credentialId: string): Promise<PasskeyOwner | null> {
      const [row] = await db
        .select({
          ...stored,
          username: users.username,
          subject: users.subject,
          locked: sql<boolean>`coalesce(${users.lockedUntil} > now(), false)`,
          disabled: sql<boolean>`${users.disabledAt} IS NOT NULL OR ${tenants.disabledAt} IS NOT NULL`,
          mustChangePassword: users.mustChangePassword,
        })
        .from(userFactors)
        .innerJoin(users, eq(users.id, userFactors.userId))
        .innerJoin(tenants, eq(tenants.id, users.tenantId))
        .where(
          and(
            eq(userFactors.tenantId, tenantId),
            eq(userFactors.kind, WEBAUTHN),
            eq(userFactors.credentialId, credentialId),
            isNotNull(userFactors.confirmedAt),
          ),
        );
      return row ?? null;
    },

    /**
     * Records a verified use: the authenticator's new counter, only if it moved forward (or both
     * are 0, for authenticators that keep none); false when another use got there first or the
     * counter went backwards (a cloned authenticator).
     */
    async recordUse(id: number, was: number, now: number, backedUp: boolean): Promise<boolean> {
      const done = await db
        .update(userFactors)
        .set({ signCount: now, lastUsedAt: sql`now()`, backedUp })
        .where(
          and(
            eq(userFactors.id, id),
            eq(userFactors.signCount, was),
            or(gt(sql`${now}::int8`, userFactors.signCount), and(eq(userFactors.signCount, 0), sql`${now} = 0`)),
          ),
        )
        .returning({ id: userFactors.id });
      return done.length > 0;
    },

    /**
     * Stores a verified credential as confirmed, unless the person already holds `max`; the
     * person's tenant and the audit row in the same transaction. 'full' when at the limit,
     * 'taken' when the credential is enrolled already.
     */
    add(p: NewPasskey, max: number, audit: Omit<AuditRow, 'action'>): Promise<number | 'full' | 'taken'> {
      return db.transaction(async (tx) => {
        // One enrolment at a time per person: the count and the insert see the same rows.
        await tx.execute(sql`SELECT id FROM users WHERE id = ${p.userId} FOR NO KEY UPDATE`);
        const [held] = await tx.select({ n: count() }).from(userFactors).where(mine(p.tenantId, p.userId));
        if ((held?.n ?? 0) >= max) return 'full';
        const [row] = await tx
          .insert(userFactors)
          .values({ ...p, kind: WEBAUTHN, confirmedAt: sql`now()` })
          .onConflictDoNothing()
          .returning({ id: userFactors.id });
        if (!row) return 'taken';
        await writeAudit(tx, { ...audit, action: 'passkey.enrol', detail: { id: row.id, name: p.name } });
        return row.id;
      });
    },

    /** Renames one of the person's passkeys; false when it is not theirs. */
    rename(tenantId: number, userId: number, id: number, name: string, audit: Omit<AuditRow, 'action'>) {
      return db.transaction(async (tx) => {
        const [was] = await tx
          .select({ name: userFactors.name })
          .from(userFactors)
          .where(and(mine(tenantId, userId), eq(userFactors.id, id)))
          .for('update');
        if (!was) return false;
        await tx.update(userFactors).set({ name }).where(eq(userFactors.id, id));
        await writeAudit(tx, { ...audit, action: 'passkey.rename', detail: { id, name, was: was.name } });
        return true;
      });
    },

    /** Removes one of the person's passkeys; false when it is not theirs. */
    remove(tenantId: number, userId: number, id: number, audit: Omit<AuditRow, 'action'>) {
      return db.transaction(async (tx) => {
        const [gone] = await tx
          .delete(userFactors)
          .where(and(mine(tenantId, userId), eq(userFactors.id, id)))
          .returning({ name: userFactors.name });
        if (!gone) return false;
        // The last factor of the person takes the recovery codes and the remembered browsers with it.
        await afterFactorRemoved(tx, userId);
        await writeAudit(tx, { ...audit, action: 'passkey.remove', detail: { id, name: gone.name } });
        return true;
      });
    },

    async audit(row: AuditRow): Promise<void> {
      await writeAudit(db, row);
    },
  };
}

export type PasskeysRepository = ReturnType<typeof createPasskeysRepository>;

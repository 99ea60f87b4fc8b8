/**
 * The factors' tables: user_factors (TOTP rows here; passkeys are the passkeys module's rows of the
 * same table), recovery_codes, login_challenges, remembered_browsers, and the login's lockout
 * counter on users (ADR 003), which every factor check reserves an attempt on first.
 */
import { and, asc, count, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import { OPERATOR_PERMISSION } from '@portal/contracts';
import type { Db } from '../../db/client.js';
import {
  loginChallenges,
  permissions,
  recoveryCodes,
  rememberedBrowsers,
  rolePermissions,
  sessions,
  ssoSessions,
  tenants,
  userFactors,
  userRoles,
  users,
} from '../../db/schema.js';
import { afterFactorRemoved } from '../../db/factors.js';
import { writeAudit, type AuditAction } from '../../platform/audit.js';

export interface FactorRow {
  id: number;
  kind: string;
  name: string;
  secretCipher: string | null;
  confirmed: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export interface ChallengeRow {
  id: string;
  tenantId: number;
  userId: number;
  purpose: string;
  context: Record<string, unknown>;
  challenge: Record<string, unknown> | null;
}

export interface FactorHolder {
  username: string;
  verifiedMobile: string | null;
  factorDueSince: Date | null;
  factorsResetAt: Date | null;
  lastLoginAt: Date | null;
}

export function createFactorsRepository(db: Db) {
  return {
    async factorsOf(userId: number): Promise<FactorRow[]> {
      return db
        .select({
          id: userFactors.id,
          kind: userFactors.kind,
          name: userFactors.name,
          secretCipher: userFactors.secretCipher,
          confirmed: sql<boolean>`${userFactors.confirmedAt} IS NOT NULL`,
          createdAt: userFactors.createdAt,
          lastUsedAt: userFactors.lastUsedAt,
        })
        .from(userFactors)
        .where(eq(userFactors.userId, userId))
        .orderBy(asc(userFactors.id));
    },

    async recoveryLeft(userId: number): Promise<number> {
      const [r] = await db
        .select({ n: count() })
        .from(recoveryCodes)
        .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
      return r?.n ?? 0;
    },

    async holder(userId: number): Promise<FactorHolder | null> {
      const [r] = await db
        .select({
          username: users.username,
          verifiedMobile: users.verifiedMobile,
          factorDueSince: users.factorDueSince,
          factorsResetAt: users.factorsResetAt,
          lastLoginAt: users.lastLoginAt,
        })
        .from(users)
        .where(eq(users.id, userId));
      return r ?? null;
    },

    /** The person's mobile while it is proven their own (`verified_mobile` equals `mobile`), else null. */
    async provenMobile(userId: number): Promise<string | null> {
      const [r] = await db
        .select({ mobile: users.mobile })
        .from(users)
        .where(and(eq(users.id, userId), isNotNull(users.mobile), eq(users.verifiedMobile, users.mobile)));
      return r?.mobile ?? null;
    },

    /** Counts one more SMS sent for a pending sign-in: false when it already had `max`. */
    async countSmsSend(id: string, max: number): Promise<boolean> {
      const sends = sql`coalesce((${loginChallenges.challenge} ->> 'smsSends')::int, 0)`;
      const done = await db
        .update(loginChallenges)
        .set({
          challenge: sql`jsonb_set(coalesce(${loginChallenges.challenge}, '{}'::jsonb), '{smsSends}', to_jsonb(${sends} + 1))`,
        })
        .where(and(eq(loginChallenges.id, id), sql`${sends} < ${max}`))
        .returning({ id: loginChallenges.id });
      return done.length > 0;
    },

    async names(userId: number): Promise<{ username: string; tenantName: string } | null> {
      const [r] = await db
        .select({ username: users.username, tenantName: tenants.name })
        .from(users)
        .innerJoin(tenants, eq(tenants.id, users.tenantId))
        .where(eq(users.id, userId));
      return r ?? null;
    },

    /** Whether the user holds a role whose permissions administer (system:manage). */
    async isOperator(userId: number): Promise<boolean> {
      const [r] = await db
        .select({ one: sql`1` })
        .from(userRoles)
        .innerJoin(rolePermissions, eq(rolePermissions.roleId, userRoles.roleId))
        .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
        .where(and(eq(userRoles.userId, userId), eq(permissions.code, OPERATOR_PERMISSION)))
        .limit(1);
      return r !== undefined;
    },

    /** When the policy first required a factor of this person (set now if it was not). */
    async factorDue(userId: number): Promise<Date> {
      const [r] = await db
        .update(users)
        .set({ factorDueSince: sql`coalesce(${users.factorDueSince}, now())` })
        .where(eq(users.id, userId))
        .returning({ since: users.factorDueSince });
      return r?.since ?? new Date();
    },

    async addTotp(tenantId: number, userId: number, name: string, secretCipher: string): Promise<number> {
      return db.transaction(async (tx) => {
        // One enrolment waits at a time: an earlier unconfirmed one is dropped.
        await tx
          .delete(userFactors)
          .where(and(eq(userFactors.userId, userId), eq(userFactors.kind, 'totp'), isNull(userFactors.confirmedAt)));
        const [row] = await tx
          .insert(userFactors)
          .values({ tenantId, userId, kind: 'totp', name, secretCipher })
          .returning({ id: userFactors.id });
        return row!.id;
      });
    },

    /**
     * Accepts time step `step` for the factor: only if it is newer than the last accepted one (a
     * used code, or an older one, is refused), in one statement so two requests cannot both pass.
     * Confirms a pending enrolment with it.
     */
    async acceptStep(factorId: number, step: number): Promise<boolean> {
      const done = await db
        .update(userFactors)
        .set({
          lastStep: step,
          lastUsedAt: sql`now()`,
          confirmedAt: sql`coalesce(${userFactors.confirmedAt}, now())`,
        })
        .where(
          and(
            eq(userFactors.id, factorId),
            sql`(${userFactors.lastStep} IS NULL OR ${userFactors.lastStep} < ${step})`,
          ),
        )
        .returning({ id: userFactors.id });
      return done.length > 0;
    },

    async rename(userId: number, id: number, name: string): Promise<boolean> {
      const done = await db
        .update(userFactors)
        .set({ name })
        .where(and(eq(userFactors.id, id), eq(userFactors.userId, userId)))
        .returning({ id: userFactors.id });
      return done.length > 0;
    },

    /**
     * Removes a factor; the last confirmed one takes the recovery codes and the remembered
     * browsers with it (they stood for it).
     */
    async remove(tenantId: number, userId: number, id: number, ip: string): Promise<{ kind: string } | null> {
      return db.transaction(async (tx) => {
        const [gone] = await tx
          .delete(userFactors)
          .where(and(eq(userFactors.id, id), eq(userFactors.userId, userId)))
          .returning({ kind: userFactors.kind, confirmed: userFactors.confirmedAt });
        if (!gone) return null;
        await afterFactorRemoved(tx, userId);
        if (gone.confirmed) {
          await writeAudit(tx, { tenantId, userId, action: 'factor.removed', ip, detail: { kind: gone.kind } });
        }
        return { kind: gone.kind };
      });
    },

    /** Replaces the user's recovery codes with these hashes. */
    async replaceRecovery(tenantId: number, userId: number, hashes: string[], ip: string): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
        await tx.insert(recoveryCodes).values(hashes.map((codeHash) => ({ tenantId, userId, codeHash })));
        await writeAudit(tx, { tenantId, userId, action: 'factor.recovery_codes', ip });
      });
    },

    /** Spends a recovery code: true once per code. */
    async spendRecovery(userId: number, codeHash: string): Promise<boolean> {
      const done = await db
        .update(recoveryCodes)
        .set({ usedAt: sql`now()` })
        .where(
          and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)),
        )
        .returning({ id: recoveryCodes.id });
      return done.length > 0;
    },

    async openChallenge(c: {
      tokenHash: string;
      tenantId: number;
      userId: number;
      purpose: string;
      context: Record<string, unknown>;
      ip: string;
      userAgent: string;
      ttlSeconds: number;
      challenge?: Record<string, unknown>;
    }): Promise<void> {
      await db.insert(loginChallenges).values({
        ...(c.challenge ? { challenge: c.challenge } : {}),
        tokenHash: c.tokenHash,
        tenantId: c.tenantId,
        userId: c.userId,
        purpose: c.purpose,
        context: c.context,
        ip: c.ip,
        userAgent: c.userAgent.slice(0, 512),
        expiresAt: sql`now() + make_interval(secs => ${c.ttlSeconds})`,
      });
    },

    /** The live challenge the token names (not spent, not expired). */
    async challenge(tokenHash: string): Promise<ChallengeRow | null> {
      const [r] = await db
        .select({
          id: loginChallenges.id,
          tenantId: loginChallenges.tenantId,
          userId: loginChallenges.userId,
          purpose: loginChallenges.purpose,
          context: loginChallenges.context,
          challenge: loginChallenges.challenge,
        })
        .from(loginChallenges)
        .where(
          and(
            eq(loginChallenges.tokenHash, tokenHash),
            isNull(loginChallenges.completedAt),
            gt(loginChallenges.expiresAt, sql`now()`),
          ),
        );
      return r ?? null;
    },

    async setChallengeState(id: string, state: Record<string, unknown>): Promise<void> {
      await db.update(loginChallenges).set({ challenge: state }).where(eq(loginChallenges.id, id));
    },

    /** Spends the challenge: true once. */
    async completeChallenge(id: string): Promise<boolean> {
      const done = await db
        .update(loginChallenges)
        .set({ completedAt: sql`now()` })
        .where(
          and(
            eq(loginChallenges.id, id),
            isNull(loginChallenges.completedAt),
            gt(loginChallenges.expiresAt, sql`now()`),
          ),
        )
        .returning({ id: loginChallenges.id });
      return done.length > 0;
    },

    async remember(c: {
      tokenHash: string;
      tenantId: number;
      userId: number;
      ip: string;
      userAgent: string;
      days: number;
    }): Promise<void> {
      await db.insert(rememberedBrowsers).values({
        tokenHash: c.tokenHash,
        tenantId: c.tenantId,
        userId: c.userId,
        ip: c.ip,
        userAgent: c.userAgent.slice(0, 512),
        expiresAt: sql`now() + make_interval(days => ${c.days})`,
      });
    },

    /** Whether the browser's token is a live remembered browser of this user (and marks it used). */
    async remembered(userId: number, tokenHash: string): Promise<boolean> {
      const done = await db
        .update(rememberedBrowsers)
        .set({ lastUsedAt: sql`now()` })
        .where(
          and(
            eq(rememberedBrowsers.tokenHash, tokenHash),
            eq(rememberedBrowsers.userId, userId),
            isNull(rememberedBrowsers.revokedAt),
            gt(rememberedBrowsers.expiresAt, sql`now()`),
          ),
        )
        .returning({ id: rememberedBrowsers.id });
      return done.length > 0;
    },

    async forgetBrowsers(userId: number): Promise<number> {
      const done = await db
        .update(rememberedBrowsers)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(rememberedBrowsers.userId, userId), isNull(rememberedBrowsers.revokedAt)))
        .returning({ id: rememberedBrowsers.id });
      return done.length;
    },

    /** Marks a portal session as having proven a factor now (step-up). */
    async stepUp(sessionId: string): Promise<void> {
      await db
        .update(sessions)
        .set({ factorAt: sql`now()` })
        .where(eq(sessions.id, sessionId));
    },

    /** Seconds since the session (or the SSO session that opened it) proved a factor; null: never. */
    async factorAge(sessionId: string): Promise<number | null> {
      const [r] = await db
        .select({
          age: sql<
            number | null
          >`extract(epoch FROM now() - greatest(${sessions.factorAt}, ${ssoSessions.factorAt}))::float8`,
        })
        .from(sessions)
        .leftJoin(ssoSessions, eq(ssoSessions.id, sessions.ssoSessionId))
        .where(eq(sessions.id, sessionId));
      return r?.age ?? null;
    },

    async audit(e: {
      tenantId: number;
      userId: number;
      action: AuditAction;
      ip: string;
      detail?: Record<string, unknown>;
    }): Promise<void> {
      await writeAudit(db, e);
    },
  };
}

export type FactorsRepository = ReturnType<typeof createFactorsRepository>;

/**
 * Logins and sessions. Each login step is one statement, named so that PostgreSQL plans it once per
 * connection (a login is measured against argon2 alone, see BENCHMARKS.md); a statement with
 * several writes is atomic on its own, so a failed login or a crash never leaves half of a login.
 */
import { and, eq, getTableColumns, gt, isNull, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { Db } from '../../db/client.js';
import { named } from '../../db/named.js';
import {
  applications,
  enterpriseMembers,
  enterprises,
  roles,
  sessions,
  tenants,
  userApplications,
  userRoles,
  users,
  userWorkbenches,
  workbenches,
} from '../../db/schema.js';
import { auditCode, writeAudit, type AuditAction } from '../../platform/audit.js';
import type { ActiveSession } from '../../platform/session.js';

/** The tenant a login names, and the user in it if there is one. */
export type LoginTarget = {
  tenantId: number | null;
  user: {
    id: number;
    tenantId: number;
    passwordHash: string;
    locked: boolean;
    /** The user or the tenant was disabled by an operator (ADR 031). */
    disabled: boolean;
    /** The password was set by someone else and must be changed first (ADR 033). */
    mustChangePassword: boolean;
    /** The password is older than the tenant's maximum age (ADR 053): it must be changed first too. */
    passwordExpired: boolean;
    /** The user holds a confirmed second factor (the factor step decides whether it is asked). */
    hasFactor: boolean;
  } | null;
};

/** A live session, its expiry (seconds since the epoch) and whether its user must change the password first. */
export type LiveSession = ActiveSession & { expiresAt: number; mustChangePassword: boolean };

export interface NewSession {
  userId: number;
  ip: string;
  userAgent: string;
  ttlHours: number;
  /** The CAS service ticket of a login through the sign-on server. */
  serviceTicket: string | null;
  /** The sign-on session that ticket came from. */
  ssoSessionId?: string | null | undefined;
  /** The audit code of the sign-in (`login.succeeded` unless said otherwise). */
  action?: AuditAction;
  /** The sign-in proved more than a password (a passkey): the session's factor counts from now. */
  factorProven?: boolean;
}

export interface LockoutPolicy {
  /** Failures before the first lock. */
  threshold: number;
  /** First lock length; doubles with each further failure. */
  baseLockSeconds: number;
  maxLockSeconds: number;
  /** Failures older than this are forgotten. */
  resetSeconds: number;
}

/** A row of the login's audit, written by its own named statements (the hot path, ADR 039). */
export interface AuditEntry {
  tenantId: number | null;
  userId: number | null;
  action: AuditAction;
  ip: string;
  detail?: object;
}

const FIND_TARGET = named(
  'auth_find_target',
  `SELECT t.id AS "tenantId", u.id, u.tenant_id AS "userTenantId", u.password_hash AS "passwordHash",
          coalesce(u.locked_until > now(), false) AS locked,
          u.disabled_at IS NOT NULL OR t.disabled_at IS NOT NULL AS disabled,
          u.must_change_password AS "mustChangePassword",
          -- The policy's maximum age (ADR 053), read in the same statement; the policy API stores only
          -- whole days from 0 to 3650, and anything else stored there counts as no maximum.
          CASE WHEN jsonb_typeof(t.security_policy->'passwordMaxAgeDays') = 'number'
                AND (t.security_policy->>'passwordMaxAgeDays')::numeric BETWEEN 1 AND 3650
               THEN coalesce(u.password_changed_at < now()
                      - make_interval(days => (t.security_policy->>'passwordMaxAgeDays')::numeric::int), false)
               ELSE false END AS "passwordExpired",
          EXISTS (SELECT 1 FROM user_factors f WHERE f.user_id = u.id AND f.confirmed_at IS NOT NULL) AS "hasFactor"
   FROM tenants t LEFT JOIN users u ON u.tenant_id = t.id AND u.username = $2
   WHERE t.code = $1`,
);

/** A signed-in user's own password (its check reserves an attempt on the login's lockout first). */
const PASSWORD_OF = named(
  'auth_password_of',
  `SELECT tenant_id AS "tenantId", password_hash AS "passwordHash" FROM users WHERE id = $1`,
);

/** Counts a failure, locks the account once the policy says so, and writes the audit entry. */
const RECORD_FAILURE = named(
  'auth_record_failure',
  `WITH n AS (
     SELECT id, CASE WHEN last_failed_at IS NULL OR last_failed_at < now() - make_interval(secs => $2)
                     THEN 1 ELSE failed_logins + 1 END AS failures
     FROM users WHERE id = $1 AND NOT coalesce(locked_until > now(), false)),
   upd AS (
     UPDATE users u SET
       failed_logins = n.failures,
       last_failed_at = now(),
       locked_until = CASE WHEN n.failures >= $3
         THEN now() + make_interval(secs => least($4::float8, $5::float8 * power(2, n.failures - $3)))
         ELSE u.locked_until END
     FROM n WHERE u.id = n.id)
   INSERT INTO audit_log (tenant_id, user_id, action, ip, detail) VALUES ($6, $1, $7, $8, $9::jsonb)`,
);

/**
 * Reserves an attempt on the lockout counter before a factor (a passkey's signature) is checked,
 * in one statement, so parallel attempts on several instances check at most the threshold: counts
 * it as a failure (locking the account once the policy says so) unless the account is locked, and
 * returns the row only then. A right answer resets the counter as any successful login does.
 */
const CLEAR_ATTEMPTS = named(
  'auth_clear_attempts',
  `UPDATE users SET failed_logins = 0, last_failed_at = NULL, locked_until = NULL WHERE id = $1`,
);

const RESERVE_ATTEMPT = named(
  'auth_reserve_attempt',
  `UPDATE users u SET
     failed_logins = n.failures,
     last_failed_at = now(),
     locked_until = CASE WHEN n.failures >= $3
       THEN now() + make_interval(secs => least($4::float8, $5::float8 * power(2, n.failures - $3)))
       ELSE u.locked_until END
   FROM (SELECT id, CASE WHEN last_failed_at IS NULL OR last_failed_at < now() - make_interval(secs => $2)
                         THEN 1 ELSE failed_logins + 1 END AS failures
         FROM users WHERE id = $1 AND NOT coalesce(locked_until > now(), false) FOR NO KEY UPDATE) n
   WHERE u.id = n.id
   RETURNING u.id`,
);

/**
 * A successful login in one statement: accept the open invitations of the user's mobile number
 * when that number is proven to be the user's own (ADR 023: whoever merely typed a number in must
 * not join the enterprises that invited its holder), joining those enterprises; reset the failure count, pick the user's default role, application,
 * workbench and enterprise if still held (else the first held, else one just joined), open the
 * session and write the audit entries. The user row is updated last, so its lock is held for the
 * shortest time.
 */
const OPEN_SESSION = named(
  'auth_open_session',
  `WITH u AS (
     SELECT u.id, u.tenant_id, u.mobile, u.verified_mobile, u.default_role_id, u.default_application_id, u.default_workbench_id,
            u.default_enterprise_id
     FROM users u JOIN tenants t ON t.id = u.tenant_id
     WHERE u.id = $1 AND u.disabled_at IS NULL AND t.disabled_at IS NULL
     FOR NO KEY UPDATE OF u FOR SHARE OF t),
   inv AS (
     UPDATE enterprise_invitations i SET joined_at = now(), joined_user_id = u.id
     FROM u WHERE i.tenant_id = u.tenant_id AND i.mobile = u.mobile AND u.verified_mobile = u.mobile
       AND i.joined_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > now()
     RETURNING i.id, i.enterprise_id, u.tenant_id, u.id AS user_id),
   joined AS (
     INSERT INTO enterprise_members (enterprise_id, user_id) SELECT enterprise_id, user_id FROM inv
     ON CONFLICT DO NOTHING RETURNING enterprise_id),
   s AS (
     INSERT INTO sessions (tenant_id, user_id, role_id, application_id, workbench_id, enterprise_id, ip, user_agent, expires_at, service_ticket, factor_at, sso_session_id)
     SELECT u.tenant_id, u.id,
       (SELECT role_id FROM user_roles WHERE user_id = u.id
          ORDER BY (role_id = u.default_role_id) DESC NULLS LAST, role_id LIMIT 1),
       (SELECT application_id FROM user_applications WHERE user_id = u.id
          ORDER BY (application_id = u.default_application_id) DESC NULLS LAST, application_id LIMIT 1),
       (SELECT workbench_id FROM user_workbenches WHERE user_id = u.id
          ORDER BY (workbench_id = u.default_workbench_id) DESC NULLS LAST, workbench_id LIMIT 1),
       coalesce(
         (SELECT enterprise_id FROM enterprise_members WHERE user_id = u.id
            ORDER BY (enterprise_id = u.default_enterprise_id) DESC NULLS LAST, enterprise_id LIMIT 1),
         (SELECT min(enterprise_id) FROM joined)),
       $2, $3, now() + make_interval(hours => $4), $5, CASE WHEN $7::boolean THEN now() END, $8::uuid
     FROM u
     RETURNING id, tenant_id, user_id, floor(extract(epoch FROM expires_at))::int8 AS "expiresAt"),
   a AS (
     INSERT INTO audit_log (tenant_id, user_id, action, ip, detail)
     SELECT tenant_id, user_id, $6::text, $2, NULL FROM s
     UNION ALL
     SELECT tenant_id, user_id, ${auditCode('invitation.accepted')}, $2, jsonb_build_object('invitationId', id, 'enterpriseId', enterprise_id)
     FROM inv),
   upd AS (
     UPDATE users SET failed_logins = 0, last_failed_at = NULL, locked_until = NULL, last_login_at = now()
     WHERE id = (SELECT user_id FROM s))
   SELECT id, tenant_id::int8 AS "tenantId", "expiresAt" FROM s`,
);

/**
 * What makes a session live: not revoked (logout, switch, and every change that ends a user's
 * sessions revokes them: disable, password, lost role or enterprise, disabled tenant) and not expired.
 */
const LIVE = 's.revoked_at IS NULL AND s.expires_at > now()';

const ACTIVE_SESSION = named(
  'auth_active_session',
  `SELECT s.id, s.user_id AS "userId", s.tenant_id AS "tenantId", s.role_id AS "roleId",
          s.application_id AS "applicationId", s.workbench_id AS "workbenchId", s.enterprise_id AS "enterpriseId",
          floor(extract(epoch FROM s.expires_at))::int8 AS "expiresAt", u.must_change_password AS "mustChangePassword"
   FROM sessions s JOIN users u ON u.id = s.user_id
   WHERE s.id = $1 AND ${LIVE}`,
);

const LIVE_SESSIONS = named<{ id: string }>(
  'auth_live_sessions',
  `SELECT s.id FROM sessions s WHERE s.id = ANY($1::uuid[]) AND ${LIVE}`,
);

const REVOKE_SESSION = named(
  'auth_revoke_session',
  `WITH r AS (UPDATE sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING tenant_id, user_id)
   INSERT INTO audit_log (tenant_id, user_id, action, ip) SELECT tenant_id, user_id, ${auditCode('logout')}, $2 FROM r`,
);

const RECORD_SUCCESS = named(
  'auth_record_success',
  `WITH upd AS (
     UPDATE users SET failed_logins = 0, last_failed_at = NULL, locked_until = NULL, last_login_at = now()
     WHERE id = $1 RETURNING tenant_id)
   INSERT INTO audit_log (tenant_id, user_id, action, ip) SELECT tenant_id, $1, $3, $2 FROM upd`,
);

const USER_OF = named(
  'auth_user_of',
  // A disabled user or tenant is no one: a ticket validated elsewhere opens no session for them.
  `SELECT u.id FROM users u JOIN tenants t ON t.id = u.tenant_id
   WHERE t.code = $1 AND u.username = $2 AND u.disabled_at IS NULL AND t.disabled_at IS NULL`,
);

const REVOKE_BY_TICKET = named(
  'auth_revoke_by_ticket',
  `WITH r AS (UPDATE sessions SET revoked_at = now()
              WHERE service_ticket = $1 AND revoked_at IS NULL RETURNING id, tenant_id, user_id),
   a AS (INSERT INTO audit_log (tenant_id, user_id, action) SELECT tenant_id, user_id, ${auditCode('logout.single')} FROM r)
   SELECT id FROM r`,
);

/** A password past the tenant's maximum age: from now on it must be changed first, as a temporary one (ADR 053). */
const MARK_EXPIRED = named(
  'auth_mark_expired',
  `WITH upd AS (UPDATE users SET must_change_password = true WHERE id = $1)
   INSERT INTO audit_log (tenant_id, user_id, action, ip, detail) VALUES ($2, $1, ${auditCode('login.password_expired')}, $3, $4::jsonb)`,
);

const AUDIT = named(
  'auth_audit',
  `INSERT INTO audit_log (tenant_id, user_id, action, ip, detail) VALUES ($1, $2, $3, $4, $5::jsonb)`,
);

/** What a switch changes; absent: kept from the old session. */
export interface SwitchTarget {
  roleId?: number | null;
  applicationId?: number | null;
  workbenchId?: number | null;
  enterpriseId?: number | null;
}

/**
 * `relaxed` carries what a login writes (db/client.ts connectRelaxed); a logout goes through the
 * main pool and waits for the disk, so a crash can never bring a revoked session back.
 */

export function createAuthRepository(db: Db, relaxed: pg.Pool) {
  const pool = db.$client;
  return {
    async findTarget(tenantCode: string, username: string): Promise<LoginTarget> {
      const { rows } = await FIND_TARGET(pool, [tenantCode, username]);
      const r = rows[0] as
        | {
            tenantId: number;
            id: number | null;
            userTenantId: number;
            passwordHash: string;
            locked: boolean;
            disabled: boolean;
            mustChangePassword: boolean;
            passwordExpired: boolean;
            hasFactor: boolean;
          }
        | undefined;
      if (!r) return { tenantId: null, user: null };
      return {
        tenantId: r.tenantId,
        user:
          r.id === null
            ? null
            : {
                id: r.id,
                tenantId: r.userTenantId,
                passwordHash: r.passwordHash,
                locked: r.locked,
                disabled: r.disabled,
                mustChangePassword: r.mustChangePassword,
                passwordExpired: r.passwordExpired,
                hasFactor: r.hasFactor,
              },
      };
    },

    async passwordOf(userId: number): Promise<{ tenantId: number; passwordHash: string } | null> {
      const { rows } = await PASSWORD_OF(pool, [userId]);
      const r = rows[0] as { tenantId: string | number; passwordHash: string } | undefined;
      return r ? { tenantId: Number(r.tenantId), passwordHash: r.passwordHash } : null;
    },

    /** Counts a failed password against `userId` (unless it is locked already) and audits it. */
    async recordFailure(userId: number, p: LockoutPolicy, audit: AuditEntry): Promise<void> {
      await RECORD_FAILURE(relaxed, [
        userId,
        p.resetSeconds,
        p.threshold,
        p.maxLockSeconds,
        p.baseLockSeconds,
        audit.tenantId,
        audit.action,
        audit.ip,
        JSON.stringify(audit.detail ?? {}),
      ]);
    },

    /** A right answer after reserved attempts: every failure counted so far is forgotten. */
    async clearAttempts(userId: number): Promise<void> {
      await CLEAR_ATTEMPTS(pool, [userId]);
    },

    /** Takes an attempt off the user's lockout allowance; false when the account is locked. */
    async reserveAttempt(userId: number, p: LockoutPolicy): Promise<boolean> {
      const { rowCount } = await RESERVE_ATTEMPT(pool, [
        userId,
        p.resetSeconds,
        p.threshold,
        p.maxLockSeconds,
        p.baseLockSeconds,
      ]);
      return (rowCount ?? 0) > 0;
    },

    /**
     * Opens a session: its id, tenant and expiry in seconds since the epoch; null when the user or the tenant was disabled meanwhile (the statement waits
     * for an operator's disable in progress, then reads the user again: no session outlives it).
     */
    async openSession(s: NewSession): Promise<{ id: string; tenantId: number; expiresAt: number } | null> {
      const { rows } = await OPEN_SESSION(relaxed, [
        s.userId,
        s.ip,
        s.userAgent.slice(0, 512),
        s.ttlHours,
        s.serviceTicket,
        s.action ?? 'login.succeeded',
        s.factorProven === true,
        s.ssoSessionId ?? null,
      ]);
      const r = rows[0] as { id: string; tenantId: string; expiresAt: string } | undefined;
      return r ? { id: r.id, tenantId: Number(r.tenantId), expiresAt: Number(r.expiresAt) } : null;
    },

    /**
     * A switch of role, application, workbench or enterprise (ADR 011): a new session with the old
     * one's user, expiry and service ticket and the new context, and the old one revoked, in one
     * transaction; only to targets the user holds in the session's tenant. The refusal names the
     * first target not held (nothing changes then); null when the old session is no longer live.
     */
    async switchSession(
      sessionId: string,
      t: SwitchTarget,
      client: { ip: string; userAgent: string },
    ): Promise<{ id: string; expiresAt: number } | { refused: keyof SwitchTarget } | null> {
      return db.transaction(async (tx) => {
        const [old] = await tx
          .select({
            ...getTableColumns(sessions),
            // The expiry as PostgreSQL writes it: a Date would drop its microseconds.
            expiry: sql<string>`${sessions.expiresAt}::text`,
          })
          .from(sessions)
          .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)))
          .for('update');
        if (!old) return null;
        // The user and tenant must still be enabled; holding them shared until commit, an
        // operator's disable (or role change) waits for this switch and then ends the new session too.
        const [enabled] = await tx
          .select({ id: users.id })
          .from(users)
          .innerJoin(tenants, eq(tenants.id, users.tenantId))
          .where(and(eq(users.id, old.userId), isNull(users.disabledAt), isNull(tenants.disabledAt)))
          .for('share');
        if (!enabled) return null;
        // Each target must be held by the user in the session's tenant; the first that is not is named.
        const held: Record<keyof SwitchTarget, (id: number) => Promise<unknown[]>> = {
          roleId: (id) =>
            tx
              .select({ id: roles.id })
              .from(userRoles)
              .innerJoin(roles, eq(roles.id, userRoles.roleId))
              .where(and(eq(userRoles.userId, old.userId), eq(roles.id, id), eq(roles.tenantId, old.tenantId))),
          applicationId: (id) =>
            tx
              .select({ id: applications.id })
              .from(userApplications)
              .innerJoin(applications, eq(applications.id, userApplications.applicationId))
              .where(
                and(
                  eq(userApplications.userId, old.userId),
                  eq(applications.id, id),
                  eq(applications.tenantId, old.tenantId),
                ),
              ),
          workbenchId: (id) =>
            tx
              .select({ id: workbenches.id })
              .from(userWorkbenches)
              .innerJoin(workbenches, eq(workbenches.id, userWorkbenches.workbenchId))
              .where(
                and(
                  eq(userWorkbenches.userId, old.userId),
                  eq(workbenches.id, id),
                  eq(workbenches.tenantId, old.tenantId),
                ),
              ),
          enterpriseId: (id) =>
            tx
              .select({ id: enterprises.id })
              .from(enterpriseMembers)
              .innerJoin(enterprises, eq(enterprises.id, enterpriseMembers.enterpriseId))
              .where(
                and(
                  eq(enterpriseMembers.userId, old.userId),
                  eq(enterprises.id, id),
                  eq(enterprises.tenantId, old.tenantId),
                ),
              ),
        };
        for (const key of ['roleId', 'applicationId', 'workbenchId', 'enterpriseId'] as const) {
          const id = t[key];
          if (id != null && (await held[key](id)).length === 0) return { refused: key };
        }
        const [created] = await tx
          .insert(sessions)
          .values({
            tenantId: old.tenantId,
            userId: old.userId,
            roleId: t.roleId ?? old.roleId,
            applicationId: t.applicationId ?? old.applicationId,
            workbenchId: t.workbenchId ?? old.workbenchId,
            enterpriseId: t.enterpriseId ?? old.enterpriseId,
            ip: client.ip,
            userAgent: client.userAgent.slice(0, 512),
            expiresAt: sql`${old.expiry}::timestamptz`,
            serviceTicket: old.serviceTicket,
            // The same sign-in: "my sessions" and ending a sign-in follow it across switches.
            chainId: old.chainId,
            ssoSessionId: old.ssoSessionId,
            // A switch is no new sign-in: the factor proven (step-up, ADR 051) still counts.
            factorAt: old.factorAt,
          })
          .returning({ id: sessions.id });
        await tx
          .update(sessions)
          .set({ revokedAt: sql`now()` })
          .where(eq(sessions.id, sessionId));
        // docs/product/behaviour.md#switching: an enterprise switch refreshes the default enterprise too (the next login's).
        if (t.enterpriseId != null) {
          await tx
            .update(users)
            .set({ defaultEnterpriseId: t.enterpriseId })
            .where(and(eq(users.id, old.userId), eq(users.tenantId, old.tenantId)));
        }
        await writeAudit(tx, {
          tenantId: old.tenantId,
          userId: old.userId,
          action: 'session.switch',
          detail: { ...t },
          ip: client.ip,
        });
        return { id: created!.id, expiresAt: Math.floor(old.expiresAt.getTime() / 1000) };
      });
    },

    /** A login that opens no portal session (the sign-on server's): failures reset, audited. */
    async recordSuccess(userId: number, ip: string, action: AuditAction): Promise<void> {
      await RECORD_SUCCESS(relaxed, [userId, ip, action]);
    },

    /** The user a sign-on server names (tenant code and username), or null. */
    async userOf(tenantCode: string, username: string): Promise<number | null> {
      const { rows } = await USER_OF(pool, [tenantCode, username]);
      return rows[0] ? Number((rows[0] as { id: string }).id) : null;
    },

    /** Ends every live session opened with this service ticket (single logout); their ids. */
    async revokeByTicket(ticket: string): Promise<string[]> {
      const { rows } = await REVOKE_BY_TICKET(pool, [ticket]);
      return (rows as { id: string }[]).map((r) => r.id);
    },

    async activeSession(id: string): Promise<LiveSession | null> {
      const { rows } = await ACTIVE_SESSION(pool, [id]);
      return (rows[0] as LiveSession | undefined) ?? null;
    },

    /** Of these session ids, the live ones (by the rule of `activeSession`). */
    async liveSessions(ids: string[]): Promise<Set<string>> {
      const { rows } = await LIVE_SESSIONS(pool, [ids]);
      return new Set(rows.map((r) => r.id));
    },

    /** Ends the session and audits the logout, once. */
    async revokeSession(id: string, ip: string): Promise<void> {
      await REVOKE_SESSION(pool, [id, ip]);
    },

    /** The user's password expired: it must be changed first from now on; audited as `audit` says. */
    async markPasswordExpired(userId: number, audit: AuditEntry): Promise<void> {
      await MARK_EXPIRED(pool, [userId, audit.tenantId, audit.ip, JSON.stringify(audit.detail ?? {})]);
    },

    async audit(e: AuditEntry): Promise<void> {
      await AUDIT(relaxed, [e.tenantId, e.userId, e.action, e.ip, JSON.stringify(e.detail ?? {})]);
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;

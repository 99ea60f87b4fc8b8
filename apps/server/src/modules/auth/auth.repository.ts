import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { ActiveSession } from '../../platform/session.js';

export type LoginUser = {
  id: number;
  tenantId: number;
  passwordHash: string;
  locked: boolean;
  defaultRoleId: number | null;
  defaultApplicationId: number | null;
  defaultWorkbenchId: number | null;
  defaultEnterpriseId: number | null;
};

export interface NewSession {
  tenantId: number;
  userId: number;
  roleId: number | null;
  applicationId: number | null;
  workbenchId: number | null;
  enterpriseId: number | null;
  ip: string;
  userAgent: string;
  ttlHours: number;
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

/** What a repository needs of the database: a pool or an open transaction. */
type Executor = Pick<Db, 'execute'>;

function queries(db: Executor) {
  return {
    async tenantIdByCode(code: string): Promise<number | null> {
      const res = await db.execute<{ id: number }>(sql`SELECT id FROM tenants WHERE code = ${code}`);
      return res.rows[0]?.id ?? null;
    },

    async findLoginUser(tenantId: number, username: string): Promise<LoginUser | null> {
      const res = await db.execute<LoginUser>(sql`
        SELECT id, tenant_id AS "tenantId", password_hash AS "passwordHash",
               coalesce(locked_until > now(), false) AS locked,
               default_role_id AS "defaultRoleId", default_application_id AS "defaultApplicationId",
               default_workbench_id AS "defaultWorkbenchId", default_enterprise_id AS "defaultEnterpriseId"
        FROM users WHERE tenant_id = ${tenantId} AND username = ${username}`);
      return res.rows[0] ?? null;
    },

    /** Counts a failure and locks the account once the policy says so; one atomic statement. */
    async recordFailure(userId: number, p: LockoutPolicy): Promise<void> {
      await db.execute(sql`
        WITH n AS (
          SELECT CASE WHEN last_failed_at IS NULL OR last_failed_at < now() - make_interval(secs => ${p.resetSeconds})
                      THEN 1 ELSE failed_logins + 1 END AS failures
          FROM users WHERE id = ${userId})
        UPDATE users u SET
          failed_logins = n.failures,
          last_failed_at = now(),
          locked_until = CASE WHEN n.failures >= ${p.threshold}
            THEN now() + make_interval(secs => least(${p.maxLockSeconds}::float8,
                   ${p.baseLockSeconds}::float8 * power(2, n.failures - ${p.threshold})))
            ELSE u.locked_until END
        FROM n WHERE u.id = ${userId}`);
    },

    async recordSuccess(userId: number): Promise<void> {
      await db.execute(sql`
        UPDATE users SET failed_logins = 0, last_failed_at = NULL, locked_until = NULL, last_login_at = now()
        WHERE id = ${userId}`);
    },

    /** Picks the user's default role, application, workbench and enterprise if still held. */
    async startingContext(u: LoginUser) {
      const res = await db.execute<{
        roleId: number | null;
        applicationId: number | null;
        workbenchId: number | null;
        enterpriseId: number | null;
      }>(sql`
        SELECT
          (SELECT role_id FROM user_roles WHERE user_id = ${u.id}
             ORDER BY (role_id = ${u.defaultRoleId}) DESC NULLS LAST, role_id LIMIT 1) AS "roleId",
          (SELECT application_id FROM user_applications WHERE user_id = ${u.id}
             ORDER BY (application_id = ${u.defaultApplicationId}) DESC NULLS LAST, application_id LIMIT 1) AS "applicationId",
          (SELECT workbench_id FROM user_workbenches WHERE user_id = ${u.id}
             ORDER BY (workbench_id = ${u.defaultWorkbenchId}) DESC NULLS LAST, workbench_id LIMIT 1) AS "workbenchId",
          (SELECT enterprise_id FROM enterprise_members WHERE user_id = ${u.id}
             ORDER BY (enterprise_id = ${u.defaultEnterpriseId}) DESC NULLS LAST, enterprise_id LIMIT 1) AS "enterpriseId"`);
      return res.rows[0]!;
    },

    /** Returns the new session's id and its expiry in seconds since the epoch. */
    async createSession(s: NewSession): Promise<{ id: string; expiresAt: number }> {
      const res = await db.execute<{ id: string; expiresAt: number }>(sql`
        INSERT INTO sessions (tenant_id, user_id, role_id, application_id, workbench_id, enterprise_id, ip, user_agent, expires_at)
        VALUES (${s.tenantId}, ${s.userId}, ${s.roleId}, ${s.applicationId}, ${s.workbenchId}, ${s.enterpriseId},
                ${s.ip}, ${s.userAgent.slice(0, 512)}, now() + make_interval(hours => ${s.ttlHours}))
        RETURNING id, floor(extract(epoch FROM expires_at))::int8 AS "expiresAt"`);
      return res.rows[0]!;
    },

    async activeSession(id: string): Promise<ActiveSession | null> {
      const res = await db.execute<ActiveSession>(sql`
        SELECT id, user_id AS "userId", tenant_id AS "tenantId", role_id AS "roleId",
               application_id AS "applicationId", workbench_id AS "workbenchId", enterprise_id AS "enterpriseId"
        FROM sessions WHERE id = ${id} AND revoked_at IS NULL AND expires_at > now()`);
      return res.rows[0] ?? null;
    },

    async revokeSession(id: string): Promise<void> {
      await db.execute(sql`UPDATE sessions SET revoked_at = now() WHERE id = ${id} AND revoked_at IS NULL`);
    },

    async audit(entry: {
      tenantId: number | null;
      userId: number | null;
      action: string;
      ip: string;
      detail?: object;
    }) {
      await db.execute(sql`
        INSERT INTO audit_log (tenant_id, user_id, action, ip, detail)
        VALUES (${entry.tenantId}, ${entry.userId}, ${entry.action}, ${entry.ip}, ${JSON.stringify(entry.detail ?? {})}::jsonb)`);
    },
  };
}

export type AuthQueries = ReturnType<typeof queries>;

export function createAuthRepository(db: Db) {
  return {
    ...queries(db),
    /** Runs `fn` with the queries bound to one transaction: all of its writes land, or none. */
    inTransaction<T>(fn: (tx: AuthQueries) => Promise<T>): Promise<T> {
      return db.transaction((tx) => fn(queries(tx)));
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;

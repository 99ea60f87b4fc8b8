import { and, eq, not, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client.js';
import { holdsOperatorCode } from '../../db/role-powers.js';
import { violatedConstraint } from '../../db/violation.js';
import { enterpriseMembers, enterprises, registerAgreements, roles, userRoles, users } from '../../db/schema.js';
import { writeAudit } from '../../platform/audit.js';

/**
 * The role a self-registered user gets (at most one per tenant), or null when the tenant has none,
 * or when it holds a code that administers the tenant (made so by hand or by an older version; the
 * API refuses it, ADR 036): then nobody registers until an operator mends it.
 */
async function defaultRole(db: Db | Tx, tenantId: number): Promise<number | null> {
  const [row] = await db
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.tenantId, tenantId), eq(roles.isDefault, true), not(holdsOperatorCode(tenantId, roles.id))));
  return row?.id ?? null;
}

export interface NewAccount {
  tenantId: number;
  username: string;
  passwordHash: string;
  name: string;
  mobile: string;
  /** The mobile number when an SMS code proved it the registrant's; null when only a captcha proved a person. */
  verifiedMobile: string | null;
  /** Company registration: the enterprise created with the user (estatus 0, unreviewed). */
  enterprise?: { name: string; industryCode: string; regionCode: string; contacts: string; position: string };
}

export type Taken = 'username' | 'mobile' | 'company';

const UNIQUE_TAKEN: Record<string, Taken> = {
  users_tenant_username: 'username',
  users_tenant_mobile: 'mobile',
  enterprises_tenant_name: 'company',
};

/** The constraint a unique violation names, as what was taken; null for any other error. */
export function takenBy(err: unknown): Taken | null {
  const constraint = violatedConstraint(err);
  return constraint ? (UNIQUE_TAKEN[constraint] ?? null) : null;
}

export function createRegistrationRepository(db: Db) {
  return {
    /** The first of username and company name that the tenant already has (usernames without case). */
    async taken(tenantId: number, a: { username: string; company?: string | undefined }): Promise<Taken | null> {
      const username = db
        .select({ what: sql<Taken>`'username'` })
        .from(users)
        .where(and(eq(users.tenantId, tenantId), sql`lower(${users.username}) = lower(${a.username})`));
      const [row] = await (
        a.company
          ? unionAll(
              username,
              db
                .select({ what: sql<Taken>`'company'` })
                .from(enterprises)
                .where(and(eq(enterprises.tenantId, tenantId), eq(enterprises.name, a.company))),
            )
          : username
      ).limit(1);
      return row?.what ?? null;
    },

    async mobileTaken(tenantId: number, mobile: string): Promise<boolean> {
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.tenantId, tenantId), eq(users.mobile, mobile)));
      return rows.length > 0;
    },

    async hasDefaultRole(tenantId: number): Promise<boolean> {
      return (await defaultRole(db, tenantId)) !== null;
    },

    /**
     * The user (with the tenant's default role) and, for a company, its enterprise and membership,
     * in one transaction: an interruption leaves nothing. Null when the tenant has no default role.
     */
    async create(a: NewAccount): Promise<{ userId: number } | null> {
      return db.transaction(async (tx) => {
        const roleId = await defaultRole(tx, a.tenantId);
        if (roleId === null) return null;
        let enterpriseId: number | null = null;
        if (a.enterprise) {
          const [ent] = await tx
            .insert(enterprises)
            .values({ tenantId: a.tenantId, ...a.enterprise, estatus: 0 })
            .returning({ id: enterprises.id });
          enterpriseId = ent!.id;
        }
        const [user] = await tx
          .insert(users)
          .values({
            tenantId: a.tenantId,
            username: a.username,
            passwordHash: a.passwordHash,
            name: a.name,
            mobile: a.mobile,
            verifiedMobile: a.verifiedMobile,
            homeUri: '/index',
            defaultRoleId: roleId,
            defaultEnterpriseId: enterpriseId,
          })
          .returning({ id: users.id });
        const userId = user!.id;
        await tx.insert(userRoles).values({ userId, roleId });
        if (enterpriseId !== null) await tx.insert(enterpriseMembers).values({ enterpriseId, userId });
        await writeAudit(tx, {
          tenantId: a.tenantId,
          userId,
          action: a.enterprise ? 'register.company' : 'register.member',
          detail: { ...(enterpriseId === null ? {} : { enterpriseId }), mobileVerified: a.verifiedMobile !== null },
        });
        return { userId };
      });
    },

    /** The tenant's registration agreement and its translations, or null when it has none. */
    async agreement(tenantId: number) {
      const [row] = await db
        .select({ html: registerAgreements.html, translations: registerAgreements.translations })
        .from(registerAgreements)
        .where(eq(registerAgreements.tenantId, tenantId));
      return row ?? null;
    },
  };
}

export type RegistrationRepository = ReturnType<typeof createRegistrationRepository>;

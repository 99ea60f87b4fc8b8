import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { registerAgreements } from '../../db/schema.js';

export interface NewAccount {
  tenantId: number;
  username: string;
  passwordHash: string;
  name: string;
  mobile: string;
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
  const e = (err as { cause?: unknown })?.cause ?? err;
  const { code, constraint } = (e ?? {}) as { code?: string; constraint?: string };
  return code === '23505' && constraint ? (UNIQUE_TAKEN[constraint] ?? null) : null;
}

export function createRegistrationRepository(db: Db) {
  return {
    /** The first of username and company name that the tenant already has (usernames without case). */
    async taken(tenantId: number, a: { username: string; company?: string | undefined }): Promise<Taken | null> {
      const res = await db.execute<{ what: Taken }>(sql`
        SELECT 'username' AS what FROM users WHERE tenant_id = ${tenantId} AND lower(username) = lower(${a.username})
        UNION ALL SELECT 'company' FROM enterprises WHERE tenant_id = ${tenantId} AND name = ${a.company ?? null}
        LIMIT 1`);
      return res.rows[0]?.what ?? null;
    },

    async mobileTaken(tenantId: number, mobile: string): Promise<boolean> {
      const res = await db.execute(sql`SELECT 1 FROM users WHERE tenant_id = ${tenantId} AND mobile = ${mobile}`);
      return res.rows.length > 0;
    },

    async hasDefaultRole(tenantId: number): Promise<boolean> {
      const res = await db.execute(sql`SELECT 1 FROM roles WHERE tenant_id = ${tenantId} AND is_default`);
      return res.rows.length > 0;
    },

    /**
     * The user (with the tenant's default role) and, for a company, its enterprise and membership,
     * in one transaction: an interruption leaves nothing. Null when the tenant has no default role.
     */
    async create(a: NewAccount): Promise<{ userId: number } | null> {
      return db.transaction(async (tx) => {
        const role = await tx.execute<{ id: number }>(
          sql`SELECT id FROM roles WHERE tenant_id = ${a.tenantId} AND is_default`,
        );
        const roleId = role.rows[0] ? Number(role.rows[0].id) : null;
        if (roleId === null) return null;
        let enterpriseId: number | null = null;
        if (a.enterprise) {
          const e = a.enterprise;
          const ent = await tx.execute<{ id: number }>(sql`
            INSERT INTO enterprises (tenant_id, name, industry_code, region_code, contacts, position, estatus)
            VALUES (${a.tenantId}, ${e.name}, ${e.industryCode}, ${e.regionCode}, ${e.contacts}, ${e.position}, 0)
            RETURNING id`);
          enterpriseId = Number(ent.rows[0]!.id);
        }
        const user = await tx.execute<{ id: number }>(sql`
          INSERT INTO users (tenant_id, username, password_hash, name, mobile, home_uri, default_role_id, default_enterprise_id)
          VALUES (${a.tenantId}, ${a.username}, ${a.passwordHash}, ${a.name}, ${a.mobile}, '/index', ${roleId}, ${enterpriseId})
          RETURNING id`);
        const userId = Number(user.rows[0]!.id);
        await tx.execute(sql`INSERT INTO user_roles (user_id, role_id) VALUES (${userId}, ${roleId})`);
        if (enterpriseId !== null) {
          await tx.execute(
            sql`INSERT INTO enterprise_members (enterprise_id, user_id) VALUES (${enterpriseId}, ${userId})`,
          );
        }
        const detail = enterpriseId === null ? {} : { enterpriseId };
        await tx.execute(sql`
          INSERT INTO audit_log (tenant_id, user_id, action, detail)
          VALUES (${a.tenantId}, ${userId}, ${a.enterprise ? 'register.company' : 'register.member'}, ${JSON.stringify(detail)}::jsonb)`);
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

import type { AdminTenant, AgreementEdit, TenantPatch } from '@portal/contracts';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { chinaTime, containing, englishOf, pageOf, totalRows } from '../../../db/expressions.js';
import { insertTenant } from '../../../db/provisioning/tenant.js';
import { registerAgreements, sessions, ssoSessions, tenants, users } from '../../../db/schema.js';

export type NewTenant = Parameters<typeof insertTenant>[1];
export type FirstOperator = Parameters<typeof insertTenant>[2];

export function createAdminTenantsRepository(db: Db) {
  return {
    async list(f: { q?: string | undefined; page: number; limit: number }) {
      const rows = await db
        .select({
          id: sql<string>`${tenants.id}::text`,
          code: tenants.code,
          name: tenants.name,
          nameEn: englishOf(tenants.translations, 'name'),
          homeUrl: tenants.homeUrl,
          platform: tenants.platform,
          disabled: sql<boolean>`${tenants.disabledAt} IS NOT NULL`,
          // `tenants.id` in full: a column alone would be the subquery's own users.id.
          users: sql<number>`(SELECT count(*) FROM ${users} u WHERE u.tenant_id = tenants.id)`.mapWith(Number),
          createdAt: chinaTime(tenants.createdAt),
          total: totalRows(),
        })
        .from(tenants)
        .where(
          f.q ? sql`${tenants.code} ILIKE ${containing(f.q)} OR ${tenants.name} ILIKE ${containing(f.q)}` : undefined,
        )
        .orderBy(tenants.id)
        .limit(f.limit)
        .offset((f.page - 1) * f.limit);
      return pageOf<AdminTenant & { total: number }>(rows);
    },

    /** A new tenant with its skeleton and first operator (db/seed.ts insertTenant), in one transaction. */
    create(t: NewTenant, operator: FirstOperator): Promise<number> {
      return db.transaction((tx) => insertTenant(tx, t, operator));
    },

    /**
     * Edits a tenant; disabling one ends every session and sign-on session of its users in the same
     * transaction. The platform tenant is never disabled (it would lock every operator out): false.
     */
    update(id: number, p: TenantPatch): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(tenants)
          .set({
            ...(p.name !== undefined ? { name: p.name } : {}),
            ...(p.homeUrl !== undefined ? { homeUrl: p.homeUrl || null } : {}),
            ...(p.nameEn !== undefined
              ? {
                  translations: sql`jsonb_set(${tenants.translations}, '{en}', jsonb_build_object('name', ${p.nameEn}::text))`,
                }
              : {}),
            ...(p.disabled !== undefined
              ? { disabledAt: p.disabled ? sql`coalesce(${tenants.disabledAt}, now())` : null }
              : {}),
          })
          .where(and(eq(tenants.id, id), p.disabled ? eq(tenants.platform, false) : undefined))
          .returning({ id: tenants.id });
        if (!row) return false;
        if (p.disabled) {
          await tx
            .update(sessions)
            .set({ revokedAt: sql`now()` })
            .where(and(eq(sessions.tenantId, id), isNull(sessions.revokedAt)));
          await tx
            .update(ssoSessions)
            .set({ endedAt: sql`now()` })
            .where(and(eq(ssoSessions.tenantId, id), isNull(ssoSessions.endedAt)));
        }
        return true;
      });
    },

    async agreement(tenantId: number): Promise<AgreementEdit> {
      const [row] = await db
        .select({ html: registerAgreements.html, translations: registerAgreements.translations })
        .from(registerAgreements)
        .where(eq(registerAgreements.tenantId, tenantId));
      return { html: row?.html ?? '', htmlEn: row?.translations.en?.html ?? '' };
    },

    async saveAgreement(tenantId: number, html: string, htmlEn: string): Promise<void> {
      const translations = htmlEn ? { en: { html: htmlEn } } : {};
      await db
        .insert(registerAgreements)
        .values({ tenantId, html, translations })
        .onConflictDoUpdate({
          target: registerAgreements.tenantId,
          set: { html, translations, updatedAt: sql`now()` },
        });
    },
  };
}

export type AdminTenantsRepository = ReturnType<typeof createAdminTenantsRepository>;

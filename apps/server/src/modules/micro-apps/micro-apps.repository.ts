import { isTenantCode } from '@portal/contracts';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { keyedLock } from '../../db/locks.js';
import { microApps, tenants } from '../../db/schema.js';
import { writeAudit } from '../../platform/audit.js';

export type MicroAppRow = typeof microApps.$inferSelect;

export function createMicroAppsRepository(db: Db) {
  return {
    /** The tenant's registered applications, in the operators' order. */
    async list(tenantId: number): Promise<MicroAppRow[]> {
      return db
        .select()
        .from(microApps)
        .where(eq(microApps.tenantId, tenantId))
        .orderBy(asc(microApps.sort), asc(microApps.id));
    },

    /** The entries of the tenant a code names (the document's policy is built before any session). */
    async entriesOfTenant(code: string): Promise<{ entry: string; serviceType: number }[]> {
      if (!isTenantCode(code)) return [];
      return db
        .select({ entry: microApps.entry, serviceType: microApps.serviceType })
        .from(microApps)
        .innerJoin(tenants, eq(tenants.id, microApps.tenantId))
        .where(eq(tenants.code, code));
    },

    async homeUrl(tenantId: number): Promise<string | null> {
      const [row] = await db.select({ homeUrl: tenants.homeUrl }).from(tenants).where(eq(tenants.id, tenantId));
      return row?.homeUrl ?? null;
    },

    /**
     * Registers an application, or changes the one with the same code, under the tenant's lock of
     * its registry. Its name and order change freely; its entry (address or type) is replaced only
     * with `mayReplace` ('replaceRefused' otherwise), and then the audit, in the same transaction,
     * keeps what it was.
     */
    save(
      row: Omit<typeof microApps.$inferInsert, 'id' | 'createdAt'>,
      by: { mayReplace: boolean; userId: number; ip: string },
    ): Promise<number | 'replaceRefused'> {
      return db.transaction(async (tx) => {
        await tx.execute(keyedLock('microApps', row.tenantId));
        const [was] = await tx
          .select({ id: microApps.id, entry: microApps.entry, serviceType: microApps.serviceType })
          .from(microApps)
          .where(and(eq(microApps.tenantId, row.tenantId), eq(microApps.code, row.code)));
        const fields = {
          name: row.name,
          entry: row.entry,
          serviceType: row.serviceType,
          sort: row.sort,
          translations: row.translations,
        };
        if (!was) {
          const [saved] = await tx.insert(microApps).values(row).returning({ id: microApps.id });
          return saved!.id;
        }
        const replaced = was.entry !== row.entry || was.serviceType !== row.serviceType;
        if (replaced && !by.mayReplace) return 'replaceRefused';
        await tx.update(microApps).set(fields).where(eq(microApps.id, was.id));
        if (replaced) {
          await writeAudit(tx, {
            tenantId: row.tenantId,
            userId: by.userId,
            action: 'microapp.replaced',
            detail: {
              code: row.code,
              from: { entry: was.entry, serviceType: was.serviceType },
              to: { entry: row.entry, serviceType: row.serviceType },
            },
            ip: by.ip,
          });
        }
        return was.id;
      });
    },

    /** Whether the tenant had the application (another tenant's id removes nothing). */
    async remove(tenantId: number, id: number): Promise<boolean> {
      const gone = await db
        .delete(microApps)
        .where(and(eq(microApps.tenantId, tenantId), eq(microApps.id, id)))
        .returning({ one: sql`1` });
      return gone.length > 0;
    },
  };
}

export type MicroAppsRepository = ReturnType<typeof createMicroAppsRepository>;

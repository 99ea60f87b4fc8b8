import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { microApps, tenants } from '../../db/schema.js';

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

    /** Registers an application, or replaces the one with the same code: one statement on the code's index. */
    async save(row: Omit<typeof microApps.$inferInsert, 'id' | 'createdAt'>): Promise<number> {
      const [saved] = await db
        .insert(microApps)
        .values(row)
        .onConflictDoUpdate({
          target: [microApps.tenantId, microApps.code],
          set: {
            name: row.name,
            entry: row.entry,
            serviceType: row.serviceType,
            sort: row.sort,
            translations: row.translations,
          },
        })
        .returning({ id: microApps.id });
      return saved!.id;
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

import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { tenants } from '../../db/schema.js';

/** The tenants the operators' gate reads: the caller's own, and the one a call names. */
export function createOperatorsRepository(db: Db) {
  return {
    async ownTenant(tenantId: number): Promise<{ code: string; platform: boolean } | null> {
      const [row] = await db
        .select({ code: tenants.code, platform: tenants.platform })
        .from(tenants)
        .where(eq(tenants.id, tenantId));
      return row ?? null;
    },

    async tenantIdOf(code: string): Promise<number | null> {
      const [row] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.code, code));
      return row?.id ?? null;
    },
  };
}

export type OperatorsRepository = ReturnType<typeof createOperatorsRepository>;

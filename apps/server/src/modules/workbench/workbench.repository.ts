import type { WorkbenchLayout } from '@portal/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { workbenchLayouts } from '../../db/schema.js';

export function createWorkbenchRepository(db: Db) {
  return {
    /** The user's arrangement of the workbench in the tenant; null until they change it. */
    async layout(tenantId: number, userId: number): Promise<WorkbenchLayout | null> {
      const [row] = await db
        .select({ layout: workbenchLayouts.layout })
        .from(workbenchLayouts)
        .where(and(eq(workbenchLayouts.tenantId, tenantId), eq(workbenchLayouts.userId, userId)));
      return row?.layout ?? null;
    },

    /** Replaces the user's arrangement: the last save wins (only its owner writes it). */
    async save(tenantId: number, userId: number, layout: WorkbenchLayout): Promise<void> {
      await db
        .insert(workbenchLayouts)
        .values({ tenantId, userId, layout })
        .onConflictDoUpdate({
          target: [workbenchLayouts.tenantId, workbenchLayouts.userId],
          set: { layout, updatedAt: sql`now()` },
        });
    },
  };
}

export type WorkbenchRepository = ReturnType<typeof createWorkbenchRepository>;

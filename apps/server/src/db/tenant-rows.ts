/**
 * Ids a request names as objects of the tenant acted on (ADR 031): roles, enterprises,
 * applications, permission codes. One check, so that every operator's call refuses a list naming
 * another tenant's row the same way it refuses an unknown one.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from './client.js';
import { applications, enterprises, permissions, roles } from './schema.js';

type TenantTable = typeof roles | typeof enterprises | typeof applications | typeof permissions;

/** Whether every id names a row of the tenant in `table` (none named: true). */
export async function allOfTenant(
  q: Db | Tx,
  table: TenantTable,
  tenantId: number,
  ids: readonly number[],
): Promise<boolean> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return true;
  const found = await q
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.tenantId, tenantId), inArray(table.id, unique)));
  return found.length === unique.length;
}

/**
 * The default role never holds a code that administers the tenant (contracts OPERATOR_CODES,
 * ADR 036): every newcomer who registers gets that role, so one careless click would make every
 * stranger an operator. The rule is checked on the state a change leaves, inside the change's own
 * transaction, so every path that can reach it — a role made the default, codes granted to it, a
 * new role, a code opened to everyone, a new tenant's skeleton — is refused the same way, and
 * registration hands out nothing of a default role that breaks it (one written by hand or by an
 * older version).
 */
import { OPERATOR_CODES } from '@portal/contracts';
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db, Tx } from './client.js';
import { permissions, rolePermissions, roles, tenants } from './schema.js';

const CODES = sql.join(
  OPERATOR_CODES.map((c) => sql`${c}`),
  sql`, `,
);
/** The permission row `p` is an operator code the role `role` holds: granted, or open to all (status 0). */
const heldBy = (role: AnyColumn | SQL | number) =>
  sql`p.code IN (${CODES}) AND (p.status = 0 OR EXISTS (SELECT 1 FROM ${rolePermissions} rp
    WHERE rp.role_id = ${role} AND rp.permission_id = p.id))`;

/**
 * Whether the role `roleId` of `tenantId` holds an operator code: granted to it, or open to every
 * role (status 0, which the guard lets everyone through).
 */
export const holdsOperatorCode = (tenantId: AnyColumn | SQL | number, roleId: AnyColumn | SQL | number): SQL =>
  sql`EXISTS (SELECT 1 FROM ${permissions} p WHERE p.tenant_id = ${tenantId} AND ${heldBy(roleId)})`;

/** The operator codes the tenant's default role holds (none when it has no default role), sorted. */
export async function defaultRoleOperatorCodes(q: Db | Tx, tenantId: number): Promise<string[]> {
  const { rows } = await q.execute<{ code: string }>(sql`
    SELECT DISTINCT p.code FROM ${roles} r JOIN ${permissions} p ON p.tenant_id = r.tenant_id
    WHERE r.tenant_id = ${tenantId} AND r.is_default AND ${heldBy(sql`r.id`)}
    ORDER BY p.code`);
  return rows.map((r) => r.code);
}

/** Thrown inside a transaction whose change would give the default role an operator code; it rolls back. */
export class DefaultRoleHoldsOperatorCodes extends Error {
  constructor(readonly codes: string[]) {
    super(`the default role would hold ${codes.join(', ')}`);
  }
}

/** Call last in a transaction that changed roles, grants or codes of the tenant: refuses what breaks the rule. */
export async function keepDefaultRolePlain(tx: Tx, tenantId: number): Promise<void> {
  const codes = await defaultRoleOperatorCodes(tx, tenantId);
  if (codes.length > 0) throw new DefaultRoleHoldsOperatorCodes(codes);
}

/** The codes a refused change would have given the default role; null for any other error. */
export function defaultRoleRefusal(err: unknown): string[] | null {
  return err instanceof DefaultRoleHoldsOperatorCodes ? err.codes : null;
}

/** Tenants whose default role breaks the rule now (for the start-up report), with the codes it holds. */
export async function defaultRolesHoldingOperatorCodes(db: Db): Promise<{ tenant: string; codes: string[] }[]> {
  const { rows } = await db.execute<{ tenant: string; codes: string[] }>(sql`
    SELECT t.code AS tenant, array_agg(DISTINCT p.code ORDER BY p.code) AS codes
    FROM ${roles} r JOIN ${tenants} t ON t.id = r.tenant_id JOIN ${permissions} p ON p.tenant_id = r.tenant_id
    WHERE r.is_default AND ${heldBy(sql`r.id`)}
    GROUP BY t.code ORDER BY t.code`);
  return rows;
}

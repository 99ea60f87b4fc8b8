/**
 * The first run of an installation without the demo (ADR 033): the platform tenant and its first
 * operator, whose password is temporary (changed at the first sign-in), made by
 * `npm run admin -- bootstrap`; and what a start looks at to say whether anyone can administer the
 * installation. Never a second platform tenant, never a password changed: when an operator exists
 * the bootstrap says who, and writes nothing.
 */
import { OPERATOR_PERMISSION } from '@portal/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from './client.js';
import { writeAudit } from '../platform/audit.js';
import { transactionLock } from './locks.js';
import * as s from './schema.js';
import { DEMO_ACCOUNTS, DEMO_PLATFORM } from './demo/content/accounts.js';
import { insertTenant } from './provisioning/tenant.js';

/** The platform tenant an installation gets unless the bootstrap is told otherwise (the demo's too). */
export const PLATFORM_DEFAULTS = { ...DEMO_PLATFORM, operatorName: '平台管理员' } as const;

export interface PlatformOperator {
  username: string;
  name: string;
  disabled: boolean;
  /** Still on the password someone else set. */
  mustChangePassword: boolean;
  createdAt: Date;
}

/** The platform tenant, if any, and its operators: its users holding a role with the operators' code. */
export interface PlatformState {
  tenant: { id: number; code: string; name: string } | null;
  operators: PlatformOperator[];
}

/** Whether anyone can sign in and administer the installation. */
export const hasActiveOperator = (state: PlatformState) => state.operators.some((o) => !o.disabled);

export async function platformState(db: Db | Tx): Promise<PlatformState> {
  const [tenant] = await db
    .select({ id: s.tenants.id, code: s.tenants.code, name: s.tenants.name })
    .from(s.tenants)
    .where(eq(s.tenants.platform, true));
  if (!tenant) return { tenant: null, operators: [] };
  const operators = await db
    .select({
      username: s.users.username,
      name: s.users.name,
      disabled: sql<boolean>`${s.users.disabledAt} IS NOT NULL`,
      mustChangePassword: s.users.mustChangePassword,
      createdAt: s.users.createdAt,
    })
    .from(s.users)
    .where(
      and(
        eq(s.users.tenantId, tenant.id),
        sql`EXISTS (SELECT 1 FROM ${s.userRoles} ur
          JOIN ${s.rolePermissions} rp ON rp.role_id = ur.role_id
          JOIN ${s.permissions} p ON p.id = rp.permission_id
          WHERE ur.user_id = ${s.users.id} AND p.code = ${OPERATOR_PERMISSION})`,
      ),
    )
    .orderBy(s.users.id);
  return { tenant, operators };
}

export interface BootstrapInput {
  /** The platform tenant's code and names, used when there is no platform tenant yet. */
  tenantCode: string;
  tenantName: string;
  tenantNameEn: string;
  username: string;
  /** The operator's display name. */
  name: string;
  passwordHash: string;
  /** Who ran the command (the system account), for the audit log. */
  ranBy: string;
}

export type BootstrapResult =
  /** A new platform tenant with its first operator. */
  | { result: 'created'; tenantCode: string }
  /** The platform tenant was there without an operator who can sign in: the operator was added. */
  | { result: 'added'; tenantCode: string }
  /** Someone can administer the installation already: nothing was written. */
  | { result: 'exists'; state: PlatformState }
  /** Another (non-platform) tenant has the code asked for. */
  | { result: 'codeTaken' }
  /** The platform tenant has a user of that name (a disabled operator, say): their password stays. */
  | { result: 'usernameTaken'; tenantCode: string }
  /** The platform tenant has no role holding the operators' code to give the new operator. */
  | { result: 'noOperatorRole'; tenantCode: string };

/**
 * Creates the platform tenant and its first operator (temporary password), or adds the operator to
 * a platform tenant nobody can administer; in one transaction, under the demo seed's lock so that a
 * server starting meanwhile cannot add a second platform tenant.
 */
export function bootstrapPlatform(db: Db, input: BootstrapInput): Promise<BootstrapResult> {
  return db.transaction(async (tx) => {
    await tx.execute(transactionLock('installation'));
    const state = await platformState(tx);
    if (hasActiveOperator(state)) return { result: 'exists', state };
    const operator = {
      username: input.username,
      name: input.name,
      passwordHash: input.passwordHash,
      mustChangePassword: true,
    };
    if (!state.tenant) {
      const [taken] = await tx.select({ id: s.tenants.id }).from(s.tenants).where(eq(s.tenants.code, input.tenantCode));
      if (taken) return { result: 'codeTaken' };
      const tenantId = await insertTenant(
        tx,
        { code: input.tenantCode, name: input.tenantName, nameEn: input.tenantNameEn, platform: true },
        operator,
      );
      const [user] = await tx
        .select({ id: s.users.id })
        .from(s.users)
        .where(and(eq(s.users.tenantId, tenantId), eq(s.users.username, input.username)));
      await audit(tx, tenantId, user!.id, input.ranBy);
      return { result: 'created', tenantCode: input.tenantCode };
    }
    const tenant = state.tenant;
    const [same] = await tx
      .select({ id: s.users.id })
      .from(s.users)
      .where(and(eq(s.users.tenantId, tenant.id), sql`lower(${s.users.username}) = lower(${input.username})`));
    if (same) return { result: 'usernameTaken', tenantCode: tenant.code };
    const [role] = await tx
      .select({ id: s.roles.id })
      .from(s.roles)
      .innerJoin(s.rolePermissions, eq(s.rolePermissions.roleId, s.roles.id))
      .innerJoin(s.permissions, eq(s.permissions.id, s.rolePermissions.permissionId))
      .where(and(eq(s.roles.tenantId, tenant.id), eq(s.permissions.code, OPERATOR_PERMISSION)))
      .orderBy(sql`${s.roles.code} = 'park_operator' DESC`, s.roles.id)
      .limit(1);
    if (!role) return { result: 'noOperatorRole', tenantCode: tenant.code };
    const [user] = await tx
      .insert(s.users)
      .values({ tenantId: tenant.id, ...operator, defaultRoleId: role.id })
      .returning({ id: s.users.id });
    await tx.insert(s.userRoles).values({ userId: user!.id, roleId: role.id });
    await audit(tx, tenant.id, user!.id, input.ranBy);
    return { result: 'added', tenantCode: tenant.code };
  });
}

/** The bootstrap in the platform tenant's audit log, as the new operator's first entry. */
async function audit(tx: Tx, tenantId: number, userId: number, ranBy: string): Promise<void> {
  await writeAudit(tx, { tenantId, userId, action: 'bootstrap.operator', detail: { ranBy } });
}

/**
 * The demo's accounts that can still sign in with `password` (the README's published one): a
 * production start never serves them (ADR 033). A database an earlier `npm start` seeded has them.
 */
export async function demoAccountsWith(
  db: Db,
  password: string,
  isPasswordOf: (hash: string, password: string) => Promise<boolean>,
): Promise<Array<{ tenantId: number; userId: number; label: string }>> {
  const rows = await db
    .select({
      tenantId: s.users.tenantId,
      userId: s.users.id,
      tenant: s.tenants.code,
      username: s.users.username,
      hash: s.users.passwordHash,
    })
    .from(s.users)
    .innerJoin(s.tenants, eq(s.tenants.id, s.users.tenantId))
    .where(
      and(
        sql`${s.users.disabledAt} IS NULL`,
        sql`(${s.tenants.code}, ${s.users.username}) IN (${sql.join(
          DEMO_ACCOUNTS.map((a) => sql`(${a.tenant}, ${a.username})`),
          sql`, `,
        )})`,
      ),
    );
  const found = [];
  for (const r of rows) {
    if (await isPasswordOf(r.hash, password))
      found.push({ tenantId: r.tenantId, userId: r.userId, label: `${r.tenant}/${r.username}` });
  }
  return found;
}

/**
 * The server's side of the permission codes of docs/product/permissions.md#action-codes (`allPermissionV2`'s `auth` and `allAuth`):
 * an action guarded by a code is allowed when the session's current role holds the code, or when
 * the tenant does not enforce it (status 0, which the UI shows to everyone). A code the tenant does
 * not define at all allows nobody: a guard fails closed.
 */
import { and, eq, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { permissions, rolePermissions } from '../db/schema.js';
import { errors } from './errors.js';

type Holder = { tenantId: number; roleId: number | null };

export interface PermissionGuard {
  /** Whether the session may do what `code` guards (for answers that show more to those who may). */
  allows(session: Holder, code: string): Promise<boolean>;
  /** Throws the 403 of docs/product/errors.md#result-codes unless the session may do what `code` guards. */
  require(session: Holder, code: string): Promise<void>;
}

export function createPermissionGuard(db: Db): PermissionGuard {
  const allows = async ({ tenantId, roleId }: Holder, code: string) => {
    const [allowed] = await db
      .select({ one: sql`1` })
      .from(permissions)
      .leftJoin(
        rolePermissions,
        and(eq(rolePermissions.permissionId, permissions.id), eq(rolePermissions.roleId, roleId ?? 0)),
      )
      .where(
        and(
          eq(permissions.tenantId, tenantId),
          eq(permissions.code, code),
          or(eq(permissions.status, 0), sql`${rolePermissions.roleId} IS NOT NULL`),
        ),
      );
    return allowed !== undefined;
  };
  return {
    allows,
    async require(session, code) {
      if (!(await allows(session, code))) throw errors.noPermission();
    },
  };
}

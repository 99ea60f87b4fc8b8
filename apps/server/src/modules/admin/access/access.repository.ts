import {
  OPERATOR_CODES,
  type AdminNamed,
  type AdminPermission,
  type AdminRole,
  type NamedInput,
  type NamedPatch,
  type PermissionInput,
  type PermissionPatch,
  type RoleInput,
  type RolePatch,
} from '@portal/contracts';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { englishOf } from '../../../db/expressions.js';
import { keyedLock } from '../../../db/locks.js';
import { keepDefaultRolePlain } from '../../../db/role-powers.js';
import { allOfTenant } from '../../../db/tenant-rows.js';
import type { Db } from '../../../db/client.js';
import {
  applications,
  permissions,
  rolePermissions,
  roles,
  userApplications,
  userRoles,
  userWorkbenches,
  workbenches,
} from '../../../db/schema.js';

const enOf = (key: 'title' | 'name', value: string | undefined) => (value ? { en: { [key]: value } } : {});

/**
 * Roles, permission codes (docs/product/permissions.md#action-codes), applications and workbenches of a tenant, for its operators.
 * Every statement names the tenant; an id of another tenant is no row.
 */
export function createAdminAccessRepository(db: Db) {
  const named = (
    table: typeof applications | typeof workbenches,
    holders: typeof userApplications | typeof userWorkbenches,
  ) => {
    const holderColumn = 'applicationId' in holders ? holders.applicationId : holders.workbenchId;
    return {
      async list(tenantId: number): Promise<AdminNamed[]> {
        return db
          .select({
            id: sql<string>`${table.id}::text`,
            code: table.code,
            name: table.name,
            nameEn: englishOf(table.translations, 'name'),
            users: sql<number>`(SELECT count(*) FROM ${holders} WHERE ${holderColumn} = ${table.id})`.mapWith(Number),
          })
          .from(table)
          .where(eq(table.tenantId, tenantId))
          .orderBy(table.id);
      },
      async create(tenantId: number, i: NamedInput): Promise<number> {
        const [row] = await db
          .insert(table)
          .values({ tenantId, code: i.code, name: i.name, translations: enOf('name', i.nameEn) })
          .returning({ id: table.id });
        return row!.id;
      },
      async update(tenantId: number, id: number, p: NamedPatch): Promise<boolean> {
        const mine = and(eq(table.id, id), eq(table.tenantId, tenantId));
        if (p.name === undefined && p.nameEn === undefined)
          return (await db.select({ id: table.id }).from(table).where(mine)).length > 0;
        const rows = await db
          .update(table)
          .set({
            ...(p.name !== undefined ? { name: p.name } : {}),
            ...(p.nameEn !== undefined ? { translations: enOf('name', p.nameEn) } : {}),
          })
          .where(mine)
          .returning({ id: table.id });
        return rows.length > 0;
      },
    };
  };

  return {
    async roles(tenantId: number): Promise<AdminRole[]> {
      return db
        .select({
          id: sql<string>`${roles.id}::text`,
          code: roles.code,
          title: roles.title,
          titleEn: englishOf(roles.translations, 'title'),
          isDefault: roles.isDefault,
          users: sql<number>`(SELECT count(*) FROM ${userRoles} WHERE role_id = ${roles.id})`.mapWith(Number),
          permissionIds: sql<string[]>`coalesce((SELECT array_agg(permission_id::text ORDER BY permission_id)
            FROM ${rolePermissions} WHERE role_id = ${roles.id}), '{}')`,
        })
        .from(roles)
        .where(eq(roles.tenantId, tenantId))
        .orderBy(roles.id);
    },

    /**
     * A new role; made the default one, it takes that from the role that was (one per tenant).
     * Every change of roles, their codes or the codes themselves takes the tenant's roles lock and
     * ends by checking the default role (db/role-powers.ts), so two changes that are each harmless
     * alone cannot together give it an operator code.
     */
    createRole(tenantId: number, r: RoleInput): Promise<number> {
      return db.transaction(async (tx) => {
        await tx.execute(keyedLock('roles', tenantId));
        if (r.isDefault) await tx.update(roles).set({ isDefault: false }).where(eq(roles.tenantId, tenantId));
        const [row] = await tx
          .insert(roles)
          .values({
            tenantId,
            code: r.code,
            title: r.title,
            translations: enOf('title', r.titleEn),
            isDefault: r.isDefault ?? false,
          })
          .returning({ id: roles.id });
        await keepDefaultRolePlain(tx, tenantId);
        return row!.id;
      });
    },

    updateRole(tenantId: number, id: number, p: RolePatch): Promise<boolean> {
      return db.transaction(async (tx) => {
        await tx.execute(keyedLock('roles', tenantId));
        const [role] = await tx
          .select({ id: roles.id })
          .from(roles)
          .where(and(eq(roles.id, id), eq(roles.tenantId, tenantId)))
          .for('update');
        if (!role) return false;
        if (p.isDefault)
          await tx
            .update(roles)
            .set({ isDefault: false })
            .where(and(eq(roles.tenantId, tenantId), ne(roles.id, id)));
        await tx
          .update(roles)
          .set({
            ...(p.title !== undefined ? { title: p.title } : {}),
            ...(p.titleEn !== undefined ? { translations: enOf('title', p.titleEn) } : {}),
            ...(p.isDefault !== undefined ? { isDefault: p.isDefault } : {}),
          })
          .where(eq(roles.id, id));
        await keepDefaultRolePlain(tx, tenantId);
        return true;
      });
    },

    /** The role's codes become `ids` (all the tenant's, else nothing changes: 'foreign'). */
    setRolePermissions(tenantId: number, roleId: number, ids: number[]): Promise<'done' | 'none' | 'foreign'> {
      return db.transaction(async (tx) => {
        await tx.execute(keyedLock('roles', tenantId));
        const [role] = await tx
          .select({ id: roles.id })
          .from(roles)
          .where(and(eq(roles.id, roleId), eq(roles.tenantId, tenantId)))
          .for('update');
        if (!role) return 'none';
        if (!(await allOfTenant(tx, permissions, tenantId, ids))) return 'foreign';
        const unique = [...new Set(ids)];
        await tx.delete(rolePermissions).where(eq(rolePermissions.roleId, roleId));
        if (unique.length)
          await tx.insert(rolePermissions).values(unique.map((permissionId) => ({ roleId, permissionId })));
        await keepDefaultRolePlain(tx, tenantId);
        return 'done';
      });
    },

    async permissions(tenantId: number): Promise<AdminPermission[]> {
      return db
        .select({
          id: sql<string>`${permissions.id}::text`,
          code: permissions.code,
          describe: permissions.describe,
          type: permissions.type,
          status: permissions.status,
        })
        .from(permissions)
        .where(eq(permissions.tenantId, tenantId))
        .orderBy(permissions.id);
    },

    createPermission(tenantId: number, p: PermissionInput): Promise<number> {
      return db.transaction(async (tx) => {
        await tx.execute(keyedLock('roles', tenantId));
        const [row] = await tx
          .insert(permissions)
          .values({ tenantId, code: p.code, describe: p.describe, type: p.type ?? 1, status: p.status ?? 1 })
          .returning({ id: permissions.id });
        await keepDefaultRolePlain(tx, tenantId);
        return row!.id;
      });
    },

    /** The operator code (contracts OPERATOR_CODES) the id names in the tenant, else null. */
    async operatorCodeOf(tenantId: number, id: number): Promise<string | null> {
      const [row] = await db
        .select({ code: permissions.code })
        .from(permissions)
        .where(
          and(
            eq(permissions.id, id),
            eq(permissions.tenantId, tenantId),
            inArray(permissions.code, [...OPERATOR_CODES]),
          ),
        );
      return row?.code ?? null;
    },

    /** Whether every id names a permission code of the tenant. */
    permissionsOfTenant: (tenantId: number, ids: number[]) => allOfTenant(db, permissions, tenantId, ids),

    async updatePermission(tenantId: number, id: number, p: PermissionPatch): Promise<boolean> {
      const mine = and(eq(permissions.id, id), eq(permissions.tenantId, tenantId));
      if (Object.keys(p).length === 0)
        return (await db.select({ id: permissions.id }).from(permissions).where(mine)).length > 0;
      return db.transaction(async (tx) => {
        await tx.execute(keyedLock('roles', tenantId));
        const rows = await tx.update(permissions).set(p).where(mine).returning({ id: permissions.id });
        await keepDefaultRolePlain(tx, tenantId);
        return rows.length > 0;
      });
    },

    applications: named(applications, userApplications),
    workbenches: named(workbenches, userWorkbenches),
  };
}

export type AdminAccessRepository = ReturnType<typeof createAdminAccessRepository>;

import type { AdminMenu, MenuCreate, MenuExportEntry } from '@portal/contracts';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../../db/client.js';
import { keyedLock } from '../../../db/locks.js';
import { allOfTenant } from '../../../db/tenant-rows.js';
import { applications, menus, roleMenus, roles } from '../../../db/schema.js';

type Row = typeof menus.$inferSelect;
export type MenuFields = Omit<MenuCreate, 'parentId' | 'applicationId' | 'roleIds'> & {
  applicationId?: number | null | undefined;
  roleIds?: number[] | undefined;
};

const EXPORTED_META = ['internalOrExternal', 'keepAlive', 'isTabs', 'isSide', 'componentName', 'pageId'] as const;
const metaOf = (row: Pick<Row, 'meta'>) => row.meta as { title?: string; icon?: string | null; url?: string | null };

/**
 * A tenant's menu (docs/product/screens.md#menu-routes) as its operators edit it (ADR 031): entries with parent and order,
 * the roles that see each, moves that renumber the siblings, and the whole tree out and in as
 * JSON (roles and applications by code). Every statement names the tenant.
 */
export function createAdminMenusRepository(db: Db) {
  const ofTenant = async (tx: Tx, tenantId: number, id: number) =>
    (
      await tx
        .select()
        .from(menus)
        .where(and(eq(menus.id, id), eq(menus.tenantId, tenantId)))
        .for('update')
    )[0];

  const setRoles = async (tx: Tx, menuId: number, roleIds: number[]) => {
    await tx.delete(roleMenus).where(eq(roleMenus.menuId, menuId));
    const unique = [...new Set(roleIds)];
    if (unique.length) await tx.insert(roleMenus).values(unique.map((roleId) => ({ roleId, menuId })));
  };

  /** Puts `id` at `index` among the children of `parentId`, renumbering them 0, 1, 2, … */
  const place = async (tx: Tx, tenantId: number, id: number, parentId: number | null, index: number) => {
    const siblings = await tx
      .select({ id: menus.id })
      .from(menus)
      .where(
        and(
          eq(menus.tenantId, tenantId),
          parentId === null ? sql`${menus.parentId} IS NULL` : eq(menus.parentId, parentId),
          sql`${menus.id} <> ${id}`,
        ),
      )
      .orderBy(asc(menus.sort), asc(menus.id));
    const order = siblings.map((s) => s.id);
    order.splice(Math.min(index, order.length), 0, id);
    for (const [sort, menuId] of order.entries()) {
      await tx.update(menus).set({ sort, parentId }).where(eq(menus.id, menuId));
    }
  };

  return {
    async list(tenantId: number): Promise<AdminMenu[]> {
      const rows = await db
        .select({
          row: menus,
          roleIds: sql<string[]>`coalesce((SELECT array_agg(role_id::text ORDER BY role_id) FROM ${roleMenus}
            WHERE menu_id = ${menus.id}), '{}')`,
        })
        .from(menus)
        .where(eq(menus.tenantId, tenantId))
        .orderBy(asc(menus.sort), asc(menus.id));
      return rows.map(({ row, roleIds }) => ({
        id: String(row.id),
        parentId: row.parentId === null ? null : String(row.parentId),
        sort: row.sort,
        name: row.name,
        path: row.path,
        component: row.component,
        title: metaOf(row).title ?? row.name,
        titleEn: row.translations.en?.title ?? '',
        icon: metaOf(row).icon ?? null,
        url: metaOf(row).url ?? null,
        hidden: row.hidden,
        applicationId: row.applicationId === null ? null : String(row.applicationId),
        roleIds,
      }));
    },

    /** A new entry, last among its siblings; null when the parent, a role or the application is not the tenant's. */
    create(tenantId: number, parentId: number | null, f: MenuFields): Promise<number | null> {
      return db.transaction(async (tx) => {
        await tx.execute(keyedLock('menus', tenantId));
        if (parentId !== null && !(await ofTenant(tx, tenantId, parentId))) return null;
        if (!(await allOfTenant(tx, roles, tenantId, f.roleIds ?? []))) return null;
        if (f.applicationId && !(await allOfTenant(tx, applications, tenantId, [f.applicationId]))) return null;
        const [row] = await tx
          .insert(menus)
          .values({
            tenantId,
            parentId,
            applicationId: f.applicationId ?? null,
            name: f.name,
            path: f.path,
            component: f.component ?? '',
            hidden: f.hidden ?? false,
            sort: 1_000_000,
            meta: { title: f.title, icon: f.icon ?? null, url: f.url ?? null, componentName: f.name },
            translations: f.titleEn ? { en: { title: f.titleEn } } : {},
          })
          .returning({ id: menus.id });
        await place(tx, tenantId, row!.id, parentId, Number.MAX_SAFE_INTEGER);
        await setRoles(tx, row!.id, f.roleIds ?? []);
        return row!.id;
      });
    },

    update(tenantId: number, id: number, p: Partial<MenuFields>): Promise<boolean> {
      return db.transaction(async (tx) => {
        const row = await ofTenant(tx, tenantId, id);
        if (!row) return false;
        if (p.roleIds && !(await allOfTenant(tx, roles, tenantId, p.roleIds))) return false;
        if (p.applicationId && !(await allOfTenant(tx, applications, tenantId, [p.applicationId]))) return false;
        const meta = { ...row.meta };
        if (p.title !== undefined) meta.title = p.title;
        if (p.icon !== undefined) meta.icon = p.icon;
        if (p.url !== undefined) meta.url = p.url;
        if (p.name !== undefined) meta.componentName = p.name;
        await tx
          .update(menus)
          .set({
            meta,
            ...(p.name !== undefined ? { name: p.name } : {}),
            ...(p.path !== undefined ? { path: p.path } : {}),
            ...(p.component !== undefined ? { component: p.component } : {}),
            ...(p.hidden !== undefined ? { hidden: p.hidden } : {}),
            ...(p.applicationId !== undefined ? { applicationId: p.applicationId } : {}),
            ...(p.titleEn !== undefined ? { translations: p.titleEn ? { en: { title: p.titleEn } } : {} } : {}),
          })
          .where(eq(menus.id, id));
        if (p.roleIds) await setRoles(tx, id, p.roleIds);
        return true;
      });
    },

    /** Moves an entry; 'cycle' when the new parent is the entry or one of its descendants. */
    move(tenantId: number, id: number, parentId: number | null, index: number): Promise<'done' | 'none' | 'cycle'> {
      return db.transaction(async (tx) => {
        await tx.execute(keyedLock('menus', tenantId));
        if (!(await ofTenant(tx, tenantId, id))) return 'none';
        if (parentId !== null) {
          if (!(await ofTenant(tx, tenantId, parentId))) return 'none';
          const { rows } = await tx.execute<{ cycle: boolean }>(sql`
            WITH RECURSIVE up AS (
              SELECT id, parent_id FROM ${menus} WHERE id = ${parentId}
              UNION ALL SELECT m.id, m.parent_id FROM ${menus} m JOIN up ON m.id = up.parent_id)
            SELECT EXISTS (SELECT 1 FROM up WHERE id = ${id}) AS cycle`);
          if (rows[0]?.cycle) return 'cycle';
        }
        await place(tx, tenantId, id, parentId, index);
        return 'done';
      });
    },

    /** Removes an entry without children; 'parent' while it has some. */
    remove(tenantId: number, id: number): Promise<'done' | 'none' | 'parent'> {
      return db.transaction(async (tx) => {
        if (!(await ofTenant(tx, tenantId, id))) return 'none';
        const [child] = await tx
          .select({ id: menus.id })
          .from(menus)
          .where(and(eq(menus.tenantId, tenantId), eq(menus.parentId, id)))
          .limit(1);
        if (child) return 'parent';
        await tx.delete(menus).where(eq(menus.id, id));
        return 'done';
      });
    },

    async exportTree(tenantId: number): Promise<MenuExportEntry[]> {
      const rows = await db
        .select()
        .from(menus)
        .where(eq(menus.tenantId, tenantId))
        .orderBy(asc(menus.sort), asc(menus.id));
      const roleCodes = new Map(
        (await db.select({ id: roles.id, code: roles.code }).from(roles).where(eq(roles.tenantId, tenantId))).map(
          (r) => [r.id, r.code],
        ),
      );
      const appCodes = new Map(
        (
          await db
            .select({ id: applications.id, code: applications.code })
            .from(applications)
            .where(eq(applications.tenantId, tenantId))
        ).map((a) => [a.id, a.code]),
      );
      const seeing = await db
        .select({ menuId: roleMenus.menuId, roleId: roleMenus.roleId })
        .from(roleMenus)
        .innerJoin(menus, eq(menus.id, roleMenus.menuId))
        .where(eq(menus.tenantId, tenantId));
      const rolesOf = (id: number) => seeing.filter((s) => s.menuId === id).map((s) => roleCodes.get(s.roleId)!);
      const ids = new Set(rows.map((r) => r.id));
      const build = (parentId: number | null): MenuExportEntry[] =>
        rows
          .filter((r) => r.parentId === parentId || (parentId === null && r.parentId !== null && !ids.has(r.parentId)))
          .map((r) => {
            const m = r.meta as Record<string, unknown> & { title?: string; icon?: string | null; url?: string | null };
            const { title = r.name, icon = null, url = null } = m;
            // Only the flags an import takes (contracts MenuExportEntry), so an export always imports.
            const meta = Object.fromEntries(
              EXPORTED_META.filter((key) => m[key] !== undefined).map((key) => [key, m[key]]),
            ) as MenuExportEntry['meta'];
            const children = build(r.id);
            return {
              name: r.name,
              path: r.path,
              component: r.component,
              title,
              ...(r.translations.en?.title ? { titleEn: r.translations.en.title } : {}),
              icon,
              url,
              hidden: r.hidden,
              redirect: r.redirect,
              route: r.route === '0' ? '0' : '1',
              serviceType: r.serviceType,
              module: r.module,
              meta,
              application: r.applicationId === null ? null : (appCodes.get(r.applicationId) ?? null),
              roles: rolesOf(r.id),
              ...(children.length ? { children } : {}),
            };
          });
      return build(null);
    },

    /**
     * Replaces the tenant's whole menu with `tree` in one transaction; roles and applications are
     * found by code. 'unknown' (nothing changed) names a code the tenant lacks.
     */
    importTree(tenantId: number, tree: MenuExportEntry[]): Promise<{ count: number } | { unknown: string }> {
      return db.transaction(async (tx) => {
        await tx.execute(keyedLock('menus', tenantId));
        const roleIds = new Map(
          (await tx.select({ id: roles.id, code: roles.code }).from(roles).where(eq(roles.tenantId, tenantId))).map(
            (r) => [r.code, r.id],
          ),
        );
        const appIds = new Map(
          (
            await tx
              .select({ id: applications.id, code: applications.code })
              .from(applications)
              .where(eq(applications.tenantId, tenantId))
          ).map((a) => [a.code, a.id]),
        );
        // Every code is checked before anything is removed: a file naming one the tenant lacks changes nothing.
        const walk = (entries: MenuExportEntry[]): string | null => {
          for (const e of entries) {
            if (e.application && !appIds.has(e.application)) return e.application;
            const role = (e.roles ?? []).find((code) => !roleIds.has(code));
            if (role) return role;
            const below = walk(e.children ?? []);
            if (below) return below;
          }
          return null;
        };
        const unknown = walk(tree);
        if (unknown) return { unknown };
        await tx.delete(menus).where(eq(menus.tenantId, tenantId));
        let count = 0;
        const insert = async (entries: MenuExportEntry[], parentId: number | null) => {
          for (const [sort, e] of entries.entries()) {
            const [row] = await tx
              .insert(menus)
              .values({
                tenantId,
                parentId,
                applicationId: e.application ? appIds.get(e.application)! : null,
                name: e.name,
                path: e.path,
                component: e.component,
                // A request's null may arrive as '' (the validator's coercion): both mean none.
                redirect: e.redirect || null,
                route: e.route ?? '1',
                hidden: e.hidden ?? false,
                sort,
                serviceType: e.serviceType ?? 0,
                module: e.module || null,
                meta: { ...e.meta, title: e.title, icon: e.icon || null, url: e.url || null },
                translations: e.titleEn ? { en: { title: e.titleEn } } : {},
              })
              .returning({ id: menus.id });
            count++;
            await setRoles(
              tx,
              row!.id,
              (e.roles ?? []).map((code) => roleIds.get(code)!),
            );
            if (e.children) await insert(e.children, row!.id);
          }
        };
        await insert(tree, null);
        return { count };
      });
    },
  };
}

export type AdminMenusRepository = ReturnType<typeof createAdminMenusRepository>;

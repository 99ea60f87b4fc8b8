import { and, eq, exists, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { applications, menus, pageDefinitions, roleMenus, userApplications } from '../../db/schema.js';

export function createPagesRepository(db: Db) {
  return {
    /**
     * The page `code` of the tenant, only when a routed drag-page menu entry of the caller's role
     * points at it, common or of an application of the tenant that the user holds (any of them:
     * switching application is the user's own choice): the menu decides who sees a page.
     */
    async visiblePage(tenantId: number, userId: number, roleId: number, code: string) {
      const held = db
        .select({ id: applications.id })
        .from(applications)
        .innerJoin(userApplications, eq(userApplications.applicationId, applications.id))
        .where(and(eq(userApplications.userId, userId), eq(applications.tenantId, tenantId)));
      const shownBy = db
        .select({ one: sql`1` })
        .from(menus)
        .innerJoin(roleMenus, and(eq(roleMenus.menuId, menus.id), eq(roleMenus.roleId, roleId)))
        .where(
          and(
            eq(menus.tenantId, tenantId),
            eq(menus.component, 'DragPageView'),
            sql`${menus.meta}->>'pageId' = ${code}`,
            ne(menus.route, '0'),
            or(isNull(menus.applicationId), inArray(menus.applicationId, held)),
          ),
        );
      const [row] = await db
        .select({
          code: pageDefinitions.code,
          title: pageDefinitions.title,
          blocks: pageDefinitions.blocks,
          translations: pageDefinitions.translations,
        })
        .from(pageDefinitions)
        .where(and(eq(pageDefinitions.tenantId, tenantId), eq(pageDefinitions.code, code), exists(shownBy)));
      return row ?? null;
    },
  };
}

export type PagesRepository = ReturnType<typeof createPagesRepository>;

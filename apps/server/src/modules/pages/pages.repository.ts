import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

export type PageRow = {
  code: string;
  title: string;
  blocks: unknown[];
};

export function createPagesRepository(db: Db) {
  return {
    /**
     * The page `code` of the tenant, only when a routed drag-page menu entry of the caller's role
     * points at it, common or of an application of the tenant that the user holds (any of them:
     * switching application is the user's own choice): the menu decides who sees a page.
     */
    async visiblePage(tenantId: number, userId: number, roleId: number, code: string): Promise<PageRow | null> {
      const res = await db.execute<PageRow>(sql`
        SELECT p.code, p.title, p.blocks FROM page_definitions p
        WHERE p.tenant_id = ${tenantId} AND p.code = ${code}
          AND EXISTS (
            SELECT 1 FROM menus m JOIN role_menus rm ON rm.menu_id = m.id AND rm.role_id = ${roleId}
            WHERE m.tenant_id = ${tenantId} AND m.component = 'DragPageView' AND m.meta->>'pageId' = ${code}
              AND m.route <> '0'
              AND (m.application_id IS NULL OR m.application_id IN (
                SELECT a.id FROM applications a JOIN user_applications ua ON ua.application_id = a.id
                WHERE ua.user_id = ${userId} AND a.tenant_id = ${tenantId})))`);
      return res.rows[0] ?? null;
    },
  };
}

export type PagesRepository = ReturnType<typeof createPagesRepository>;

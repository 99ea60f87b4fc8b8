import type { PageDocument } from '@portal/contracts';
import { and, desc, eq, exists, inArray, isNull, ne, or, sql, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { chinaTime } from '../../db/expressions.js';
import {
  applications,
  menus,
  pageDefinitions,
  pageVersions,
  roleMenus,
  userApplications,
  users,
} from '../../db/schema.js';

/** Drag-page menu entries of the tenant that show page `code`. */
const entriesShowing = (tenantId: number, code: SQLWrapper) =>
  and(
    eq(menus.tenantId, tenantId),
    eq(menus.component, 'DragPageView'),
    sql`${menus.meta}->>'pageId' = ${code}`,
    ne(menus.route, '0'),
  );

export function createPagesRepository(db: Db) {
  /** The page's latest version number, 0 for none (a statement to embed). */
  const latestOf = (pageId: SQLWrapper) =>
    sql<number>`(SELECT coalesce(max(${pageVersions.version}), 0) FROM ${pageVersions} WHERE ${pageVersions.pageId} = ${pageId})`;

  return {
    /**
     * The published version of page `code` of the tenant, only when a routed drag-page menu entry
     * of the caller's role points at it, common or of an application of the tenant that the user
     * holds (any of them: switching application is the user's own choice): the menu decides who
     * sees a page. `version` is null for a page that exists but was never published.
     */
    async visiblePublished(tenantId: number, userId: number, roleId: number, code: string) {
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
            entriesShowing(tenantId, sql`${code}`),
            or(isNull(menus.applicationId), inArray(menus.applicationId, held)),
          ),
        );
      const [row] = await db
        .select({ version: pageVersions.version, document: pageVersions.document })
        .from(pageDefinitions)
        .leftJoin(
          pageVersions,
          and(eq(pageVersions.pageId, pageDefinitions.id), eq(pageVersions.version, pageDefinitions.publishedVersion)),
        )
        .where(and(eq(pageDefinitions.tenantId, tenantId), eq(pageDefinitions.code, code), exists(shownBy)));
      return row ?? null;
    },

    /** The tenant's pages, most recently changed first, with their latest title and menu entries. */
    async list(tenantId: number) {
      return db
        .select({
          code: pageDefinitions.code,
          publishedVersion: pageDefinitions.publishedVersion,
          latestVersion: pageVersions.version,
          title: sql<PageDocument['title']>`${pageVersions.document}->'title'`,
          updatedAt: chinaTime(pageDefinitions.updatedAt),
          menuEntries: sql<number>`(SELECT count(*)::int FROM ${menus} WHERE ${entriesShowing(tenantId, pageDefinitions.code)})`,
        })
        .from(pageDefinitions)
        .innerJoin(
          pageVersions,
          and(eq(pageVersions.pageId, pageDefinitions.id), eq(pageVersions.version, latestOf(pageDefinitions.id))),
        )
        .where(eq(pageDefinitions.tenantId, tenantId))
        .orderBy(desc(pageDefinitions.updatedAt), pageDefinitions.code);
    },

    /** Every version of page `code`, newest first, with who saved it. */
    async versions(tenantId: number, code: string) {
      return db
        .select({
          version: pageVersions.version,
          title: sql<PageDocument['title']>`${pageVersions.document}->'title'`,
          createdAt: chinaTime(pageVersions.createdAt),
          createdBy: users.name,
          restoredFrom: pageVersions.restoredFrom,
        })
        .from(pageVersions)
        .innerJoin(pageDefinitions, eq(pageDefinitions.id, pageVersions.pageId))
        .leftJoin(users, eq(users.id, pageVersions.createdBy))
        .where(and(eq(pageDefinitions.tenantId, tenantId), eq(pageDefinitions.code, code)))
        .orderBy(desc(pageVersions.version));
    },

    /** Version `version` of page `code` (the latest when 0), with the page's published version. */
    async version(tenantId: number, code: string, version: number) {
      const [row] = await db
        .select({
          version: pageVersions.version,
          document: pageVersions.document,
          publishedVersion: pageDefinitions.publishedVersion,
        })
        .from(pageDefinitions)
        .innerJoin(pageVersions, eq(pageVersions.pageId, pageDefinitions.id))
        .where(
          and(
            eq(pageDefinitions.tenantId, tenantId),
            eq(pageDefinitions.code, code),
            eq(pageVersions.version, version === 0 ? latestOf(pageDefinitions.id) : sql`${version}`),
          ),
        );
      return row ?? null;
    },

    /** A new page with its first version; false when the tenant has a page of that code. */
    async create(tenantId: number, code: string, userId: number, document: PageDocument): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [page] = await tx
          .insert(pageDefinitions)
          .values({ tenantId, code })
          .onConflictDoNothing()
          .returning({ id: pageDefinitions.id });
        if (!page) return false;
        await tx.insert(pageVersions).values({ pageId: page.id, version: 1, document, createdBy: userId });
        return true;
      });
    },

    /**
     * Version `base + 1` of page `code`, only while `base` is its latest version: of two saves on
     * the same base, the second finds the first's row (its key) and is refused. Null when stale.
     * The page's time moves only with a version written.
     */
    async append(tenantId: number, code: string, base: number, userId: number, document: PageDocument) {
      const rows = await db.execute<{ version: number }>(sql`
        WITH written AS (
          INSERT INTO ${pageVersions} (page_id, version, document, created_by)
          SELECT id, ${base + 1}, ${JSON.stringify(document)}::jsonb, ${userId} FROM ${pageDefinitions}
          WHERE tenant_id = ${tenantId} AND code = ${code} AND ${latestOf(pageDefinitions.id)} = ${base}
          ON CONFLICT DO NOTHING
          RETURNING page_id, version),
        touched AS (UPDATE ${pageDefinitions} p SET updated_at = now() FROM written WHERE p.id = written.page_id)
        SELECT version FROM written`);
      return rows.rows[0]?.version ?? null;
    },

    /**
     * A copy of version `version` of page `code` as its newest version, published at once (the way
     * back to an earlier page); the new version's number, null when there is no such version or a
     * save came in between (two at once compute the same number: the key refuses the second).
     */
    async restore(tenantId: number, code: string, version: number, userId: number): Promise<number | null> {
      const rows = await db.execute<{ version: number }>(sql`
        WITH page AS (SELECT id FROM ${pageDefinitions} WHERE tenant_id = ${tenantId} AND code = ${code}),
        copy AS (
          INSERT INTO ${pageVersions} (page_id, version, document, created_by, restored_from)
          SELECT page.id, ${latestOf(sql`page.id`)} + 1, v.document, ${userId}, v.version
          FROM page JOIN ${pageVersions} v ON v.page_id = page.id AND v.version = ${version}
          ON CONFLICT DO NOTHING
          RETURNING page_id, version)
        UPDATE ${pageDefinitions} d SET published_version = copy.version, updated_at = now()
        FROM copy WHERE d.id = copy.page_id
        RETURNING copy.version`);
      return rows.rows[0]?.version ?? null;
    },

    /** Makes version `version` of page `code` the one its menu entries show; false when there is none. */
    async publish(tenantId: number, code: string, version: number): Promise<boolean> {
      const rows = await db
        .update(pageDefinitions)
        .set({ publishedVersion: version, updatedAt: sql`now()` })
        .where(
          and(
            eq(pageDefinitions.tenantId, tenantId),
            eq(pageDefinitions.code, code),
            exists(
              db
                .select({ one: sql`1` })
                .from(pageVersions)
                .where(and(eq(pageVersions.pageId, pageDefinitions.id), eq(pageVersions.version, version))),
            ),
          ),
        )
        .returning({ code: pageDefinitions.code });
      return rows.length > 0;
    },
  };
}

export type PagesRepository = ReturnType<typeof createPagesRepository>;

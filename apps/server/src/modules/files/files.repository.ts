import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { files } from '../../db/schema.js';

/**
 * The ids of the files something names, wherever it may: a reply's or a notice's attachments, a
 * notice's or the agreement's HTML, a tenant's settings (its logo), any version of a drag page (a
 * restore brings an old one back), a menu entry's meta. Read from the rows' text, so that an
 * address of any form (`files/<id>`, `/api/resources/logos/<id>`) counts. A workbench layout is not
 * read: it holds widget ids and menu paths, and a member who wrote an upload's id into a shortcut
 * would keep the upload past its time.
 */
const NAMED = sql`SELECT DISTINCT m[1]::uuid AS id FROM (
    SELECT reply_files::text AS t FROM notice_recipients WHERE reply_files <> '[]'::jsonb
    UNION ALL SELECT push_files::text || remark || translations::text FROM notices
    UNION ALL SELECT html || translations::text FROM register_agreements
    UNION ALL SELECT settings::text FROM tenants
    UNION ALL SELECT document::text FROM page_versions
    UNION ALL SELECT meta::text FROM menus
  ) AS s, regexp_matches(s.t, '([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})', 'gi') AS m`;

export function createFilesRepository(db: Db) {
  return {
    async insert(f: typeof files.$inferInsert): Promise<void> {
      await db.insert(files).values(f);
    },

    /** Of `ids`, the files `ownerId` uploaded in the tenant for `purpose`, with their names. */
    owned(tenantId: number, ownerId: number, purpose: string, ids: string[]) {
      return db
        .select({ id: files.id, fileName: files.fileName })
        .from(files)
        .where(
          and(
            eq(files.tenantId, tenantId),
            eq(files.ownerId, ownerId),
            eq(files.purpose, purpose),
            inArray(files.id, ids),
          ),
        );
    },

    async byId(id: string) {
      const [row] = await db
        .select({ fileName: files.fileName, mediaType: files.mediaType, size: files.size, purpose: files.purpose })
        .from(files)
        .where(eq(files.id, id));
      return row ?? null;
    },

    /** Of `ids`, those that have a row. */
    async existing(ids: string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db.select({ id: files.id }).from(files).where(inArray(files.id, ids));
      return new Set(rows.map((r) => r.id));
    },

    /**
     * Deletes the rows of up to `limit` files uploaded over `graceHours` ago that nothing names; what
     * was deleted. The candidates are locked first, skipping any a reply holds (it locks the files it
     * names until it commits), and then checked again in a statement of its own: a reply that
     * committed before the lock was taken is seen, one after it finds its file gone and is refused.
     */
    async removeUnreferenced(graceHours: number, limit: number): Promise<{ id: string; size: number }[]> {
      return db.transaction(async (tx) => {
        const candidates = await tx.execute<{ id: string }>(sql`
          SELECT f.id FROM files f
          WHERE f.created_at < now() - make_interval(hours => ${graceHours}) AND f.id NOT IN (${NAMED})
          ORDER BY f.created_at LIMIT ${limit} FOR UPDATE OF f SKIP LOCKED`);
        if (candidates.rows.length === 0) return [];
        const ids = candidates.rows.map((r) => r.id);
        return tx
          .delete(files)
          .where(and(inArray(files.id, ids), sql`${files.id} NOT IN (${NAMED})`))
          .returning({ id: files.id, size: files.size });
      });
    },
  };
}

export type FilesRepository = ReturnType<typeof createFilesRepository>;

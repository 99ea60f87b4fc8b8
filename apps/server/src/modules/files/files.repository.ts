import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { files } from '../../db/schema.js';

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
  };
}

export type FilesRepository = ReturnType<typeof createFilesRepository>;

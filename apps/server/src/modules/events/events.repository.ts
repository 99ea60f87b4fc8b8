import { and, asc, eq, gt, max } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { userEvents } from '../../db/schema.js';

export function createEventsRepository(db: Db) {
  return {
    /** The user's events after `afterId`, oldest first, at most `limit`. */
    since(tenantId: number, userId: number, afterId: number, limit: number) {
      return db
        .select({ id: userEvents.id, kind: userEvents.kind, noticeId: userEvents.noticeId })
        .from(userEvents)
        .where(and(eq(userEvents.userId, userId), eq(userEvents.tenantId, tenantId), gt(userEvents.id, afterId)))
        .orderBy(asc(userEvents.id))
        .limit(limit);
    },

    /** The id of the user's newest event, 0 when there is none. */
    async latest(tenantId: number, userId: number): Promise<number> {
      const [row] = await db
        .select({ id: max(userEvents.id) })
        .from(userEvents)
        .where(and(eq(userEvents.userId, userId), eq(userEvents.tenantId, tenantId)));
      return row?.id ?? 0;
    },
  };
}

export type EventsRepository = ReturnType<typeof createEventsRepository>;

import { and, eq, max } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { named } from '../../db/named.js';
import { userEvents } from '../../db/schema.js';

/**
 * Each user's events after their own position, at most `$4` a user, for a batch of users in one
 * statement: what one published notice makes every instance read for all its local recipients.
 */
const SINCE_MANY = named<{ id: number; userId: number; kind: string; noticeId: number | null }>(
  'events_since_many',
  `SELECT e.id, e.user_id AS "userId", e.kind, e.notice_id AS "noticeId"
   FROM unnest($1::int8[], $2::int8[], $3::int8[]) AS s (user_id, tenant_id, after)
   JOIN LATERAL (
     SELECT id, user_id, kind, notice_id FROM user_events
     WHERE user_id = s.user_id AND tenant_id = s.tenant_id AND id > s.after ORDER BY id LIMIT $4) e ON true
   ORDER BY e.id`,
);

export function createEventsRepository(db: Db) {
  return {
    /** The events of each user after `after`, oldest first, at most `limit` a user. */
    async sinceMany(from: { userId: number; tenantId: number; after: number }[], limit: number) {
      const { rows } = await SINCE_MANY(db.$client, [
        from.map((f) => f.userId),
        from.map((f) => f.tenantId),
        from.map((f) => f.after),
        limit,
      ]);
      return rows.map((r) => ({ ...r, id: Number(r.id), userId: Number(r.userId) }));
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

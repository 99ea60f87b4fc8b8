import { and, asc, desc, eq, gt, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { chinaTime, totalRows } from '../../db/expressions.js';
import { parkBookings, parkRepairs, parkRooms, users } from '../../db/schema.js';
import { violatedConstraint } from '../../db/violation.js';

const repairColumns = {
  id: parkRepairs.id,
  userId: parkRepairs.userId,
  title: parkRepairs.title,
  location: parkRepairs.location,
  description: parkRepairs.description,
  status: parkRepairs.status,
  translations: parkRepairs.translations,
  reporter: { name: users.name, translations: users.translations },
  crtTime: chinaTime(parkRepairs.createdAt),
  updateTime: chinaTime(parkRepairs.updatedAt),
};

export function createParkServicesRepository(db: Db) {
  const repairs = (where: SQL | undefined) =>
    db.select(repairColumns).from(parkRepairs).innerJoin(users, eq(users.id, parkRepairs.userId)).where(where);

  return {
    /** A page of the tenant's requests, newest first: the user's own, or all (`userId` null). */
    async repairs(tenantId: number, userId: number | null, status: number | null, page: number, limit: number) {
      const rows = await db
        .select({ ...repairColumns, total: totalRows() })
        .from(parkRepairs)
        .innerJoin(users, eq(users.id, parkRepairs.userId))
        .where(
          and(
            eq(parkRepairs.tenantId, tenantId),
            userId === null ? undefined : eq(parkRepairs.userId, userId),
            status === null ? undefined : eq(parkRepairs.status, status),
          ),
        )
        .orderBy(desc(parkRepairs.createdAt), desc(parkRepairs.id))
        .limit(limit)
        .offset((page - 1) * limit);
      return { rows, total: rows[0]?.total ?? 0 };
    },

    async repair(tenantId: number, id: number) {
      const [row] = await repairs(and(eq(parkRepairs.tenantId, tenantId), eq(parkRepairs.id, id)));
      return row ?? null;
    },

    async report(row: { tenantId: number; userId: number; title: string; location: string; description: string }) {
      const [saved] = await db.insert(parkRepairs).values(row).returning({ id: parkRepairs.id });
      return saved!.id;
    },

    /**
     * Moves a request forward to `status` (accepted, or done) in one statement: a request already
     * there or further along changes nothing, so two handlers at once move it once.
     */
    async advance(tenantId: number, id: number, status: number): Promise<boolean> {
      const moved = await db
        .update(parkRepairs)
        .set({ status, updatedAt: sql`now()` })
        .where(and(eq(parkRepairs.tenantId, tenantId), eq(parkRepairs.id, id), lt(parkRepairs.status, status)))
        .returning({ id: parkRepairs.id });
      return moved.length > 0;
    },

    async rooms(tenantId: number) {
      return db
        .select({
          id: parkRooms.id,
          name: parkRooms.name,
          capacity: parkRooms.capacity,
          translations: parkRooms.translations,
        })
        .from(parkRooms)
        .where(eq(parkRooms.tenantId, tenantId))
        .orderBy(asc(parkRooms.id));
    },

    async roomExists(tenantId: number, id: number): Promise<boolean> {
      const rows = await db
        .select({ one: sql`1` })
        .from(parkRooms)
        .where(and(eq(parkRooms.tenantId, tenantId), eq(parkRooms.id, id)));
      return rows.length > 0;
    },

    /** The tenant's bookings that overlap [from, to), of one room or of all. */
    async bookings(tenantId: number, from: Date, to: Date, roomId: number | null) {
      return db
        .select({
          id: parkBookings.id,
          roomId: parkBookings.roomId,
          userId: parkBookings.userId,
          subject: parkBookings.subject,
          startTime: chinaTime(parkBookings.startsAt, 'minute'),
          endTime: chinaTime(parkBookings.endsAt, 'minute'),
        })
        .from(parkBookings)
        .where(
          and(
            eq(parkBookings.tenantId, tenantId),
            roomId === null ? undefined : eq(parkBookings.roomId, roomId),
            lt(parkBookings.startsAt, to),
            gt(parkBookings.endsAt, from),
          ),
        )
        .orderBy(asc(parkBookings.startsAt), asc(parkBookings.roomId));
    },

    /**
     * Books the room, or answers null when it is booked for part of that time: the exclusion
     * constraint decides, so two people booking the same hour at once get one booking.
     */
    async book(row: {
      tenantId: number;
      roomId: number;
      userId: number;
      subject: string;
      startsAt: Date;
      endsAt: Date;
    }): Promise<number | null> {
      try {
        const [saved] = await db.insert(parkBookings).values(row).returning({ id: parkBookings.id });
        return saved!.id;
      } catch (err) {
        if (violatedConstraint(err) === 'park_bookings_no_overlap') return null;
        throw err;
      }
    },

    /** Cancels the user's own booking that has not started yet. */
    async cancel(tenantId: number, userId: number, id: number): Promise<'cancelled' | 'started' | 'absent'> {
      const gone = await db
        .delete(parkBookings)
        .where(
          and(
            eq(parkBookings.tenantId, tenantId),
            eq(parkBookings.userId, userId),
            eq(parkBookings.id, id),
            gt(parkBookings.startsAt, sql`now()`),
          ),
        )
        .returning({ id: parkBookings.id });
      if (gone.length > 0) return 'cancelled';
      const [still] = await db
        .select({ one: sql`1` })
        .from(parkBookings)
        .where(and(eq(parkBookings.tenantId, tenantId), eq(parkBookings.userId, userId), eq(parkBookings.id, id)));
      return still ? 'started' : 'absent';
    },
  };
}

export type ParkServicesRepository = ReturnType<typeof createParkServicesRepository>;

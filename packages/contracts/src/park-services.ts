/**
 * Park services, the demo sub-application's data (apps/demo-micro-app): repair requests and meeting
 * room bookings.
 */
import { Type, type Static } from 'typebox';
import { Id, Nullable, PageQuery } from './fields.js';

/** 物业报修: 0 submitted (待受理), 1 accepted (处理中), 2 done (已完成). */
export const RepairStatus = Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2)]);
export type RepairStatus = Static<typeof RepairStatus>;
export const RepairInput = Type.Object({
  title: Type.String({ minLength: 2, maxLength: 60 }),
  location: Type.String({ minLength: 2, maxLength: 60 }),
  description: Type.Optional(Type.String({ maxLength: 500 })),
});
export type RepairInput = Static<typeof RepairInput>;
export const Repair = Type.Object({
  id: Type.String(),
  title: Type.String(),
  location: Type.String(),
  description: Type.String(),
  status: Type.Integer(),
  /** Who reported it, in the request's language. */
  reporter: Type.String(),
  mine: Type.Boolean(),
  crtTime: Type.String(),
  updateTime: Type.String(),
});
export type Repair = Static<typeof Repair>;
export const RepairQuery = Type.Object({
  page: PageQuery.properties.page,
  limit: PageQuery.properties.limit,
  status: Type.Optional(RepairStatus),
});
export type RepairQuery = Static<typeof RepairQuery>;
/** Accept (1) or finish (2) a request: permission `repair:handle`. */
export const RepairStatusBody = Type.Object({ status: Type.Union([Type.Literal(1), Type.Literal(2)]) });
export type RepairStatusBody = Static<typeof RepairStatusBody>;

export const Room = Type.Object({ id: Type.String(), name: Type.String(), capacity: Type.Integer() });
export type Room = Static<typeof Room>;
/** A park-local (China) day and time, to the minute: `YYYY-MM-DD HH:mm`. */
const LocalMinute = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}$',
  maxLength: 16,
  examples: ['2026-12-01 10:00'],
});
export const BookingQuery = Type.Object({
  date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', maxLength: 10, examples: ['2026-12-01'] }),
  roomId: Type.Optional(Id),
});
export type BookingQuery = Static<typeof BookingQuery>;
export const BookingInput = Type.Object({
  roomId: Id,
  subject: Type.String({ minLength: 2, maxLength: 60 }),
  startTime: LocalMinute,
  endTime: LocalMinute,
});
export type BookingInput = Static<typeof BookingInput>;
/** A booking of the day; another person's shows no subject. */
export const Booking = Type.Object({
  id: Type.String(),
  roomId: Type.String(),
  subject: Nullable(Type.String()),
  startTime: Type.String(),
  endTime: Type.String(),
  mine: Type.Boolean(),
});
export type Booking = Static<typeof Booking>;

// ---- Booking times: what the form offers, in park (China) time ---------------------------------

/** The park's time: China, UTC+8 all year (no daylight saving); the server reads every booking so. */
export const PARK_UTC_OFFSET_MS = 8 * 3_600_000;
/** Bookings start and end on quarter hours from 08:00 to 22:00, 15 minutes to 8 hours long. */
export const BOOKING_FIRST_MINUTE = 8 * 60;
export const BOOKING_LAST_MINUTE = 22 * 60;
export const BOOKING_STEP_MINUTES = 15;
export const BOOKING_LONGEST_MINUTES = 8 * 60;
/** A new booking's length when nothing stops it earlier. */
export const BOOKING_DEFAULT_MINUTES = 60;

const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** The park's day at instant `now` (ms), `YYYY-MM-DD`. */
export const parkDate = (now: number): string => new Date(now + PARK_UTC_OFFSET_MS).toISOString().slice(0, 10);

/** The day after `date` (`YYYY-MM-DD`). */
const nextDate = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** Every quarter hour a booking may start or end on, `08:00` … `22:00`. */
export const BOOKING_QUARTERS: readonly string[] = Array.from(
  { length: (BOOKING_LAST_MINUTE - BOOKING_FIRST_MINUTE) / BOOKING_STEP_MINUTES + 1 },
  (_, i) => hhmm(BOOKING_FIRST_MINUTE + i * BOOKING_STEP_MINUTES),
);

/**
 * The times a booking on park day `date` may start at `now`: quarter hours before 22:00 that have
 * not begun (the server refuses a start in the past); none on a day gone by.
 */
export function startChoices(date: string, now: number): string[] {
  const today = parkDate(now);
  if (date < today) return [];
  // The instant's time of day in the park; a start at that very millisecond is still allowed.
  const msOfDay = date === today ? (now + PARK_UTC_OFFSET_MS) % 86_400_000 : 0;
  return BOOKING_QUARTERS.filter((q) => minutesOf(q) < BOOKING_LAST_MINUTE && minutesOf(q) * 60_000 >= msOfDay);
}

/** The times a booking starting at `start` may end at: later quarters up to 22:00, at most 8 hours on. */
export function endChoices(start: string): string[] {
  const from = minutesOf(start);
  return BOOKING_QUARTERS.filter((q) => minutesOf(q) > from && minutesOf(q) - from <= BOOKING_LONGEST_MINUTES);
}

/**
 * The first free time of a room on park day `date` at `now`: the earliest start not past and not
 * inside a booking of `taken` (that room's bookings, `YYYY-MM-DD HH:mm`), an hour long or up to the
 * next booking or 22:00; null when the day has none left.
 */
export function nextFreeSlot(
  date: string,
  now: number,
  taken: readonly { startTime: string; endTime: string }[],
): { start: string; end: string } | null {
  const busy = taken
    .filter((b) => b.startTime.slice(0, 10) === date)
    .map((b) => [minutesOf(b.startTime.slice(11)), minutesOf(b.endTime.slice(11))] as const);
  for (const start of startChoices(date, now)) {
    const from = minutesOf(start);
    if (busy.some(([s, e]) => s <= from && from < e)) continue;
    const nextBusy = Math.min(BOOKING_LAST_MINUTE, ...busy.filter(([s]) => s > from).map(([s]) => s));
    return { start, end: hhmm(Math.min(from + BOOKING_DEFAULT_MINUTES, nextBusy)) };
  }
  return null;
}

/** The day the booking page opens on: today, or tomorrow once today has no start time left. */
export const firstBookingDate = (now: number): string =>
  startChoices(parkDate(now), now).length > 0 ? parkDate(now) : nextDate(parkDate(now));

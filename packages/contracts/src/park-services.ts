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

import {
  PARK_UTC_OFFSET_MS,
  ResultCode,
  type Booking,
  type BookingInput,
  type Repair,
  type RepairInput,
  type RepairQuery,
  type Room,
} from '@portal/contracts';
import { AppError } from '../../platform/errors.js';
import { localized, type Lang } from '../../platform/i18n.js';
import type { PermissionGuard } from '../../platform/permissions.js';
import type { RateLimiter } from '../../platform/rate-limit.js';
import type { ActiveSession } from '../../platform/session.js';
import type { ParkServicesRepository } from './park-services.repository.js';

/** The permission code (docs/product/permissions.md#action-codes) of 受理 / 完成 on repair requests, on the server as in the sub-app. */
export const HANDLE_PERMISSION = 'repair:handle';
/** Requests or bookings one person may make an hour: plenty for a person, not for a script. */
const WRITES_PER_HOUR = 30;
/** Bookings are on quarter hours, 15 minutes to 8 hours, within one day, up to 60 days ahead. */
const QUARTER_MS = 15 * 60_000;
const LONGEST_MS = 8 * 3_600_000;
const AHEAD_DAYS = 60;

/** A park-local (China, UTC+8 all year) minute `YYYY-MM-DD HH:mm` as an instant; null if no such minute. */
export function parkMinute(text: string): Date | null {
  const at = new Date(Date.parse(`${text.replace(' ', 'T')}:00Z`) - PARK_UTC_OFFSET_MS);
  if (Number.isNaN(at.getTime())) return null;
  // Date rolls 02-30 over to 03-02: a minute that does not exist reads back differently.
  const back = new Date(at.getTime() + PARK_UTC_OFFSET_MS).toISOString().slice(0, 16).replace('T', ' ');
  return back === text ? at : null;
}

/**
 * The park services of the demo sub-application (ADR 025): 物业报修 (everyone reports and sees
 * their own requests; handlers, permission `repair:handle`, see and move all of the tenant's) and
 * 会议室预约 (rooms of the tenant; a booking never overlaps another, another person's booking
 * shows no subject). Every call is about the caller's tenant.
 */
export function createParkServicesService(deps: {
  repo: ParkServicesRepository;
  guard: PermissionGuard;
  limiter: RateLimiter;
}) {
  const { repo, guard, limiter } = deps;
  const repairOf = (
    lang: Lang,
    s: ActiveSession,
    r: NonNullable<Awaited<ReturnType<ParkServicesRepository['repair']>>>,
  ): Repair => ({
    id: String(r.id),
    // As written, unless it has a translation (the demo's seeded requests, ADR 020).
    title: localized(lang, r, 'title'),
    location: localized(lang, r, 'location'),
    description: localized(lang, r, 'description'),
    status: r.status,
    reporter: localized(lang, { name: r.reporter.name ?? '', translations: r.reporter.translations }, 'name'),
    mine: r.userId === s.userId,
    crtTime: r.crtTime,
    updateTime: r.updateTime,
  });

  return {
    async repairs(s: ActiveSession, q: RepairQuery, lang: Lang) {
      const all = await guard.allows(s, HANDLE_PERMISSION);
      const { rows, total } = await repo.repairs(
        s.tenantId,
        all ? null : s.userId,
        q.status ?? null,
        q.page ?? 1,
        q.limit ?? 10,
      );
      return { rows: rows.map((r) => repairOf(lang, s, r)), total };
    },

    /** One request: the caller's own, or any of the tenant's for a handler; else as if absent. */
    async repair(s: ActiveSession, id: number, lang: Lang): Promise<Repair> {
      const row = await repo.repair(s.tenantId, id);
      if (!row || (row.userId !== s.userId && !(await guard.allows(s, HANDLE_PERMISSION)))) {
        throw new AppError(ResultCode.NOT_FOUND, 'repairNotFound');
      }
      return repairOf(lang, s, row);
    },

    async report(s: ActiveSession, input: RepairInput): Promise<string> {
      const title = input.title.trim();
      const location = input.location.trim();
      if (title.length < 2 || location.length < 2) throw new AppError(ResultCode.BAD_REQUEST, 'repairFields');
      await limiter.hit(`repair:user:${s.userId}`, WRITES_PER_HOUR, 3_600);
      const id = await repo.report({
        tenantId: s.tenantId,
        userId: s.userId,
        title,
        location,
        description: (input.description ?? '').trim(),
      });
      return String(id);
    },

    async advance(s: ActiveSession, id: number, status: 1 | 2): Promise<void> {
      await guard.require(s, HANDLE_PERMISSION);
      if (await repo.advance(s.tenantId, id, status)) return;
      if (!(await repo.repair(s.tenantId, id))) throw new AppError(ResultCode.NOT_FOUND, 'repairNotFound');
      throw new AppError(ResultCode.CONFLICT, 'repairStatusClosed');
    },

    async rooms(s: ActiveSession, lang: Lang): Promise<Room[]> {
      return (await repo.rooms(s.tenantId)).map((r) => ({
        id: String(r.id),
        name: localized(lang, r, 'name'),
        capacity: r.capacity,
      }));
    },

    /** The bookings of a park-local day (of one room or all), another person's without a subject. */
    async bookings(s: ActiveSession, date: string, roomId: number | null): Promise<Booking[]> {
      if (roomId !== null && !(await repo.roomExists(s.tenantId, roomId))) {
        throw new AppError(ResultCode.NOT_FOUND, 'roomUnknown');
      }
      const from = parkMinute(`${date} 00:00`);
      if (!from) throw new AppError(ResultCode.BAD_REQUEST, 'bookingDate');
      const to = new Date(from.getTime() + 86_400_000);
      return (await repo.bookings(s.tenantId, from, to, roomId)).map((b) => ({
        id: String(b.id),
        roomId: String(b.roomId),
        subject: b.userId === s.userId ? b.subject : null,
        startTime: b.startTime,
        endTime: b.endTime,
        mine: b.userId === s.userId,
      }));
    },

    async book(s: ActiveSession, roomId: number, input: BookingInput): Promise<string> {
      if (!(await repo.roomExists(s.tenantId, roomId))) throw new AppError(ResultCode.NOT_FOUND, 'roomUnknown');
      const subject = input.subject.trim();
      if (subject.length < 2) throw new AppError(ResultCode.BAD_REQUEST, 'bookingSubject');
      const startsAt = parkMinute(input.startTime);
      const endsAt = parkMinute(input.endTime);
      if (!startsAt || !endsAt) throw new AppError(ResultCode.BAD_REQUEST, 'bookingDate');
      if (startsAt.getTime() % QUARTER_MS !== 0 || endsAt.getTime() % QUARTER_MS !== 0) {
        throw new AppError(ResultCode.BAD_REQUEST, 'bookingQuarter');
      }
      const length = endsAt.getTime() - startsAt.getTime();
      if (length < QUARTER_MS || length > LONGEST_MS || input.startTime.slice(0, 10) !== input.endTime.slice(0, 10)) {
        // 24:00 is no minute of the day: a booking to midnight ends at 23:45 at the latest.
        throw new AppError(ResultCode.BAD_REQUEST, 'bookingLength');
      }
      if (startsAt.getTime() < Date.now()) throw new AppError(ResultCode.BAD_REQUEST, 'bookingPast');
      if (startsAt.getTime() > Date.now() + AHEAD_DAYS * 86_400_000)
        throw new AppError(ResultCode.BAD_REQUEST, 'bookingFar');
      await limiter.hit(`booking:user:${s.userId}`, WRITES_PER_HOUR, 3_600);
      const id = await repo.book({ tenantId: s.tenantId, roomId, userId: s.userId, subject, startsAt, endsAt });
      if (id === null) throw new AppError(ResultCode.CONFLICT, 'bookingConflict');
      return String(id);
    },

    async cancel(s: ActiveSession, id: number): Promise<void> {
      const result = await repo.cancel(s.tenantId, s.userId, id);
      if (result === 'absent') throw new AppError(ResultCode.NOT_FOUND, 'bookingNotFound');
      if (result === 'started') throw new AppError(ResultCode.CONFLICT, 'bookingStarted');
    },
  };
}

export type ParkServicesService = ReturnType<typeof createParkServicesService>;

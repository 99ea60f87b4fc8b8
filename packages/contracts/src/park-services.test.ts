import { describe, expect, it } from 'vitest';
import {
  BOOKING_QUARTERS,
  endChoices,
  firstBookingDate,
  nextFreeSlot,
  parkDate,
  startChoices,
} from './park-services.js';

/** An instant given in park (China) time. */
const at = (local: string) => Date.parse(`${local.replace(' ', 'T')}:00+08:00`);

describe('booking times in park (China) time', () => {
  it('knows the park day whatever the UTC date', () => {
    expect(parkDate(Date.parse('2026-11-26T16:30:00Z'))).toBe('2026-11-27');
    expect(parkDate(Date.parse('2026-11-26T15:59:59Z'))).toBe('2026-11-26');
  });

  it('offers every quarter from 08:00 to 21:45 on a later day, and none on a day gone by', () => {
    const now = at('2026-12-01 10:20');
    expect(startChoices('2026-12-02', now)).toEqual(BOOKING_QUARTERS.slice(0, -1));
    expect(startChoices('2026-12-02', now)[0]).toBe('08:00');
    expect(startChoices('2026-12-02', now).at(-1)).toBe('21:45');
    expect(startChoices('2026-11-30', now)).toEqual([]);
  });

  it('never offers a start that has begun today (the server refuses it)', () => {
    expect(startChoices('2026-12-01', at('2026-12-01 10:20'))[0]).toBe('10:30');
    expect(startChoices('2026-12-01', at('2026-12-01 10:30'))[0]).toBe('10:30');
    expect(startChoices('2026-12-01', at('2026-12-01 10:30') + 1)[0]).toBe('10:45');
    expect(startChoices('2026-12-01', at('2026-12-01 06:00'))[0]).toBe('08:00');
    expect(startChoices('2026-12-01', at('2026-12-01 21:50'))).toEqual([]);
  });

  it('offers ends after the start, up to 22:00 and at most 8 hours on', () => {
    expect(endChoices('10:00')[0]).toBe('10:15');
    expect(endChoices('10:00').at(-1)).toBe('18:00');
    expect(endChoices('21:30')).toEqual(['21:45', '22:00']);
  });

  it('defaults to the next free hour: not past, not booked', () => {
    const day = '2026-12-01';
    const now = at(`${day} 10:20`);
    expect(nextFreeSlot(day, now, [])).toEqual({ start: '10:30', end: '11:30' });
    const taken = [
      { startTime: `${day} 10:00`, endTime: `${day} 11:00` },
      { startTime: `${day} 11:30`, endTime: `${day} 12:00` },
      { startTime: '2026-12-02 11:00', endTime: '2026-12-02 12:00' },
    ];
    // 10:30 and 10:45 are inside a booking; from 11:00 it is free until the next one at 11:30.
    expect(nextFreeSlot(day, now, taken)).toEqual({ start: '11:00', end: '11:30' });
    expect(nextFreeSlot('2026-12-02', now, taken)).toEqual({ start: '08:00', end: '09:00' });
    expect(nextFreeSlot(day, at(`${day} 21:20`), [])).toEqual({ start: '21:30', end: '22:00' });
    expect(nextFreeSlot(day, at(`${day} 21:50`), [])).toBeNull();
  });

  it('opens on today, or on tomorrow once today has no start left', () => {
    expect(firstBookingDate(at('2026-12-01 21:40'))).toBe('2026-12-01');
    expect(firstBookingDate(at('2026-12-01 21:46'))).toBe('2026-12-02');
    expect(firstBookingDate(at('2026-12-31 23:00'))).toBe('2027-01-01');
  });
});

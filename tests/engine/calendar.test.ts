import { describe, expect, it } from 'vitest';
import { calendarPeriods, localMidnight, zoneOrUtc } from '../../src/modules/shared/calendar.js';

const iso = (d: Date) => d.toISOString();

describe('calendar periods in a time zone', () => {
  it('are UTC calendar periods for UTC, weeks starting on Monday', () => {
    const p = calendarPeriods(new Date('2026-11-20T15:00:00Z'), 'UTC'); // a Friday
    expect(p.map((x) => [x.key, iso(x.from), iso(x.to)])).toEqual([
      ['today', '2026-11-20T00:00:00.000Z', '2026-11-21T00:00:00.000Z'],
      ['this_week', '2026-11-16T00:00:00.000Z', '2026-11-23T00:00:00.000Z'],
      ['this_month', '2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z'],
      ['this_year', '2026-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
    ]);
  });

  it('follow the local date, not the UTC one, far from UTC', () => {
    // 23:30 UTC on the 20th is already the 21st in Kiritimati (UTC+14) and still the 20th in Pago Pago (UTC-11).
    const at = new Date('2026-11-20T23:30:00Z');
    expect(iso(calendarPeriods(at, 'Pacific/Kiritimati')[0]!.from)).toBe('2026-11-20T10:00:00.000Z');
    expect(iso(calendarPeriods(at, 'Pacific/Pago_Pago')[0]!.from)).toBe('2026-11-20T11:00:00.000Z');
  });

  it('handle days of 23 and 25 hours at daylight-saving changes', () => {
    // Europe/Berlin: 2026-03-29 is 23 hours long, 2026-10-25 is 25 hours long.
    const spring = calendarPeriods(new Date('2026-03-29T12:00:00Z'), 'Europe/Berlin')[0]!;
    expect([iso(spring.from), iso(spring.to)]).toEqual(['2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z']);
    const autumn = calendarPeriods(new Date('2026-10-25T12:00:00Z'), 'Europe/Berlin')[0]!;
    expect([iso(autumn.from), iso(autumn.to)]).toEqual(['2026-10-24T22:00:00.000Z', '2026-10-25T23:00:00.000Z']);
    expect(iso(localMidnight(2026, 1, 1, 'America/New_York'))).toBe('2026-01-01T05:00:00.000Z');
  });

  it('falls back to UTC for a blank or unknown zone', () => {
    expect(zoneOrUtc(null)).toBe('UTC');
    expect(zoneOrUtc(' ')).toBe('UTC');
    expect(zoneOrUtc('Mars/Base')).toBe('UTC');
    expect(zoneOrUtc('Asia/Tokyo')).toBe('Asia/Tokyo');
  });
});

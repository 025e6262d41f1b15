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

  it('keeps the periods of the current local date: the same as computed afresh, every hour, across midnight and DST changes', () => {
    const fresh = (at: Date, zone: string) => {
      // Another zone in between drops nothing (one kept date per zone); a fresh computation: a date not kept yet.
      calendarPeriods(new Date(at.getTime() + 400 * 86_400_000), zone);
      return calendarPeriods(at, zone).map((x) => [x.key, iso(x.from), iso(x.to)]);
    };
    for (const zone of ['Europe/Berlin', 'America/Santiago', 'Pacific/Kiritimati', 'UTC']) {
      for (let at = Date.parse('2026-03-27T00:00:00Z'); at < Date.parse('2026-04-07T00:00:00Z'); at += 3_600_000 - 1) {
        const instant = new Date(at);
        const kept = calendarPeriods(instant, zone).map((x) => [x.key, iso(x.from), iso(x.to)]);
        expect(kept, `${zone} ${instant.toISOString()}`).toEqual(fresh(instant, zone));
        // Every period holds the instant.
        const today = calendarPeriods(instant, zone)[0]!;
        expect(today.from.getTime() <= at && at < today.to.getTime(), `${zone} ${instant.toISOString()}`).toBe(true);
      }
    }
    expect(Object.isFrozen(calendarPeriods(new Date(), 'UTC')[0])).toBe(true);
  });

  it('falls back to UTC for a blank or unknown zone', () => {
    expect(zoneOrUtc(null)).toBe('UTC');
    expect(zoneOrUtc(' ')).toBe('UTC');
    expect(zoneOrUtc('Mars/Base')).toBe('UTC');
    expect(zoneOrUtc('Asia/Tokyo')).toBe('Asia/Tokyo');
  });
});

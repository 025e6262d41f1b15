/**
 * Calendar dates and periods in a user's time zone: the date of an instant
 * (the follow quota's day) and today, this week from Monday, this month and
 * this year as UTC instants (the points periods).
 *
 * Every instant built from calendar fields goes through utcMs()
 * (src/domain/instants.ts): Date.UTC reads the years 0 to 99 as 1900 to
 * 1999, so a leaderboard date of 0026-11-28 became 1926-11-28.
 */
import { utcMs } from '../../domain/instants.js';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Wall-clock fields of an instant in a zone. */
function wallClock(at: number, timeZone: string) {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return { y: Number(parts.year), m: Number(parts.month), d: Number(parts.day), h: Number(parts.hour), min: Number(parts.minute), s: Number(parts.second) };
}

/** Offset (ms) of a zone at an instant: local wall time minus UTC. */
function offsetAt(at: number, timeZone: string): number {
  const w = wallClock(at, timeZone);
  return utcMs(w.y, w.m, w.d, w.h, w.min, w.s) - Math.floor(at / 1000) * 1000;
}

/** The instant of local midnight of a calendar date in a zone (months and days may overflow: utcMs normalizes). */
export function localMidnight(y: number, m: number, d: number, timeZone: string): Date {
  const guess = utcMs(y, m, d);
  let at = guess - offsetAt(guess, timeZone);
  // Once more: the offset at the result can differ from the guess's (a DST change that night).
  at = guess - offsetAt(at, timeZone);
  return new Date(at);
}

/** The calendar date (YYYY-MM-DD) of an instant in a zone. */
export function localDate(at: Date, timeZone: string): string {
  const { y, m, d } = wallClock(at.getTime(), timeZone);
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** A usable zone: the user's, or UTC when blank or unknown. */
export function zoneOrUtc(timeZone: string | null | undefined): string {
  if (!timeZone?.trim()) return 'UTC';
  try {
    formatter(timeZone);
    return timeZone;
  } catch {
    return 'UTC';
  }
}

export interface CalendarPeriod {
  key: 'today' | 'this_week' | 'this_month' | 'this_year';
  from: Date;
  to: Date;
}

/** The last periods computed per zone, by the local date they were computed for. */
const lastPeriods = new Map<string, { date: string; periods: readonly CalendarPeriod[] }>();

/**
 * Today, this week, this month and this year of an instant in a zone. They depend on the instant's local date
 * alone: the periods of a zone's current date are kept, so a request pays one wall-clock reading of the instant
 * instead of seventeen (a sixth of GET /api/users/me/points' CPU in a profile). Read-only (frozen).
 */
export function calendarPeriods(now: Date, timeZone: string): readonly CalendarPeriod[] {
  const { y, m, d } = wallClock(now.getTime(), timeZone);
  const date = `${y}-${m}-${d}`;
  const last = lastPeriods.get(timeZone);
  if (last?.date === date) return last.periods;
  const periods = Object.freeze(periodsOfDate(y, m, d, timeZone).map((p) => Object.freeze(p)));
  lastPeriods.set(timeZone, { date, periods });
  return periods;
}

function periodsOfDate(y: number, m: number, d: number, timeZone: string): CalendarPeriod[] {
  const weekday = new Date(utcMs(y, m, d)).getUTCDay(); // 0 Sunday
  const sinceMonday = (weekday + 6) % 7;
  return [
    { key: 'today', from: localMidnight(y, m, d, timeZone), to: localMidnight(y, m, d + 1, timeZone) },
    { key: 'this_week', from: localMidnight(y, m, d - sinceMonday, timeZone), to: localMidnight(y, m, d - sinceMonday + 7, timeZone) },
    { key: 'this_month', from: localMidnight(y, m, 1, timeZone), to: localMidnight(y, m + 1, 1, timeZone) },
    { key: 'this_year', from: localMidnight(y, 1, 1, timeZone), to: localMidnight(y + 1, 1, 1, timeZone) },
  ];
}

/** The calendar periods a leaderboard keeps, by their first day. */
export type LeaderboardPeriodKind = 'day' | 'week' | 'month';

const isoDate = (y: number, m: number, d: number): string => {
  const t = new Date(utcMs(y, m, d));
  return `${String(t.getUTCFullYear()).padStart(4, '0')}-${String(t.getUTCMonth() + 1).padStart(2, '0')}-${String(t.getUTCDate()).padStart(2, '0')}`;
};

/** First days (YYYY-MM-DD) of the day, week (from Monday) and month containing a calendar date. */
export function periodStartsOfDate(date: string): Record<LeaderboardPeriodKind, string> {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const weekday = new Date(utcMs(y, m, d)).getUTCDay(); // 0 Sunday
  return { day: isoDate(y, m, d), week: isoDate(y, m, d - ((weekday + 6) % 7)), month: isoDate(y, m, 1) };
}

/**
 * First days of the day, week and month an instant falls in, in a zone: the
 * same calendar periods as `calendarPeriods` (the points endpoint's), named
 * by their first day.
 */
export function periodStarts(at: Date, timeZone: string): Record<LeaderboardPeriodKind, string> {
  return periodStartsOfDate(localDate(at, timeZone));
}

/** The instants a period (by its first day) spans in a zone: [from, to). */
export function periodBounds(kind: LeaderboardPeriodKind, start: string, timeZone: string): { from: Date; to: Date } {
  const [y, m, d] = start.split('-').map(Number) as [number, number, number];
  const end = kind === 'day' ? [y, m, d + 1] : kind === 'week' ? [y, m, d + 7] : [y, m + 1, 1];
  return { from: localMidnight(y, m, d, timeZone), to: localMidnight(end[0]!, end[1]!, end[2]!, timeZone) };
}

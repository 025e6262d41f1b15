/**
 * Instants from calendar fields and from PostgreSQL's text, exact for every
 * year the contract takes (0001 to 9999). JavaScript's own readers are not:
 * Date.UTC and `new Date(y, m, ...)` read the years 0 to 99 as 1900 to 1999,
 * and `new Date(text)` reads PostgreSQL's `0026-11-28 12:00:00+00` as an
 * invalid date (and `0099-...` as 1999). Only ISO 8601 text with a four-digit
 * year is read exactly by Date.parse, so everything else goes through here.
 */

/**
 * The UTC instant (ms) of calendar fields, months from 1, any year as
 * written; fields out of range overflow into the next as Date.UTC's do (day
 * 0 is the last day of the month before).
 */
export function utcMs(y: number, m: number, d: number, h = 0, min = 0, s = 0, ms = 0): number {
  const t = new Date(0);
  t.setUTCFullYear(y, m - 1, d);
  t.setUTCHours(h, min, s, ms);
  return t.getTime();
}

// PostgreSQL's timestamptz output (`2026-11-28 12:00:00.123456+00`, offsets to the second) and the ISO form
// json_build_object gives (`2026-11-28T12:00:00.123456+00:00`).
const PG_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:(Z)|([+-])(\d{2})(?::?(\d{2}))?(?::?(\d{2}))?)?$/;

/** A timestamp as PostgreSQL writes it (a Date is taken as it is); throws for anything else (a BC year, infinity). */
export function parsePgTimestamp(value: string | Date): Date {
  if (value instanceof Date) return value;
  // The years 1000 to 9999 with an offset in hours or minutes (every instant of this service's time): Date's own
  // reader is exact there and three times faster; it gives NaN for an offset with seconds (an old local mean time).
  if (value.charCodeAt(0) !== 48) {
    const fast = new Date(value);
    if (!Number.isNaN(fast.getTime())) return fast;
  }
  const m = PG_TIMESTAMP.exec(value);
  if (!m) throw new Error(`not a timestamp of the years 0001 to 9999: ${JSON.stringify(value.slice(0, 40))}`);
  const [, y, mo, d, h, mi, s, frac = '', , sign, oh = '0', om = '0', os = '0'] = m;
  const ms = Math.floor(Number(`0.${frac || '0'}`) * 1000);
  const offset = sign ? (sign === '-' ? -1 : 1) * ((Number(oh) * 60 + Number(om)) * 60 + Number(os)) * 1000 : 0;
  return new Date(utcMs(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s), ms) - offset);
}

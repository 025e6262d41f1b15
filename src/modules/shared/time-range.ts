/** Time ranges of list filters: a pair of query parameters, from inclusive, to exclusive. */
import { badRequest } from '../../errors.js';

export interface TimeRange {
  from: Date;
  to: Date;
}

/**
 * The range given by the query parameters `<name>_from` and `<name>_to`:
 * both or neither (400 with `code` otherwise); undefined when neither is.
 */
export function parseTimeRange({ name, from, to, code }: { name: string; from: string | undefined; to: string | undefined; code: string }): TimeRange | undefined {
  if (from === undefined && to === undefined) return undefined;
  if (from === undefined || to === undefined) {
    throw badRequest(code, `${name}_from and ${name}_to must be given together (from inclusive, to exclusive)`);
  }
  // The contract's date-time format already refuses what a Date cannot hold (leap seconds).
  return { from: new Date(from), to: new Date(to) };
}

/** The UTC calendar day holding `now`: [00:00, next 00:00). */
export function utcDay(now: Date): TimeRange {
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  return { from, to: new Date(from.getTime() + 86_400_000) };
}

/** Time ranges of list filters: a pair of query parameters, from inclusive, to exclusive. */
import type { ErrorFactory } from '../../errors.js';
import { utcMs } from '../../domain/instants.js';

export interface TimeRange {
  from: Date;
  to: Date;
}

/** The error a module answers for a range given by half: its own code, the message `halfRangeMessage(name)` (shared.errors.ts). */
export type HalfRangeError = ErrorFactory<[name: string]>;

/**
 * The range given by the query parameters `<name>_from` and `<name>_to`:
 * both or neither (the caller's `error` otherwise); undefined when neither is.
 */
export function parseTimeRange({
  name,
  from,
  to,
  error,
}: {
  name: string;
  from: string | undefined;
  to: string | undefined;
  error: HalfRangeError;
}): TimeRange | undefined {
  if (from === undefined && to === undefined) return undefined;
  if (from === undefined || to === undefined) throw error(name);
  // The contract's date-time format already refuses what a Date cannot hold (leap seconds).
  return { from: new Date(from), to: new Date(to) };
}

/** The UTC calendar day holding `now`: [00:00, next 00:00). */
export function utcDay(now: Date): TimeRange {
  const from = new Date(utcMs(now.getUTCFullYear(), now.getUTCMonth() + 1, now.getUTCDate()));
  return { from, to: new Date(from.getTime() + 86_400_000) };
}

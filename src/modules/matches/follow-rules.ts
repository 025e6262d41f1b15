/** The rules of following matches that depend on nothing but their inputs. */
import { localDate, zoneOrUtc } from '../shared/calendar.js';
import type { MatchRow } from './matches.table.js';
import { hasStarted as startedStatus } from '../../domain/vocabulary.js';

/**
 * Statuses a match can no longer be followed in: `closed` (the interface's
 * rule) and `cancelled` (it will never be played, so a follow could only
 * waste a daily slot). Both answer 409.
 */
export { unfollowable } from '../../domain/vocabulary.js';

/** Statuses that mean play has begun (or is over). */

/**
 * Whether the match has started, for unfollowing: it has once `started_at`
 * is set or its status is live, break, ended or closed; a `scheduled` match
 * has also started once its kick-off time has passed (the feed may lag behind
 * the clock). `postponed` and `cancelled` matches have not started (unless
 * they had already, `started_at`): they were not played at their time.
 */
export function hasStarted(match: Pick<MatchRow, 'status' | 'scheduled' | 'startedAt'>, now: Date): boolean {
  if (match.startedAt) return true;
  if (startedStatus.has(match.status)) return true;
  return match.status === 'scheduled' && match.scheduled.getTime() <= now.getTime();
}

/**
 * The calendar day (YYYY-MM-DD) of `at` in the user's follow time zone; a
 * blank or null zone (and one the runtime does not know) means UTC.
 */
export const followQuotaDay = (at: Date, timeZone: string | null | undefined): string => localDate(at, zoneOrUtc(timeZone));

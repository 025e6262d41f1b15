/** Every error the leaderboards module answers with, beside match.not_found and the leagues': its status, its stable code (X-Error-Code) and its message. */
import { errorFactory } from '../../errors.js';

export const leaderboardErrors = {
  dateWithoutPeriod: errorFactory(
    400,
    'leaderboard.date_without_period',
    () => 'date chooses a day, week or month; all_time has none (leave date out, or ask for period day, week or month)',
  ),
  /** A parameter of another scope: `league` goes with scope=league, `match_id` with scope=match. */
  scopeMismatch: errorFactory(
    400,
    'leaderboard.scope_mismatch',
    (parameter: 'league' | 'match_id', scope: string) => `${parameter} goes with scope=${parameter === 'league' ? 'league' : 'match'}, not scope=${scope}`,
  ),
  scopeIncomplete: errorFactory(400, 'leaderboard.scope_incomplete', (scope: 'league' | 'match') =>
    scope === 'league' ? 'scope=league needs league (its id or slug)' : 'scope=match needs match_id',
  ),
  matchPeriod: errorFactory(400, 'leaderboard.match_period', () => 'a match board is all time only (period=all_time)'),
  /** A period whose bounds fall outside the years 0001 to 9999 (no date-time can say them). */
  dateOutOfRange: errorFactory(
    400,
    'leaderboard.date_out_of_range',
    (kind: string, date: string | undefined) => `the ${kind} of ${date} reaches outside the years 0001 to 9999; choose a date inside them`,
  ),
};

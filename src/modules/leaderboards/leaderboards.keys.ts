/**
 * Which boards there are and what names them: a board is a scope (the whole
 * game, a league, a match) and a period (all time, or the calendar day, week
 * or month starting on `periodStart` in the player's zone). `boardKeyText` is
 * the one text form of a key (maps, caches, Redis keys); `boardKeysFor` the
 * boards an answer counts on.
 */
import { periodStarts } from '../shared/calendar.js';

/** period_start of all-time boards. */
export const ALL_TIME_START = '1970-01-01';
/** scope_id of the whole game's boards. */
export const OVERALL_ID = '00000000-0000-0000-0000-000000000000';

export type Scope = 'overall' | 'league' | 'match';
export type Period = 'all_time' | 'day' | 'week' | 'month';

export interface BoardKey {
  scope: Scope;
  scopeId: string;
  period: Period;
  periodStart: string;
}

/** The one text form of a board's key: equal exactly when the keys are. */
export const boardKeyText = (k: BoardKey): string => `${k.scope}|${k.scopeId}|${k.period}|${k.periodStart}`;

/** The key a `boardKeyText` names. */
export function parseBoardKeyText(text: string): BoardKey {
  const [scope, scopeId, period, periodStart] = text.split('|') as [Scope, string, Period, string];
  return { scope, scopeId, period, periodStart };
}

/** Phases of a settlement on the boards: the match's board, the all-time boards, the period boards (then done). */
export const PHASE = { match: 1, allTime: 2, periods: 3, done: 4 } as const;
export type Phase = 1 | 2 | 3;

/** The phase in which a board takes a settlement. */
export const phaseOf = (k: BoardKey): Phase => (k.scope === 'match' ? PHASE.match : k.period === 'all_time' ? PHASE.allTime : PHASE.periods);

/** The boards an answer scored at `at` by a player of zone `timeZone` counts in (match, league and the whole game). */
export function boardKeysFor({ matchId, leagueId, at, timeZone }: { matchId: string; leagueId: string; at: Date; timeZone: string }): BoardKey[] {
  const starts = periodStarts(at, timeZone);
  const periodic = (scope: Scope, scopeId: string): BoardKey[] => [
    { scope, scopeId, period: 'all_time', periodStart: ALL_TIME_START },
    ...(['day', 'week', 'month'] as const).map((p) => ({ scope, scopeId, period: p, periodStart: starts[p] })),
  ];
  return [
    { scope: 'match', scopeId: matchId, period: 'all_time', periodStart: ALL_TIME_START },
    ...periodic('league', leagueId),
    ...periodic('overall', OVERALL_ID),
  ];
}

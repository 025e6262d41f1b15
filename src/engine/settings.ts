/**
 * Effective question settings and where each value comes from. Precedence,
 * lowest first: league, group, definition, match. The live engine and the
 * inheritance inspections use these same functions.
 */
import type { QuestionDefinitionRow } from '../modules/definitions/definitions.table.js';
import type { QuestionGroupRow } from '../modules/groups/groups.table.js';
import type { LeagueRow } from '../modules/leagues/leagues.table.js';
import type { MatchQuestionDefinitionRow } from '../modules/match-definitions/match-definitions.table.js';
import type { MatchRow } from '../modules/matches/matches.table.js';

export type SettingSource = 'league' | 'group' | 'definition' | 'match';

export interface Inherited<T> {
  value: T;
  source: SettingSource;
}

/** The highest-precedence candidate that is set (candidates are listed lowest first). */
function pick<T>(...candidates: [T | null | undefined, SettingSource][]): Inherited<T> {
  for (let i = candidates.length - 1; i > 0; i--) {
    const [value, source] = candidates[i]!;
    if (value !== null && value !== undefined) return { value, source };
  }
  return { value: candidates[0]![0] as T, source: candidates[0]![1] };
}

type MatchOverrides = Pick<
  MatchRow,
  | 'questionMaxCount'
  | 'questionMinIntervalSeconds'
  | 'questionPeriodDistribution'
  | 'questionPoints'
  | 'answerWindowSeconds'
  | 'questionProbability'
  | 'questionDefinitionAllowlist'
  | 'matchQuestionDefinitionAllowlist'
>;

export interface MatchLevelSettings {
  question_max_count: Inherited<number>;
  min_interval_seconds: Inherited<number>;
  period_distribution: Inherited<Record<string, number>>;
}

/** Settings that apply to a match as a whole: the cap, the default lane interval, the per-period distribution. */
export function matchLevelSettings(league: LeagueRow, match?: MatchOverrides | null): MatchLevelSettings {
  return {
    question_max_count: pick([league.defaultQuestionMaxCount, 'league'], [match?.questionMaxCount, 'match']),
    min_interval_seconds: pick([league.defaultQuestionMinIntervalSeconds, 'league'], [match?.questionMinIntervalSeconds, 'match']),
    period_distribution: pick([league.defaultQuestionPeriodDistribution, 'league'], [match?.questionPeriodDistribution, 'match']),
  };
}

export interface InGameSettings {
  included: Inherited<boolean>;
  answer_window_seconds: Inherited<number>;
  points: Inherited<number>;
  probability: Inherited<number>;
  /** Minimum interval between questions in the definition's lane. */
  min_interval_seconds: Inherited<number>;
}

/** Whether a definition is issued on a match, and why. Archived definitions never are. */
export function inclusion(
  def: { id: string; isActive: boolean; isArchived?: boolean },
  leagueAllowlist: string[] | null,
  matchAllowlist: string[] | null | undefined,
): Inherited<boolean> {
  if (def.isArchived) return { value: false, source: 'definition' };
  if (matchAllowlist) return { value: matchAllowlist.includes(def.id), source: 'match' };
  if (leagueAllowlist) return { value: leagueAllowlist.includes(def.id), source: 'league' };
  return { value: def.isActive, source: 'definition' };
}

export function inGameSettings(league: LeagueRow, group: QuestionGroupRow | null | undefined, def: QuestionDefinitionRow, match?: MatchOverrides | null): InGameSettings {
  return {
    included: inclusion(def, league.questionDefinitionAllowlist, match?.questionDefinitionAllowlist),
    answer_window_seconds: pick([league.defaultAnswerWindowSeconds, 'league'], [group?.answerWindowSeconds, 'group'], [def.answerWindowSeconds, 'definition'], [match?.answerWindowSeconds, 'match']),
    points: pick([league.defaultQuestionPoints, 'league'], [group?.points, 'group'], [def.points, 'definition'], [match?.questionPoints, 'match']),
    probability: pick([league.defaultQuestionProbability, 'league'], [group?.probability, 'group'], [def.probability, 'definition'], [match?.questionProbability, 'match']),
    min_interval_seconds: pick([league.defaultQuestionMinIntervalSeconds, 'league'], [group?.minIntervalSeconds, 'group'], [match?.questionMinIntervalSeconds, 'match']),
  };
}

export interface MatchQuestionSettings {
  included: Inherited<boolean>;
  points: Inherited<number>;
}

export function matchQuestionSettings(league: LeagueRow, group: Pick<QuestionGroupRow, 'points'> | null | undefined, def: MatchQuestionDefinitionRow, match?: MatchOverrides | null): MatchQuestionSettings {
  return {
    // An inactive (archived) Match question definition is never issued, whatever the allowlists say.
    included: inclusion({ id: def.id, isActive: def.isActive, isArchived: !def.isActive }, league.matchQuestionDefinitionAllowlist, match?.matchQuestionDefinitionAllowlist),
    points: pick([league.defaultQuestionPoints, 'league'], [group?.points, 'group'], [def.points, 'definition'], [match?.questionPoints, 'match']),
  };
}

/**
 * Effective question settings and where each value comes from. Precedence,
 * lowest first: league, group, definition, match. The live engine and the
 * inheritance inspections use these same functions.
 */
// The fields each level contributes; the modules' rows have them (checked where they are passed).
interface LeagueSettings {
  defaultQuestionMaxCount: number;
  defaultQuestionMinIntervalSeconds: number;
  defaultQuestionPeriodDistribution: Record<string, number>;
  defaultAnswerWindowSeconds: number;
  defaultMinAnswerSeconds: number;
  defaultQuestionPoints: number;
  defaultQuestionProbability: number;
  questionDefinitionAllowlist: string[] | null;
  matchQuestionDefinitionAllowlist: string[] | null;
}
interface GroupSettings {
  answerWindowSeconds: number | null;
  minAnswerSeconds: number | null;
  points: number | null;
  probability: number | null;
  minIntervalSeconds: number | null;
}
interface InGameDefinitionSettings {
  id: string;
  isActive: boolean;
  isArchived: boolean;
  answerWindowSeconds: number | null;
  minAnswerSeconds: number | null;
  points: number | null;
  probability: number | null;
}
interface MatchDefinitionSettings {
  id: string;
  isActive: boolean;
  points: number | null;
}
interface MatchOverrides {
  questionMaxCount: number | null;
  questionMinIntervalSeconds: number | null;
  questionPeriodDistribution: Record<string, number> | null;
  questionPoints: number | null;
  answerWindowSeconds: number | null;
  minAnswerSeconds: number | null;
  questionProbability: number | null;
  questionDefinitionAllowlist: string[] | null;
  matchQuestionDefinitionAllowlist: string[] | null;
}

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

export interface MatchLevelSettings {
  question_max_count: Inherited<number>;
  min_interval_seconds: Inherited<number>;
  period_distribution: Inherited<Record<string, number>>;
}

/** Settings that apply to a match as a whole: the cap, the default lane interval, the per-period distribution. */
export function matchLevelSettings(league: LeagueSettings, match?: MatchOverrides | null): MatchLevelSettings {
  return {
    question_max_count: pick([league.defaultQuestionMaxCount, 'league'], [match?.questionMaxCount, 'match']),
    min_interval_seconds: pick([league.defaultQuestionMinIntervalSeconds, 'league'], [match?.questionMinIntervalSeconds, 'match']),
    period_distribution: pick([league.defaultQuestionPeriodDistribution, 'league'], [match?.questionPeriodDistribution, 'match']),
  };
}

export interface InGameSettings {
  included: Inherited<boolean>;
  answer_window_seconds: Inherited<number>;
  /** The fairness rule: an outcome decided sooner than this after the question was asked (feed time) voids it. */
  min_answer_seconds: Inherited<number>;
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

export function inGameSettings(
  league: LeagueSettings,
  group: GroupSettings | null | undefined,
  def: InGameDefinitionSettings,
  match?: MatchOverrides | null,
): InGameSettings {
  return {
    included: inclusion(def, league.questionDefinitionAllowlist, match?.questionDefinitionAllowlist),
    answer_window_seconds: pick(
      [league.defaultAnswerWindowSeconds, 'league'],
      [group?.answerWindowSeconds, 'group'],
      [def.answerWindowSeconds, 'definition'],
      [match?.answerWindowSeconds, 'match'],
    ),
    min_answer_seconds: pick(
      [league.defaultMinAnswerSeconds, 'league'],
      [group?.minAnswerSeconds, 'group'],
      [def.minAnswerSeconds, 'definition'],
      [match?.minAnswerSeconds, 'match'],
    ),
    points: pick([league.defaultQuestionPoints, 'league'], [group?.points, 'group'], [def.points, 'definition'], [match?.questionPoints, 'match']),
    probability: pick(
      [league.defaultQuestionProbability, 'league'],
      [group?.probability, 'group'],
      [def.probability, 'definition'],
      [match?.questionProbability, 'match'],
    ),
    min_interval_seconds: pick(
      [league.defaultQuestionMinIntervalSeconds, 'league'],
      [group?.minIntervalSeconds, 'group'],
      [match?.questionMinIntervalSeconds, 'match'],
    ),
  };
}

export interface MatchQuestionSettings {
  included: Inherited<boolean>;
  points: Inherited<number>;
}

export function matchQuestionSettings(
  league: LeagueSettings,
  group: Pick<GroupSettings, 'points'> | null | undefined,
  def: MatchDefinitionSettings,
  match?: MatchOverrides | null,
): MatchQuestionSettings {
  return {
    // An inactive (archived) Match question definition is never issued, whatever the allowlists say.
    included: inclusion(
      { id: def.id, isActive: def.isActive, isArchived: !def.isActive },
      league.matchQuestionDefinitionAllowlist,
      match?.matchQuestionDefinitionAllowlist,
    ),
    points: pick([league.defaultQuestionPoints, 'league'], [group?.points, 'group'], [def.points, 'definition'], [match?.questionPoints, 'match']),
  };
}

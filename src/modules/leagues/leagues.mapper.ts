import type { components } from '../../../generated/api-types.js';
import { isoTimestamps } from '../shared/dto-fields.js';
import { periodsOfSport } from '../../domain/sports/league-registry.js';
import type { LeagueRow } from './leagues.table.js';

export type LeagueDto = components['schemas']['League'];

export function toLeagueDto(row: LeagueRow): LeagueDto {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    sport: row.sport as LeagueDto['sport'],
    periods: [...periodsOfSport(row.sport)],
    default_question_max_count: row.defaultQuestionMaxCount,
    default_question_min_interval_seconds: row.defaultQuestionMinIntervalSeconds,
    default_question_period_distribution: row.defaultQuestionPeriodDistribution,
    default_question_points: row.defaultQuestionPoints,
    default_answer_window_seconds: row.defaultAnswerWindowSeconds,
    default_min_answer_seconds: row.defaultMinAnswerSeconds,
    default_question_probability: row.defaultQuestionProbability,
    question_definition_allowlist: row.questionDefinitionAllowlist ?? null,
    match_question_definition_allowlist: row.matchQuestionDefinitionAllowlist ?? null,
    ...isoTimestamps(row),
  };
}

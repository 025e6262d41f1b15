import type { components } from '../../../generated/api-types.js';
import { pickColumns } from '../shared/csv-rows.js';
import { isoTimestamps, leagueScopedIds } from '../shared/dto-fields.js';
import type { QuestionGroupRow } from './groups.table.js';

export type QuestionGroupDto = components['schemas']['QuestionGroup'];

export function toQuestionGroupDto(row: QuestionGroupRow, leagueSlug: string): QuestionGroupDto {
  return {
    ...leagueScopedIds(row, leagueSlug),
    slug: row.slug,
    name: row.name,
    description: row.description,
    max_open_questions: row.maxOpenQuestions,
    question_max_count: row.questionMaxCount,
    min_interval_seconds: row.minIntervalSeconds,
    period_distribution: row.periodDistribution ?? null,
    answer_window_seconds: row.answerWindowSeconds,
    min_answer_seconds: row.minAnswerSeconds,
    points: row.points,
    probability: row.probability,
    ...isoTimestamps(row),
  };
}

/** Columns of the CSV export, in order: the group's live fields plus `league` (as in the contract's example). */
export const GROUP_EXPORT_COLUMNS = [
  'id',
  'league',
  'slug',
  'name',
  'description',
  'max_open_questions',
  'question_max_count',
  'min_interval_seconds',
  'period_distribution',
  'answer_window_seconds',
  'points',
  'probability',
  'min_answer_seconds',
] as const;

export type GroupExportRow = Record<(typeof GROUP_EXPORT_COLUMNS)[number], unknown>;

export function toGroupExportRow(row: QuestionGroupRow & { leagueSlug: string }): GroupExportRow {
  return pickColumns(toQuestionGroupDto(row, row.leagueSlug), GROUP_EXPORT_COLUMNS);
}

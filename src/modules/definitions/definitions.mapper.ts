import type { components } from '../../../generated/api-types.js';
import type { QuestionDefinitionSummaryRow } from './definitions.repository.js';
import type { QuestionDefinitionRow } from './definitions.table.js';

export type QuestionDefinitionDto = components['schemas']['QuestionDefinition'];
export type QuestionDefinitionSummaryDto = components['schemas']['QuestionDefinitionSummary'];

export function toQuestionDefinitionDto(row: QuestionDefinitionRow, leagueSlug: string): QuestionDefinitionDto {
  return {
    id: row.id,
    league: leagueSlug,
    league_id: row.leagueId,
    name: row.name,
    description: row.description,
    is_pivotal_moment: row.isPivotalMoment,
    is_active: row.isActive,
    is_archived: row.isArchived,
    group_id: row.groupId,
    trigger: row.trigger,
    question_text_template: row.questionTextTemplate,
    choices: row.choices,
    issuance_state_extract: row.issuanceStateExtract ?? null,
    store_state: row.storeState ?? null,
    resolution: row.resolution,
    answer_window_seconds: row.answerWindowSeconds,
    points: row.points,
    probability: row.probability,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function toQuestionDefinitionSummary(row: QuestionDefinitionSummaryRow, leagueSlug: string): QuestionDefinitionSummaryDto {
  return {
    id: row.id,
    league: leagueSlug,
    name: row.name,
    description: row.description,
    is_pivotal_moment: row.isPivotalMoment,
    is_active: row.isActive,
    is_archived: row.isArchived,
    group_id: row.groupId,
    trigger_event_type: row.triggerEventType,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

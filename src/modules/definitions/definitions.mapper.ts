import type { components } from '../../../generated/api-types.js';
import { isoTimestamps, leagueScopedIds } from '../shared/dto-fields.js';
import type { QuestionDefinitionSummaryRow } from './definitions.repository.js';
import type { QuestionDefinitionRow } from './definitions.table.js';

export type QuestionDefinitionDto = components['schemas']['QuestionDefinition'];
export type QuestionDefinitionSummaryDto = components['schemas']['QuestionDefinitionSummary'];

/** The fields a definition and its summary show alike, in the contract's order. */
function definitionHead(row: QuestionDefinitionSummaryRow) {
  return {
    name: row.name,
    description: row.description,
    is_pivotal_moment: row.isPivotalMoment,
    is_active: row.isActive,
    is_archived: row.isArchived,
    group_id: row.groupId,
  };
}

export function toQuestionDefinitionDto(row: QuestionDefinitionRow, leagueSlug: string): QuestionDefinitionDto {
  return {
    ...leagueScopedIds(row, leagueSlug),
    ...definitionHead(row),
    trigger: row.trigger,
    question_text_template: row.questionTextTemplate,
    choices: row.choices,
    issuance_state_extract: row.issuanceStateExtract ?? null,
    store_state: row.storeState ?? null,
    resolution: row.resolution,
    answer_window_seconds: row.answerWindowSeconds,
    points: row.points,
    probability: row.probability,
    ...isoTimestamps(row),
  };
}

export function toQuestionDefinitionSummary(row: QuestionDefinitionSummaryRow, leagueSlug: string): QuestionDefinitionSummaryDto {
  return {
    id: row.id,
    league: leagueSlug,
    ...definitionHead(row),
    trigger_event_type: row.triggerEventType,
    ...isoTimestamps(row),
  };
}

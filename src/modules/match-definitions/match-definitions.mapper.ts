import type { components } from '../../../generated/api-types.js';
import { isoTimestamps, leagueScopedIds } from '../shared/dto-fields.js';
import type { MatchQuestionDefinitionRow } from './match-definitions.table.js';

export type MatchQuestionDefinitionDto = components['schemas']['MatchQuestionDefinition'];

export function toMatchQuestionDefinitionDto(row: MatchQuestionDefinitionRow, leagueSlug: string): MatchQuestionDefinitionDto {
  return {
    ...leagueScopedIds(row, leagueSlug),
    name: row.name,
    description: row.description,
    is_pivotal_moment: row.isPivotalMoment,
    is_active: row.isActive,
    group_id: row.groupId,
    question_text_template: row.questionTextTemplate,
    choices: row.choices,
    issuance_state_extract: row.issuanceStateExtract ?? null,
    store_state: row.storeState ?? null,
    issue_lead_seconds: row.issueLeadSeconds,
    resolution: row.resolution,
    points: row.points,
    ...isoTimestamps(row),
  };
}

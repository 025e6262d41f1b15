import type { components } from '../../../generated/api-types.js';
import type { MatchQuestionDefinitionRow } from './match-definitions.table.js';

export type MatchQuestionDefinitionDto = components['schemas']['MatchQuestionDefinition'];

export function toMatchQuestionDefinitionDto(row: MatchQuestionDefinitionRow, leagueSlug: string): MatchQuestionDefinitionDto {
  return {
    id: row.id,
    league: leagueSlug,
    league_id: row.leagueId,
    name: row.name,
    description: row.description,
    is_active: row.isActive,
    question_text_template: row.questionTextTemplate,
    choices: row.choices,
    issue_lead_seconds: row.issueLeadSeconds,
    resolution: row.resolution,
    points: row.points,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * Match (pre-game) question definitions: issued a lead time before kick-off,
 * answerable until kick-off, resolved from the final result. `is_active` is
 * their only archive flag: archive sets it false, activate true. Issuances
 * refer to a definition.
 */
import type { components } from '../../../generated/api-types.js';
import { checkMatchSyntax } from '../../domain/question-render.js';
import { questionIssuances } from '../issuances/issuances.table.js';
import { COMMON_FIELDS as F, type DefinitionKind, type DefinitionOperations, type SpellsTheSchema } from './definition-kind.js';
import { matchDefinitionErrors } from './definitions.errors.js';
import { definitionMapper } from './definitions.mapper.js';
import { matchQuestionDefinitions, type MatchQuestionDefinitionRow } from './match-definitions.table.js';

type Schemas = components['schemas'];
type Dto = Schemas['MatchQuestionDefinition'];

const FIELDS = [
  F.name,
  F.description,
  F.is_pivotal_moment,
  F.is_active,
  F.group_id,
  F.question_text_template,
  F.choices,
  F.issuance_state_extract,
  F.store_state,
  { name: 'issue_lead_seconds', column: 'issueLeadSeconds', cell: 'number', empty: 'omit' },
  F.resolution,
  F.points,
] as const;

const _fieldsSpellTheSchema: SpellsTheSchema<Dto, (typeof FIELDS)[number]['name']> = true;

const OPERATIONS = {
  list: 'listMatchQuestionDefinitions',
  create: 'createMatchQuestionDefinition',
  get: 'getMatchQuestionDefinition',
  replace: 'replaceMatchQuestionDefinition',
  delete: 'deleteMatchQuestionDefinition',
  clone: 'cloneMatchQuestionDefinition',
  archive: 'archiveMatchQuestionDefinition',
  activate: 'activateMatchQuestionDefinition',
  export: 'exportMatchQuestionDefinitions',
  import: 'importMatchQuestionDefinitions',
} as const satisfies DefinitionOperations;

const toDto = definitionMapper<MatchQuestionDefinitionRow, Dto>(FIELDS);

export const MATCH: DefinitionKind<MatchQuestionDefinitionRow, Schemas['MatchQuestionDefinitionInput'], Dto, Dto, typeof OPERATIONS> = {
  id: 'match',
  noun: 'Match question definition',
  errors: matchDefinitionErrors,
  table: matchQuestionDefinitions,
  nameIndex: 'match_question_definitions_league_name_uq',
  fields: FIELDS,
  toDto,
  list: { toItem: toDto },
  archive: { column: 'isActive', archived: false },
  references: [{ table: questionIssuances, column: questionIssuances.matchQuestionDefinitionId, noun: 'question issuance' }],
  operations: OPERATIONS,
  exportFilename: 'match-question-definitions.csv',
  rules: ({ input }) => ({
    issueLeadSeconds: input.issue_lead_seconds ?? 86400,
    resolution: { correct_choice: input.resolution.correct_choice },
  }),
  checkSyntax: checkMatchSyntax,
};

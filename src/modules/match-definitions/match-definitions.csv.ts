/**
 * The CSV form of a Match question definition: the export's columns (the
 * live fields plus `league`, in the contract's order) and the way an import
 * row turns back into the JSON body of a create or replace.
 */
import type { CsvRowReader } from '../../csv/csv-import.js';
import { changedFields } from '../definitions/definition-import.js';
import { csvBodyBuilder, pickColumns } from '../shared/csv-rows.js';
import { toMatchQuestionDefinitionDto, type MatchQuestionDefinitionDto } from './match-definitions.mapper.js';
import type { MatchQuestionDefinitionRow } from './match-definitions.table.js';

export const MATCH_DEFINITION_CSV_COLUMNS = [
  'id',
  'league',
  'name',
  'description',
  'is_pivotal_moment',
  'is_active',
  'group_id',
  'question_text_template',
  'choices',
  'issuance_state_extract',
  'store_state',
  'issue_lead_seconds',
  'resolution',
  'points',
] as const;

/** Columns an import file must have: the row's identity and the fields a create requires. */
export const MATCH_DEFINITION_CSV_REQUIRED = ['id', 'league', 'name', 'question_text_template', 'choices', 'resolution'] as const;

export type MatchDefinitionCsvRow = Record<(typeof MATCH_DEFINITION_CSV_COLUMNS)[number], unknown>;

export function toMatchDefinitionCsvRow(row: MatchQuestionDefinitionRow & { leagueSlug: string }): MatchDefinitionCsvRow {
  return pickColumns(toMatchQuestionDefinitionDto(row, row.leagueSlug), MATCH_DEFINITION_CSV_COLUMNS);
}

type BodyField = Exclude<(typeof MATCH_DEFINITION_CSV_COLUMNS)[number], 'id' | 'league'>;

/**
 * The replace (or create) body of an import row. Empty cells: `description`,
 * `group_id`, the extract and store maps and `points` become null, the other
 * fields are left out (a default, or "required" for the schema to report). An empty `description` keeps a stored
 * empty text, so that an export of it imports back unchanged.
 */
export function matchDefinitionBodyFromCsv(r: CsvRowReader, current: MatchQuestionDefinitionRow | undefined): { body: Record<string, unknown> } {
  const stored: MatchQuestionDefinitionDto | undefined = current && toMatchQuestionDefinitionDto(current, '');
  const { body, put, text } = csvBodyBuilder<BodyField>(r, stored);
  put('name', text('name'), 'omit');
  put('description', text('description') ?? (stored?.description === '' ? '' : null), 'null');
  put('is_pivotal_moment', r.boolean('is_pivotal_moment'), 'omit');
  put('is_active', r.boolean('is_active'), 'omit');
  put('group_id', text('group_id')?.trim() || null, 'null');
  put('question_text_template', text('question_text_template'), 'omit');
  put('choices', r.json('choices'), 'omit');
  put('issuance_state_extract', r.json('issuance_state_extract'), 'null');
  put('store_state', r.json('store_state'), 'null');
  put('issue_lead_seconds', r.number('issue_lead_seconds'), 'omit');
  put('resolution', r.json('resolution'), 'omit');
  put('points', r.number('points'), 'null');
  return { body };
}

const FIELDS = {
  name: 'name',
  description: 'description',
  is_pivotal_moment: 'isPivotalMoment',
  is_active: 'isActive',
  group_id: 'groupId',
  question_text_template: 'questionTextTemplate',
  choices: 'choices',
  issuance_state_extract: 'issuanceStateExtract',
  store_state: 'storeState',
  issue_lead_seconds: 'issueLeadSeconds',
  resolution: 'resolution',
  points: 'points',
} as const;

/** Contract names of the fields an import row would change. */
export const matchDefinitionChangedFields = (
  current: MatchQuestionDefinitionRow,
  values: Pick<MatchQuestionDefinitionRow, (typeof FIELDS)[keyof typeof FIELDS]>,
) => changedFields(current, values, FIELDS);

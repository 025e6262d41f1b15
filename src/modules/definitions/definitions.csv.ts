/**
 * The CSV form of an in-game definition: the export's columns (the live
 * fields plus `league`, in the contract's order) and the way an import row
 * turns back into the JSON body of a create or replace.
 */
import type { CsvRowReader } from '../../csv/csv-import.js';
import { csvBodyBuilder, pickColumns } from '../shared/csv-rows.js';
import { changedFields } from './definition-import.js';
import type { components } from '../../../generated/api-types.js';
import { IN_GAME } from './in-game.kind.js';

type QuestionDefinitionDto = components['schemas']['QuestionDefinition'];
const toQuestionDefinitionDto = IN_GAME.toDto;
import type { QuestionDefinitionRow } from './definitions.table.js';

export const DEFINITION_CSV_COLUMNS = [
  'id',
  'league',
  'name',
  'description',
  'is_pivotal_moment',
  'is_active',
  'is_archived',
  'group_id',
  'trigger',
  'question_text_template',
  'choices',
  'issuance_state_extract',
  'store_state',
  'resolution',
  'answer_window_seconds',
  'points',
  'probability',
] as const;

/** Columns an import file must have: the row's identity and the fields a create requires. */
export const DEFINITION_CSV_REQUIRED = ['id', 'league', 'name', 'trigger', 'question_text_template', 'choices', 'resolution'] as const;

export type DefinitionCsvRow = Record<(typeof DEFINITION_CSV_COLUMNS)[number], unknown>;

export function toDefinitionCsvRow(row: QuestionDefinitionRow & { leagueSlug: string }): DefinitionCsvRow {
  return pickColumns(toQuestionDefinitionDto(row, row.leagueSlug), DEFINITION_CSV_COLUMNS);
}

type BodyField = Exclude<(typeof DEFINITION_CSV_COLUMNS)[number], 'id' | 'league' | 'is_archived'>;

/**
 * The replace (or create) body of an import row. Empty cells: `description`,
 * `group_id`, the extract and store maps and the numeric overrides become
 * null; the other fields are left out (a default, or "required" for the
 * schema to report). An empty `description` keeps a stored empty text, so
 * that an export of it imports back unchanged.
 */
export function definitionBodyFromCsv(
  r: CsvRowReader,
  current: QuestionDefinitionRow | undefined,
): { body: Record<string, unknown>; extra: { isArchived: boolean } } {
  const stored: QuestionDefinitionDto | undefined = current && toQuestionDefinitionDto(current, '');
  const { body, put, text } = csvBodyBuilder<BodyField>(r, stored);
  put('name', text('name'), 'omit');
  put('description', text('description') ?? (stored?.description === '' ? '' : null), 'null');
  put('is_pivotal_moment', r.boolean('is_pivotal_moment'), 'omit');
  put('is_active', r.boolean('is_active'), 'omit');
  put('group_id', text('group_id')?.trim() || null, 'null');
  put('trigger', r.json('trigger'), 'omit');
  put('question_text_template', text('question_text_template'), 'omit');
  put('choices', r.json('choices'), 'omit');
  put('issuance_state_extract', r.json('issuance_state_extract'), 'null');
  put('store_state', r.json('store_state'), 'null');
  put('resolution', r.json('resolution'), 'omit');
  put('answer_window_seconds', r.number('answer_window_seconds'), 'null');
  put('points', r.number('points'), 'null');
  put('probability', r.number('probability'), 'null');
  // Not part of the replace body (archive and activate set it); absent or empty keeps it.
  const archived = r.boolean('is_archived');
  return { body, extra: { isArchived: archived ?? current?.isArchived ?? false } };
}

const FIELDS = {
  name: 'name',
  description: 'description',
  is_pivotal_moment: 'isPivotalMoment',
  is_active: 'isActive',
  is_archived: 'isArchived',
  group_id: 'groupId',
  trigger: 'trigger',
  question_text_template: 'questionTextTemplate',
  choices: 'choices',
  issuance_state_extract: 'issuanceStateExtract',
  store_state: 'storeState',
  resolution: 'resolution',
  answer_window_seconds: 'answerWindowSeconds',
  points: 'points',
  probability: 'probability',
} as const;

/** Contract names of the fields an import row would change. */
export const definitionChangedFields = (current: QuestionDefinitionRow, values: Pick<QuestionDefinitionRow, (typeof FIELDS)[keyof typeof FIELDS]>) =>
  changedFields(current, values, FIELDS);

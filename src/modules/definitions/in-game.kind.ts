/**
 * In-game question definitions: issued while a match is live, when a feed
 * event matches the trigger, resolved by the first matching rule (or on
 * timeout). Event types must be the sport's (so the live engine never meets a
 * definition it cannot run). Archived is a flag of its own (`is_archived`,
 * apart from `is_active`), set by archive and activate only. Issuances and
 * sponsorship slots refer to a definition.
 */
import type { components } from '../../../generated/api-types.js';
import { checkInGameSyntax } from '../../domain/question-render.js';
import { questionIssuances } from '../issuances/issuances.table.js';
import { questionSponsorships } from '../sponsorships/sponsorships.table.js';
import { COMMON_FIELDS as F, type DefinitionKind, type DefinitionOperations, type SpellsTheSchema } from './definition-kind.js';
import { definitionErrors, inGameDefinitionErrors } from './definitions.errors.js';
import { definitionMapper, summaryMapper } from './definitions.mapper.js';
import { questionDefinitions, type QuestionDefinitionRow, type ResolutionSpec, type TriggerSpec } from './definitions.table.js';
import { isKnownEventType } from './event-types.js';

type Schemas = components['schemas'];
type Dto = Schemas['QuestionDefinition'];
type Summary = Schemas['QuestionDefinitionSummary'];

/** Archived: never issued, left out of the list unless asked; set by archive and activate, not by a replace. */
const ARCHIVED = { name: 'is_archived', column: 'isArchived', cell: 'boolean', empty: 'omit', apart: true } as const;

const FIELDS = [
  F.name,
  F.description,
  F.is_pivotal_moment,
  F.is_active,
  ARCHIVED,
  F.group_id,
  { name: 'trigger', column: 'trigger', cell: 'json', empty: 'omit', required: true },
  F.question_text_template,
  F.choices,
  F.issuance_state_extract,
  F.store_state,
  F.resolution,
  { name: 'answer_window_seconds', column: 'answerWindowSeconds', cell: 'number', empty: 'null' },
  F.points,
  { name: 'probability', column: 'probability', cell: 'number', empty: 'null' },
  { name: 'min_answer_seconds', column: 'minAnswerSeconds', cell: 'number', empty: 'null' },
] as const;

const SUMMARY_FIELDS = [
  F.name,
  F.description,
  F.is_pivotal_moment,
  F.is_active,
  ARCHIVED,
  F.group_id,
  { name: 'trigger_event_type', column: 'triggerEventType' },
] as const;

const _fieldsSpellTheSchema: SpellsTheSchema<Dto, (typeof FIELDS)[number]['name']> = true;
const _summarySpellsTheSchema: SpellsTheSchema<Summary, (typeof SUMMARY_FIELDS)[number]['name'], 'id' | 'league' | 'created_at' | 'updated_at'> = true;

function checkEventType(field: string, type: string, sport: string): void {
  if (!type.trim()) throw definitionErrors.invalidEventType(field);
  if (!isKnownEventType(sport, type)) throw definitionErrors.unknownEventType(field, type, sport);
}

const OPERATIONS = {
  list: 'listQuestionDefinitions',
  create: 'createQuestionDefinition',
  get: 'getQuestionDefinition',
  replace: 'replaceQuestionDefinition',
  delete: 'deleteQuestionDefinition',
  clone: 'cloneQuestionDefinition',
  archive: 'archiveQuestionDefinition',
  activate: 'activateQuestionDefinition',
  export: 'exportQuestionDefinitions',
  import: 'importQuestionDefinitions',
} as const satisfies DefinitionOperations;

export const IN_GAME: DefinitionKind<QuestionDefinitionRow, Schemas['QuestionDefinitionInput'], Dto, Summary, typeof OPERATIONS> = {
  id: 'in_game',
  noun: 'question definition',
  errors: inGameDefinitionErrors,
  table: questionDefinitions,
  nameIndex: 'question_definitions_league_name_uq',
  fields: FIELDS,
  toDto: definitionMapper<QuestionDefinitionRow, Dto>(FIELDS),
  list: {
    columns: ['id', 'leagueId', ...SUMMARY_FIELDS.map((f) => f.column), 'createdAt', 'updatedAt'],
    toItem: summaryMapper<QuestionDefinitionRow, Summary>(SUMMARY_FIELDS),
  },
  archive: { column: 'isArchived', archived: true },
  references: [
    { table: questionIssuances, column: questionIssuances.definitionId, noun: 'question issuance' },
    { table: questionSponsorships, column: questionSponsorships.targetDefinitionId, noun: 'sponsorship slot' },
  ],
  operations: OPERATIONS,

  exportFilename: 'question-definitions.csv',
  rules: ({ input, league, choiceIds }) => {
    checkEventType('trigger.event_type', input.trigger.event_type, league.sport);
    input.resolution.rules.forEach((r, i) => checkEventType(`resolution.rules[${i}].event_type`, r.event_type, league.sport));
    const timeout = input.resolution.timeout ?? null;
    if (timeout && timeout.correct_choice !== null && !choiceIds.has(timeout.correct_choice)) {
      throw definitionErrors.invalidTimeoutChoice(timeout.correct_choice, [...choiceIds]);
    }
    const trigger: TriggerSpec = { event_type: input.trigger.event_type, condition: input.trigger.condition ?? null };
    const resolution: ResolutionSpec = {
      rules: input.resolution.rules.map((r) => ({ event_type: r.event_type, condition: r.condition ?? null, correct_choice: r.correct_choice })),
      timeout,
    };
    return {
      trigger,
      triggerEventType: trigger.event_type,
      resolution,
      answerWindowSeconds: input.answer_window_seconds ?? null,
      minAnswerSeconds: input.min_answer_seconds ?? null,
      probability: input.probability ?? null,
    };
  },
  checkSyntax: checkInGameSyntax,
};

/**
 * The two kinds of question definition as the definition suites see them:
 * one suite runs over both (`describe.each(DEFINITION_KINDS)`), and what a
 * kind does its own way (its fields, its archive flag, what refers to it) is
 * declared here, beside the kind's paths, table and errors.
 */
import { inGameDefinitionErrors, matchDefinitionErrors, type KindErrors } from '../../src/modules/definitions/definitions.errors.js';
import { questionDefinitions } from '../../src/modules/definitions/definitions.table.js';
import { matchQuestionDefinitions } from '../../src/modules/definitions/match-definitions.table.js';
import { contractCsvColumns } from './contract.js';
import { createInLeague, inGameDefinitionInput, matchDefinitionInput } from './definitions.js';
import type { TestApp, TestUser } from './test-app.js';

type Fields = Record<string, unknown>;

export interface DefinitionKindFixture {
  id: 'in_game' | 'match';
  /** How test titles call it ('in-game', 'Match'). */
  name: string;
  /** How messages call one. */
  noun: string;
  base: string;
  /** The export's columns, in order: the header the contract's example shows. */
  columns: string[];
  exportFilename: string;
  // The table holds either kind's rows; the suites touch only the columns both have.
  table: any;
  errors: KindErrors;
  /** A valid create body, with overrides. */
  input(overrides?: Fields): Fields & { name: string };
  /** The league's allowlist of this kind (its field) and the match column of the same. */
  allowlist: {
    field: 'question_definition_allowlist' | 'match_question_definition_allowlist';
    column: 'questionDefinitionAllowlist' | 'matchQuestionDefinitionAllowlist';
  };
  /** What an issuance of one of its definitions points at it with. */
  issuanceOf(id: string): { definitionId: string } | { matchQuestionDefinitionId: string };
  /** Out of issuance, as the definition shows it after archive, and back in after activate (from `archiveFrom`). */
  archive: { from: Fields; archived: Fields; activated: Fields };
  /** In issuance, as a clone always is. */
  inIssuance: Fields;
  /** Whether the archive flag is apart from the replace body (survives a replace). */
  archiveSurvivesReplace: boolean;
  /** The body of a create with every optional field set (`group` a question group of the league), and what each shows when a replace omits it. */
  optional: { set(group: string): Fields; omitted: Fields };
  /** A create body's kind-specific fields with their optional parts left out, and how the definition shows them (filled in). */
  defaults: { body: Fields; shows: Fields };
  /** A change of a kind-specific required field in a replace, and how the definition shows it. */
  replaceChange: { body: Fields; shows: Fields };
  /** The templates and expressions a create refuses, each with the field its 400 names. */
  notCompiling: [field: string, overrides: Fields][];
  /** The list's item of a definition (in-game lists summaries). */
  listItem(dto: Fields): Fields;
}

/** A path of 900 steps (1,800 characters): too costly to compile in a request's thread (expressions.ts, compilesHere). */
const LONG_PATH = ['state', ...Array.from({ length: 899 }, () => 'a')].join('.');

export const IN_GAME_KIND: DefinitionKindFixture = {
  id: 'in_game',
  name: 'in-game',
  noun: 'question definition',
  base: '/api/question-definitions',
  columns: contractCsvColumns('/api/question-definitions/export'),
  exportFilename: 'question-definitions.csv',
  table: questionDefinitions,
  errors: inGameDefinitionErrors,
  input: (overrides = {}) => inGameDefinitionInput(overrides as never),
  allowlist: { field: 'question_definition_allowlist', column: 'questionDefinitionAllowlist' },
  issuanceOf: (definitionId) => ({ definitionId }),
  // is_archived is its own flag: archive and activate leave is_active alone.
  archive: { from: { is_active: false }, archived: { is_archived: true }, activated: { is_archived: false, is_active: false } },
  inIssuance: { is_archived: false },
  archiveSurvivesReplace: true,
  optional: {
    set: (group) => ({
      description: 'Has a description',
      is_pivotal_moment: true,
      is_active: false,
      group_id: group,
      issuance_state_extract: { minute: '$floor(event.clock_seconds / 60)' },
      store_state: { goals: '(state.goals ? state.goals : 0) + 1' },
      answer_window_seconds: 30,
      min_answer_seconds: 15,
      points: 20,
      probability: 0.5,
    }),
    omitted: {
      description: null,
      is_pivotal_moment: false,
      is_active: true,
      group_id: null,
      issuance_state_extract: null,
      store_state: null,
      answer_window_seconds: null,
      min_answer_seconds: null,
      points: null,
      probability: null,
    },
  },
  defaults: {
    body: { trigger: { event_type: 'score_change' }, resolution: { rules: [{ event_type: 'score_change', correct_choice: 'event.team' }] } },
    shows: {
      trigger: { event_type: 'score_change', condition: null },
      resolution: { rules: [{ event_type: 'score_change', condition: null, correct_choice: 'event.team' }], timeout: null },
    },
  },
  replaceChange: { body: { trigger: { event_type: 'shot' } }, shows: { trigger: { event_type: 'shot', condition: null } } },
  notCompiling: [
    ['trigger.condition', { trigger: { event_type: 'shot', condition: 'event.team = ' } }],
    ['question_text_template', { question_text_template: '{% if event.team %}open' }],
    [
      'choices[1].label_template',
      {
        choices: [
          { identifier: 'home', label_template: 'Home' },
          { identifier: 'none', label_template: '{{ match.home_team | no_such_filter }}' },
        ],
      },
    ],
    ['issuance_state_extract.minute', { issuance_state_extract: { ok: 'event.clock_seconds', minute: '$floor(' } }],
    ['store_state.goals', { store_state: { goals: '(state.goals' } }],
    // A path too long to compile in the request's thread: compiled in the sandbox, its error the same.
    ['store_state.deep', { store_state: { deep: `${LONG_PATH} +` } }],
    ['resolution.rules[0].condition', { resolution: { rules: [{ event_type: 'shot', condition: 'event.team ==== 1', correct_choice: '"yes"' }] } }],
    [
      'resolution.rules[1].correct_choice',
      {
        resolution: {
          rules: [
            { event_type: 'shot', correct_choice: '"home"' },
            { event_type: 'shot', correct_choice: '[1, 2' },
          ],
        },
      },
    ],
  ],
  listItem: (d) => ({
    id: d.id,
    league: d.league,
    name: d.name,
    description: d.description,
    is_pivotal_moment: d.is_pivotal_moment,
    is_active: d.is_active,
    is_archived: d.is_archived,
    group_id: d.group_id,
    trigger_event_type: (d.trigger as { event_type: string }).event_type,
    created_at: d.created_at,
    updated_at: d.updated_at,
  }),
};

export const MATCH_KIND: DefinitionKindFixture = {
  id: 'match',
  name: 'Match',
  noun: 'Match question definition',
  base: '/api/match-question-definitions',
  columns: contractCsvColumns('/api/match-question-definitions/export'),
  exportFilename: 'match-question-definitions.csv',
  table: matchQuestionDefinitions,
  errors: matchDefinitionErrors,
  input: (overrides = {}) => matchDefinitionInput(overrides as never),
  allowlist: { field: 'match_question_definition_allowlist', column: 'matchQuestionDefinitionAllowlist' },
  issuanceOf: (matchQuestionDefinitionId) => ({ matchQuestionDefinitionId }),
  // is_active is its only archive flag.
  archive: { from: {}, archived: { is_active: false }, activated: { is_active: true } },
  inIssuance: { is_active: true },
  archiveSurvivesReplace: false,
  optional: {
    set: (group) => ({
      description: 'd',
      points: 30,
      issue_lead_seconds: 3600,
      is_pivotal_moment: true,
      group_id: group,
      store_state: { n: '1' },
      issuance_state_extract: { v: 'match.venue' },
    }),
    omitted: {
      description: null,
      points: null,
      issue_lead_seconds: 86400,
      is_pivotal_moment: false,
      group_id: null,
      store_state: null,
      issuance_state_extract: null,
    },
  },
  defaults: { body: {}, shows: { resolution: { correct_choice: 'result.winner' } } },
  replaceChange: { body: { resolution: { correct_choice: '"draw"' } }, shows: { resolution: { correct_choice: '"draw"' } } },
  notCompiling: [
    ['question_text_template', { question_text_template: '{% for x in %}' }],
    [
      'choices[2].label_template',
      {
        choices: [
          { identifier: 'a', label_template: 'A' },
          { identifier: 'b', label_template: 'B' },
          { identifier: 'c', label_template: '{{ x | nope }}' },
        ],
      },
    ],
    ['resolution.correct_choice', { resolution: { correct_choice: 'result.winner = ' } }],
    ['store_state.n', { store_state: { n: '(state.n' } }],
    ['issuance_state_extract.v', { issuance_state_extract: { v: 'match.[' } }],
    ['issuance_state_extract.deep', { issuance_state_extract: { deep: `${LONG_PATH}[` } }],
  ],
  listItem: (d) => d,
};

export const DEFINITION_KINDS = [IN_GAME_KIND, MATCH_KIND];

/** The kinds as `describe.each` takes them: `describe.each(BY_KIND)('%s question definitions', (_name, kind) => ...)`. */
export const BY_KIND = DEFINITION_KINDS.map((kind) => [kind.name, kind] as const);

export const otherKind = (kind: DefinitionKindFixture) => (kind === IN_GAME_KIND ? MATCH_KIND : IN_GAME_KIND);

/** A definition of the kind created through the API from `kind.input(overrides)`: the 201 body, else throws. */
export const createDefinition = (app: TestApp, admin: TestUser, kind: DefinitionKindFixture, league: string, overrides: Fields = {}) =>
  createInLeague(app, admin, kind.base, league, kind.input(overrides));

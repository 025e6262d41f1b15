import { index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.js';
import { definitionHeadColumns, type ChoiceSpec, type MatchResolutionSpec } from './definitions.table.js';
import { questionGroups } from '../groups/groups.table.js';
import { leagueScopedColumns, uniqueNameInLeague } from '../shared/league-columns.js';

/** Match (pre-game) question definitions. */
export const matchQuestionDefinitions = pgTable(
  'match_question_definitions',
  {
    ...leagueScopedColumns(),
    ...definitionHeadColumns(),
    groupId: uuid('group_id').references(() => questionGroups.id, { onDelete: 'restrict' }),
    questionTextTemplate: text('question_text_template').notNull(),
    choices: jsonb('choices').$type<ChoiceSpec[]>().notNull(),
    issuanceStateExtract: jsonb('issuance_state_extract').$type<Record<string, string>>(),
    storeState: jsonb('store_state').$type<Record<string, string>>(),
    issueLeadSeconds: integer('issue_lead_seconds').notNull().default(86400),
    resolution: jsonb('resolution').$type<MatchResolutionSpec>().notNull(),
    points: integer('points'),
    ...timestamps(),
  },
  (t) => [uniqueNameInLeague('match_question_definitions_league_name_uq', t), index('match_question_definitions_group_idx').on(t.groupId)],
);

export type MatchQuestionDefinitionRow = typeof matchQuestionDefinitions.$inferSelect;

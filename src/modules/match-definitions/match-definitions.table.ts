import { boolean, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.js';
import type { ChoiceSpec } from '../definitions/definitions.table.js';
import { leagueScopedColumns, uniqueNameInLeague } from '../shared/league-columns.js';

/** Match (pre-game) question definitions. */
export const matchQuestionDefinitions = pgTable(
  'match_question_definitions',
  {
    ...leagueScopedColumns(),
    name: text('name').notNull(),
    description: text('description'),
    isActive: boolean('is_active').notNull().default(true),
    questionTextTemplate: text('question_text_template').notNull(),
    choices: jsonb('choices').$type<ChoiceSpec[]>().notNull(),
    issueLeadSeconds: integer('issue_lead_seconds').notNull().default(86400),
    resolution: jsonb('resolution').$type<{ correct_choice: string }>().notNull(),
    points: integer('points'),
    ...timestamps(),
  },
  (t) => [uniqueNameInLeague('match_question_definitions_league_name_uq', t)],
);

export type MatchQuestionDefinitionRow = typeof matchQuestionDefinitions.$inferSelect;

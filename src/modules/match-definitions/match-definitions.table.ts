import { sql } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { idColumn, timestamps } from '../../db/columns.js';
import type { ChoiceSpec } from '../definitions/definitions.table.js';
import { leagues } from '../leagues/leagues.table.js';

/** Match (pre-game) question definitions. */
export const matchQuestionDefinitions = pgTable(
  'match_question_definitions',
  {
    id: idColumn(),
    leagueId: uuid('league_id')
      .notNull()
      .references(() => leagues.id, { onDelete: 'cascade' }),
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
  (t) => [uniqueIndex('match_question_definitions_league_name_uq').on(t.leagueId, sql`lower(${t.name})`)],
);

export type MatchQuestionDefinitionRow = typeof matchQuestionDefinitions.$inferSelect;

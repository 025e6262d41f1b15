import { doublePrecision, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { idColumn, timestamps } from '../../db/columns.js';

export const leagues = pgTable(
  'leagues',
  {
    id: idColumn(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    sport: text('sport').notNull(),
    defaultQuestionMaxCount: integer('default_question_max_count').notNull(),
    defaultQuestionMinIntervalSeconds: integer('default_question_min_interval_seconds').notNull(),
    defaultQuestionPeriodDistribution: jsonb('default_question_period_distribution').$type<Record<string, number>>().notNull(),
    defaultQuestionPoints: integer('default_question_points').notNull(),
    defaultAnswerWindowSeconds: integer('default_answer_window_seconds').notNull(),
    /** The fairness rule: an in-game question decided sooner than this after it was asked (feed time) is voided. */
    defaultMinAnswerSeconds: integer('default_min_answer_seconds').notNull().default(10),
    defaultQuestionProbability: doublePrecision('default_question_probability').notNull().default(1),
    questionDefinitionAllowlist: uuid('question_definition_allowlist').array(),
    matchQuestionDefinitionAllowlist: uuid('match_question_definition_allowlist').array(),
    ...timestamps(),
  },
  (t) => [uniqueIndex('leagues_slug_uq').on(t.slug)],
);

export type LeagueRow = typeof leagues.$inferSelect;

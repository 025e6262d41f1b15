import { doublePrecision, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.js';
import { leagueScopedColumns } from '../shared/league-columns.js';

/** League-scoped issuance group: a concurrency lane with its own optional overrides. */
export const questionGroups = pgTable(
  'question_groups',
  {
    ...leagueScopedColumns(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    maxOpenQuestions: integer('max_open_questions').notNull().default(1),
    questionMaxCount: integer('question_max_count'),
    minIntervalSeconds: integer('min_interval_seconds'),
    periodDistribution: jsonb('period_distribution').$type<Record<string, number>>(),
    answerWindowSeconds: integer('answer_window_seconds'),
    minAnswerSeconds: integer('min_answer_seconds'),
    points: integer('points'),
    probability: doublePrecision('probability'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('question_groups_league_slug_uq').on(t.leagueId, t.slug)],
);

export type QuestionGroupRow = typeof questionGroups.$inferSelect;

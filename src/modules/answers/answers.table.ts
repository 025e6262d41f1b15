import { index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { idColumn, timestamps, tstz } from '../../db/columns.js';
import { questionIssuances } from '../issuances/issuances.table.js';
import { matches } from '../matches/matches.table.js';
import { users } from '../users/users.table.js';
import type { ScoredOutcome } from '../../domain/vocabulary.js';

/**
 * A player's answer to one issuance (one per user and issuance). Scored when
 * the issuance settles: the outcome and points are written in the settling
 * transaction, with the time they count toward (scored_at).
 */
export const questionAnswers = pgTable(
  'question_answers',
  {
    id: idColumn(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    questionIssuanceId: uuid('question_issuance_id')
      .notNull()
      .references(() => questionIssuances.id, { onDelete: 'cascade' }),
    matchId: uuid('match_id')
      .notNull()
      .references(() => matches.id, { onDelete: 'cascade' }),
    selectedAnswerIdentifier: text('selected_answer_identifier').notNull(),
    /** correct | incorrect | void; null while pending. */
    outcome: text('outcome').$type<ScoredOutcome>(),
    pointsAwarded: integer('points_awarded').notNull().default(0),
    scoredAt: tstz('scored_at'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('question_answers_user_issuance_uq').on(t.userId, t.questionIssuanceId),
    // An issuance's answers, in user order: scoring, and the leaderboards' applier taking them a chunk at a time.
    index('question_answers_issuance_user_idx').on(t.questionIssuanceId, t.userId),
    index('question_answers_user_created_idx').on(t.userId, t.createdAt),
    index('question_answers_user_scored_idx').on(t.userId, t.scoredAt),
    // The answer history's order (newest answer first).
    index('question_answers_user_updated_idx').on(t.userId, t.updatedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // Deleting a (test) match cascades here.
    index('question_answers_match_idx').on(t.matchId),
  ],
);

export type QuestionAnswerRow = typeof questionAnswers.$inferSelect;

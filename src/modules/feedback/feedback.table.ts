import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { idColumn, tstz } from '../../db/columns.js';
import { questionAnswers } from '../answers/answers.table.js';
import { questionIssuances } from '../issuances/issuances.table.js';
import { matches } from '../matches/matches.table.js';
import { users } from '../users/users.table.js';

/** Feedback a player files on one of their resolved answers. */
export const userFeedback = pgTable(
  'user_feedback',
  {
    id: idColumn(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subjectType: text('subject_type').notNull(),
    subjectId: uuid('subject_id')
      .notNull()
      .references(() => questionAnswers.id, { onDelete: 'cascade' }),
    topic: text('topic').notNull(),
    description: text('description'),
    matchId: uuid('match_id')
      .notNull()
      .references(() => matches.id, { onDelete: 'cascade' }),
    questionIssuanceId: uuid('question_issuance_id')
      .notNull()
      .references(() => questionIssuances.id, { onDelete: 'cascade' }),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [
    // One row per answer and topic, whoever writes: the service's row lock orders requests, this index guarantees it.
    uniqueIndex('user_feedback_subject_topic_uq').on(t.subjectId, t.topic),
    index('user_feedback_user_created_idx').on(t.userId, t.createdAt),
    index('user_feedback_created_idx').on(t.createdAt),
    index('user_feedback_match_idx').on(t.matchId),
    index('user_feedback_issuance_idx').on(t.questionIssuanceId),
  ],
);

export type UserFeedbackRow = typeof userFeedback.$inferSelect;

import { index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { idColumn, tstz } from '../../db/columns.js';
import { questionDefinitions } from '../definitions/definitions.table.js';
import { matches } from '../matches/matches.table.js';

/** A blocked issuance attempt: the trigger matched, a gate closed. */
export const questionIssuanceDenials = pgTable(
  'question_issuance_denials',
  {
    id: idColumn(),
    matchId: uuid('match_id')
      .notNull()
      .references(() => matches.id, { onDelete: 'cascade' }),
    listenerId: uuid('listener_id'),
    definitionId: uuid('definition_id').references(() => questionDefinitions.id, { onDelete: 'set null' }),
    definitionName: text('definition_name').notNull(),
    failedStep: text('failed_step').notNull(),
    detail: text('detail').notNull(),
    triggerEventId: text('trigger_event_id').notNull(),
    triggerEventType: text('trigger_event_type').notNull(),
    period: text('period'),
    clockSeconds: integer('clock_seconds'),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [
    // A replayed or taken-over feed records each blocked attempt once.
    uniqueIndex('question_issuance_denials_attempt_uq').on(t.matchId, t.definitionId, t.triggerEventId),
    index('question_issuance_denials_match_idx').on(t.matchId, t.createdAt),
    // Deleting a definition sets its denials' definition_id to null.
    index('question_issuance_denials_definition_idx').on(t.definitionId),
  ],
);

export type IssuanceDenialRow = typeof questionIssuanceDenials.$inferSelect;

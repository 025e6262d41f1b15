import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { idColumn, timestamps, tstz } from '../../db/columns.js';
import { brands } from '../brands/brands.table.js';
import { questionDefinitions, type ChoiceSpec, type MatchResolutionSpec, type ResolutionSpec } from '../definitions/definitions.table.js';
import { questionGroups } from '../groups/groups.table.js';
import { matchQuestionDefinitions } from '../definitions/match-definitions.table.js';
import { matches } from '../matches/matches.table.js';
import type { IssuanceStatus, QuestionKind } from '../../domain/vocabulary.js';
import type { FeedEvent } from '../../domain/sports/events.js';

/** The definition's resolution as it was when the question was issued: an in-game question's rules, or a Match question's choice. */
export type IssuanceResolution = ResolutionSpec | MatchResolutionSpec;
export interface BrandSnapshot {
  id: string;
  name: string;
  primary_color: string;
  secondary_color: string | null;
  logo_url: string | null;
}

/**
 * A question issued on a match: a snapshot of the definition at issue time
 * (text, choices, points, resolution rules), so editing the definition later
 * never rewrites it.
 */
export const questionIssuances = pgTable(
  'question_issuances',
  {
    id: idColumn(),
    matchId: uuid('match_id')
      .notNull()
      .references(() => matches.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<QuestionKind>().notNull(),
    definitionId: uuid('definition_id').references(() => questionDefinitions.id, { onDelete: 'restrict' }),
    matchQuestionDefinitionId: uuid('match_question_definition_id').references(() => matchQuestionDefinitions.id, { onDelete: 'restrict' }),
    definitionName: text('definition_name').notNull(),
    groupId: uuid('group_id').references(() => questionGroups.id, { onDelete: 'set null' }),
    /** Lane key: the group id, or 'default'. */
    lane: text('lane').notNull().default('default'),
    questionNumber: integer('question_number'),
    isPivotalMoment: boolean('is_pivotal_moment').notNull().default(false),
    status: text('status').$type<IssuanceStatus>().notNull().default('open'),
    questionText: text('question_text').notNull(),
    choices: jsonb('choices').$type<{ identifier: string; label: string }[]>().notNull(),
    choiceTemplates: jsonb('choice_templates').$type<ChoiceSpec[]>(),
    /** Snapshot of issuance_state_extract. */
    state: jsonb('state').$type<Record<string, unknown>>().notNull().default({}),
    /** Resolution rules in force at issue. */
    resolution: jsonb('resolution').$type<IssuanceResolution>().notNull(),
    triggerEventId: text('trigger_event_id'),
    triggerEvent: jsonb('trigger_event').$type<FeedEvent>(),
    triggerSeq: integer('trigger_seq'),
    period: text('period'),
    clockSeconds: integer('clock_seconds'),
    issuedAt: tstz('issued_at').notNull().defaultNow(),
    closesAt: tstz('closes_at').notNull(),
    resolvedAt: tstz('resolved_at'),
    resolvedSeq: integer('resolved_seq'),
    resolutionEventId: text('resolution_event_id'),
    /**
     * This settlement's number among its match's settlements (1, 2, ... in
     * commit order, no gaps): the cursor a live client resumes from. Set at
     * COMMIT by the database (drizzle/0019_resolution_seq.sql), null while
     * unsettled.
     */
    resolutionSeq: integer('resolution_seq'),
    correctAnswerIdentifier: text('correct_answer_identifier'),
    points: integer('points').notNull(),
    answerWindowSeconds: integer('answer_window_seconds'),
    /** The minimum answer time in force when it was issued: an outcome decided sooner (feed time) voids it. */
    minAnswerSeconds: integer('min_answer_seconds').notNull().default(0),
    sponsorBrandId: uuid('sponsor_brand_id').references(() => brands.id, { onDelete: 'set null' }),
    sponsorBrand: jsonb('sponsor_brand').$type<BrandSnapshot>(),
    matchSponsorBrand: jsonb('match_sponsor_brand').$type<BrandSnapshot>(),
    listenerId: uuid('listener_id'),
    /** Answers per choice identifier, stored when the question settles (its answers are final then); null before. */
    crowd: jsonb('crowd').$type<Record<string, number>>(),
    decisionTrace: jsonb('decision_trace').$type<{ step: string; passed: boolean; detail: string }[]>().notNull().default([]),
    ...timestamps(),
  },
  (t) => [
    // A replay or a restarted listener never issues twice for the same trigger.
    uniqueIndex('question_issuances_trigger_uq').on(t.matchId, t.definitionId, t.triggerEventId),
    uniqueIndex('question_issuances_match_definition_uq').on(t.matchId, t.matchQuestionDefinitionId),
    uniqueIndex('question_issuances_number_uq').on(t.matchId, t.questionNumber),
    index('question_issuances_match_issued_idx').on(t.matchId, t.issuedAt),
    // A match's settlements in order: the reads after a cursor, and each number once.
    uniqueIndex('question_issuances_resolution_seq_uq').on(t.matchId, t.resolutionSeq),
    index('question_issuances_definition_idx').on(t.definitionId),
    index('question_issuances_match_definition_idx').on(t.matchQuestionDefinitionId),
    index('question_issuances_open_idx')
      .on(t.status, t.closesAt)
      .where(sql`${t.status} in ('open', 'locked')`),
    check(
      'question_issuances_kind_ck',
      sql`(${t.kind} = 'in_game' and ${t.matchQuestionDefinitionId} is null) or (${t.kind} = 'match' and ${t.definitionId} is null)`,
    ),
  ],
);

export type QuestionIssuanceRow = typeof questionIssuances.$inferSelect;

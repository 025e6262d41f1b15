import { boolean, doublePrecision, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.js';
import { questionGroups } from '../groups/groups.table.js';
import { leagueScopedColumns, uniqueNameInLeague } from '../shared/league-columns.js';

export interface TriggerSpec {
  event_type: string;
  condition?: string | null;
}
export interface ChoiceSpec {
  identifier: string;
  label_template: string;
}
/** A Match question's resolution: the choice its result picks (set when the result is in). */
export interface MatchResolutionSpec {
  correct_choice: string;
}
/** An in-game question's resolution: the rules deciding its outcome, and what a timeout gives. */
export interface ResolutionSpec {
  rules: { event_type: string; condition?: string | null; correct_choice: string }[];
  timeout?: { after_seconds: number; correct_choice: string | null } | null;
}

/** The first columns of both definition tables. */
export const definitionHeadColumns = () => ({
  name: text('name').notNull(),
  description: text('description'),
  isPivotalMoment: boolean('is_pivotal_moment').notNull().default(false),
  isActive: boolean('is_active').notNull().default(true),
});

/** In-game question definitions (issued while a match is live). */
export const questionDefinitions = pgTable(
  'question_definitions',
  {
    ...leagueScopedColumns(),
    ...definitionHeadColumns(),
    isArchived: boolean('is_archived').notNull().default(false),
    groupId: uuid('group_id').references(() => questionGroups.id, { onDelete: 'restrict' }),
    trigger: jsonb('trigger').$type<TriggerSpec>().notNull(),
    /** trigger.event_type, kept beside the JSON for the engine's lookup by event type. */
    triggerEventType: text('trigger_event_type').notNull(),
    questionTextTemplate: text('question_text_template').notNull(),
    choices: jsonb('choices').$type<ChoiceSpec[]>().notNull(),
    issuanceStateExtract: jsonb('issuance_state_extract').$type<Record<string, string>>(),
    storeState: jsonb('store_state').$type<Record<string, string>>(),
    resolution: jsonb('resolution').$type<ResolutionSpec>().notNull(),
    answerWindowSeconds: integer('answer_window_seconds'),
    minAnswerSeconds: integer('min_answer_seconds'),
    points: integer('points'),
    probability: doublePrecision('probability'),
    ...timestamps(),
  },
  (t) => [
    uniqueNameInLeague('question_definitions_league_name_uq', t),
    index('question_definitions_group_idx').on(t.groupId),
    index('question_definitions_league_trigger_idx').on(t.leagueId, t.triggerEventType),
  ],
);

export type QuestionDefinitionRow = typeof questionDefinitions.$inferSelect;

import { sql } from 'drizzle-orm';
import { boolean, date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { idColumn, timestamps, tstz } from '../../db/columns.js';
import { brands } from '../brands/brands.table.js';
import { leagues } from '../leagues/leagues.table.js';
import { users } from '../users/users.table.js';
import type { MatchStatus } from '../../domain/vocabulary.js';

export const matches = pgTable(
  'matches',
  {
    id: idColumn(),
    /** The data provider's match id. */
    srId: text('sr_id').notNull(),
    leagueId: uuid('league_id')
      .notNull()
      .references(() => leagues.id),
    homeTeam: text('home_team').notNull(),
    awayTeam: text('away_team').notNull(),
    scheduled: tstz('scheduled').notNull(),
    status: text('status').$type<MatchStatus>().notNull().default('scheduled'),
    period: text('period'),
    clockSeconds: integer('clock_seconds'),
    homeScore: integer('home_score'),
    awayScore: integer('away_score'),
    venue: text('venue'),
    /** The provider's live NDJSON push feed of this match (auto-dispatched listeners read it). */
    feedUrl: text('feed_url'),
    /** An operator set (or detached, null) the feed: no template, at sync or at dispatch, replaces their choice. */
    feedUrlByOperator: boolean('feed_url_by_operator').notNull().default(false),
    isTest: boolean('is_test').notNull().default(false),
    clonedFromMatchId: uuid('cloned_from_match_id'),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    listenerEventsArchived: boolean('listener_events_archived').notNull().default(false),
    autoDispatchListener: boolean('auto_dispatch_listener').notNull().default(true),
    questionMaxCount: integer('question_max_count'),
    questionMinIntervalSeconds: integer('question_min_interval_seconds'),
    questionPeriodDistribution: jsonb('question_period_distribution').$type<Record<string, number>>(),
    questionPoints: integer('question_points'),
    answerWindowSeconds: integer('answer_window_seconds'),
    minAnswerSeconds: integer('min_answer_seconds'),
    questionProbability: doublePrecision('question_probability'),
    questionDefinitionAllowlist: uuid('question_definition_allowlist').array(),
    matchQuestionDefinitionAllowlist: uuid('match_question_definition_allowlist').array(),
    sponsorBrandId: uuid('sponsor_brand_id').references(() => brands.id, { onDelete: 'set null' }),
    /** The match's state store before kick-off: what the `store_state` of its Match questions wrote. Its listener starts from it. */
    stateStore: jsonb('state_store').$type<Record<string, unknown>>().notNull().default({}),
    /** Final result once closed (scores, goals), for Match question resolution. */
    result: jsonb('result').$type<Record<string, unknown>>(),
    startedAt: tstz('started_at'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('matches_sr_id_uq').on(t.srId),
    index('matches_scheduled_idx').on(t.scheduled),
    index('matches_league_scheduled_idx').on(t.leagueId, t.scheduled),
  ],
);

export const matchFollows = pgTable(
  'match_follows',
  {
    id: idColumn(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    matchId: uuid('match_id')
      .notNull()
      .references(() => matches.id, { onDelete: 'cascade' }),
    /** false: a spent row (unfollowed after the match started). */
    following: boolean('following').notNull().default(true),
    countsTowardQuota: boolean('counts_toward_quota').notNull().default(false),
    quotaDay: date('quota_day', { mode: 'string' }),
    followedAt: tstz('followed_at').notNull().defaultNow(),
    unfollowedAt: tstz('unfollowed_at'),
  },
  (t) => [
    uniqueIndex('match_follows_user_match_uq').on(t.userId, t.matchId),
    index('match_follows_match_following_idx')
      .on(t.matchId)
      .where(sql`${t.following}`),
  ],
);

/**
 * Daily follow quota: one counter row per user and day (in the user's time
 * zone), incremented only while below the quota, so parallel follows can
 * never exceed it.
 */
export const followQuotaDays = pgTable(
  'follow_quota_days',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    used: integer('used').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);

export type MatchRow = typeof matches.$inferSelect;
export type MatchFollowRow = typeof matchFollows.$inferSelect;

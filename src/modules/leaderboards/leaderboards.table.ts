import { sql } from 'drizzle-orm';
import { bigint, boolean, date, index, integer, pgTable, primaryKey, smallint, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tstz } from '../../db/columns.js';
import { questionIssuances } from '../issuances/issuances.table.js';

/**
 * One leaderboard: a scope (the whole game, a league or a match) and a
 * period (all time, or the calendar day, week or month starting on
 * `period_start`). Created when the first answer that counts in it is scored.
 */
export const leaderboards = pgTable(
  'leaderboards',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** overall | league | match */
    scope: text('scope').notNull(),
    /** The league's or the match's id; the nil UUID for overall. */
    scopeId: uuid('scope_id').notNull(),
    /** all_time | day | week | month */
    period: text('period').notNull(),
    /** First day of the period; 1970-01-01 for all_time. */
    periodStart: date('period_start', { mode: 'string' }).notNull(),
    createdAt: tstz('created_at').notNull().defaultNow(),
    /**
     * Moves on with every committed change of the board's rows (the applier's chunks, a user's rebuild, the
     * retention): a reader caches what it computed of a board (its first page, its point counts) under this.
     */
    version: bigint('version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [uniqueIndex('leaderboards_key_uq').on(t.scope, t.scopeId, t.period, t.periodStart)],
);

/**
 * A player's row on a leaderboard, maintained by the applier of
 * `leaderboard_settlements` (stored with fillfactor 80: a voided question, or an incorrect answer
 * of a player on no streak, changes no indexed column, and room on the page keeps that update off the indexes). The rank index orders a board as ranked (points, correct
 * answers, who reached them first, user id), so the top of a board is an
 * index range and a rank is counted from it and from the point counts below.
 * The streak indexes order it as the streak boards rank (`rank_by`: the streak, then the rank order), so their top
 * is an index range and a rank a count of index ranges.
 */
export const leaderboardScores = pgTable(
  'leaderboard_scores',
  {
    // No foreign keys: each would cost a lookup per row a settlement inserts (measured: a fifth of the
    // statement). Users are never deleted (deactivation keeps the row); boards go with their rows only.
    leaderboardId: integer('leaderboard_id').notNull(),
    userId: uuid('user_id').notNull(),
    points: integer('points').notNull(),
    correct: integer('correct').notNull(),
    /** Settled answers: resolved or voided. */
    answered: integer('answered').notNull(),
    currentStreak: integer('current_streak').notNull(),
    bestStreak: integer('best_streak').notNull(),
    /** When the player reached their points and correct count (their last correct answer; their first answer while none). */
    reachedAt: tstz('reached_at').notNull(),
  },
  (t) => [
    // User first: one index serves both a row by its key and a user's rows (their rebuild, their positions), so a new
    // or moved row costs two index entries, not three.
    primaryKey({ columns: [t.userId, t.leaderboardId] }),
    index('leaderboard_scores_rank_idx').on(t.leaderboardId, t.points.desc(), t.correct.desc(), t.reachedAt.asc(), t.userId.asc()),
    index('leaderboard_scores_current_streak_idx').on(
      t.leaderboardId,
      t.currentStreak.desc(),
      t.points.desc(),
      t.correct.desc(),
      t.reachedAt.asc(),
      t.userId.asc(),
    ),
    index('leaderboard_scores_best_streak_idx').on(t.leaderboardId, t.bestStreak.desc(), t.points.desc(), t.correct.desc(), t.reachedAt.asc(), t.userId.asc()),
  ],
);

/**
 * How many players of a board have each points total: a rank is the players
 * with more points (a sum over this table, one row per distinct total) plus
 * those ahead with the same points (ranges of the rank index, or for a large
 * total, an in-process copy of its players in rank order kept under
 * `version`, which every change inside the total moves on: a player entering
 * or leaving it, one moving inside it, a rebuild).
 */
export const leaderboardPointCounts = pgTable(
  'leaderboard_point_counts',
  {
    leaderboardId: integer('leaderboard_id')
      .notNull()
      .references(() => leaderboards.id, { onDelete: 'cascade' }),
    points: integer('points').notNull(),
    players: integer('players').notNull(),
    version: bigint('version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.leaderboardId, t.points] })],
);

/**
 * The settlements the boards take in, in order: one row per settled question
 * with scored answers (resolved, voided or revoked), inserted by the settling
 * transaction, applied after its commit by the worker in chunks of answers
 * (by user id), each chunk in its own transaction that moves `phase` and
 * `cursor` on, so a chunk is applied exactly once whatever fails when.
 * Phases: 1 the match's board, 2 the all-time boards of the league and the
 * whole game, 3 their day, week and month boards, 4 done. `position` is the
 * order the applier took the settlements in (their order on every board, and
 * the rebuild's); the rows stay as the record of that order.
 */
export const leaderboardSettlements = pgTable(
  'leaderboard_settlements',
  {
    seq: bigint('seq', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    questionIssuanceId: uuid('question_issuance_id')
      .notNull()
      .references(() => questionIssuances.id, { onDelete: 'cascade' }),
    matchId: uuid('match_id').notNull(),
    /** Resolved with a correct answer (a streak moves); false: voided or revoked. */
    resolved: boolean('resolved').notNull(),
    /** The answers' scored_at (the settlement's time). */
    scoredAt: tstz('scored_at').notNull(),
    /** Assigned by the applier when it first sees the row; null until then. */
    position: bigint('position', { mode: 'number' }),
    phase: smallint('phase').notNull().default(1),
    /** The last user id applied in the current phase; null: none yet. */
    cursor: uuid('cursor'),
    createdAt: tstz('created_at').notNull().defaultNow(),
    /** When the last phase was applied. */
    appliedAt: tstz('applied_at'),
  },
  (t) => [
    uniqueIndex('leaderboard_settlements_issuance_uq').on(t.questionIssuanceId),
    uniqueIndex('leaderboard_settlements_position_uq').on(t.position),
    index('leaderboard_settlements_pending_idx')
      .on(t.phase, t.position)
      .where(sql`phase < 4`),
  ],
);

export type LeaderboardRow = typeof leaderboards.$inferSelect;
export type LeaderboardScoreRow = typeof leaderboardScores.$inferSelect;
export type LeaderboardSettlementRow = typeof leaderboardSettlements.$inferSelect;

/**
 * Users whose rows were rebuilt (hidden, shown, deactivated, reactivated,
 * another time zone), with the boards they had rows on just before: the
 * feed by which the boards in Redis (leaderboards.redis.ts) learn of changes
 * that are no settlement. Written in the rebuild's transaction, under the
 * leaderboards' lock, so `seq` commits in order; pruned after a week.
 */
export const leaderboardUserChanges = pgTable('leaderboard_user_changes', {
  seq: bigint('seq', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  userId: uuid('user_id').notNull(),
  /** leaderboards.id of the boards the user had rows on before the rebuild. */
  boardIds: integer('board_ids').array().notNull(),
  createdAt: tstz('created_at').notNull().defaultNow(),
});

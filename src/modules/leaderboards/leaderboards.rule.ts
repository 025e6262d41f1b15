/**
 * The leaderboard rule, once: what one settled answer does to a player's row
 * on a board (`applyAnswer`), and the order of the rows (`compareRows`,
 * `rankKey`). Every other form of it is tied to this one by a property-based
 * test (tests/api/leaderboards-rule.test.ts): the SQL applier's chunk
 * (`addChunk`, leaderboards.applier.repository.ts), plpgsql
 * `qp_leaderboards_rebuild` (drizzle/0016_*, 0018_*), and the boards in Redis
 * (leaderboards.redis.ts, whose members are `rankKey`s and whose `APPLY`
 * script is `applyAnswer` in Lua).
 *
 * The contract's `Leaderboard` schema says it in words: points, correct
 * answers and settled answers add up; a correct answer of a resolved
 * question extends the current streak, an incorrect one ends it, a voided
 * (or revoked) one changes neither; `reached_at` is the last correct
 * answer's time (the first answer's while none is correct); rows rank by
 * points (more first), correct answers (more first), `reached_at` (earlier
 * first), user id. A streak board (`rank_by` current_streak or best_streak)
 * ranks by that streak (more first), then in that order (`compareRowsBy`);
 * in Redis its sorted set has the same members scored by minus the streak.
 */
import type { ScoredOutcome } from '../../domain/vocabulary.js';

/** A player's row on one board; times in microseconds since 1970 (PostgreSQL's precision: ties are ordered to the microsecond). */
export interface RuleRow {
  points: number;
  correct: number;
  answered: number;
  currentStreak: number;
  bestStreak: number;
  reachedUs: number;
}

/** One settled answer as the boards take it. */
export interface RuleAnswer {
  outcome: ScoredOutcome;
  points: number;
  /** The settlement's time (scored_at), microseconds since 1970. */
  atUs: number;
}

/** The row after one more settled answer (`row` undefined: the player's first answer on the board). */
export function applyAnswer(row: RuleRow | undefined, answer: RuleAnswer): RuleRow {
  const correct = answer.outcome === 'correct' ? 1 : 0;
  if (!row) return { points: answer.points, correct, answered: 1, currentStreak: correct, bestStreak: correct, reachedUs: answer.atUs };
  const currentStreak = answer.outcome === 'correct' ? row.currentStreak + 1 : answer.outcome === 'incorrect' ? 0 : row.currentStreak;
  const reachedUs = correct
    ? row.correct === 0
      ? answer.atUs
      : Math.max(row.reachedUs, answer.atUs)
    : row.correct === 0
      ? Math.min(row.reachedUs, answer.atUs)
      : row.reachedUs;
  return {
    points: row.points + answer.points,
    correct: row.correct + correct,
    answered: row.answered + 1,
    currentStreak,
    bestStreak: Math.max(row.bestStreak, currentStreak),
    reachedUs,
  };
}

/** A row of a player (by id): the rank order compares these. */
export type RankedRuleRow = RuleRow & { userId: string };

/** The rank order: negative when `a` ranks ahead of `b`. */
export function compareRows(a: RankedRuleRow, b: RankedRuleRow): number {
  return b.points - a.points || b.correct - a.correct || a.reachedUs - b.reachedUs || (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0);
}

/** What a board is ranked by (the contract's `rank_by`): points, or one of the streaks (the streak boards). */
export type RankBy = 'points' | 'current_streak' | 'best_streak';

/** The streak a streak board ranks by. */
export const streakOf = (row: Pick<RuleRow, 'currentStreak' | 'bestStreak'>, by: Exclude<RankBy, 'points'>): number =>
  by === 'current_streak' ? row.currentStreak : row.bestStreak;

/**
 * The order of a board ranked by `by`: the rank order above, or for a streak
 * board the streak (more first), ties broken by the rank order above.
 */
export function compareRowsBy(by: RankBy, a: RankedRuleRow, b: RankedRuleRow): number {
  return (by === 'points' ? 0 : streakOf(b, by) - streakOf(a, by)) || compareRows(a, b);
}

/** Microseconds from the year 1 to 1970: reached_at of any instant of the contract (years 0001 to 9999) is positive past it. */
const YEAR_ONE_US = 62_135_596_800_000_000n;
const INT_MAX = 2_147_483_647;
/** Characters of a `rankKey`. */
export const RANK_KEY_LENGTH = 10 + 10 + 20 + 36;

/**
 * A row's place in the rank order as fixed-width text that sorts (bytewise)
 * as `compareRows` does: 2^31 - 1 - points and 2^31 - 1 - correct (10 digits
 * each; points from -2^31 + 1 up), reached_at in microseconds since the year
 * 1 (20 digits), the user id (lowercase, as PostgreSQL orders uuids). The
 * members of the boards' sorted sets in Redis (all of score 0, so ordered by
 * these bytes): a rank is the member's index.
 */
export function rankKey(row: Pick<RankedRuleRow, 'points' | 'correct' | 'reachedUs' | 'userId'>): string {
  const pad = (n: number | bigint, width: number) => n.toString().padStart(width, '0');
  return pad(INT_MAX - row.points, 10) + pad(INT_MAX - row.correct, 10) + pad(BigInt(row.reachedUs) + YEAR_ONE_US, 20) + row.userId.toLowerCase();
}

/** What a `rankKey` says: points, correct, reached_at and the user id. */
export function parseRankKey(key: string): Pick<RankedRuleRow, 'points' | 'correct' | 'reachedUs' | 'userId'> {
  return {
    points: INT_MAX - Number(key.slice(0, 10)),
    correct: INT_MAX - Number(key.slice(10, 20)),
    reachedUs: Number(BigInt(key.slice(20, 40)) - YEAR_ONE_US),
    userId: key.slice(40),
  };
}

/**
 * Reads of the boards in PostgreSQL: a page of a board, a player's row and
 * rank, a group's board, a user's positions (the reads without REDIS_URL, and
 * every read's fallback with it; leaderboards.redis.ts serves them from Redis).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { parsePgTimestamp } from '../../domain/instants.js';
import type { BoardKey, Period, Scope } from './leaderboards.keys.js';
import { NAME, rowsOf } from './leaderboards.sql.js';
import type { LeaderboardRow } from './leaderboards.table.js';

export { ALL_TIME_START, OVERALL_ID, type BoardKey, type Period, type Scope } from './leaderboards.keys.js';

export interface RankedRow {
  rank: number;
  userId: string;
  name: string;
  points: number;
  correct: number;
  answered: number;
  currentStreak: number;
  bestStreak: number;
  reachedAt: Date;
}

const RANK_ORDER = sql`s.points desc nulls last, s.correct desc nulls last, s.reached_at, s.user_id`;

type RawRanked = {
  rank: string | number;
  user_id: string;
  name: string;
  points: number;
  correct: number;
  answered: number;
  current_streak: number;
  best_streak: number;
  reached_at: string | Date;
};
const ranked = (r: RawRanked): RankedRow => ({
  rank: Number(r.rank),
  userId: r.user_id,
  name: r.name,
  points: Number(r.points),
  correct: Number(r.correct),
  answered: Number(r.answered),
  currentStreak: Number(r.current_streak),
  bestStreak: Number(r.best_streak),
  reachedAt: parsePgTimestamp(r.reached_at),
});

/** The rows of some players on a board (a group's members), ranked among themselves. */
export async function membersBoard({ db, leaderboardId, userIds }: { db: DbOrTx; leaderboardId: number; userIds: string[] }): Promise<RankedRow[]> {
  if (!userIds.length) return [];
  const rows = await rowsOf<RawRanked>(
    db,
    sql`select row_number() over (order by ${RANK_ORDER}) as rank, s.user_id, ${NAME} as name, s.points, s.correct, s.answered, s.current_streak, s.best_streak, s.reached_at
        from leaderboard_scores s join users u on u.id = s.user_id
        where s.leaderboard_id = ${leaderboardId} and s.user_id = any(string_to_array(${userIds.join(',')}, ',')::uuid[])
        order by ${RANK_ORDER}`,
  );
  return rows.map(ranked);
}

/**
 * A page of a board, how many players it has, and the rows and ranks of some
 * players, in one statement (nothing cached: the reads' fallback, see
 * `rankedRead` in the service): the board by its key (unique index), the page
 * as a range of the rank index, the count as a sum over the point counts, each
 * rank as 1 + the players with more points (a sum over the point counts) +
 * those with the same points ranked ahead (two ranges of the rank index).
 * Undefined when the board does not exist.
 */
export async function boardForDelivery({
  db,
  key,
  top,
  offset = 0,
  userIds,
}: {
  db: DbOrTx;
  key: BoardKey;
  top: number;
  offset?: number;
  userIds: string[];
}): Promise<RankedBoard | undefined> {
  return boardRead(db, key, RANK_ORDER, {
    top,
    offset,
    userIds,
    rankOf: sql`1 + coalesce((select sum(c.players) from leaderboard_point_counts c where c.leaderboard_id = s.leaderboard_id and c.points > s.points), 0)
                 + (select count(*) from leaderboard_scores o where o.leaderboard_id = s.leaderboard_id and o.points = s.points and o.correct > s.correct)
                 + (select count(*) from leaderboard_scores o where o.leaderboard_id = s.leaderboard_id and o.points = s.points and o.correct = s.correct and (o.reached_at, o.user_id) < (s.reached_at, s.user_id))`,
  });
}

/** The column a streak board ranks by. */
const STREAK_COLUMN = { current_streak: 'current_streak', best_streak: 'best_streak' } as const;
export type StreakRankBy = keyof typeof STREAK_COLUMN;

/**
 * A page of a streak board (`by`: the board ranked by that streak, then in the
 * rank order), how many players it has, and the rows and ranks of some
 * players, in one statement: the page a range of the streak's index
 * (`leaderboard_scores_<by>_idx`), the count a sum over the point counts, each
 * rank 1 + the players ahead, counted as four ranges of the same index (more
 * streak; as much and more points; as many and more correct; as many and
 * reached first, or as early with a smaller id). Undefined when the board does
 * not exist.
 */
export async function streakBoard({
  db,
  key,
  by,
  top,
  offset = 0,
  userIds,
}: {
  db: DbOrTx;
  key: BoardKey;
  by: StreakRankBy;
  top: number;
  offset?: number;
  userIds: string[];
}): Promise<RankedBoard | undefined> {
  const col = sql.raw(STREAK_COLUMN[by]);
  return boardRead(db, key, sql`s.${col} desc nulls last, ${RANK_ORDER}`, {
    top,
    offset,
    userIds,
    rankOf: sql`1 + (select count(*) from leaderboard_scores o where o.leaderboard_id = s.leaderboard_id and o.${col} > s.${col})
                 + (select count(*) from leaderboard_scores o where o.leaderboard_id = s.leaderboard_id and o.${col} = s.${col} and o.points > s.points)
                 + (select count(*) from leaderboard_scores o where o.leaderboard_id = s.leaderboard_id and o.${col} = s.${col} and o.points = s.points and o.correct > s.correct)
                 + (select count(*) from leaderboard_scores o where o.leaderboard_id = s.leaderboard_id and o.${col} = s.${col} and o.points = s.points and o.correct = s.correct
                      and (o.reached_at, o.user_id) < (s.reached_at, s.user_id))`,
  });
}

type RankedBoard = { playerCount: number; top: RankedRow[]; mine: Map<string, RankedRow> };

/**
 * The one statement of both reads above: the board by its key, its player
 * count (a sum over the point counts), its page in `order` and the rows of
 * `userIds` with their rank (`rankOf`, over the row `s`).
 */
async function boardRead(
  db: DbOrTx,
  key: BoardKey,
  order: SQL,
  { top, offset, userIds, rankOf }: { top: number; offset: number; userIds: string[]; rankOf: SQL },
): Promise<RankedBoard | undefined> {
  type Raw = RawRanked & { kind: 'board' | 'top' | 'me'; player_count: number | string | null };
  const ids = userIds.join(',');
  const rows = await rowsOf<Raw>(
    db,
    sql`with b as (
          select id from leaderboards where scope = ${key.scope} and scope_id = ${key.scopeId}::uuid and period = ${key.period} and period_start = ${key.periodStart}::date
        ),
        t as (
          select s.* from leaderboard_scores s where s.leaderboard_id = (select id from b) order by ${order} offset ${offset} limit ${top}
        )
        select 'board' as kind, (select coalesce(sum(c.players), 0) from leaderboard_point_counts c where c.leaderboard_id = b.id) as player_count,
               null::bigint as rank, null::uuid as user_id, null::text as name, null::int as points, null::int as correct, null::int as answered, null::int as current_streak, null::int as best_streak, null::timestamptz as reached_at
          from b
        union all
        select 'top', null, ${offset}::int + row_number() over (order by ${order}), s.user_id, ${NAME}, s.points, s.correct, s.answered, s.current_streak, s.best_streak, s.reached_at
          from t s join users u on u.id = s.user_id
        union all
        select 'me', null, ${rankOf}, s.user_id, ${NAME}, s.points, s.correct, s.answered, s.current_streak, s.best_streak, s.reached_at
          from leaderboard_scores s join users u on u.id = s.user_id
          where s.leaderboard_id = (select id from b) and ${ids ? sql`s.user_id = any(string_to_array(${ids}, ',')::uuid[])` : sql`false`}`,
  );
  const board = rows.find((r) => r.kind === 'board');
  if (!board) return undefined;
  const topRows = rows
    .filter((r) => r.kind === 'top')
    .map(ranked)
    .sort((a, b) => a.rank - b.rank);
  const mine = new Map(rows.filter((r) => r.kind === 'me').map((r) => [r.user_id, ranked(r)] as const));
  return { playerCount: Number(board.player_count ?? 0), top: topRows, mine };
}

/** Points totals of up to this many players are counted through the rank index in the read itself; larger ones by the caller (an in-process copy, or `totalAhead`). */
export const TIE_SCAN_MAX = 2000;

/**
 * A player's place in the order inside their points total, as text that sorts
 * as the rank index does: correct answers descending (2^31 - 1 - correct,
 * zero-padded to 10 digits), reached_at in microseconds since the year 1
 * (zero-padded to 20), then the user id (lowercase, as PostgreSQL orders
 * uuids).
 */
const TIE_KEY = (alias: string) =>
  sql.raw(
    `lpad((2147483647 - ${alias}.correct)::text, 10, '0') || lpad(((extract(epoch from ${alias}.reached_at) * 1000000)::bigint + 62135596800000000)::text, 20, '0') || ${alias}.user_id::text`,
  );
/** Characters of one TIE_KEY. */
const TIE_KEY_LENGTH = 10 + 20 + 36;

/** A player's row on a board with what their rank needs besides the board's point counts. */
export interface HeadRow extends Omit<RankedRow, 'rank'> {
  /** Players on the same points total, and the version of that total's count. */
  tiePlayers: number;
  tieVersion: number;
  /** Players of the total ranked ahead (more correct answers; as many, reached first or as early with a smaller id); null when the total has more than TIE_SCAN_MAX players. */
  aheadInTie: number | null;
  /** The row's place in its total's order (TIE_KEY). */
  tieKey: string;
}

/**
 * The board of a key (id and version) and some players' rows on it with what
 * their ranks need inside their points totals, in one statement. Undefined
 * when the board does not exist.
 */
export async function boardHead({
  db,
  key,
  userIds,
  tieScanMax = TIE_SCAN_MAX,
}: {
  db: DbOrTx;
  key: BoardKey;
  userIds: string[];
  tieScanMax?: number;
}): Promise<{ id: number; version: number; rows: HeadRow[] } | undefined> {
  const ids = userIds.join(',');
  type Raw = Omit<RawRanked, 'rank'> & {
    board_id: number;
    board_version: string | number;
    tie_players: number | null;
    tie_version: string | number | null;
    ahead_in_tie: string | number | null;
    tie_key: string;
  };
  const rows = await rowsOf<Raw>(
    db,
    sql`with b as (
          select id, version from leaderboards where scope = ${key.scope} and scope_id = ${key.scopeId}::uuid and period = ${key.period} and period_start = ${key.periodStart}::date
        )
        select b.id as board_id, b.version as board_version, m.*
        from b left join lateral (
          select s.user_id, ${NAME} as name, s.points, s.correct, s.answered, s.current_streak, s.best_streak, s.reached_at, ${TIE_KEY('s')} as tie_key,
                 c.players as tie_players, c.version as tie_version,
                 case when c.players <= ${tieScanMax}::int then
                   (select count(*) from leaderboard_scores o where o.leaderboard_id = b.id and o.points = s.points and o.correct > s.correct)
                   + (select count(*) from leaderboard_scores o
                      where o.leaderboard_id = b.id and o.points = s.points and o.correct = s.correct and (o.reached_at, o.user_id) < (s.reached_at, s.user_id))
                 end as ahead_in_tie
          from leaderboard_scores s
          join users u on u.id = s.user_id
          left join leaderboard_point_counts c on c.leaderboard_id = s.leaderboard_id and c.points = s.points
          where s.leaderboard_id = b.id and ${ids ? sql`s.user_id = any(string_to_array(${ids}, ',')::uuid[])` : sql`false`}
        ) m on true`,
  );
  const first = rows[0];
  if (!first) return undefined;
  return {
    id: Number(first.board_id),
    version: Number(first.board_version),
    rows: rows
      .filter((r) => r.user_id !== null)
      .map((r) => ({
        ...ranked({ ...r, rank: 0 }),
        tiePlayers: Number(r.tie_players ?? 0),
        tieVersion: Number(r.tie_version ?? 0),
        aheadInTie: r.ahead_in_tie === null ? null : Number(r.ahead_in_tie),
        tieKey: r.tie_key,
      })),
  };
}

/**
 * What every reader of a board shares, at one version of it: a page of its
 * rows (ranked), and its point counts (points descending) with the players
 * above each total, from which any rank's "more points" part is a binary
 * search, and the player count.
 */
export interface BoardPage {
  version: number;
  top: RankedRow[];
  /** Distinct totals, descending. */
  points: Int32Array;
  /** above[i]: players with more points than points[i]; above[points.length]: every player. */
  above: Float64Array;
}

export async function boardPage({ db, boardId, top, offset }: { db: DbOrTx; boardId: number; top: number; offset: number }): Promise<BoardPage> {
  type Raw = RawRanked & { kind: 'version' | 'top'; version: string | number | null; counts: string | null };
  const rows = await rowsOf<Raw>(
    db,
    sql`with t as (
          select s.* from leaderboard_scores s where s.leaderboard_id = ${boardId}::int order by ${RANK_ORDER} offset ${offset} limit ${top}
        )
        select 'version' as kind, b.version,
               -- One text of "points:players" pairs, totals descending: a few thousand pairs cost one value to parse, not a row each.
               (select string_agg(c.points || ':' || c.players, ',' order by c.points desc)
                from leaderboard_point_counts c where c.leaderboard_id = b.id and c.players <> 0) as counts,
               null::bigint as rank, null::uuid as user_id, null::text as name, null::int as points, null::int as correct,
               null::int as answered, null::int as current_streak, null::int as best_streak, null::timestamptz as reached_at
          from leaderboards b where b.id = ${boardId}::int
        union all
        select 'top', null, null, ${offset}::int + row_number() over (order by ${RANK_ORDER}), s.user_id, ${NAME}, s.points, s.correct, s.answered, s.current_streak, s.best_streak, s.reached_at
          from t s join users u on u.id = s.user_id`,
  );
  const pairs = (rows.find((r) => r.kind === 'version')?.counts ?? '').split(',').filter(Boolean);
  const points = new Int32Array(pairs.length);
  const above = new Float64Array(pairs.length + 1);
  pairs.forEach((pair, i) => {
    const colon = pair.indexOf(':');
    points[i] = Number(pair.slice(0, colon));
    above[i + 1] = above[i]! + Number(pair.slice(colon + 1));
  });
  return {
    version: Number(rows.find((r) => r.kind === 'version')?.version ?? -1),
    top: rows
      .filter((r) => r.kind === 'top')
      .map(ranked)
      .sort((a, b) => a.rank - b.rank),
    points,
    above,
  };
}

/** Players of a board with more points than `p` (a binary search over the page's point counts). */
export function playersAbove(page: Pick<BoardPage, 'points' | 'above'>, p: number): number {
  let lo = 0;
  let hi = page.points.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (page.points[mid]! > p) lo = mid + 1;
    else hi = mid;
  }
  return page.above[lo]!;
}

/**
 * The players of a row's points total ranked ahead of it, counted through the
 * rank index (linear in what is counted), and the total's version. `fromEnd`:
 * counts those behind instead, and the total's size less them and the row
 * (the same answer from the same snapshot, cheaper for a row in the total's
 * second half).
 */
export async function totalAhead({
  db,
  boardId,
  row,
  fromEnd = false,
}: {
  db: DbOrTx;
  boardId: number;
  row: HeadRow;
  fromEnd?: boolean;
}): Promise<{ ahead: number; version: number }> {
  const [r] = await rowsOf<{ n: string | number; version: string | number | null }>(
    db,
    fromEnd
      ? sql`select c.players - 1 - (select count(*) from leaderboard_scores o where o.leaderboard_id = s.leaderboard_id and o.points = s.points and o.correct < s.correct)
                 - (select count(*) from leaderboard_scores o
                    where o.leaderboard_id = s.leaderboard_id and o.points = s.points and o.correct = s.correct and (o.reached_at, o.user_id) > (s.reached_at, s.user_id)) as n,
                 c.version
            from leaderboard_scores s
            left join leaderboard_point_counts c on c.leaderboard_id = s.leaderboard_id and c.points = s.points
            where s.user_id = ${row.userId}::uuid and s.leaderboard_id = ${boardId}::int`
      : sql`select (select count(*) from leaderboard_scores o where o.leaderboard_id = s.leaderboard_id and o.points = s.points and o.correct > s.correct)
                 + (select count(*) from leaderboard_scores o
                    where o.leaderboard_id = s.leaderboard_id and o.points = s.points and o.correct = s.correct and (o.reached_at, o.user_id) < (s.reached_at, s.user_id)) as n,
                 c.version
            from leaderboard_scores s
            left join leaderboard_point_counts c on c.leaderboard_id = s.leaderboard_id and c.points = s.points
            where s.user_id = ${row.userId}::uuid and s.leaderboard_id = ${boardId}::int`,
  );
  // The row gone meanwhile (a rebuild), or its total's count: a version no read has, so the read starts again.
  if (!r || r.n === null || r.version === null) return { ahead: 0, version: -1 };
  return { ahead: Number(r.n), version: Number(r.version) };
}

/**
 * The players of a points total of a board in rank order, at one version of
 * it: their keys (TIE_KEY) end to end in one string, so a copy of 100,000
 * players is one value to receive (6.6 MB), no object per player, and a rank
 * in it is a binary search over its records.
 */
export interface TieCopy {
  version: number;
  keys: string;
  count: number;
}

export async function loadTie({ db, boardId, points }: { db: DbOrTx; boardId: number; points: number }): Promise<TieCopy | undefined> {
  const [row] = await rowsOf<{ version: string | number; keys: string | null }>(
    db,
    sql`select c.version,
          (select string_agg(${TIE_KEY('o')}, '' order by o.correct desc, o.reached_at, o.user_id) from leaderboard_scores o
           where o.leaderboard_id = c.leaderboard_id and o.points = c.points) as keys
        from leaderboard_point_counts c
        where c.leaderboard_id = ${boardId}::int and c.points = ${points}::int`,
  );
  if (!row) return undefined;
  const keys = row.keys ?? '';
  return { version: Number(row.version), keys, count: keys.length / TIE_KEY_LENGTH };
}

/** Players of a copy ahead of a key (TIE_KEY): a binary search over its records. */
export function aheadInCopy(tie: TieCopy, key: string): number {
  let lo = 0;
  let hi = tie.count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tie.keys.slice(mid * TIE_KEY_LENGTH, (mid + 1) * TIE_KEY_LENGTH) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface Position {
  board: Pick<LeaderboardRow, 'scope' | 'scopeId' | 'period' | 'periodStart'>;
  playerCount: number;
  row: RankedRow;
}

/**
 * A user's rows and ranks (one statement): on the whole game's and the
 * leagues' boards all time and of the periods starting on `starts`, and on
 * the boards of the `matches` matches they played last.
 */
export async function positionsOf({
  db,
  userId,
  starts,
  matches: recent,
}: {
  db: DbOrTx;
  userId: string;
  starts: { day: string; week: string; month: string };
  matches: number;
}): Promise<Position[]> {
  type Raw = RawRanked & { scope: Scope; scope_id: string; period: Period; period_start: string; player_count: string | number; created_at: string | Date };
  const rows = await rowsOf<Raw>(
    db,
    sql`with mine as (
          select b.id, b.scope, b.scope_id, b.period, b.period_start::text as period_start, b.created_at, s.*
          from leaderboard_scores s join leaderboards b on b.id = s.leaderboard_id
          where s.user_id = ${userId}::uuid and b.scope in ('overall', 'league') and (
            b.period = 'all_time' or (b.period = 'day' and b.period_start = ${starts.day}::date)
            or (b.period = 'week' and b.period_start = ${starts.week}::date) or (b.period = 'month' and b.period_start = ${starts.month}::date))
          union all
          (select b.id, b.scope, b.scope_id, b.period, b.period_start::text, b.created_at, s.*
           from leaderboard_scores s join leaderboards b on b.id = s.leaderboard_id
           where s.user_id = ${userId}::uuid and b.scope = 'match'
           order by b.created_at desc limit ${recent})
        )
        select s.scope, s.scope_id, s.period, s.period_start, s.created_at,
          (select coalesce(sum(c.players), 0) from leaderboard_point_counts c where c.leaderboard_id = s.leaderboard_id) as player_count,
          1 + coalesce((select sum(c.players) from leaderboard_point_counts c where c.leaderboard_id = s.leaderboard_id and c.points > s.points), 0)
            + (select count(*) from leaderboard_scores o where o.leaderboard_id = s.leaderboard_id and o.points = s.points and o.correct > s.correct)
            + (select count(*) from leaderboard_scores o where o.leaderboard_id = s.leaderboard_id and o.points = s.points and o.correct = s.correct and (o.reached_at, o.user_id) < (s.reached_at, s.user_id))
            as rank,
          s.user_id, ${NAME} as name, s.points, s.correct, s.answered, s.current_streak, s.best_streak, s.reached_at
        from mine s join users u on u.id = s.user_id`,
  );
  const scopeOrder = { overall: 0, league: 1, match: 2 } as const;
  const periodOrder = { all_time: 0, day: 1, week: 2, month: 3 } as const;
  return rows
    .sort(
      (a, b) =>
        scopeOrder[a.scope] - scopeOrder[b.scope] ||
        (a.scope === 'match' ? parsePgTimestamp(b.created_at).getTime() - parsePgTimestamp(a.created_at).getTime() : a.scope_id.localeCompare(b.scope_id)) ||
        periodOrder[a.period] - periodOrder[b.period],
    )
    .map((r) => ({
      board: { scope: r.scope, scopeId: r.scope_id, period: r.period, periodStart: r.period_start },
      playerCount: Number(r.player_count),
      row: ranked(r),
    }));
}

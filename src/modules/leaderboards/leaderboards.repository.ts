/**
 * Leaderboard SQL: the queue of settlements (written by the settling
 * transaction) and what its applier reads and writes a chunk at a time, the
 * rebuild of one user's rows, and the reads (a page of a board, a player's row
 * and rank, a group's board). Every writer of the boards takes
 * LEADERBOARD_LOCK first: writers run one at a time (they all touch the whole
 * game's boards anyway) and never deadlock. Queueing takes no lock.
 */
import { eq, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { matches } from '../matches/matches.table.js';
import { leaderboards, type LeaderboardRow } from './leaderboards.table.js';

/** The advisory lock every leaderboard writer holds until its commit (the SQL rebuild function takes the same). */
export const LEADERBOARD_LOCK = 1717001;
/** period_start of all-time boards. */
export const ALL_TIME_START = '1970-01-01';
/** scope_id of the whole game's boards. */
export const OVERALL_ID = '00000000-0000-0000-0000-000000000000';

export type Scope = 'overall' | 'league' | 'match';
export type Period = 'all_time' | 'day' | 'week' | 'month';

export interface BoardKey {
  scope: Scope;
  scopeId: string;
  period: Period;
  periodStart: string;
}

/** Rows of a raw statement: postgres.js answers an array, PGlite `{ rows }`. */
async function rowsOf<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown;
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];
}

const keyOf = (k: BoardKey) => `${k.scope}|${k.scopeId}|${k.period}|${k.periodStart}`;

/** The match's league and whether it is a test match (undefined: no such match). */
export async function matchForScoring({ db, matchId }: { db: DbOrTx; matchId: string }): Promise<{ leagueId: string; isTest: boolean } | undefined> {
  const [row] = await db.select({ leagueId: matches.leagueId, isTest: matches.isTest }).from(matches).where(eq(matches.id, matchId));
  return row;
}

export async function lockLeaderboards(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${LEADERBOARD_LOCK})`);
}

/** The lock if it is free (false: another writer holds it; the caller tries again later). */
export async function tryLockLeaderboards(tx: Tx): Promise<boolean> {
  const [row] = await rowsOf<{ locked: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${LEADERBOARD_LOCK}) as locked`);
  return Boolean(row?.locked);
}

/** Phases of a queued settlement: the boards it is applied to, in this order, then done. */
export const PHASE = { match: 1, allTime: 2, periods: 3, done: 4 } as const;
export type Phase = 1 | 2 | 3;

/**
 * Queues a settlement for the boards (in the settling transaction): one row,
 * when the question has scored answers and its match is no test match. An
 * issuance settles once; a second call changes nothing.
 */
export async function enqueueSettlement({
  tx,
  issuanceId,
  matchId,
  resolved,
  scoredAt,
}: {
  tx: Tx;
  issuanceId: string;
  matchId: string;
  resolved: boolean;
  scoredAt: Date | null;
}): Promise<boolean> {
  const rows = await rowsOf<{ seq: number }>(
    tx,
    sql`insert into leaderboard_settlements (question_issuance_id, match_id, resolved, scored_at)
        select ${issuanceId}::uuid, m.id, ${resolved}, coalesce(${scoredAt ? scoredAt.toISOString() : null}::timestamptz, now())
        from matches m
        where m.id = ${matchId}::uuid and not m.is_test
          and exists (select 1 from question_answers a where a.question_issuance_id = ${issuanceId}::uuid and a.outcome is not null)
        on conflict (question_issuance_id) do nothing
        returning seq`,
  );
  return rows.length > 0;
}

export interface QueuedSettlement {
  seq: number;
  issuanceId: string;
  matchId: string;
  resolved: boolean;
  scoredAt: Date;
  position: number;
  phase: Phase;
  cursor: string | null;
}

/**
 * The next piece of work (the lock held): settlements not seen before get
 * their positions, in the order they were queued; then the pending one of
 * the lowest phase, and of those the first taken. So every board takes the
 * settlements in one order (a settlement moves past a phase only when every
 * earlier one has), while a new settlement's match board goes ahead of an
 * older one's period boards.
 */
export async function nextQueued({ tx }: { tx: Tx }): Promise<QueuedSettlement | undefined> {
  await tx.execute(
    sql`update leaderboard_settlements s set position = n.position
        from (select seq, (select coalesce(max(position), 0) from leaderboard_settlements) + row_number() over (order by seq) as position
              from leaderboard_settlements where phase < ${PHASE.done} and position is null) n
        where s.seq = n.seq`,
  );
  // A row committed since the update above (no position yet) waits for the next chunk: it comes after the others anyway.
  const [row] = await rowsOf<{
    seq: string | number;
    question_issuance_id: string;
    match_id: string;
    resolved: boolean;
    scored_at: string | Date;
    position: string | number;
    phase: number;
    cursor: string | null;
  }>(tx, sql`select * from leaderboard_settlements where phase < ${PHASE.done} and position is not null order by phase, position limit 1`);
  if (!row) return undefined;
  return {
    seq: Number(row.seq),
    issuanceId: row.question_issuance_id,
    matchId: row.match_id,
    resolved: row.resolved,
    scoredAt: new Date(row.scored_at),
    position: Number(row.position),
    phase: Number(row.phase) as Phase,
    cursor: row.cursor,
  };
}

/** Whether any settlement waits for the boards (one index probe; no lock). */
export async function hasQueued({ db }: { db: DbOrTx }): Promise<boolean> {
  const rows = await rowsOf<{ one: number }>(db, sql`select 1 as one from leaderboard_settlements where phase < ${PHASE.done} limit 1`);
  return rows.length > 0;
}

/** Settlements waiting, and how long the oldest has waited (seconds). */
export async function queueState({ db }: { db: DbOrTx }): Promise<{ pending: number; oldestSeconds: number }> {
  const [row] = await rowsOf<{ pending: number | string; oldest: number | string | null }>(
    db,
    sql`select count(*) as pending, extract(epoch from now() - min(created_at)) as oldest from leaderboard_settlements where phase < ${PHASE.done}`,
  );
  return { pending: Number(row?.pending ?? 0), oldestSeconds: Number(row?.oldest ?? 0) };
}

/**
 * The player of answer `a`, when they count on boards (active, not hidden):
 * `u.zone`, their stored time zone. One primary-key probe per answer, whatever
 * the planner thinks of the answers' statistics: right after scoring they say
 * no answer of the question is scored yet, and a plain join then scans every
 * user for a few thousand answers (measured: 1.3 s of a 2.2 s chunk at
 * 200,000 users). The LIMIT keeps the subquery from being flattened into a join.
 */
const PLAYER_WHO_COUNTS = sql`cross join lateral (
    select u.match_follow_timezone as zone from users u where u.id = a.user_id and u.is_active and not u.hidden_from_leaderboards limit 1
  ) u`;

/**
 * The next chunk of a settlement's answers that count (players active and not
 * hidden), after `cursor` in user order, at most `limit`: how many, the last
 * user id, and the players' stored zones ('' for none).
 */
/**
 * The applier's transaction reads and writes through indexes only: a row by
 * its key, an issuance's answers in user order, a board's rows by TID. Right
 * after a large scoring, the statistics may say either that nothing is scored
 * (tiny estimates) or, once analyzed, thousands of rows, and a planner that
 * weighs a hash join over a scan of every board's rows against 20,000 TID
 * fetches picks the scan on a table of a million rows or so (measured). Off
 * for this transaction, a scan is chosen only where no index can serve.
 */
export async function indexesOnly(tx: Tx): Promise<void> {
  await tx.execute(sql`set local enable_seqscan = off`);
}

export async function chunkOf({
  tx,
  issuanceId,
  cursor,
  limit,
}: {
  tx: Tx;
  issuanceId: string;
  cursor: string | null;
  limit: number;
}): Promise<{ count: number; last: string | null; zones: string[] }> {
  const rows = await rowsOf<{ n: number | string; last: string | null; zone: string | null }>(
    tx,
    sql`with c as (
          select a.user_id, coalesce(u.zone, '') as zone
          from question_answers a ${PLAYER_WHO_COUNTS}
          where a.question_issuance_id = ${issuanceId}::uuid and a.outcome is not null
            ${cursor ? sql`and a.user_id > ${cursor}::uuid` : sql``}
          order by a.user_id
          limit ${limit}::int
        ), s as (select count(*) as n, (select user_id from c order by user_id desc limit 1) as last from c)
        select s.n, s.last, z.zone from s left join (select distinct zone from c) z on true`,
  );
  const first = rows[0];
  return {
    count: Number(first?.n ?? 0),
    last: first?.last ?? null,
    zones: rows.map((r) => r.zone).filter((z): z is string => z !== null),
  };
}

/** Moves a settlement on after a chunk: to `cursor` within its phase, or to the next phase (done after the last). Returns the seconds since it was queued. */
export async function advanceQueued({ tx, seq, phase, cursor }: { tx: Tx; seq: number; phase: Phase | 4; cursor: string | null }): Promise<number> {
  const [row] = await rowsOf<{ lag: number | string }>(
    tx,
    sql`update leaderboard_settlements set phase = ${phase}, cursor = ${cursor}::uuid,
          applied_at = ${phase === PHASE.done ? sql`now()` : sql`null`}
        where seq = ${seq}
        returning extract(epoch from clock_timestamp() - created_at) as lag`,
  );
  return Number(row?.lag ?? 0);
}

/** The ids of these boards, created when missing (in key order, so concurrent creators never deadlock). */
export async function ensureBoards({ db, keys }: { db: DbOrTx; keys: BoardKey[] }): Promise<Map<string, number>> {
  const unique = [...new Map(keys.map((k) => [keyOf(k), k])).values()].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : 1));
  const values = unique.map((k) => ({ scope: k.scope, scopeId: k.scopeId, period: k.period, periodStart: k.periodStart }));
  await db.insert(leaderboards).values(values).onConflictDoNothing();
  const found = await findBoards({ db, keys: unique });
  return new Map(found.map((b) => [keyOf(b as BoardKey), b.id]));
}

export async function findBoards({ db, keys }: { db: DbOrTx; keys: BoardKey[] }): Promise<LeaderboardRow[]> {
  if (!keys.length) return [];
  const tuples = sql.join(
    keys.map((k) => sql`(${k.scope}::text, ${k.scopeId}::uuid, ${k.period}::text, ${k.periodStart}::date)`),
    sql`, `,
  );
  return db
    .select()
    .from(leaderboards)
    .where(sql`(${leaderboards.scope}, ${leaderboards.scopeId}, ${leaderboards.period}, ${leaderboards.periodStart}) in (${tuples})`);
}

/**
 * Adds a chunk of a settled issuance's scored answers (the players after
 * `after` up to `through`, in user id order) to the boards they count in, and
 * keeps the point counts in step: one statement for every answer and board.
 * `boardsByZone` maps each player's stored zone ('' for none) to the boards
 * of the phase being applied. A resolved question extends a correct
 * answerer's streak and ends an incorrect one's; a voided question changes
 * neither. The lock is held: no other writer runs meanwhile.
 */
export async function addChunk({
  tx,
  issuanceId,
  resolved,
  scoredAt,
  after,
  through,
  boardsByZone,
}: {
  tx: Tx;
  issuanceId: string;
  resolved: boolean;
  scoredAt: Date;
  after: string | null;
  through: string;
  boardsByZone: { zone: string; leaderboardId: number }[];
}): Promise<void> {
  if (!boardsByZone.length) return;
  const map = sql.join(
    boardsByZone.map((b) => sql`(${b.zone}::text, ${b.leaderboardId}::int)`),
    sql`, `,
  );
  const at = scoredAt.toISOString();
  await tx.execute(
    sql`with map(zone, leaderboard_id) as (values ${map}),
      input as (
        select m.leaderboard_id, a.user_id, a.points_awarded as points, (a.outcome = 'correct')::int as correct
        from question_answers a ${PLAYER_WHO_COUNTS}
        join map m on m.zone = coalesce(u.zone, '')
        where a.question_issuance_id = ${issuanceId}::uuid ${after ? sql`and a.user_id > ${after}::uuid` : sql``} and a.user_id <= ${through}::uuid
          and a.outcome is not null
      ),
      -- Each input row with the row it updates (tid), null when it is new: one primary-key probe each (a join here could
      -- be a scan of every board's rows).
      cur as (
        select i.leaderboard_id, i.user_id, i.points, i.correct, s.tid, s.old_correct, s.old_reached
        from input i left join lateral (
          select s.ctid as tid, s.correct as old_correct, s.reached_at as old_reached
          from leaderboard_scores s where s.user_id = i.user_id and s.leaderboard_id = i.leaderboard_id limit 1
        ) s on true
      ),
      -- Updated where they are (a TID scan per row). A plain UPDATE, not an upsert: ON CONFLICT locks each row first, one
      -- more WAL record a row; the advisory lock keeps other writers out, so the rows found are the rows updated.
      up as (
        update leaderboard_scores s set
          points = s.points + i.points,
          correct = s.correct + i.correct,
          answered = s.answered + 1,
          current_streak = ${resolved ? sql`case when i.correct = 1 then s.current_streak + 1 else 0 end` : sql`s.current_streak`},
          best_streak = ${resolved ? sql`greatest(s.best_streak, case when i.correct = 1 then s.current_streak + 1 else 0 end)` : sql`s.best_streak`},
          -- The last correct answer's time (the first answer's while none is correct), as the rebuild computes it.
          reached_at = case
            when i.correct = 1 and s.correct = 0 then ${at}::timestamptz
            when i.correct = 1 then greatest(s.reached_at, ${at}::timestamptz)
            when s.correct = 0 then least(s.reached_at, ${at}::timestamptz)
            else s.reached_at end
        from cur i
        where i.tid is not null and s.ctid = i.tid
        returning s.leaderboard_id, s.points, i.points as delta, s.correct, s.reached_at, i.old_correct, i.old_reached
      ),
      ins as (
        insert into leaderboard_scores (leaderboard_id, user_id, points, correct, answered, current_streak, best_streak, reached_at)
        select i.leaderboard_id, i.user_id, i.points, i.correct, 1, i.correct, i.correct, ${at}::timestamptz from cur i where i.tid is null
        returning leaderboard_id, points
      ),
      -- A new row counts at its points; a row whose points moved leaves its old total for the new one.
      changes as (
        select leaderboard_id, points - delta as points, -1 as d from up where delta <> 0
        union all select leaderboard_id, points, 1 from up where delta <> 0
        union all select leaderboard_id, points, 1 from ins
      ),
      -- A row that moved inside its total (more correct answers for no points, an earlier reached_at) touches it: every
      -- change among a total's players moves its version on (the in-process copies of large totals are kept under it).
      touched as (
        select leaderboard_id, points, 0 as d from up
        where delta = 0 and (correct, reached_at) is distinct from (old_correct, old_reached)
      ),
      -- Every board of the chunk has a new version (readers' caches of its first page and point counts are keyed by it).
      versions as (update leaderboards b set version = b.version + 1 where b.id in (select leaderboard_id from map))
      -- Every total touched, its version moved on (also one a player left and another entered: the same count, other players).
      insert into leaderboard_point_counts as c (leaderboard_id, points, players)
      select leaderboard_id, points, sum(d)::int from (select * from changes union all select * from touched) x group by 1, 2 order by 1, 2
      on conflict (leaderboard_id, points) do update set players = c.players + excluded.players, version = c.version + 1`,
  );
}

/** Rebuilds one user's rows from their scored answers (none when they are hidden or deactivated). */
export async function rebuildUser({ tx, userId }: { tx: Tx; userId: string }): Promise<void> {
  await tx.execute(sql`select qp_leaderboards_rebuild(${userId}::uuid)`);
}

/** Rebuilds every board from the scored answers (the migration's backfill; tests compare it with what settling maintained). */
export async function rebuildAll({ tx }: { tx: Tx }): Promise<void> {
  await tx.execute(sql`select qp_leaderboards_rebuild(null)`);
}

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
const NAME = sql`coalesce(u.display_name, u.username, 'Player ' || left(u.id::text, 8))`;

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
  reachedAt: new Date(r.reached_at),
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
}): Promise<{ playerCount: number; top: RankedRow[]; mine: Map<string, RankedRow> } | undefined> {
  type Raw = RawRanked & { kind: 'board' | 'top' | 'me'; player_count: number | string | null };
  const ids = userIds.join(',');
  const rows = await rowsOf<Raw>(
    db,
    sql`with b as (
          select id from leaderboards where scope = ${key.scope} and scope_id = ${key.scopeId}::uuid and period = ${key.period} and period_start = ${key.periodStart}::date
        ),
        t as (
          select s.* from leaderboard_scores s where s.leaderboard_id = (select id from b) order by ${RANK_ORDER} offset ${offset} limit ${top}
        )
        select 'board' as kind, (select coalesce(sum(c.players), 0) from leaderboard_point_counts c where c.leaderboard_id = b.id) as player_count,
               null::bigint as rank, null::uuid as user_id, null::text as name, null::int as points, null::int as correct, null::int as answered, null::int as current_streak, null::int as best_streak, null::timestamptz as reached_at
          from b
        union all
        select 'top', null, ${offset}::int + row_number() over (order by ${RANK_ORDER}), s.user_id, ${NAME}, s.points, s.correct, s.answered, s.current_streak, s.best_streak, s.reached_at
          from t s join users u on u.id = s.user_id
        union all
        select 'me', null,
               1 + coalesce((select sum(c.players) from leaderboard_point_counts c where c.leaderboard_id = s.leaderboard_id and c.points > s.points), 0)
                 + (select count(*) from leaderboard_scores o where o.leaderboard_id = s.leaderboard_id and o.points = s.points and o.correct > s.correct)
                 + (select count(*) from leaderboard_scores o where o.leaderboard_id = s.leaderboard_id and o.points = s.points and o.correct = s.correct and (o.reached_at, o.user_id) < (s.reached_at, s.user_id)),
               s.user_id, ${NAME}, s.points, s.correct, s.answered, s.current_streak, s.best_streak, s.reached_at
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
        (a.scope === 'match' ? new Date(b.created_at).getTime() - new Date(a.created_at).getTime() : a.scope_id.localeCompare(b.scope_id)) ||
        periodOrder[a.period] - periodOrder[b.period],
    )
    .map((r) => ({
      board: { scope: r.scope, scopeId: r.scope_id, period: r.period, periodStart: r.period_start },
      playerCount: Number(r.player_count),
      row: ranked(r),
    }));
}

/** How long past periods stay readable: boards of days, weeks and months that began before these many days ago go. */
export const RETENTION_DAYS = { day: 40, week: 20 * 7, month: 25 * 31 } as const;

/** The first period start kept on `today` (UTC): boards of that kind that began before it are past the retention. */
export function keptFrom(period: keyof typeof RETENTION_DAYS, today: string): string {
  return new Date(Date.parse(`${today}T00:00:00Z`) - RETENTION_DAYS[period] * 86_400_000).toISOString().slice(0, 10);
}

/** One board whose period has passed the retention, or undefined. */
export async function expiredBoard({ db, today }: { db: DbOrTx; today: string }): Promise<number | undefined> {
  const [row] = await rowsOf<{ id: number }>(
    db,
    sql`select id from leaderboards
        where (period = 'day' and period_start < ${keptFrom('day', today)}::date)
           or (period = 'week' and period_start < ${keptFrom('week', today)}::date)
           or (period = 'month' and period_start < ${keptFrom('month', today)}::date)
        order by period_start limit 1`,
  );
  return row ? Number(row.id) : undefined;
}

/**
 * Deletes up to `rows` rows of a board (the lock taken, so no settlement
 * writes it meanwhile), and the board itself with its point counts once it
 * has none left; true when the board is gone.
 */
export async function pruneBoard({ tx, leaderboardId, rows }: { tx: Tx; leaderboardId: number; rows: number }): Promise<boolean> {
  await lockLeaderboards(tx);
  const deleted = await rowsOf<{ n: number }>(
    tx,
    sql`with gone as (
          delete from leaderboard_scores where ctid = any(array(select ctid from leaderboard_scores where leaderboard_id = ${leaderboardId}::int limit ${rows}::int)) returning 1
        ) select count(*)::int as n from gone`,
  );
  // The board changed under any cache of it (its page, its point counts, its ties).
  await tx.execute(sql`update leaderboards set version = version + 1 where id = ${leaderboardId}::int`);
  await tx.execute(sql`update leaderboard_point_counts set version = version + 1 where leaderboard_id = ${leaderboardId}::int`);
  if (Number(deleted[0]?.n ?? 0) === rows) return false;
  await tx.delete(leaderboards).where(eq(leaderboards.id, leaderboardId));
  return true;
}

// ------------------------------------------------------------ the in-process boards (leaderboards.memory.ts)

/** A settlement as the in-process boards need it: its scope (match, league), its order, its phase and cursor, its time in microseconds. */
export interface Settlement {
  seq: number;
  issuanceId: string;
  matchId: string;
  /** The match's league; null when the match is gone. */
  leagueId: string | null;
  /** A test match's (or a match gone): on no board (the applier skips it). */
  isTest: boolean;
  resolved: boolean;
  /** scored_at in microseconds since 1970 (exact: reached_at orders ties to the microsecond). */
  scoredUs: number;
  position: number | null;
  phase: number;
  cursor: string | null;
}

/**
 * A user id as three numbers, its 128 bits in three parts (48, 32 and 48):
 * equal exactly when the ids are, in the ids' order when compared in turn
 * (uuids order as their lowercase text), and compared in a few nanoseconds
 * where two 36-character texts take a tenth of a microsecond or more (the
 * in-process boards compare ids millions of times a settlement).
 */
export interface UserKey {
  idKey: number;
  idMid: number;
  idLow: number;
}

export const userKeyOf = (id: string): UserKey => ({
  idKey: parseInt(id.slice(0, 8), 16) * 65536 + parseInt(id.slice(9, 13), 16),
  idMid: parseInt(id.slice(14, 18), 16) * 65536 + parseInt(id.slice(19, 23), 16),
  idLow: parseInt(id.slice(24, 36), 16),
});

/** One scored answer of a settlement: its player (and their id's key), points, and whether right. */
export interface SettledAnswer extends UserKey {
  userId: string;
  points: number;
  correct: number;
}

/** A board row as the in-process boards keep it (reached_at in microseconds; the user id's key: UserKey). */
export interface MemoryRow extends UserKey {
  userId: string;
  points: number;
  correct: number;
  answered: number;
  currentStreak: number;
  bestStreak: number;
  reachedUs: number;
}

/** Microseconds since 1970 of a timestamptz, as text (exact; a double would round past 2^53, far beyond any date here). */
const MICROS = (col: string) => sql.raw(`((extract(epoch from ${col}) * 1000000)::bigint)::text`);

type SettlementDbRow = {
  seq: string | number;
  question_issuance_id: string;
  match_id: string;
  league_id: string | null;
  is_test: boolean | null;
  resolved: boolean;
  scored_us: string;
  position: string | number | null;
  phase: number;
  cursor: string | null;
};

const SETTLEMENT_COLUMNS = sql`s.seq, s.question_issuance_id, s.match_id, m.league_id, m.is_test, s.resolved, ${MICROS('s.scored_at')} as scored_us,
  s.position, s.phase, s.cursor`;

const toSettlement = (r: SettlementDbRow): Settlement => ({
  seq: Number(r.seq),
  issuanceId: r.question_issuance_id,
  matchId: r.match_id,
  leagueId: r.league_id,
  isTest: r.is_test !== false,
  resolved: r.resolved,
  scoredUs: Number(r.scored_us),
  position: r.position === null ? null : Number(r.position),
  phase: Number(r.phase),
  cursor: r.cursor,
});

/**
 * The settlements positioned after `after` and those without a position yet,
 * in the order the applier takes them (by position, then by seq): the
 * position index's range and its nulls. The applier positions settlements
 * gap-free, in transactions it commits one after another, so a reader that
 * has seen every settlement up to a position sees each later one here.
 */
export async function settlementsSince({ db, after }: { db: DbOrTx; after: number }): Promise<Settlement[]> {
  const rows = await rowsOf<SettlementDbRow>(
    db,
    sql`select ${SETTLEMENT_COLUMNS}
        from leaderboard_settlements s left join matches m on m.id = s.match_id
        where s.position > ${after} or s.position is null
        order by s.position nulls last, s.seq`,
  );
  return rows.map(toSettlement);
}

/** The settlements not applied to every board yet (the pending index), in the applier's order, and the highest position assigned. */
export async function pendingSettlements({ db }: { db: DbOrTx }): Promise<{ pending: Settlement[]; maxPosition: number }> {
  const rows = await rowsOf<SettlementDbRow>(
    db,
    sql`select ${SETTLEMENT_COLUMNS}
        from leaderboard_settlements s left join matches m on m.id = s.match_id
        where s.phase < ${PHASE.done}
        order by s.position nulls last, s.seq`,
  );
  const [max] = await rowsOf<{ max: string | number | null }>(db, sql`select max(position) as max from leaderboard_settlements`);
  return { pending: rows.map(toSettlement), maxPosition: Number(max?.max ?? 0) };
}

/**
 * A settlement's scored answers after `after` (user id order; all without
 * it): one range of the answers' (issuance, user) index. Whether each player
 * counts is the caller's (`notCountingUsers`, kept up to date by the users'
 * announcements): a primary-key probe into the users per answer was 80% of
 * this statement's time (30,000 answers: 90 ms against 15 ms, measured).
 */
export async function settledAnswers({ db, issuanceId, after }: { db: DbOrTx; issuanceId: string; after: string | null }): Promise<SettledAnswer[]> {
  // One text value for them all (each answer: the user id, right 1/0, the points): 100,000 answers are one value to
  // receive and split, not 100,000 rows to parse (as the tie copies).
  const [row] = await rowsOf<{ answers: string | null }>(
    db,
    sql`select string_agg(a.user_id::text || (case when a.outcome = 'correct' then '1' else '0' end) || coalesce(a.points_awarded, 0)::text, ',') as answers
        from question_answers a
        where a.question_issuance_id = ${issuanceId}::uuid and a.outcome is not null ${after ? sql`and a.user_id > ${after}::uuid` : sql``}`,
  );
  if (!row?.answers) return [];
  // The ids stay slices of the text: the boards compare and keep their keys, never the text.
  return row.answers.split(',').map((t) => ({
    userId: t.slice(0, 36),
    ...userKeyOf(t),
    correct: t.charCodeAt(36) === 49 ? 1 : 0,
    points: Number(t.slice(37)),
  }));
}

/** The users who count on no board (deactivated or hidden): one scan of the users (a few, usually; 1,000,000 users: about 150 ms). */
export async function notCountingUsers({ db }: { db: DbOrTx }): Promise<Set<string>> {
  const [row] = await rowsOf<{ ids: string | null }>(
    db,
    sql`select string_agg(id::text, ',') as ids from users where not is_active or hidden_from_leaderboards`,
  );
  return new Set(row?.ids ? row.ids.split(',') : []);
}

/**
 * The users with a time zone of their own (the others are on UTC's periods),
 * a page of ids after `after` at a time (the users' primary key): 1,000,000
 * users in one statement outlast the API's statement timeout under load.
 */
export async function userZonesPage({
  db,
  after,
  limit,
}: {
  db: DbOrTx;
  after: string | null;
  limit: number;
}): Promise<{ zones: [string, string][]; last: string | null; done: boolean }> {
  const [row] = await rowsOf<{ zones: string | null; last: string | null; n: string | number }>(
    db,
    // A newline inside a zone (no valid zone has one: it counts as UTC either way) must not split the list.
    sql`select string_agg(u.id::text || translate(u.zone, chr(10), ' '), chr(10)) as zones, max(u.id::text) as last, count(*) as n
        from (select id, match_follow_timezone as zone from users ${after ? sql`where id > ${after}::uuid` : sql``} order by id limit ${limit}::int) u`,
  );
  const zones: [string, string][] = (row?.zones ? row.zones.split('\n') : []).map((t) => [t.slice(0, 36), t.slice(36)]);
  return { zones, last: row?.last ?? null, done: Number(row?.n ?? 0) < limit };
}

const parseMemoryRows = (text: string | null): MemoryRow[] => {
  const rows: MemoryRow[] = [];
  for (const t of text ? text.split(';') : []) {
    const f = t.split(',');
    rows.push({
      userId: f[0]!,
      ...userKeyOf(f[0]!),
      points: Number(f[1]),
      correct: Number(f[2]),
      answered: Number(f[3]),
      currentStreak: Number(f[4]),
      bestStreak: Number(f[5]),
      reachedUs: Number(f[6]),
    });
  }
  return rows;
};

// One text value for many rows (as settledAnswers): fields comma-separated, rows semicolon-separated.
const MEMORY_ROW_TEXT = sql`concat_ws(',', s.user_id, s.points, s.correct, s.answered, s.current_streak, s.best_streak, ${MICROS('s.reached_at')})`;

/** A board's id by its key and one user's row on it (reached_at in microseconds). Undefined when the board does not exist. */
export async function boardRow({
  db,
  key,
  userId,
}: {
  db: DbOrTx;
  key: BoardKey;
  userId: string;
}): Promise<{ id: number; row: MemoryRow | undefined } | undefined> {
  const [board] = await findBoards({ db, keys: [key] });
  if (!board) return undefined;
  const [row] = await rowsOf<{ rows: string | null }>(
    db,
    sql`select ${MEMORY_ROW_TEXT} as rows from leaderboard_scores s where s.user_id = ${userId}::uuid and s.leaderboard_id = ${board.id}::int`,
  );
  return { id: board.id, row: parseMemoryRows(row?.rows ?? null)[0] };
}

/**
 * A page of a board's rows in rank order (points desc, correct desc,
 * reached_at, user id), after `after` (the last row of the page before; the
 * first page without it): one range of the rank index. A board of 1,000,000
 * rows in one statement would outlast the API's statement timeout and hold
 * the process for seconds turning it into rows; pages of 50,000 take a
 * fraction of a second each.
 */
export async function boardRowsPage({
  db,
  boardId,
  after,
  limit,
}: {
  db: DbOrTx;
  boardId: number;
  after: MemoryRow | null;
  limit: number;
}): Promise<MemoryRow[]> {
  // After `after` in the index's order: lower points, or the same points and fewer correct, or the same both and a later
  // (reached_at, user id). `points <= p` bounds the index range; the rest filters the rows of p already read.
  const at = after ? sql`(timestamptz 'epoch' + ${after.reachedUs}::bigint * interval '1 microsecond')` : sql``;
  const rest = after
    ? sql`and s.points <= ${after.points}::int and (s.points < ${after.points}::int or s.correct < ${after.correct}::int
            or (s.correct = ${after.correct}::int and (s.reached_at, s.user_id) > (${at}, ${after.userId}::uuid)))`
    : sql``;
  const [row] = await rowsOf<{ rows: string | null }>(
    db,
    sql`select string_agg(t.line, ';' order by t.n) as rows from (
          select ${MEMORY_ROW_TEXT} as line, row_number() over () as n
          from (select * from leaderboard_scores s where s.leaderboard_id = ${boardId}::int ${rest}
                order by s.points desc, s.correct desc, s.reached_at, s.user_id limit ${limit}::int) s
        ) t`,
  );
  return parseMemoryRows(row?.rows ?? null);
}

/** Some users' names as boards show them, and whether they count on boards (active, not hidden): primary-key probes. */
export async function boardNames({
  db,
  userIds,
}: {
  db: DbOrTx;
  userIds: string[];
}): Promise<Map<string, { name: string; counts: boolean; zone: string | null }>> {
  if (!userIds.length) return new Map();
  const rows = await rowsOf<{ id: string; name: string; counts: boolean; zone: string | null }>(
    db,
    sql`select u.id, ${NAME} as name, u.is_active and not u.hidden_from_leaderboards as counts, u.match_follow_timezone as zone
        from users u where u.id = any(string_to_array(${userIds.join(',')}, ',')::uuid[])`,
  );
  return new Map(rows.map((r) => [r.id, { name: r.name, counts: r.counts, zone: r.zone }]));
}

/** One user's scored answers in some settlements (their issuances): points and whether right, by issuance. */
export async function userAnswers({
  db,
  userId,
  issuanceIds,
}: {
  db: DbOrTx;
  userId: string;
  issuanceIds: string[];
}): Promise<Map<string, { points: number; correct: number }>> {
  if (!issuanceIds.length) return new Map();
  const rows = await rowsOf<{ question_issuance_id: string; points: number; correct: boolean }>(
    db,
    sql`select a.question_issuance_id, a.points_awarded as points, a.outcome = 'correct' as correct
        from question_answers a
        where a.question_issuance_id = any(string_to_array(${issuanceIds.join(',')}, ',')::uuid[]) and a.user_id = ${userId}::uuid and a.outcome is not null`,
  );
  return new Map(rows.map((r) => [r.question_issuance_id, { points: Number(r.points ?? 0), correct: r.correct ? 1 : 0 }]));
}

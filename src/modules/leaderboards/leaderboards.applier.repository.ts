/**
 * The SQL applier's writes: a chunk of a settlement's answers added to the
 * boards of one phase (the CTE of `addChunk`, the SQL form of the rule in
 * leaderboards.rule.ts), boards created as needed, and the rebuild of a
 * user's rows (plpgsql `qp_leaderboards_rebuild`, the rule once more; both
 * are tied to the rule by tests/api/leaderboards-rule.test.ts). Every
 * writer holds LEADERBOARD_LOCK (leaderboards.queue.repository.ts).
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { boardKeyText, type BoardKey } from './leaderboards.keys.js';
import { LEADERBOARD_LOCK, rowsOf } from './leaderboards.sql.js';
import { leaderboards, type LeaderboardRow } from './leaderboards.table.js';

/**
 * The player of answer `a`, when they count on boards (active, not hidden):
 * `u.zone`, their stored time zone. One primary-key probe per answer, whatever
 * the planner thinks of the answers' statistics: right after scoring they say
 * no answer of the question is scored yet, and a plain join then scans every
 * user for a few thousand answers (measured: 1.3 s of a 2.2 s chunk at
 * 200,000 users). The LIMIT keeps the subquery from being flattened into a join.
 */
export const PLAYER_WHO_COUNTS = sql`cross join lateral (
    select u.match_follow_timezone as zone from users u where u.id = a.user_id and u.is_active and not u.hidden_from_leaderboards limit 1
  ) u`;

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

/**
 * The next chunk of a settlement's answers that count (players active and not
 * hidden), after `cursor` in user order, at most `limit`: how many, the last
 * user id, and the players' stored zones ('' for none).
 */
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

/** The ids of these boards, created when missing (in key order, so concurrent creators never deadlock). */
export async function ensureBoards({ db, keys }: { db: DbOrTx; keys: BoardKey[] }): Promise<Map<string, number>> {
  const unique = [...new Map(keys.map((k) => [boardKeyText(k), k])).values()].sort((a, b) => (boardKeyText(a) < boardKeyText(b) ? -1 : 1));
  const values = unique.map((k) => ({ scope: k.scope, scopeId: k.scopeId, period: k.period, periodStart: k.periodStart }));
  await db.insert(leaderboards).values(values).onConflictDoNothing();
  const found = await findBoards({ db, keys: unique });
  return new Map(found.map((b) => [boardKeyText(b as BoardKey), b.id]));
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

/**
 * Rebuilds one user's rows from their scored answers (none when they are
 * hidden or deactivated), and says so in `leaderboard_user_changes` with the
 * boards they were on (the boards in Redis copy these users' rows again).
 * The lock first: the change's `seq` then commits in the order it was taken.
 */
export async function rebuildUser({ tx, userId }: { tx: Tx; userId: string }): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${LEADERBOARD_LOCK})`);
  await tx.execute(
    sql`insert into leaderboard_user_changes (user_id, board_ids)
        select ${userId}::uuid, coalesce(array_agg(s.leaderboard_id), '{}') from leaderboard_scores s where s.user_id = ${userId}::uuid`,
  );
  await tx.execute(sql`select qp_leaderboards_rebuild(${userId}::uuid)`);
}

/** Rebuilds every board from the scored answers (the migration's backfill; tests compare it with what settling maintained). */
export async function rebuildAll({ tx }: { tx: Tx }): Promise<void> {
  await tx.execute(sql`select qp_leaderboards_rebuild(null)`);
}

/**
 * What the boards in Redis (leaderboards.redis.ts) read from PostgreSQL, the
 * durable truth: which settlements and user changes they have not copied
 * yet, and the current rows those touched (absolute values: a copy made
 * twice writes the same rows twice). Reads only, besides the pruning of the
 * user-change feed.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { PHASE, type BoardKey, type Period, type Phase, type Scope } from './leaderboards.keys.js';
import { LEADERBOARD_LOCK, NAME, rowsOf } from './leaderboards.sql.js';

/** A board row as copied: its board's key and the row (reached_at in microseconds). */
export interface CopiedRow {
  key: BoardKey;
  userId: string;
  /** Null: the user has no row on that board (any more). */
  row: { points: number; correct: number; answered: number; currentStreak: number; bestStreak: number; reachedUs: number } | null;
}

/** Where the copies stand: per phase the last settlement position copied, and the last user change. */
export interface CopyCursors {
  p1: number;
  p2: number;
  p3: number;
  u: number;
}

/**
 * The settlements and user changes not copied yet (`after`), read under the
 * leaderboards' lock in shared mode: every writer holds it exclusively until
 * its commit, so what is read here has no gap that a writer still in flight
 * could fill later. A settlement is past a phase only when every earlier one
 * is (the applier's order), so "position up to p" is a cursor per phase.
 */
export async function pendingCopies({
  db,
  after,
  limit,
}: {
  db: { transaction: <T>(f: (tx: Tx) => Promise<T>) => Promise<T> };
  after: CopyCursors;
  limit: number;
}): Promise<{
  settlements: { position: number; issuanceId: string; matchId: string; phase: number }[];
  users: { seq: number; userId: string; boardIds: number[] }[];
}> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock_shared(${LEADERBOARD_LOCK})`);
    const low = Math.min(after.p1, after.p2, after.p3);
    const settlements = await rowsOf<{ position: string | number; question_issuance_id: string; match_id: string; phase: number }>(
      tx,
      sql`select position, question_issuance_id, match_id, phase from leaderboard_settlements
          where position > ${low} and phase > ${PHASE.match} order by position limit ${limit}::int`,
    );
    const users = await rowsOf<{ seq: string | number; user_id: string; board_ids: number[] | string }>(
      tx,
      sql`select seq, user_id, board_ids from leaderboard_user_changes where seq > ${after.u} order by seq limit ${limit}::int`,
    );
    return {
      settlements: settlements.map((r) => ({ position: Number(r.position), issuanceId: r.question_issuance_id, matchId: r.match_id, phase: Number(r.phase) })),
      users: users.map((r) => ({ seq: Number(r.seq), userId: r.user_id, boardIds: parseIntArray(r.board_ids) })),
    };
  });
}

/** The cursors of everything committed now (a full copy starts from here), read as `pendingCopies` reads. */
export async function currentCursors({ db }: { db: { transaction: <T>(f: (tx: Tx) => Promise<T>) => Promise<T> } }): Promise<CopyCursors> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock_shared(${LEADERBOARD_LOCK})`);
    const [r] = await rowsOf<{ p1: string | number | null; p2: string | number | null; p3: string | number | null; u: string | number | null }>(
      tx,
      sql`select (select max(position) from leaderboard_settlements where phase > 1) as p1,
                 (select max(position) from leaderboard_settlements where phase > 2) as p2,
                 (select max(position) from leaderboard_settlements where phase > 3) as p3,
                 (select max(seq) from leaderboard_user_changes) as u`,
    );
    return { p1: Number(r?.p1 ?? 0), p2: Number(r?.p2 ?? 0), p3: Number(r?.p3 ?? 0), u: Number(r?.u ?? 0) };
  });
}

const parseIntArray = (v: number[] | string): number[] => (Array.isArray(v) ? v.map(Number) : v.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number));

type RawRow = {
  scope: Scope;
  scope_id: string;
  period: Period;
  period_start: string;
  user_id: string;
  points: number | null;
  correct: number | null;
  answered: number | null;
  current_streak: number | null;
  best_streak: number | null;
  reached_us: string | null;
};

const toCopied = (r: RawRow): CopiedRow => ({
  key: { scope: r.scope, scopeId: r.scope_id, period: r.period, periodStart: r.period_start },
  userId: r.user_id,
  row:
    r.points === null
      ? null
      : {
          points: Number(r.points),
          correct: Number(r.correct),
          answered: Number(r.answered),
          currentStreak: Number(r.current_streak),
          bestStreak: Number(r.best_streak),
          reachedUs: Number(r.reached_us),
        },
});

const COLUMNS = sql`b.scope, b.scope_id, b.period, b.period_start::text as period_start, s.user_id, s.points, s.correct, s.answered,
  s.current_streak, s.best_streak, ((extract(epoch from s.reached_at) * 1000000)::bigint)::text as reached_us`;

/**
 * The current rows of a settlement's answerers (after `after`, `limit` of
 * them in user order) on the boards of `phases` the settlement counts on:
 * its match's board, its league's and the whole game's all-time boards, and
 * their period boards around the settlement's time (a neighbouring period's
 * row copied as well is the same row again).
 */
export async function settlementRows({
  db,
  issuanceId,
  phases,
  after,
  limit,
}: {
  db: DbOrTx;
  issuanceId: string;
  phases: Phase[];
  after: string | null;
  limit: number;
}): Promise<{ rows: CopiedRow[]; last: string | null; answers: number }> {
  const ps = sql.join(
    phases.map((p) => sql`${p}::int`),
    sql`, `,
  );
  const rows = await rowsOf<RawRow & { last: string | null; n: string | number }>(
    db,
    sql`with q as (select s.match_id, s.scored_at, m.league_id from leaderboard_settlements s join matches m on m.id = s.match_id
                   where s.question_issuance_id = ${issuanceId}::uuid),
        a as (select a.user_id from question_answers a where a.question_issuance_id = ${issuanceId}::uuid and a.outcome is not null
              ${after ? sql`and a.user_id > ${after}::uuid` : sql``} order by a.user_id limit ${limit}::int),
        n as (select count(*) as n, max(user_id::text) as last from a),
        bs as (select b.* from leaderboards b, q where
                 (1 = any(array[${ps}]) and b.scope = 'match' and b.scope_id = q.match_id)
              or (2 = any(array[${ps}]) and b.period = 'all_time' and ((b.scope = 'league' and b.scope_id = q.league_id) or b.scope = 'overall'))
              or (3 = any(array[${ps}]) and b.period <> 'all_time' and ((b.scope = 'league' and b.scope_id = q.league_id) or b.scope = 'overall')
                  and b.period_start between (q.scored_at - interval '32 days')::date and (q.scored_at + interval '2 days')::date))
        select ${COLUMNS}, n.last, n.n
        from n left join (a join leaderboard_scores s on s.user_id = a.user_id join bs b on b.id = s.leaderboard_id) on true`,
  );
  const first = rows[0];
  return { rows: rows.filter((r) => r.user_id !== null).map(toCopied), last: first?.last ?? null, answers: Number(first?.n ?? 0) };
}

/** A user's current rows on some boards and on every board they have rows on (no row: `row` null). */
export async function userRows({ db, userId, boardIds }: { db: DbOrTx; userId: string; boardIds: number[] }): Promise<CopiedRow[]> {
  const ids = boardIds.length
    ? sql`array[${sql.join(
        boardIds.map((id) => sql`${id}::int`),
        sql`, `,
      )}]`
    : sql`'{}'::int[]`;
  const rows = await rowsOf<RawRow>(
    db,
    sql`select b.scope, b.scope_id, b.period, b.period_start::text as period_start, ${userId}::uuid as user_id, s.points, s.correct, s.answered,
               s.current_streak, s.best_streak, ((extract(epoch from s.reached_at) * 1000000)::bigint)::text as reached_us
        from leaderboards b left join leaderboard_scores s on s.leaderboard_id = b.id and s.user_id = ${userId}::uuid
        where b.id = any(${ids}) or b.id in (select leaderboard_id from leaderboard_scores where user_id = ${userId}::uuid)`,
  );
  return rows.map(toCopied);
}

/** A page of every board row, in primary-key order (user, board) after `after`: a full copy of the boards. */
export async function allRowsPage({
  db,
  after,
  limit,
}: {
  db: DbOrTx;
  after: { userId: string; boardId: number } | null;
  limit: number;
}): Promise<{ rows: CopiedRow[]; last: { userId: string; boardId: number } | null }> {
  const rows = await rowsOf<RawRow & { board_id: number }>(
    db,
    sql`select ${COLUMNS}, s.leaderboard_id as board_id
        from leaderboard_scores s join leaderboards b on b.id = s.leaderboard_id
        ${after ? sql`where (s.user_id, s.leaderboard_id) > (${after.userId}::uuid, ${after.boardId}::int)` : sql``}
        order by s.user_id, s.leaderboard_id limit ${limit}::int`,
  );
  const last = rows[rows.length - 1];
  return { rows: rows.map(toCopied), last: last && rows.length === limit ? { userId: last.user_id, boardId: Number(last.board_id) } : null };
}

/** Some users' names as boards show them. */
export async function namesOf({ db, userIds }: { db: DbOrTx; userIds: string[] }): Promise<Map<string, string>> {
  if (!userIds.length) return new Map();
  const rows = await rowsOf<{ id: string; name: string }>(
    db,
    sql`select u.id, ${NAME} as name
        from users u where u.id = any(string_to_array(${userIds.join(',')}, ',')::uuid[])`,
  );
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Deletes user changes older than a week (the boards in Redis have long copied them; a full copy needs none). */
export async function pruneUserChanges({ tx }: { tx: Tx }): Promise<void> {
  await tx.execute(sql`delete from leaderboard_user_changes where created_at < now() - interval '7 days'`);
}

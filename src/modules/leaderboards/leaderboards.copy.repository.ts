/**
 * What the boards in Redis (leaderboards.redis.ts) read from PostgreSQL, the
 * durable truth: the settlements and their answers (applied to the boards in
 * Redis by the rule, each once), the users whose rows were rebuilt (their
 * answers, from which their rows are computed again as absolute values), and
 * every board row with where the SQL applier stands (a full copy). Reads
 * only, besides the pruning of the user-change feed.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import type { ScoredOutcome } from '../../domain/vocabulary.js';
import { PLAYER_WHO_COUNTS } from './leaderboards.applier.repository.js';
import { PHASE, type BoardKey, type Period, type Phase, type Scope } from './leaderboards.keys.js';
import { LEADERBOARD_LOCK, NAME, rowsOf } from './leaderboards.sql.js';

/** A board row as copied: its board's key and the row (reached_at in microseconds). */
export interface CopiedRow {
  key: BoardKey;
  userId: string;
  /** Null: the user has no row on that board (any more). */
  row: { points: number; correct: number; answered: number; currentStreak: number; bestStreak: number; reachedUs: number } | null;
}

/**
 * Where a phase's boards in Redis stand: every settlement before `position`
 * applied, and `position` itself for the answerers up to `userId` (END: all
 * of them).
 */
export interface Marker {
  position: number;
  userId: string;
}

/** A marker's user past every user id (uuids are lowercase hex and '-'). */
export const MARKER_END = '~';

/** Whether marker `a` is before marker `b` (what `b` has applied, `a` has not all). */
export const markerBefore = (a: Marker, b: Marker): boolean => a.position < b.position || (a.position === b.position && a.userId < b.userId);

/** Where the boards in Redis stand: each phase's marker, and the last user change taken. */
export interface CopyCursors {
  d1: Marker;
  d2: Marker;
  d3: Marker;
  u: number;
}

/** The users whose rows were rebuilt after `after` (read under the leaderboards' lock in shared mode: no gap filled later). */
export async function pendingUserChanges({
  db,
  after,
  limit,
}: {
  db: { transaction: <T>(f: (tx: Tx) => Promise<T>) => Promise<T> };
  after: number;
  limit: number;
}): Promise<{ seq: number; userId: string }[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock_shared(${LEADERBOARD_LOCK})`);
    const users = await rowsOf<{ seq: string | number; user_id: string }>(
      tx,
      sql`select seq, user_id from leaderboard_user_changes where seq > ${after} order by seq limit ${limit}::int`,
    );
    return users.map((r) => ({ seq: Number(r.seq), userId: r.user_id }));
  });
}

/** A settlement as the boards in Redis take it (`leagueId` null: its match is gone or a test match, nothing to apply). */
export interface DirectSettlement {
  position: number;
  issuanceId: string;
  matchId: string;
  leagueId: string | null;
  /** scored_at, microseconds since 1970. */
  scoredUs: number;
}

/** The settlements from position `from` on, in position order (positions given: `assignPositions`). */
export async function settlementsFrom({ db, from, limit }: { db: DbOrTx; from: number; limit: number }): Promise<DirectSettlement[]> {
  const rows = await rowsOf<{ position: string | number; question_issuance_id: string; match_id: string; league_id: string | null; scored_us: string }>(
    db,
    sql`select s.position, s.question_issuance_id, s.match_id, case when m.is_test then null else m.league_id end as league_id,
               ((extract(epoch from s.scored_at) * 1000000)::bigint)::text as scored_us
        from leaderboard_settlements s left join matches m on m.id = s.match_id
        where s.position >= ${from} order by s.position limit ${limit}::int`,
  );
  return rows.map((r) => ({
    position: Number(r.position),
    issuanceId: r.question_issuance_id,
    matchId: r.match_id,
    leagueId: r.league_id,
    scoredUs: Number(r.scored_us),
  }));
}

/** A settled answer as the boards in Redis take it: its player (who counts now), outcome, points and the player's stored zone ('' none). */
export interface DirectAnswer {
  userId: string;
  outcome: ScoredOutcome;
  points: number;
  zone: string;
}

/**
 * Every scored answer of a settlement whose player counts (active, not
 * hidden), in user order: in pages of `page` answers (a statement each, so
 * none outlasts a statement's budget however large the settlement).
 */
export async function settlementAnswers({ db, issuanceId, page = 20_000 }: { db: DbOrTx; issuanceId: string; page?: number }): Promise<DirectAnswer[]> {
  const out: DirectAnswer[] = [];
  let after: string | null = null;
  for (;;) {
    const rows: { user_id: string; outcome: ScoredOutcome; points: number | string; zone: string }[] = await rowsOf(
      db,
      sql`select a.user_id, a.outcome, a.points_awarded as points, coalesce(u.zone, '') as zone
          from question_answers a ${PLAYER_WHO_COUNTS}
          where a.question_issuance_id = ${issuanceId}::uuid and a.outcome is not null ${after ? sql`and a.user_id > ${after}::uuid` : sql``}
          order by a.user_id limit ${page}::int`,
    );
    for (const r of rows) out.push({ userId: r.user_id, outcome: r.outcome, points: Number(r.points), zone: r.zone });
    if (rows.length < page) return out;
    after = rows[rows.length - 1]!.user_id;
  }
}

/** A user's scored answer as the rebuild takes it (`queued` false: settled before the queue existed, on every board). */
export interface UserAnswer {
  issuanceId: string;
  matchId: string;
  leagueId: string;
  outcome: ScoredOutcome;
  points: number;
  scoredUs: number;
  resolvedSeq: number | null;
  queued: boolean;
  position: number | null;
}

/** A user's standing (whether they count, their zone) and every scored answer of theirs on a match that is no test match. */
export async function userAnswers({ db, userId }: { db: DbOrTx; userId: string }): Promise<{ counts: boolean; zone: string | null; answers: UserAnswer[] }> {
  const [user] = await rowsOf<{ counts: boolean; zone: string | null }>(
    db,
    sql`select u.is_active and not u.hidden_from_leaderboards as counts, u.match_follow_timezone as zone from users u where u.id = ${userId}::uuid`,
  );
  const rows = await rowsOf<{
    question_issuance_id: string;
    match_id: string;
    league_id: string;
    outcome: ScoredOutcome;
    points: number | string;
    scored_us: string;
    resolved_seq: number | string | null;
    queued: boolean;
    position: number | string | null;
  }>(
    db,
    sql`select a.question_issuance_id, a.match_id, m.league_id, a.outcome, a.points_awarded as points,
               ((extract(epoch from a.scored_at) * 1000000)::bigint)::text as scored_us, i.resolved_seq, q.seq is not null as queued, q.position
        from question_answers a
        join matches m on m.id = a.match_id and not m.is_test
        join question_issuances i on i.id = a.question_issuance_id
        left join leaderboard_settlements q on q.question_issuance_id = a.question_issuance_id
        where a.user_id = ${userId}::uuid and a.outcome is not null and a.scored_at is not null`,
  );
  return {
    counts: Boolean(user?.counts),
    zone: user?.zone ?? null,
    answers: rows.map((r) => ({
      issuanceId: r.question_issuance_id,
      matchId: r.match_id,
      leagueId: r.league_id,
      outcome: r.outcome,
      points: Number(r.points),
      scoredUs: Number(r.scored_us),
      resolvedSeq: r.resolved_seq === null ? null : Number(r.resolved_seq),
      queued: Boolean(r.queued),
      position: r.position === null ? null : Number(r.position),
    })),
  };
}

/**
 * A full copy reads every row in one snapshot (repeatable read) and writes
 * them to Redis between its pages: its transaction is idle meanwhile, on
 * purpose, for as long as the copy takes.
 */
export async function keepSnapshotOpen(tx: Tx): Promise<void> {
  await tx.execute(sql`set local idle_in_transaction_session_timeout = 0`);
}

/**
 * Where PostgreSQL's boards stand (in the caller's snapshot): per phase the
 * marker of what the SQL applier has applied (every settlement past the
 * phase, and the one in the middle of it up to its cursor: a settlement
 * moves past a phase only when every earlier one has), and the last user
 * change. A full copy of the rows read in the same snapshot stands there.
 */
export async function sqlProgress({ tx }: { tx: Tx }): Promise<CopyCursors> {
  const [r] = await rowsOf<{ p1: string | number | null; p2: string | number | null; p3: string | number | null; u: string | number | null }>(
    tx,
    sql`select (select max(position) from leaderboard_settlements where phase > 1) as p1,
               (select max(position) from leaderboard_settlements where phase > 2) as p2,
               (select max(position) from leaderboard_settlements where phase > 3) as p3,
               (select max(seq) from leaderboard_user_changes) as u`,
  );
  const mid = await rowsOf<{ phase: number; position: string | number; cursor: string }>(
    tx,
    sql`select phase, position, cursor from leaderboard_settlements where phase < ${PHASE.done} and cursor is not null`,
  );
  const marker = (phase: Phase, past: string | number | null | undefined): Marker => {
    const m = mid.find((x) => Number(x.phase) === phase);
    return m ? { position: Number(m.position), userId: m.cursor } : { position: Number(past ?? 0), userId: MARKER_END };
  };
  return { d1: marker(1, r?.p1), d2: marker(2, r?.p2), d3: marker(3, r?.p3), u: Number(r?.u ?? 0) };
}

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

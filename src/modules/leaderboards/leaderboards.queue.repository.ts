/**
 * The queue of settlements the boards take in (leaderboard_settlements):
 * queued by the settling transaction, taken by the SQL applier a chunk at a
 * time (phase and cursor moved in the chunk's transaction), and the
 * leaderboards' lock every writer holds. Queueing takes no lock.
 */
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { parsePgTimestamp } from '../../domain/instants.js';
import { matches } from '../matches/matches.table.js';
import { PHASE, type Phase } from './leaderboards.keys.js';
import { LEADERBOARD_LOCK, POSITION_LOCK, rowsOf } from './leaderboards.sql.js';

export { LEADERBOARD_LOCK };

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
 * Gives the settlements not seen before their positions, in the order they
 * were queued, in a transaction of its own under POSITION_LOCK (not the
 * leaderboards' lock: the boards in Redis take a settlement without waiting
 * for the applier's chunk). Every board takes the settlements in this order:
 * the SQL applier, the boards in Redis and the rebuild. A row committed after
 * it gets its position next time, after the others.
 */
export async function assignPositions({ db }: { db: { transaction: <T>(f: (tx: Tx) => Promise<T>) => Promise<T> } }): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${POSITION_LOCK})`);
    await tx.execute(
      sql`update leaderboard_settlements s set position = n.position
          from (select seq, (select coalesce(max(position), 0) from leaderboard_settlements) + row_number() over (order by seq) as position
                from leaderboard_settlements where phase < ${PHASE.done} and position is null) n
          where s.seq = n.seq`,
    );
  });
}

/**
 * The next piece of work (the lock held; positions given by
 * `assignPositions` before): the pending settlement of the lowest phase, and
 * of those the first in position. So a settlement moves past a phase only
 * when every earlier one has, while a new settlement's match board goes
 * ahead of an older one's period boards.
 */
export async function nextQueued({ tx }: { tx: Tx }): Promise<QueuedSettlement | undefined> {
  // A row without a position yet waits for the next chunk: it comes after the others anyway.
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
    scoredAt: parsePgTimestamp(row.scored_at),
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

import { and, asc, count, desc, eq, gt, gte, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { chunks } from '../../db/sql-helpers.js';
import { dedupeKey, type FeedEvent } from '../../domain/sports/events.js';
import { matches, type MatchRow } from '../matches/matches.table.js';
import { listenerEvents, listenerLogLines, matchListeners, type ListenerEventRow, type MatchListenerRow } from './listeners.table.js';
import { activeListener, dispatchable } from '../../domain/vocabulary.js';

export type ListenerLogLineRow = typeof listenerLogLines.$inferSelect;

/** A league's matches with kick-off in [from, to), ordered by kick-off, then id; the first `limit`. */
export async function matchesScheduledIn({
  db,
  leagueId,
  from,
  to,
  limit,
}: {
  db: DbOrTx;
  leagueId: string;
  from: Date;
  to: Date;
  limit: number;
}): Promise<MatchRow[]> {
  return db
    .select()
    .from(matches)
    .where(and(eq(matches.leagueId, leagueId), gte(matches.scheduled, from), lt(matches.scheduled, to)))
    .orderBy(asc(matches.scheduled), asc(matches.id))
    .limit(limit);
}

/** Every listener of these matches, newest first (one query for them all). */
export async function listenersOfMatches({ db, matchIds }: { db: DbOrTx; matchIds: readonly string[] }): Promise<MatchListenerRow[]> {
  if (!matchIds.length) return [];
  return db
    .select()
    .from(matchListeners)
    .where(inArray(matchListeners.matchId, [...matchIds]))
    .orderBy(desc(matchListeners.createdAt), desc(matchListeners.id));
}

export async function findListener({ db, id }: { db: DbOrTx; id: string }): Promise<MatchListenerRow | undefined> {
  const [row] = await db.select().from(matchListeners).where(eq(matchListeners.id, id)).limit(1);
  return row;
}

/** Up to `limit` log lines after line `after`, oldest first. */
export async function logLinesAfter({
  db,
  listenerId,
  after,
  limit,
}: {
  db: DbOrTx;
  listenerId: string;
  after: number;
  limit: number;
}): Promise<ListenerLogLineRow[]> {
  return db
    .select()
    .from(listenerLogLines)
    .where(and(eq(listenerLogLines.listenerId, listenerId), gt(listenerLogLines.lineNo, after)))
    .orderBy(asc(listenerLogLines.lineNo))
    .limit(limit);
}

/** The whole log, read in pages (keyset on line_no) so a download never holds it all. */
export async function* allLogLines({
  db,
  listenerId,
  pageSize = 1000,
}: {
  db: DbOrTx;
  listenerId: string;
  pageSize?: number;
}): AsyncGenerator<ListenerLogLineRow[]> {
  let after = -1;
  for (;;) {
    const page = await logLinesAfter({ db, listenerId, after, limit: pageSize });
    if (page.length) yield page;
    if (page.length < pageSize) return;
    after = page[page.length - 1]!.lineNo;
  }
}

/** Every message the listener consumed, in the order it consumed them (seqs may jump, repeat or restart). */
export async function eventsOfListener({ db, listenerId }: { db: DbOrTx; listenerId: string }): Promise<ListenerEventRow[]> {
  return db.select().from(listenerEvents).where(eq(listenerEvents.listenerId, listenerId)).orderBy(asc(listenerEvents.id));
}

// ---------------------------------------------------------------------------
// Writes. This module is the only writer of its tables: the queue, the claims
// and leases, the progress, the recordings and the logs. The live engine's
// store composes these (src/engine/store.ts); match control enqueues and
// stops through the listeners service.
// ---------------------------------------------------------------------------

/**
 * A listener's process no longer holds its lease: it must write nothing more.
 * `removed`: its row is gone (an operator restarted the test match's replay, or
 * deleted the match), not taken over by another process.
 */
export class LeaseLostError extends Error {
  constructor(
    listenerId: string,
    readonly removed = false,
  ) {
    super(
      removed
        ? `listener ${listenerId}: removed (its replay was restarted or its match deleted)`
        : `listener ${listenerId}: the lease is held by another process`,
    );
    this.name = 'LeaseLostError';
  }
}

/** Whether the listener's row still exists: a lease lost to a removal is not a takeover. */
async function listenerExists(db: DbOrTx, id: string): Promise<boolean> {
  const [row] = await db.select({ id: matchListeners.id }).from(matchListeners).where(eq(matchListeners.id, id));
  return Boolean(row);
}

export interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  at?: Date;
}

export type ProgressValues = Partial<
  Pick<
    MatchListenerRow,
    'lastSeq' | 'eventsConsumed' | 'eventsTotal' | 'issuedCount' | 'deniedCount' | 'resolvedCount' | 'lastEventAt' | 'stateStore' | 'error'
  >
>;

export interface EnqueueValues {
  matchId: string;
  source: 'feed' | 'replay';
  feedUrl?: string | null;
  replayMatchId?: string | null;
  speed?: number | null;
}

const leaseUntil = (leaseMs: number) => sql`now() + (${leaseMs} * interval '1 millisecond')`;

/**
 * A queued listener for the match, or the queued/running one it already
 * has (one active listener per match is settled by a partial unique index).
 */
export async function enqueueListener({ db, values }: { db: DbOrTx; values: EnqueueValues }): Promise<{ listener: MatchListenerRow; created: boolean }> {
  const [created] = await db
    .insert(matchListeners)
    .values({ ...values, status: 'queued' })
    .onConflictDoNothing()
    .returning();
  if (created) return { listener: created, created: true };
  const [active] = await db
    .select()
    .from(matchListeners)
    .where(and(eq(matchListeners.matchId, values.matchId), activeListener.sql(matchListeners.status)))
    .limit(1);
  if (!active) throw new Error(`could not enqueue a listener for match ${values.matchId}`);
  return { listener: active, created: false };
}

/** Claims one queued listener, or a running one whose lease ran out (its process died). */
export async function claimListener({ db, workerId, leaseMs }: { db: DbOrTx; workerId: string; leaseMs: number }): Promise<MatchListenerRow | undefined> {
  const [listener] = await db
    .update(matchListeners)
    .set({
      status: 'running',
      claimedBy: workerId,
      heartbeatAt: sql`now()`,
      leaseExpiresAt: leaseUntil(leaseMs),
      startedAt: sql`coalesce(${matchListeners.startedAt}, now())`,
    })
    .where(
      eq(
        matchListeners.id,
        sql`(
          select id from ${matchListeners}
          where (status = 'queued' or (status = 'running' and lease_expires_at < now())) and not stop_requested
          order by created_at
          for update skip locked
          limit 1
        )`,
      ),
    )
    .returning();
  return listener;
}

/** Renews the lease; `owned` is false when another process has taken the listener over, or (`removed`) its row is gone. */
export async function renewLease({
  db,
  id,
  workerId,
  leaseMs,
}: {
  db: DbOrTx;
  id: string;
  workerId: string;
  leaseMs: number;
}): Promise<{ owned: boolean; stopRequested: boolean; removed: boolean }> {
  const [row] = await db
    .update(matchListeners)
    .set({ heartbeatAt: sql`now()`, leaseExpiresAt: leaseUntil(leaseMs) })
    .where(and(eq(matchListeners.id, id), eq(matchListeners.claimedBy, workerId), eq(matchListeners.status, 'running')))
    .returning({ stopRequested: matchListeners.stopRequested });
  if (row) return { owned: true, stopRequested: row.stopRequested, removed: false };
  return { owned: false, stopRequested: false, removed: !(await listenerExists(db, id)) };
}

/**
 * The lease fence of a batch: the listener row, locked for the rest of the
 * transaction, must still be claimed by this worker. A process that lost
 * its lease gets a LeaseLostError and its transaction writes nothing; a
 * claim by another process waits for a batch in flight.
 */
export async function holdLease({ tx, listenerId, workerId }: { tx: Tx; listenerId: string; workerId: string }): Promise<void> {
  const [owned] = await tx
    .select({ id: matchListeners.id })
    .from(matchListeners)
    .where(and(eq(matchListeners.id, listenerId), eq(matchListeners.claimedBy, workerId), eq(matchListeners.status, 'running')))
    .for('update');
  if (!owned) throw new LeaseLostError(listenerId, !(await listenerExists(tx, listenerId)));
}

/** Saves progress (the resume point, counters, state store) and renews the lease, while the lease is ours. */
export async function saveListenerProgress({
  db,
  id,
  workerId,
  leaseMs,
  values,
}: {
  db: DbOrTx;
  id: string;
  workerId: string;
  leaseMs?: number | undefined;
  values: ProgressValues;
}): Promise<boolean> {
  const rows = await db
    .update(matchListeners)
    .set({ ...values, ...(leaseMs ? { heartbeatAt: sql`now()`, leaseExpiresAt: leaseUntil(leaseMs) } : {}) })
    .where(and(eq(matchListeners.id, id), eq(matchListeners.claimedBy, workerId)))
    .returning({ id: matchListeners.id });
  return rows.length > 0;
}

/** Hands a listener back to the queue (graceful shutdown): another process picks it up at once. */
export async function releaseListener({ db, id, workerId }: { db: DbOrTx; id: string; workerId: string }): Promise<void> {
  await db
    .update(matchListeners)
    .set({ status: 'queued', claimedBy: null, leaseExpiresAt: null })
    .where(and(eq(matchListeners.id, id), eq(matchListeners.claimedBy, workerId), eq(matchListeners.status, 'running')));
}

/** Ends a queued or running listener (claimed by `workerId`, when given). */
export async function finishListener({
  db,
  id,
  workerId,
  status,
  error,
}: {
  db: DbOrTx;
  id: string;
  workerId: string | null;
  status: 'completed' | 'stopped' | 'failed';
  error?: string | null | undefined;
}): Promise<void> {
  await db
    .update(matchListeners)
    .set({ status, error: error ?? null, finishedAt: sql`now()`, leaseExpiresAt: null })
    .where(and(eq(matchListeners.id, id), workerId ? eq(matchListeners.claimedBy, workerId) : undefined, activeListener.sql(matchListeners.status)));
}

/** Marks the queued and running listeners of a match to stop; queued ones stop at once. Returns their ids. */
export async function requestStop({ tx, matchId }: { tx: Tx; matchId: string }): Promise<string[]> {
  const active = await tx
    .select({ id: matchListeners.id, status: matchListeners.status })
    .from(matchListeners)
    .where(and(eq(matchListeners.matchId, matchId), activeListener.sql(matchListeners.status)))
    .for('update');
  if (!active.length) return [];
  const queued = active.filter((l) => l.status === 'queued').map((l) => l.id);
  const running = active.filter((l) => l.status === 'running').map((l) => l.id);
  if (queued.length)
    await tx
      .update(matchListeners)
      .set({ status: 'stopped', stopRequested: true, finishedAt: sql`now()` })
      .where(inArray(matchListeners.id, queued));
  // A running listener stops at its next heartbeat; it can no longer be claimed meanwhile.
  if (running.length) await tx.update(matchListeners).set({ stopRequested: true }).where(inArray(matchListeners.id, running));
  return active.map((l) => l.id);
}

/**
 * Running listeners whose stop was requested but whose process is gone
 * (lease ran out): stopped here. Returns their matches.
 */
export async function reapStopped({ db }: { db: DbOrTx }): Promise<string[]> {
  const rows = await db
    .update(matchListeners)
    .set({ status: 'stopped', finishedAt: sql`now()` })
    .where(
      and(
        eq(matchListeners.status, 'running'),
        eq(matchListeners.stopRequested, true),
        or(isNull(matchListeners.leaseExpiresAt), sql`${matchListeners.leaseExpiresAt} < now()`),
      ),
    )
    .returning({ matchId: matchListeners.matchId });
  return rows.map((r) => r.matchId);
}

/** Live matches with a feed that should have a listener and have none (auto-dispatch), at most 50. */
export async function matchesToDispatch({ db, horizonMinutes, anyFeed }: { db: DbOrTx; horizonMinutes: number; anyFeed: boolean }): Promise<MatchRow[]> {
  return db
    .select()
    .from(matches)
    .where(
      and(
        eq(matches.autoDispatchListener, true),
        eq(matches.isTest, false),
        // Without its own feed, a match gets the template's, unless an operator detached its feed.
        anyFeed ? sql`(${matches.feedUrl} is not null or not ${matches.feedUrlByOperator})` : sql`${matches.feedUrl} is not null`,
        dispatchable.sql(matches.status),
        lte(matches.scheduled, sql`now() + (${horizonMinutes} * interval '1 minute')`),
        sql`${matches.scheduled} > now() - interval '12 hours'`,
        // Not while one is active, not after one completed or an operator stopped one; a failed one is retried after a minute.
        sql`not exists (select 1 from ${matchListeners} l where l.match_id = ${matches.id} and (l.status in ('queued', 'running', 'completed', 'stopped') or (l.status = 'failed' and l.finished_at > now() - interval '1 minute')))`,
      ),
    )
    .limit(50);
}

/** Records consumed feed messages, one row per message (its content key: a redelivery is not recorded twice). */
export async function recordEvents({
  db,
  listenerId,
  matchId,
  events,
}: {
  db: DbOrTx;
  listenerId: string;
  matchId: string;
  events: FeedEvent[];
}): Promise<void> {
  for (const chunk of chunks(events)) {
    await db
      .insert(listenerEvents)
      .values(
        chunk.map((e) => ({ listenerId, matchId, seq: e.seq, providerEventId: e.provider_event_id, operation: e.operation, eventKey: dedupeKey(e), event: e })),
      )
      .onConflictDoNothing();
  }
}

/** What a listener consumed, in arrival order (a takeover rebuilds its event store from it). */
export async function listenerRecording({ db, listenerId }: { db: DbOrTx; listenerId: string }): Promise<FeedEvent[]> {
  const rows = await db
    .select({ event: listenerEvents.event })
    .from(listenerEvents)
    .where(eq(listenerEvents.listenerId, listenerId))
    .orderBy(asc(listenerEvents.id));
  return rows.map((r) => r.event);
}

/** Every message recorded for a match (all its listeners), in arrival order, each message once (by content, not seq). */
export async function matchRecording({ db, matchId }: { db: DbOrTx; matchId: string }): Promise<FeedEvent[]> {
  const rows = await db.select({ event: listenerEvents.event }).from(listenerEvents).where(eq(listenerEvents.matchId, matchId)).orderBy(asc(listenerEvents.id));
  const seen = new Set<string>();
  const out: FeedEvent[] = [];
  for (const r of rows) {
    // Keys of rows recorded before keys existed differ in form: the event's own key decides.
    const key = dedupeKey(r.event);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(r.event);
  }
  return out;
}

/** The number the listener's next log line takes. */
export async function nextLogLine({ db, listenerId }: { db: DbOrTx; listenerId: string }): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`coalesce(max(${listenerLogLines.lineNo}), 0)::int` })
    .from(listenerLogLines)
    .where(eq(listenerLogLines.listenerId, listenerId));
  return (row?.n ?? 0) + 1;
}

/** Appends log lines numbered from `firstLineNo` (a line already written under its number is kept). */
export async function writeLog({
  db,
  listenerId,
  firstLineNo,
  lines,
}: {
  db: DbOrTx;
  listenerId: string;
  firstLineNo: number;
  lines: LogLine[];
}): Promise<void> {
  let n = firstLineNo;
  for (const chunk of chunks(lines)) {
    await db
      .insert(listenerLogLines)
      .values(chunk.map((l) => ({ listenerId, lineNo: n++, level: l.level, message: l.message.slice(0, 4000), at: l.at ?? new Date() })))
      .onConflictDoNothing();
  }
}

/** Deletes every listener of the match with its recording and log (a test match replayed again from the start). */
export async function deleteListenersOfMatch({ tx, matchId }: { tx: Tx; matchId: string }): Promise<void> {
  await tx.delete(matchListeners).where(eq(matchListeners.matchId, matchId));
}

/** How many feed events the listeners of a match recorded (a closed match can be replayed only if some were). */
export async function recordedEventCount({ db, matchId }: { db: DbOrTx; matchId: string }): Promise<number> {
  const [recorded] = await db.select({ n: count() }).from(listenerEvents).where(eq(listenerEvents.matchId, matchId));
  return recorded?.n ?? 0;
}

import { and, asc, desc, eq, exists, lte, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { questionIssuanceDenials, type IssuanceDenialRow } from '../denials/denials.table.js';
import { listenerEvents, matchListeners } from '../listeners/listeners.table.js';
import { matches, type MatchRow } from '../matches/matches.table.js';
import { questionIssuances, type QuestionIssuanceRow } from './issuances.table.js';
import {
  activeListener,
  notStarted,
  stopsInGameQuestions,
  unsettled,
  type IssuanceStatus,
  type QuestionKind,
  type StatusSet,
} from '../../domain/vocabulary.js';
import type { FeedEvent } from '../../domain/sports/events.js';

export async function findMatch({ db, id }: { db: DbOrTx; id: string }): Promise<MatchRow | undefined> {
  const [row] = await db.select().from(matches).where(eq(matches.id, id)).limit(1);
  return row;
}

/** A match's issuances of one kind (undefined: both), optionally only some statuses, ordered by issue time, then id. */
export async function listIssuances({
  db,
  matchId,
  kind,
  statuses,
}: {
  db: DbOrTx;
  matchId: string;
  kind: QuestionKind | undefined;
  statuses?: StatusSet<IssuanceStatus> | undefined;
}): Promise<QuestionIssuanceRow[]> {
  return db
    .select()
    .from(questionIssuances)
    .where(
      and(
        eq(questionIssuances.matchId, matchId),
        kind ? eq(questionIssuances.kind, kind) : undefined,
        statuses ? statuses.sql(questionIssuances.status) : undefined,
      ),
    )
    .orderBy(asc(questionIssuances.issuedAt), asc(questionIssuances.id));
}

/** A match's in-game issuances, ordered by issue time, then id. */
export const listInGameIssuances = ({ db, matchId }: { db: DbOrTx; matchId: string }) => listIssuances({ db, matchId, kind: 'in_game' });

/** A page of a match's blocked issuance attempts, newest first, and how many match the filter in all. */
export async function listDenials({
  db,
  matchId,
  failedStep,
  limit,
  offset,
}: {
  db: DbOrTx;
  matchId: string;
  failedStep?: string | undefined;
  limit: number;
  offset: number;
}): Promise<{ rows: IssuanceDenialRow[]; total: number }> {
  const where = and(eq(questionIssuanceDenials.matchId, matchId), failedStep !== undefined ? eq(questionIssuanceDenials.failedStep, failedStep) : undefined);
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(questionIssuanceDenials)
      .where(where)
      .orderBy(desc(questionIssuanceDenials.createdAt), desc(questionIssuanceDenials.id))
      .limit(limit)
      .offset(offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(questionIssuanceDenials)
      .where(where),
  ]);
  return { rows, total: count?.n ?? 0 };
}

export interface TimelineEventRow {
  providerEventId: string;
  /** Feed position where the event first appeared. */
  firstSeq: number;
  /** The latest version of the event (the normalized FeedEvent). */
  event: FeedEvent;
  receivedAt: Date;
}

/**
 * The latest version of every provider event any listener of the match
 * consumed, in one query: versions are ranked by feed position (then arrival),
 * events whose latest version is a delete are left out, and the rest are
 * ordered by where each first appeared in the feed (then first arrival).
 */
export async function latestEventVersions({ db, matchId }: { db: DbOrTx; matchId: string }): Promise<TimelineEventRow[]> {
  const byEvent = sql`partition by ${listenerEvents.providerEventId}`;
  const versions = db
    .select({
      providerEventId: listenerEvents.providerEventId,
      operation: listenerEvents.operation,
      event: listenerEvents.event,
      receivedAt: listenerEvents.receivedAt,
      firstSeq: sql<number>`min(${listenerEvents.seq}) over (${byEvent})`.as('first_seq'),
      firstId: sql<string>`min(${listenerEvents.id}) over (${byEvent})`.as('first_id'),
      versionRank: sql<string>`row_number() over (${byEvent} order by ${listenerEvents.seq} desc, ${listenerEvents.id} desc)`.as('version_rank'),
    })
    .from(listenerEvents)
    .where(eq(listenerEvents.matchId, matchId))
    .as('versions');
  const rows = await db
    .select({ providerEventId: versions.providerEventId, firstSeq: versions.firstSeq, event: versions.event, receivedAt: versions.receivedAt })
    .from(versions)
    .where(and(sql`${versions.versionRank} = 1`, ne(versions.operation, 'delete')))
    .orderBy(asc(versions.firstSeq), asc(versions.firstId));
  return rows.map((r) => ({ ...r, firstSeq: Number(r.firstSeq) }));
}

// ---------------------------------------------------------------------------
// Writes. This module is the only writer of question_issuances: issuing,
// locking and settling (resolved, voided, revoked). Every settlement runs the
// caller's `onSettle` (the scoring of the answers) in the same transaction.
// ---------------------------------------------------------------------------

export type NewIssuance = typeof questionIssuances.$inferInsert;

/** What runs inside every settling transaction, whoever settles: the scoring of the question's answers. */
export type SettleInTx = (tx: Tx, row: QuestionIssuanceRow) => Promise<void>;

async function scored(tx: Tx, rows: QuestionIssuanceRow[], onSettle: SettleInTx): Promise<QuestionIssuanceRow[]> {
  for (const row of rows) await onSettle(tx, row);
  return rows;
}

/**
 * Moves an open or locked issuance to resolved, voided or revoked; a row
 * that is no longer open is left alone (never re-graded). Runs in `tx`.
 */
export async function settleIssuance({
  tx,
  onSettle,
  id,
  status,
  correct,
  resolvedSeq,
  resolutionEventId,
}: {
  tx: Tx;
  onSettle: SettleInTx;
  id: string;
  status: 'resolved' | 'voided' | 'revoked';
  correct: string | null;
  resolvedSeq: number | null;
  resolutionEventId: string | null;
}): Promise<QuestionIssuanceRow | undefined> {
  const rows = await tx
    .update(questionIssuances)
    .set({ status, correctAnswerIdentifier: correct, resolvedAt: sql`now()`, resolvedSeq, resolutionEventId, updatedAt: sql`now()` })
    .where(and(eq(questionIssuances.id, id), unsettled.sql(questionIssuances.status)))
    .returning();
  return (await scored(tx, rows, onSettle))[0];
}

/** Settles an in-game question found by its trigger (match, definition, triggering event). */
export async function settleByTrigger({
  tx,
  onSettle,
  ...k
}: {
  tx: Tx;
  onSettle: SettleInTx;
  matchId: string;
  definitionId: string;
  triggerEventId: string;
  status: 'resolved' | 'voided';
  correct: string | null;
  resolvedSeq: number;
  resolutionEventId: string;
}): Promise<QuestionIssuanceRow | undefined> {
  const rows = await tx
    .update(questionIssuances)
    .set({
      status: k.status,
      correctAnswerIdentifier: k.correct,
      resolvedAt: sql`now()`,
      resolvedSeq: k.resolvedSeq,
      resolutionEventId: k.resolutionEventId,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(questionIssuances.matchId, k.matchId),
        eq(questionIssuances.definitionId, k.definitionId),
        eq(questionIssuances.triggerEventId, k.triggerEventId),
        unsettled.sql(questionIssuances.status),
      ),
    )
    .returning();
  return (await scored(tx, rows, onSettle))[0];
}

/**
 * Settles every open in-game question of a match (their answers score void):
 * `revoked` when an operator stopped its listener, `voided` when nothing can
 * resolve them any more. Returns the rows settled, for the after-commit hooks.
 */
export async function settleOpenOfMatch({
  tx,
  onSettle,
  matchId,
  status,
}: {
  tx: Tx;
  onSettle: SettleInTx;
  matchId: string;
  status: 'revoked' | 'voided';
}): Promise<QuestionIssuanceRow[]> {
  const rows = await tx
    .update(questionIssuances)
    .set({ status, correctAnswerIdentifier: null, resolvedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(questionIssuances.matchId, matchId), eq(questionIssuances.kind, 'in_game'), eq(questionIssuances.status, 'open')))
    .returning();
  return scored(tx, rows, onSettle);
}

/**
 * The safety net: voids open in-game questions that nothing can resolve any
 * more, those of matches whose status stops them (closed, cancelled, postponed), or with no queued or running
 * listener (a listener whose process died is still running until another
 * takes it over: its questions wait for it).
 */
export async function voidOrphaned({ tx, onSettle }: { tx: Tx; onSettle: SettleInTx }): Promise<QuestionIssuanceRow[]> {
  const rows = await tx
    .update(questionIssuances)
    .set({ status: 'voided', correctAnswerIdentifier: null, resolvedAt: sql`now()`, updatedAt: sql`now()` })
    .where(
      and(
        eq(questionIssuances.kind, 'in_game'),
        eq(questionIssuances.status, 'open'),
        sql`exists (
          select 1 from ${matches} m where m.id = ${questionIssuances.matchId} and (
            ${stopsInGameQuestions.sql(sql`m.status`)}
            or not exists (select 1 from ${matchListeners} l where l.match_id = m.id and ${activeListener.sql(sql`l.status`)})
          ))`,
      ),
    )
    .returning();
  return scored(tx, rows, onSettle);
}

/**
 * Inserts an in-game issuance. Undefined when this trigger already issued (a
 * feed read again by a later listener of the match); only the trigger's own
 * index means that: any other clash (a question number) is an error, never a
 * silent skip.
 */
export async function insertInGameIssuance({ tx, values }: { tx: Tx; values: NewIssuance }): Promise<QuestionIssuanceRow | undefined> {
  const [row] = await tx
    .insert(questionIssuances)
    .values(values)
    .onConflictDoNothing({ target: [questionIssuances.matchId, questionIssuances.definitionId, questionIssuances.triggerEventId] })
    .returning();
  return row;
}

/** Inserts a Match question's issuance; undefined when the pair (match, definition) already issued. */
export async function insertMatchIssuance({ tx, values }: { tx: Tx; values: NewIssuance }): Promise<QuestionIssuanceRow | undefined> {
  const [row] = await tx.insert(questionIssuances).values(values).onConflictDoNothing().returning();
  return row;
}

/**
 * Kick-off: open Match questions lock at their closing time, or as soon as
 * their match has started (or was called off). Returns the rows locked.
 */
export async function lockStartedMatchQuestions({ db, now }: { db: DbOrTx; now: Date }): Promise<QuestionIssuanceRow[]> {
  const startedMatches = db
    .select({ id: matches.id })
    .from(matches)
    .where(and(eq(matches.id, questionIssuances.matchId), notStarted.notSql(matches.status)));
  return db
    .update(questionIssuances)
    .set({ status: 'locked', updatedAt: sql`now()` })
    .where(and(eq(questionIssuances.kind, 'match'), eq(questionIssuances.status, 'open'), or(lte(questionIssuances.closesAt, now), exists(startedMatches))))
    .returning();
}

/** A moved kick-off moves the closing time (the lock) of its open Match questions with it: the matches with these sr_ids. */
export async function moveMatchQuestionsClosing({ tx, srIds }: { tx: Tx; srIds: string[] }): Promise<void> {
  if (!srIds.length) return;
  await tx.execute(sql`update ${questionIssuances} qi set closes_at = m.scheduled, updated_at = now()
    from ${matches} m
    where qi.match_id = m.id and qi.kind = 'match' and qi.status = 'open' and qi.closes_at <> m.scheduled
      and m.sr_id in (${sql.join(
        srIds.map((id) => sql`${id}`),
        sql`, `,
      )})`);
}

/** Deletes every question issued on the match; their answers and feedback go with them (a test match replayed again from the start). */
export async function deleteIssuancesOfMatch({ tx, matchId }: { tx: Tx; matchId: string }): Promise<void> {
  await tx.delete(questionIssuances).where(eq(questionIssuances.matchId, matchId));
}

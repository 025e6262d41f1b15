import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { questionIssuanceDenials, type IssuanceDenialRow } from '../denials/denials.table.js';
import { listenerEvents } from '../listeners/listeners.table.js';
import { matches, type MatchRow } from '../matches/matches.table.js';
import { questionIssuances, type QuestionIssuanceRow } from './issuances.table.js';

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
  kind: 'in_game' | 'match' | undefined;
  statuses?: readonly string[] | undefined;
}): Promise<QuestionIssuanceRow[]> {
  return db
    .select()
    .from(questionIssuances)
    .where(and(eq(questionIssuances.matchId, matchId), kind ? eq(questionIssuances.kind, kind) : undefined, statuses ? inArray(questionIssuances.status, [...statuses]) : undefined))
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
    db.select().from(questionIssuanceDenials).where(where).orderBy(desc(questionIssuanceDenials.createdAt), desc(questionIssuanceDenials.id)).limit(limit).offset(offset),
    db.select({ n: sql<number>`count(*)::int` }).from(questionIssuanceDenials).where(where),
  ]);
  return { rows, total: count?.n ?? 0 };
}

export interface TimelineEventRow {
  providerEventId: string;
  /** Feed position where the event first appeared. */
  firstSeq: number;
  /** The latest version of the event (normalized FeedEvent JSON). */
  event: Record<string, unknown>;
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

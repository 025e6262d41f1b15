import { and, asc, desc, eq, gt, gte, inArray, lt } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { matches, type MatchRow } from '../matches/matches.table.js';
import { listenerEvents, listenerLogLines, matchListeners, type ListenerEventRow, type MatchListenerRow } from './listeners.table.js';

export type ListenerLogLineRow = typeof listenerLogLines.$inferSelect;

/** A league's matches with kick-off in [from, to), ordered by kick-off, then id; the first `limit`. */
export async function matchesScheduledIn({ db, leagueId, from, to, limit }: { db: DbOrTx; leagueId: string; from: Date; to: Date; limit: number }): Promise<MatchRow[]> {
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
export async function logLinesAfter({ db, listenerId, after, limit }: { db: DbOrTx; listenerId: string; after: number; limit: number }): Promise<ListenerLogLineRow[]> {
  return db
    .select()
    .from(listenerLogLines)
    .where(and(eq(listenerLogLines.listenerId, listenerId), gt(listenerLogLines.lineNo, after)))
    .orderBy(asc(listenerLogLines.lineNo))
    .limit(limit);
}

/** The whole log, read in pages (keyset on line_no) so a download never holds it all. */
export async function* allLogLines({ db, listenerId, pageSize = 1000 }: { db: DbOrTx; listenerId: string; pageSize?: number }): AsyncGenerator<ListenerLogLineRow[]> {
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

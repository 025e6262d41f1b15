import { and, asc, desc, eq, getTableColumns, gt, gte, inArray, isNull, lt, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { prepared, preparedInTransaction } from '../../db/prepared.js';
import { anyUuid } from '../../db/sql-helpers.js';
import type { DbOrTx, Tx } from '../../db/client.js';
import { questionIssuances, type QuestionIssuanceRow } from '../issuances/issuances.table.js';
import { leagues } from '../leagues/leagues.table.js';
import { isLive, notStarted } from '../../domain/vocabulary.js';
import { matches, matchFollows, type MatchRow } from '../matches/matches.table.js';
import { questionAnswers, type QuestionAnswerRow } from './answers.table.js';
import type { CalendarPeriod } from '../shared/calendar.js';

export interface IssuanceForAnswer {
  issuance: QuestionIssuanceRow;
  following: boolean;
  matchStatus: string;
}

type Value<T> = T | Placeholder;

/** The answer's lock: the issuance, whether the user follows its match, and the match's status (see lockIssuanceForAnswer). */
export function lockIssuanceQuery(db: DbOrTx, { issuanceId, userId }: { issuanceId: Value<string>; userId: Value<string> }) {
  return db
    .select({ issuance: questionIssuances, following: sql<boolean>`coalesce(${matchFollows.following}, false)`, matchStatus: matches.status })
    .from(questionIssuances)
    .innerJoin(matches, eq(matches.id, questionIssuances.matchId))
    .leftJoin(matchFollows, and(eq(matchFollows.matchId, questionIssuances.matchId), eq(matchFollows.userId, userId as string)))
    .where(eq(questionIssuances.id, issuanceId as string))
    .for('share', { of: questionIssuances });
}

/** The issuance, locked against settling while the answer is written, whether the user follows its match, and the match's status. */
export async function lockIssuanceForAnswer({
  tx,
  issuanceId,
  userId,
}: {
  tx: Tx;
  issuanceId: string;
  userId: string;
}): Promise<IssuanceForAnswer | undefined> {
  const query = preparedInTransaction(tx, 'answers_lock_issuance', (on) =>
    lockIssuanceQuery(on, { issuanceId: sql.placeholder('issuanceId'), userId: sql.placeholder('userId') }).prepare('answers_lock_issuance'),
  );
  const [row] = await query.execute({ issuanceId, userId });
  return row;
}

type AnswerValues = { userId: string; questionIssuanceId: string; matchId: string; selectedAnswerIdentifier: string };

/** The answer's upsert (see upsertAnswer). */
export function upsertAnswerQuery(db: DbOrTx, values: { [K in keyof AnswerValues]: Value<string> }) {
  return db
    .insert(questionAnswers)
    .values(values as AnswerValues)
    .onConflictDoUpdate({
      target: [questionAnswers.userId, questionAnswers.questionIssuanceId],
      set: { selectedAnswerIdentifier: values.selectedAnswerIdentifier as string, updatedAt: sql`now()` },
    })
    .returning({ ...getTableColumns(questionAnswers), created: sql<boolean>`(xmax = 0)` });
}

/** Creates or replaces the user's answer; `created` tells which (from the database, not a prior read). */
export async function upsertAnswer({ tx, values }: { tx: Tx; values: AnswerValues }): Promise<{ answer: QuestionAnswerRow; created: boolean }> {
  const query = preparedInTransaction(tx, 'answers_upsert', (on) =>
    upsertAnswerQuery(on, {
      userId: sql.placeholder('userId'),
      questionIssuanceId: sql.placeholder('questionIssuanceId'),
      matchId: sql.placeholder('matchId'),
      selectedAnswerIdentifier: sql.placeholder('selectedAnswerIdentifier'),
    }).prepare('answers_upsert'),
  );
  const [row] = await query.execute(values);
  const { created, ...answer } = row!;
  return { answer, created };
}

export interface OpenRow {
  issuance: QuestionIssuanceRow;
  match: MatchRow;
  league: string;
  currentAnswer: string | null;
  /** When the caller first answered (null: not yet). */
  answeredAt: Date | null;
  /** How everyone answered so far: shown once the caller has answered (filled by the answers service). */
  crowd?: Record<string, number> | null;
}

/**
 * Unresolved, still answerable issuances on matches the user follows that are
 * live or scheduled within the window: one query.
 */

function openQuery(
  db: DbOrTx,
  {
    userId,
    now,
    windowFrom,
    windowTo,
    matchIds,
  }: { userId: Value<string>; now: Value<Date>; windowFrom: Value<Date>; windowTo: Value<Date>; matchIds?: string[] | undefined },
) {
  return db
    .select({
      issuance: questionIssuances,
      match: matches,
      league: leagues.slug,
      currentAnswer: questionAnswers.selectedAnswerIdentifier,
      answeredAt: questionAnswers.createdAt,
    })
    .from(questionIssuances)
    .innerJoin(matches, eq(matches.id, questionIssuances.matchId))
    .innerJoin(leagues, eq(leagues.id, matches.leagueId))
    .innerJoin(matchFollows, and(eq(matchFollows.matchId, matches.id), eq(matchFollows.userId, userId as string), eq(matchFollows.following, true)))
    .leftJoin(questionAnswers, and(eq(questionAnswers.questionIssuanceId, questionIssuances.id), eq(questionAnswers.userId, userId as string)))
    .where(
      and(
        eq(questionIssuances.status, 'open'),
        gt(questionIssuances.closesAt, now as Date),
        // A Match question of a match that has started is locked, even before the worker marks it.
        or(eq(questionIssuances.kind, 'in_game'), notStarted.sql(matches.status)),
        or(isLive.sql(matches.status), and(gte(matches.scheduled, windowFrom as Date), lt(matches.scheduled, windowTo as Date))),
        matchIds ? inArray(matches.id, matchIds) : undefined,
      ),
    )
    .orderBy(asc(questionIssuances.closesAt), asc(questionIssuances.id));
}

/** The open questions of the matches the user follows (those of `matchIds` only, when given); without `matchIds`, built once per database. */
export async function openForUser({
  db,
  userId,
  now,
  windowFrom,
  windowTo,
  matchIds,
}: {
  db: DbOrTx;
  userId: string;
  now: Date;
  windowFrom: Date;
  windowTo: Date;
  matchIds?: string[];
}): Promise<OpenRow[]> {
  const query = matchIds
    ? undefined
    : prepared(db, 'answers_open_for_user', (root) =>
        openQuery(root, {
          userId: sql.placeholder('userId'),
          now: sql.placeholder('now'),
          windowFrom: sql.placeholder('windowFrom'),
          windowTo: sql.placeholder('windowTo'),
        }).prepare('answers_open_for_user'),
      );
  // Placeholders skip the column's encoder: timestamps go as ISO text, as drizzle itself sends them.
  return query
    ? query.execute({ userId, now: now.toISOString(), windowFrom: windowFrom.toISOString(), windowTo: windowTo.toISOString() })
    : openQuery(db, { userId, now, windowFrom, windowTo, matchIds });
}

export interface HistoryRow {
  answer: QuestionAnswerRow;
  issuance: QuestionIssuanceRow;
  match: MatchRow;
  league: string;
  /** How everyone answered (filled by the answers service). */
  crowd?: Record<string, number>;
}

/**
 * The user's answers, newest first. Locked pending Match answers (kick-off
 * passed, not settled) come first, on the first page only (`offset` 0), and
 * count toward neither `limit` nor `offset`: two queries (one after the first
 * page).
 */
export async function history({
  db,
  userId,
  limit,
  offset = 0,
  matchId,
}: {
  db: DbOrTx;
  userId: string;
  limit?: number | undefined;
  offset?: number | undefined;
  matchId?: string | undefined;
}): Promise<HistoryRow[]> {
  const base = (extra: SQL | undefined) =>
    db
      .select({ answer: questionAnswers, issuance: questionIssuances, match: matches, league: leagues.slug })
      .from(questionAnswers)
      .innerJoin(questionIssuances, eq(questionIssuances.id, questionAnswers.questionIssuanceId))
      .innerJoin(matches, eq(matches.id, questionAnswers.matchId))
      .innerJoin(leagues, eq(leagues.id, matches.leagueId))
      .where(and(eq(questionAnswers.userId, userId), matchId ? eq(questionAnswers.matchId, matchId) : undefined, extra))
      .orderBy(desc(questionAnswers.updatedAt), desc(questionAnswers.id));
  const lockedPending = and(eq(questionIssuances.kind, 'match'), eq(questionIssuances.status, 'locked'), isNull(questionAnswers.outcome));
  const pinned = offset === 0 ? await base(lockedPending) : [];
  const rest = base(sql`not (${lockedPending})`);
  const page = limit !== undefined ? rest.limit(limit).offset(offset) : offset ? rest.offset(offset) : rest;
  return [...pinned, ...(await page)];
}

export interface Totals {
  points: number;
  answered: number;
  resolved: number;
  correct: number;
}

/**
 * All-time totals and the totals of each period (by the time answers were
 * scored), in one query. Answers on test matches count in none of them:
 * test matches replay finished matches for operators and testers, whose
 * outcome is known.
 */
export async function pointsOf({
  db,
  userId,
  periods,
}: {
  db: DbOrTx;
  userId: string;
  periods: readonly CalendarPeriod[];
}): Promise<{ allTime: Totals; periods: Totals[] }> {
  const build = (on: DbOrTx, user: Value<string>, bounds: Value<string>[]) => {
    const a = questionAnswers;
    const totals = (cond: SQL) => [
      sql<number>`coalesce(sum(${a.pointsAwarded}) filter (where ${cond}), 0)::int`,
      sql<number>`(count(*) filter (where ${cond} and ${a.outcome} is not null))::int`,
      sql<number>`(count(*) filter (where ${cond} and ${a.outcome} in ('correct', 'incorrect')))::int`,
      sql<number>`(count(*) filter (where ${cond} and ${a.outcome} = 'correct'))::int`,
    ];
    // Bounds are ISO text: postgres.js does not serialize a Date bound in raw SQL.
    const inPeriod = (p: number) => sql`${a.scoredAt} >= ${bounds[p * 2]}::timestamptz and ${a.scoredAt} < ${bounds[p * 2 + 1]}::timestamptz`;
    const columns = [
      sql<number>`coalesce(sum(${a.pointsAwarded}), 0)::int`,
      sql<number>`count(*)::int`,
      sql<number>`(count(*) filter (where ${a.outcome} in ('correct', 'incorrect')))::int`,
      sql<number>`(count(*) filter (where ${a.outcome} = 'correct'))::int`,
      ...periods.flatMap((_, p) => totals(inPeriod(p))),
    ];
    return on
      .select({ values: sql<number[]>`array[${sql.join(columns, sql`, `)}]` })
      .from(a)
      .innerJoin(matches, eq(matches.id, a.matchId))
      .where(and(eq(a.userId, user as string), eq(matches.isTest, false)));
  };
  const bounds = periods.flatMap((p) => [p.from.toISOString(), p.to.toISOString()]);
  const name = `answers_points_${periods.length}`;
  const query = prepared(db, name, (root) =>
    build(
      root,
      sql.placeholder('userId'),
      bounds.map((_, i) => sql.placeholder(`b${i}`)),
    ).prepare(name),
  );
  const [row] = query ? await query.execute({ userId, ...Object.fromEntries(bounds.map((b, i) => [`b${i}`, b])) }) : await build(db, userId, bounds);
  const v = (row?.values ?? []).map(Number);
  const at = (i: number): Totals => ({ points: v[i] ?? 0, answered: v[i + 1] ?? 0, resolved: v[i + 2] ?? 0, correct: v[i + 3] ?? 0 });
  return { allTime: at(0), periods: periods.map((_, i) => at(4 + i * 4)) };
}

/** Answers per choice of each issuance, for many issuances in one grouped query. */
export async function crowdCounts({ db, issuanceIds }: { db: DbOrTx; issuanceIds: string[] }): Promise<Map<string, Record<string, number>>> {
  const out = new Map<string, Record<string, number>>();
  if (!issuanceIds.length) return out;
  const rows = await db
    .select({ id: questionAnswers.questionIssuanceId, choice: questionAnswers.selectedAnswerIdentifier, n: sql<number>`count(*)::int` })
    .from(questionAnswers)
    .where(anyUuid(questionAnswers.questionIssuanceId, issuanceIds))
    .groupBy(questionAnswers.questionIssuanceId, questionAnswers.selectedAnswerIdentifier);
  for (const r of rows) {
    let counts = out.get(r.id);
    if (!counts) out.set(r.id, (counts = {}));
    counts[r.choice] = Number(r.n);
  }
  return out;
}

/**
 * Scores every unscored answer to the issuance, in one statement: with a
 * `correct` choice, the answers choosing it score `points` and the others 0;
 * without one (voided, revoked), every answer is void.
 */
export async function scoreAnswersOf({
  tx,
  issuanceId,
  correct,
  points,
  scoredAt,
}: {
  tx: Tx;
  issuanceId: string;
  correct: string | null;
  points: number;
  scoredAt: Date | null;
}): Promise<void> {
  const resolved = correct !== null;
  await tx
    .update(questionAnswers)
    .set({
      outcome: resolved ? sql`case when ${questionAnswers.selectedAnswerIdentifier} = ${correct} then 'correct' else 'incorrect' end` : 'void',
      pointsAwarded: resolved ? sql`case when ${questionAnswers.selectedAnswerIdentifier} = ${correct} then ${points}::int else 0 end` : 0,
      // updated_at stays the time the player last answered
      scoredAt: scoredAt ?? sql`now()`,
    })
    .where(and(eq(questionAnswers.questionIssuanceId, issuanceId), isNull(questionAnswers.outcome)));
}

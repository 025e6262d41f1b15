import { and, asc, desc, eq, exists, gt, isNotNull, lte, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import type { Events } from '../../events/catalogue.js';
import { anyUuid } from '../../db/sql-helpers.js';
import { brands } from '../brands/brands.table.js';
import { matchQuestionDefinitions } from '../definitions/match-definitions.table.js';
import { questionIssuanceDenials, type IssuanceDenialRow } from '../denials/denials.table.js';
import { questionGroups } from '../groups/groups.table.js';
import { listenerEvents, matchListeners } from '../listeners/listeners.table.js';
import type { OpenRow } from '../answers/answers.public.js';
import { questionAnswers } from '../answers/answers.table.js';
import { leagues } from '../leagues/leagues.table.js';
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

/** A settled issuance's columns as every delivery reads them. */
const issuanceColumns = {
  id: questionIssuances.id,
  matchId: questionIssuances.matchId,
  kind: questionIssuances.kind,
  status: questionIssuances.status,
  questionText: questionIssuances.questionText,
  choices: questionIssuances.choices,
  correctAnswerIdentifier: questionIssuances.correctAnswerIdentifier,
  points: questionIssuances.points,
  resolvedAt: questionIssuances.resolvedAt,
  resolutionSeq: sql<number>`${questionIssuances.resolutionSeq}`,
  crowd: questionIssuances.crowd,
};

/** A settlement as the live stream delivers it, its match and league included (the deliveries' shared columns). */
const settlementColumns = { ...issuanceColumns, match: matches, league: leagues.slug };

/** A settled issuance with its match: what a resolution shows, whoever receives it. */
export interface SettlementRow {
  issuance: Pick<
    QuestionIssuanceRow,
    'id' | 'matchId' | 'kind' | 'status' | 'questionText' | 'choices' | 'correctAnswerIdentifier' | 'points' | 'resolvedAt' | 'crowd'
  > & {
    /** Its number among the match's settlements (set at COMMIT). */
    resolutionSeq: number;
  };
  match: MatchRow;
  league: string;
}

/** A player's own answer to a settled question. */
export interface OwnAnswer {
  selected: string;
  outcome: string | null;
  points: number;
}

/**
 * A match's settlements numbered above `after`, in their order, at most
 * `limit`, each with its match and the user's own answer: one statement.
 */
export async function settlementsAfter({
  db,
  matchId,
  userId,
  after,
  limit,
}: {
  db: DbOrTx;
  matchId: string;
  userId: string;
  after: number;
  limit: number;
}): Promise<(SettlementRow & { answer: OwnAnswer | null })[]> {
  const rows = await db
    .select({
      issuance: issuanceColumns,
      match: matches,
      league: leagues.slug,
      selected: questionAnswers.selectedAnswerIdentifier,
      outcome: questionAnswers.outcome,
      points: questionAnswers.pointsAwarded,
    })
    .from(questionIssuances)
    .innerJoin(matches, eq(matches.id, questionIssuances.matchId))
    .innerJoin(leagues, eq(leagues.id, matches.leagueId))
    .leftJoin(questionAnswers, and(eq(questionAnswers.questionIssuanceId, questionIssuances.id), eq(questionAnswers.userId, userId)))
    .where(and(eq(questionIssuances.matchId, matchId), gt(questionIssuances.resolutionSeq, after)))
    .orderBy(asc(questionIssuances.resolutionSeq))
    .limit(limit);
  return rows.map(({ selected, outcome, points, ...row }) => ({
    ...row,
    answer: selected === null ? null : { selected, outcome, points: points ?? 0 },
  }));
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
// locking and settling (resolved, voided, revoked). Every settlement emits
// `settling` in the same transaction (src/events/catalogue.ts: the answers are
// scored, the settlement queued for the boards).
// ---------------------------------------------------------------------------

export type NewIssuance = typeof questionIssuances.$inferInsert;

/** The events port a settling write emits `settling` through, whoever settles. */
export type SettlingEvents = Pick<Events, 'emit'>;

/**
 * Stores how everyone answered each of these just-settled questions (`crowd`): one statement for all of them. It runs
 * after the settling UPDATE took the rows' locks, so its snapshot has every answer committed before (an answer waits
 * on that lock, then finds the question settled): the counts are final.
 */
async function withCrowd(tx: Tx, rows: QuestionIssuanceRow[]): Promise<QuestionIssuanceRow[]> {
  if (!rows.length) return rows;
  const updated = await tx
    .update(questionIssuances)
    .set({
      // Written out qualified: a bare "id" inside the subquery would be the answer's.
      crowd: sql`(select coalesce(jsonb_object_agg(c.choice, c.n), '{}'::jsonb)
        from (select qa.selected_answer_identifier as choice, count(*)::int as n from question_answers qa
              where qa.question_issuance_id = question_issuances.id group by 1) c)`,
    })
    .where(
      anyUuid(
        questionIssuances.id,
        rows.map((r) => r.id),
      ),
    )
    .returning();
  const byId = new Map(updated.map((r) => [r.id, r]));
  return rows.map((r) => byId.get(r.id) ?? r);
}

async function scored(tx: Tx, rows: QuestionIssuanceRow[], events: SettlingEvents): Promise<QuestionIssuanceRow[]> {
  const settled = await withCrowd(tx, rows);
  for (const row of settled) await events.emit({ type: 'settling', tx, row });
  return settled;
}

/**
 * Moves an open or locked issuance to resolved, voided or revoked; a row
 * that is no longer open is left alone (never re-graded). Runs in `tx`.
 */
export async function settleIssuance({
  tx,
  events,
  id,
  status,
  correct,
  resolvedSeq,
  resolutionEventId,
}: {
  tx: Tx;
  events: SettlingEvents;
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
  return (await scored(tx, rows, events))[0];
}

/** Settles an in-game question found by its trigger (match, definition, triggering event). */
export async function settleByTrigger({
  tx,
  events,
  ...k
}: {
  tx: Tx;
  events: SettlingEvents;
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
  return (await scored(tx, rows, events))[0];
}

/**
 * Settles every open in-game question of a match (their answers score void):
 * `revoked` when an operator stopped its listener, `voided` when nothing can
 * resolve them any more. Returns the rows settled, for the after-commit hooks.
 */
export async function settleOpenOfMatch({
  tx,
  events,
  matchId,
  status,
}: {
  tx: Tx;
  events: SettlingEvents;
  matchId: string;
  status: 'revoked' | 'voided';
}): Promise<QuestionIssuanceRow[]> {
  const rows = await tx
    .update(questionIssuances)
    .set({ status, correctAnswerIdentifier: null, resolvedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(questionIssuances.matchId, matchId), eq(questionIssuances.kind, 'in_game'), eq(questionIssuances.status, 'open')))
    .returning();
  return scored(tx, rows, events);
}

/**
 * The safety net: voids open in-game questions that nothing can resolve any
 * more, those of matches whose status stops them (closed, cancelled, postponed), or with no queued or running
 * listener (a listener whose process died is still running until another
 * takes it over: its questions wait for it).
 */
export async function voidOrphaned({ tx, events }: { tx: Tx; events: SettlingEvents }): Promise<QuestionIssuanceRow[]> {
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
  return scored(tx, rows, events);
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

/** An issuance with its match and league, as an open question without a caller's answer (a new issuance has none). */
export async function issuanceForDelivery({ db, id }: { db: DbOrTx; id: string }): Promise<OpenRow | undefined> {
  const [row] = await db
    .select({ issuance: questionIssuances, match: matches, league: leagues.slug })
    .from(questionIssuances)
    .innerJoin(matches, eq(matches.id, questionIssuances.matchId))
    .innerJoin(leagues, eq(leagues.id, matches.leagueId))
    .where(eq(questionIssuances.id, id));
  return row ? { ...row, currentAnswer: null, answeredAt: null } : undefined;
}

/** A settlement with the match (a resolution a client can render without having seen the question) and the answers of some users. */
export interface SettledForDelivery extends SettlementRow {
  /** The answers of the given users (those who answered), by user id. */
  answers: Map<string, OwnAnswer>;
}

/**
 * A settled issuance with its match and the answers of the given users to
 * it: one statement for all receivers, one row. The ids travel as one text parameter, whatever
 * their number (a list of parameters would hit the protocol's 65,535
 * limit); the planner folds it into a constant array and hashes it. The
 * answers come back as one JSON array: 10,000 rows each repeating the
 * issuance cost several times more to transfer and map.
 */
export async function settledForDelivery({ db, id, userIds }: { db: DbOrTx; id: string; userIds: string[] }): Promise<SettledForDelivery | undefined> {
  const [row] = await db
    .select({
      ...settlementColumns,
      // The issuance's id written out qualified: "id" alone would mean the answer's.
      answers: sql<string | [string, string, string | null, number][]>`(
        select coalesce(json_agg(json_build_array(qa.user_id, qa.selected_answer_identifier, qa.outcome, qa.points_awarded)), '[]')
        from question_answers qa
        where qa.question_issuance_id = question_issuances.id and ${anyUuid(sql`qa.user_id`, userIds)}
      )`,
    })
    .from(questionIssuances)
    .innerJoin(matches, eq(matches.id, questionIssuances.matchId))
    .innerJoin(leagues, eq(leagues.id, matches.leagueId))
    // Numbered at COMMIT: an issuance without its number is not settled (yet).
    .where(and(eq(questionIssuances.id, id), isNotNull(questionIssuances.resolutionSeq)));
  if (!row) return undefined;
  const { answers: raw, match, league, ...issuance } = row;
  const list = typeof raw === 'string' ? (JSON.parse(raw) as [string, string, string | null, number][]) : raw;
  return {
    issuance,
    match,
    league,
    answers: new Map(list.map(([userId, selected, outcome, points]) => [userId, { selected, outcome, points: Number(points) }])),
  };
}

/** A match's in-game issuances (the decisions a listener taking over or replaying repeats none of). */
export async function inGameIssuancesOfMatch({ db, matchId }: { db: DbOrTx; matchId: string }): Promise<QuestionIssuanceRow[]> {
  return db
    .select()
    .from(questionIssuances)
    .where(and(eq(questionIssuances.matchId, matchId), eq(questionIssuances.kind, 'in_game')));
}

/**
 * The (match, Match question definition) pairs due for issuance at `now`, with
 * the league, the definition's group and the match's sponsor, earliest kick-off
 * first: on matches not started yet whose definition's lead has come (none
 * beyond `maxLeadSeconds`); or, with `matchId`, every pair of that match not
 * issued yet, whatever its lead.
 */
export async function dueMatchQuestions({
  db,
  now: t,
  matchId,
  maxLeadSeconds,
  limit,
}: {
  db: DbOrTx;
  now: Date;
  matchId?: string | undefined;
  maxLeadSeconds: number;
  limit: number;
}) {
  return (
    db
      .select({ match: matches, league: leagues, definition: matchQuestionDefinitions, group: questionGroups, sponsor: brands })
      .from(matches)
      .innerJoin(leagues, eq(leagues.id, matches.leagueId))
      .innerJoin(matchQuestionDefinitions, and(eq(matchQuestionDefinitions.leagueId, matches.leagueId), eq(matchQuestionDefinitions.isActive, true)))
      .leftJoin(questionGroups, eq(questionGroups.id, matchQuestionDefinitions.groupId))
      .leftJoin(brands, eq(brands.id, matches.sponsorBrandId))
      .where(
        and(
          eq(matches.status, 'scheduled'),
          ...(matchId
            ? [eq(matches.id, matchId)]
            : [
                gt(matches.scheduled, t),
                // No definition issues earlier than its longest lead: matches beyond are not read.
                lte(matches.scheduled, new Date(t.getTime() + maxLeadSeconds * 1000)),
                // Raw fragment: ISO text (postgres.js does not serialize a Date bound in raw SQL).
                sql`${matches.scheduled} - (${matchQuestionDefinitions.issueLeadSeconds} * interval '1 second') <= ${t.toISOString()}::timestamptz`,
              ]),
          sql`not exists (select 1 from ${questionIssuances} qi where qi.match_id = ${matches.id} and qi.match_question_definition_id = ${matchQuestionDefinitions.id})`,
          // Inclusion is decided here, in SQL (match allowlist over league allowlist over the
          // active flag, as inclusion() in settings.ts, which gives the trace its source), so
          // that excluded pairs never take a place in the batch that due ones need.
          sql`(case when ${matches.matchQuestionDefinitionAllowlist} is not null then ${matchQuestionDefinitions.id} = any(${matches.matchQuestionDefinitionAllowlist})
                    when ${leagues.matchQuestionDefinitionAllowlist} is not null then ${matchQuestionDefinitions.id} = any(${leagues.matchQuestionDefinitionAllowlist})
                    else true end)`,
        ),
      )
      // Earliest kick-off first: those are the questions with the least time left to answer.
      .orderBy(asc(matches.scheduled), asc(matches.id), asc(matchQuestionDefinitions.id))
      .limit(limit)
  );
}

/** Match questions still to settle on matches closed with a result or cancelled, with their match and league slug. */
export async function matchQuestionsToResolve({ db, limit }: { db: DbOrTx; limit: number }) {
  return db
    .select({ issuance: questionIssuances, match: matches, league: leagues.slug })
    .from(questionIssuances)
    .innerJoin(matches, eq(matches.id, questionIssuances.matchId))
    .innerJoin(leagues, eq(leagues.id, matches.leagueId))
    .where(
      and(
        eq(questionIssuances.kind, 'match'),
        unsettled.sql(questionIssuances.status),
        sql`((${matches.status} = 'closed' and ${isNotNull(matches.result)}) or ${matches.status} = 'cancelled')`,
      ),
    )
    .limit(limit);
}

/**
 * A settled issuance with its match and every answer to it, grouped by what
 * a receiver is shown (selected choice, outcome, points): what the publisher
 * reads once for the Redis transport (one statement), whoever receives it.
 */
export async function settlementWithAllAnswers({ db, id }: { db: DbOrTx; id: string }): Promise<(SettlementRow & { groups: AnswerGroup[] }) | undefined> {
  const [row] = await db
    .select({
      ...settlementColumns,
      groups: sql<string | AnswerGroup[]>`(
        select coalesce(json_agg(json_build_array(g.selected, g.outcome, g.points, g.users)), '[]')
        from (
          select qa.selected_answer_identifier as selected, qa.outcome, qa.points_awarded as points, json_agg(qa.user_id) as users
          from question_answers qa
          where qa.question_issuance_id = question_issuances.id
          group by 1, 2, 3
        ) g
      )`,
    })
    .from(questionIssuances)
    .innerJoin(matches, eq(matches.id, questionIssuances.matchId))
    .innerJoin(leagues, eq(leagues.id, matches.leagueId))
    .where(and(eq(questionIssuances.id, id), isNotNull(questionIssuances.resolutionSeq)));
  if (!row) return undefined;
  const { groups: raw, match, league, ...issuance } = row;
  const groups = (typeof raw === 'string' ? JSON.parse(raw) : raw) as AnswerGroup[];
  return { issuance, match, league, groups: groups.map(([s, o, p, u]) => [s, o, Number(p), u]) };
}

/** `[selected, outcome, points, user ids]`: the answers a receiver is shown alike. */
export type AnswerGroup = [string, string | null, number, string[]];

/** SQL of matches and match follows (with the daily follow quota counters). */
import { and, asc, eq, getTableColumns, gte, inArray, like, lt, notInArray, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { prepared } from '../../db/prepared.js';
import { anyUuid } from '../../db/sql-helpers.js';
import type { DbOrTx, Tx } from '../../db/client.js';
import { brands } from '../brands/brands.table.js';
import { questionIssuances } from '../issuances/issuances.table.js';
import { leagues, type LeagueRow } from '../leagues/leagues.table.js';
import { questionSponsorships, type QuestionSponsorshipRow } from '../sponsorships/sponsorships.table.js';
import { sponsorBrandColumns } from '../sponsorships/sponsorships.public.js';
import type { SponsorBrand } from '../sponsorships/sponsorships.table.js';
import { followQuotaDays, matches, matchFollows, type MatchFollowRow, type MatchRow } from './matches.table.js';
import { isLive, type MatchStatus } from '../../domain/vocabulary.js';

export type NewMatchFollow = typeof matchFollows.$inferInsert;

/** What the list and detail views need: which matches, and who is looking (for `is_followed` and the `followed` filter). */
export interface MatchViewFilter {
  ids?: readonly string[] | undefined;
  leagueId?: string | undefined;
  /** Kick-off at or after. */
  scheduledFrom?: Date | undefined;
  /** Kick-off before. */
  scheduledTo?: Date | undefined;
  statuses?: readonly MatchStatus[] | undefined;
  isTest?: boolean | undefined;
  listenerEventsArchived?: boolean | undefined;
  /** true: only matches the viewer follows; false: only the others. Needs a viewer. */
  followed?: boolean | undefined;
  viewerId: string | null;
  /**
   * Test matches are unlisted: with false, only those the viewer follows are
   * included (none without a viewer); true (admins) includes them all.
   */
  allTestMatches: boolean;
  limit: number;
}

/** A match with its league, whole-match sponsor and per-match totals. */
export interface MatchView {
  match: MatchRow;
  league: LeagueRow;
  sponsor: SponsorBrand | null;
  sponsoredQuestionCount: number;
  questionIssuanceCount: number;
  pivotalMomentIssuanceCount: number;
  /** null without a viewer. */
  isFollowed: boolean | null;
}

const count = (from: SQL) => sql<number>`(select count(*) from ${from})`.mapWith(Number);

/**
 * Matches with their totals in ONE statement whatever the number of rows: the
 * league and sponsor are joined, the viewer's follow is left-joined (at most
 * one row by UNIQUE(user_id, match_id)), and the totals are aggregates
 * served by the match_id indexes of slots and issuances: a correlated
 * subquery for the slots, and one lateral pass over the match's in-game
 * issuances for both issuance totals. Ordered by kick-off, then id.
 */
type Value<T> = T | Placeholder;

/** The statement of listMatchViews, with the filter's scalar values as given (values, or placeholders of a prepared query). */
function matchViewsQuery(
  db: DbOrTx,
  filter: MatchViewFilter,
  v: {
    viewerId: Value<string> | null;
    leagueId: Value<string> | undefined;
    scheduledFrom: Value<Date> | undefined;
    scheduledTo: Value<Date> | undefined;
    isTest: Value<boolean> | undefined;
    listenerEventsArchived: Value<boolean> | undefined;
    limit: Value<number>;
  },
) {
  const s = questionSponsorships;
  const i = questionIssuances;
  const viewerFollow = v.viewerId ? and(eq(matchFollows.matchId, matches.id), eq(matchFollows.userId, v.viewerId as string)) : sql`false`;
  const conditions: (SQL | undefined)[] = [
    filter.ids ? inArray(matches.id, [...filter.ids]) : undefined,
    v.leagueId ? eq(matches.leagueId, v.leagueId as string) : undefined,
    v.scheduledFrom ? gte(matches.scheduled, v.scheduledFrom as Date) : undefined,
    v.scheduledTo ? lt(matches.scheduled, v.scheduledTo as Date) : undefined,
    filter.statuses ? (filter.statuses.length ? inArray(matches.status, [...filter.statuses]) : sql`false`) : undefined,
    v.isTest === undefined ? undefined : eq(matches.isTest, v.isTest as boolean),
    v.listenerEventsArchived === undefined ? undefined : eq(matches.listenerEventsArchived, v.listenerEventsArchived as boolean),
    // A spent row (following=false) is not a follow.
    filter.followed === undefined ? undefined : filter.followed ? sql`${matchFollows.following} is true` : sql`${matchFollows.following} is not true`,
    filter.allTestMatches ? undefined : sql`(${matches.isTest} is false or ${matchFollows.following} is true)`,
  ];
  const issued = db
    .select({
      regular: sql<number>`count(*) filter (where not ${i.isPivotalMoment})`.mapWith(Number).as('regular'),
      pivotal: sql<number>`count(*) filter (where ${i.isPivotalMoment})`.mapWith(Number).as('pivotal'),
    })
    .from(i)
    .where(and(eq(i.matchId, matches.id), eq(i.kind, 'in_game')))
    .as('issued');
  return db
    .select({
      match: getTableColumns(matches),
      league: getTableColumns(leagues),
      sponsor: sponsorBrandColumns,
      sponsoredQuestionCount: count(sql`${s} where ${s.matchId} = ${matches.id}`),
      questionIssuanceCount: issued.regular,
      pivotalMomentIssuanceCount: issued.pivotal,
      following: matchFollows.following,
    })
    .from(matches)
    .innerJoin(leagues, eq(leagues.id, matches.leagueId))
    .leftJoin(brands, eq(brands.id, matches.sponsorBrandId))
    .leftJoin(matchFollows, viewerFollow)
    .crossJoinLateral(issued)
    .where(and(...conditions))
    .orderBy(asc(matches.scheduled), asc(matches.id))
    .limit(v.limit as number);
}

/**
 * Matches with their totals in ONE statement whatever the number of rows: the
 * league and sponsor are joined, the viewer's follow is left-joined (at most
 * one row by UNIQUE(user_id, match_id)), and the totals are aggregates
 * served by the match_id indexes of slots and issuances: a correlated
 * subquery for the slots, and one lateral pass over the match's in-game
 * issuances for both issuance totals. Ordered by kick-off, then id.
 *
 * A filter without id or status lists is built once per database for each
 * combination of the filters it uses (a few), and run with its values.
 */
export async function listMatchViews({ db, filter }: { db: DbOrTx; filter: MatchViewFilter }): Promise<MatchView[]> {
  const values = {
    viewerId: filter.viewerId,
    leagueId: filter.leagueId,
    scheduledFrom: filter.scheduledFrom,
    scheduledTo: filter.scheduledTo,
    isTest: filter.isTest,
    listenerEventsArchived: filter.listenerEventsArchived,
    limit: filter.limit,
  };
  const shape =
    filter.ids || filter.statuses ? null : (Object.keys(values) as (keyof typeof values)[]).filter((k) => values[k] !== undefined && values[k] !== null);
  const name = shape && `match_views_${shape.join('_')}_${String(filter.followed)}_${String(filter.allTestMatches)}`;
  const query =
    name &&
    prepared(db, name, (root) =>
      matchViewsQuery(root, filter, {
        viewerId: values.viewerId ? sql.placeholder('viewerId') : null,
        leagueId: values.leagueId === undefined ? undefined : sql.placeholder('leagueId'),
        scheduledFrom: values.scheduledFrom === undefined ? undefined : sql.placeholder('scheduledFrom'),
        scheduledTo: values.scheduledTo === undefined ? undefined : sql.placeholder('scheduledTo'),
        isTest: values.isTest === undefined ? undefined : sql.placeholder('isTest'),
        listenerEventsArchived: values.listenerEventsArchived === undefined ? undefined : sql.placeholder('listenerEventsArchived'),
        limit: sql.placeholder('limit'),
      }).prepare(name),
    );
  const rows = query
    ? await query.execute({ ...values, scheduledFrom: values.scheduledFrom?.toISOString(), scheduledTo: values.scheduledTo?.toISOString() })
    : await matchViewsQuery(db, filter, values);
  return rows.map((r) => ({
    match: r.match,
    league: r.league,
    sponsor: r.sponsor,
    sponsoredQuestionCount: r.sponsoredQuestionCount,
    questionIssuanceCount: r.questionIssuanceCount,
    pivotalMomentIssuanceCount: r.pivotalMomentIssuanceCount,
    isFollowed: filter.viewerId ? r.following === true : null,
  }));
}

/** Every slot on the match (all brands) with its brand, numbered slots first, then in creation order. */
export async function slotsOfMatch({ db, matchId }: { db: DbOrTx; matchId: string }): Promise<{ slot: QuestionSponsorshipRow; brand: SponsorBrand }[]> {
  return db
    .select({
      slot: getTableColumns(questionSponsorships),
      brand: sponsorBrandColumns,
    })
    .from(questionSponsorships)
    .innerJoin(brands, eq(brands.id, questionSponsorships.brandId))
    .where(eq(questionSponsorships.matchId, matchId))
    .orderBy(asc(questionSponsorships.targetNumber), asc(questionSponsorships.createdAt), asc(questionSponsorships.id));
}

export type LockedMatch = MatchRow & { leagueSport: string };

/**
 * The match with its league's sport, locked until the transaction ends:
 * `update` (FOR UPDATE) to delete it; `no key update` to change it, which
 * waits for a sponsorship assignment (FOR UPDATE) so slot counts cannot move
 * under us; `key share` to follow or unfollow it, which keeps it from being
 * deleted meanwhile but lets edits go on.
 */
export async function lockMatch({
  tx,
  id,
  strength,
}: {
  tx: Tx;
  id: string;
  strength: 'update' | 'no key update' | 'key share';
}): Promise<LockedMatch | undefined> {
  const [row] = await tx
    .select({ ...getTableColumns(matches), leagueSport: leagues.sport })
    .from(matches)
    .innerJoin(leagues, eq(leagues.id, matches.leagueId))
    .where(eq(matches.id, id))
    .for(strength, { of: matches });
  return row;
}

/** The league's default cap, read FOR SHARE (a league update changing it waits for this transaction). */
export async function leagueDefaultCap({ tx, leagueId }: { tx: Tx; leagueId: string }): Promise<number> {
  const [row] = await tx.select({ cap: leagues.defaultQuestionMaxCount }).from(leagues).where(eq(leagues.id, leagueId)).for('share');
  return row!.cap;
}

/** Slots on the match and the highest question number they target (null when none is numbered). */
export async function slotUsage({ db, matchId }: { db: DbOrTx; matchId: string }): Promise<{ slots: number; highestNumber: number | null }> {
  const [row] = await db
    .select({
      slots: sql<number>`count(*)`.mapWith(Number),
      highestNumber: sql<number | null>`max(${questionSponsorships.targetNumber})`,
    })
    .from(questionSponsorships)
    .where(eq(questionSponsorships.matchId, matchId));
  return { slots: row?.slots ?? 0, highestNumber: row?.highestNumber === null || row?.highestNumber === undefined ? null : Number(row.highestNumber) };
}

export async function updateMatchRow({ db, id, values }: { db: DbOrTx; id: string; values: Partial<typeof matches.$inferInsert> }): Promise<void> {
  await db
    .update(matches)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(matches.id, id));
}

/** Deletes the match; everything hanging off it goes by ON DELETE CASCADE. */
export async function deleteMatchRow({ db, id }: { db: DbOrTx; id: string }): Promise<void> {
  await db.delete(matches).where(eq(matches.id, id));
}

/**
 * Returns the slots that the match's active follows took (one per follow,
 * to the day each was counted on), never below zero: one statement.
 */
export async function refundActiveFollowsOfMatch({ db, matchId }: { db: DbOrTx; matchId: string }): Promise<void> {
  await db.execute(sql`
    update ${followQuotaDays} q
       set used = greatest(q.used - f.n, 0)
      from (select user_id, quota_day, count(*)::int as n
              from ${matchFollows}
             where match_id = ${matchId} and following and counts_toward_quota and quota_day is not null
             group by user_id, quota_day) f
     where q.user_id = f.user_id and q.day = f.quota_day`);
}

/** The caller's follow of the match, locked FOR UPDATE (concurrent follow and unfollow of one row run one after the other). */
export async function lockFollow({ tx, userId, matchId }: { tx: Tx; userId: string; matchId: string }): Promise<MatchFollowRow | undefined> {
  const [row] = await tx
    .select()
    .from(matchFollows)
    .where(and(eq(matchFollows.userId, userId), eq(matchFollows.matchId, matchId)))
    .for('update');
  return row;
}

/** Inserts the follow unless (user, match) already has one (then undefined: the UNIQUE index settled a race). */
export async function insertFollow({ db, values }: { db: DbOrTx; values: NewMatchFollow }): Promise<MatchFollowRow | undefined> {
  const [row] = await db
    .insert(matchFollows)
    .values(values)
    .onConflictDoNothing({ target: [matchFollows.userId, matchFollows.matchId] })
    .returning();
  return row;
}

export async function updateFollow({ db, id, values }: { db: DbOrTx; id: string; values: Partial<NewMatchFollow> }): Promise<MatchFollowRow> {
  const [row] = await db.update(matchFollows).set(values).where(eq(matchFollows.id, id)).returning();
  return row!;
}

export async function deleteFollow({ db, id }: { db: DbOrTx; id: string }): Promise<void> {
  await db.delete(matchFollows).where(eq(matchFollows.id, id));
}

/**
 * Takes one slot of the user's quota for the day, in one conditional
 * statement: the counter row is created at 1, or incremented only while it is
 * below the quota. Concurrent takers queue on the row, and each re-checks the
 * condition on the latest value, so the quota can never be exceeded. Returns
 * the new count, or undefined when the quota was already used up.
 */
export async function takeQuotaSlot({ db, userId, day, quota }: { db: DbOrTx; userId: string; day: string; quota: number }): Promise<number | undefined> {
  if (quota <= 0) return undefined;
  const [row] = await db
    .insert(followQuotaDays)
    .values({ userId, day, used: 1 })
    .onConflictDoUpdate({
      target: [followQuotaDays.userId, followQuotaDays.day],
      set: { used: sql`${followQuotaDays.used} + 1` },
      setWhere: sql`${followQuotaDays.used} < ${quota}`,
    })
    .returning({ used: followQuotaDays.used });
  return row?.used;
}

/** Gives one slot of that day back (never below zero). */
export async function refundQuotaSlot({ db, userId, day }: { db: DbOrTx; userId: string; day: string }): Promise<void> {
  await db
    .update(followQuotaDays)
    .set({ used: sql`greatest(${followQuotaDays.used} - 1, 0)` })
    .where(and(eq(followQuotaDays.userId, userId), eq(followQuotaDays.day, day)));
}

/** Slots used on that day (0 without a counter row). */
export async function quotaUsed({ db, userId, day }: { db: DbOrTx; userId: string; day: string }): Promise<number> {
  const [row] = await db
    .select({ used: followQuotaDays.used })
    .from(followQuotaDays)
    .where(and(eq(followQuotaDays.userId, userId), eq(followQuotaDays.day, day)));
  return row?.used ?? 0;
}

/** Writes the match's state store (Match questions' `store_state`), in the transaction that holds the match row. */
export async function saveMatchStateStore({ tx, id, state }: { tx: Tx; id: string; state: Record<string, unknown> }): Promise<void> {
  await tx.update(matches).set({ stateStore: state }).where(eq(matches.id, id));
}

/**
 * Writes scheduled matches by sr_id (one statement for the batch). Before
 * kick-off the provider is the authority; afterwards the engine is, except
 * for a final result (and a feed URL fills in only a match without one that
 * no operator detached).
 */
export async function upsertScheduledMatches({
  tx,
  rows,
}: {
  tx: Tx;
  rows: (typeof matches.$inferInsert)[];
}): Promise<{ id: string; srId: string; status: string }[]> {
  return tx
    .insert(matches)
    .values(rows)
    .onConflictDoUpdate({
      target: matches.srId,
      // Before kick-off the provider is the authority; afterwards the engine is, except for a final result.
      set: {
        homeTeam: sql`case when ${matches.status} in ('scheduled', 'postponed') then excluded.home_team else ${matches.homeTeam} end`,
        awayTeam: sql`case when ${matches.status} in ('scheduled', 'postponed') then excluded.away_team else ${matches.awayTeam} end`,
        scheduled: sql`case when ${matches.status} in ('scheduled', 'postponed') then excluded.scheduled else ${matches.scheduled} end`,
        venue: sql`coalesce(excluded.venue, ${matches.venue})`,
        // A feed an operator set or detached stays as they left it; otherwise the provider fills in a missing one.
        feedUrl: sql`case when ${matches.feedUrlByOperator} then ${matches.feedUrl} else coalesce(${matches.feedUrl}, excluded.feed_url) end`,
        status: sql`case when ${matches.status} in ('scheduled', 'postponed', 'cancelled') or (excluded.status = 'closed' and ${matches.status} <> 'closed' and excluded.result is not null and not exists (select 1 from match_listeners l where l.match_id = ${matches.id} and l.status in ('queued', 'running'))) then excluded.status else ${matches.status} end`,
        result: sql`case when ${matches.result} is null and excluded.result is not null and not exists (select 1 from match_listeners l where l.match_id = ${matches.id} and l.status in ('queued', 'running')) then excluded.result else ${matches.result} end`,
        homeScore: sql`coalesce(${matches.homeScore}, excluded.home_score)`,
        awayScore: sql`coalesce(${matches.awayScore}, excluded.away_score)`,
        updatedAt: sql`now()`,
      },
    })
    .returning({ id: matches.id, srId: matches.srId, status: matches.status });
}

/** Inserts a match; returns its row. */
export async function insertMatch({ db, values }: { db: DbOrTx; values: typeof matches.$inferInsert }): Promise<MatchRow> {
  const [row] = await db.insert(matches).values(values).returning();
  return row!;
}

/**
 * Cancels (and takes off auto-dispatch) the matches whose sr_id starts with
 * `prefix` and that are not closed or cancelled yet; returns their ids.
 */
export async function cancelMatchesWithSrIdPrefix({ db, prefix }: { db: DbOrTx; prefix: string }): Promise<string[]> {
  const rows = await db
    .update(matches)
    .set({ status: 'cancelled', autoDispatchListener: false })
    .where(and(like(matches.srId, `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`), notInArray(matches.status, ['closed', 'cancelled'])))
    .returning({ id: matches.id });
  return rows.map((r) => r.id);
}

/** Removes a definition from every match's allowlist of its kind (`in_game` or `match`): one statement. */
export async function removeFromMatchAllowlists({ db, kind, id }: { db: DbOrTx; kind: 'in_game' | 'match'; id: string }): Promise<void> {
  const column = kind === 'in_game' ? matches.questionDefinitionAllowlist : matches.matchQuestionDefinitionAllowlist;
  const key = kind === 'in_game' ? 'questionDefinitionAllowlist' : 'matchQuestionDefinitionAllowlist';
  await db
    .update(matches)
    .set({ [key]: sql`array_remove(${column}, ${id}::uuid)`, updatedAt: sql`now()` })
    .where(sql`${id}::uuid = any(${column})`);
}

/**
 * A test match whose replay is stopped ends (play over, no result), in the stop's transaction: nothing will play it
 * on unless an operator starts it again. Returns whether it did (a live or break test match).
 */
export async function endTestMatchPlay({ tx, id }: { tx: Tx; id: string }): Promise<boolean> {
  const rows = await tx
    .update(matches)
    .set({ status: 'ended', updatedAt: sql`now()` })
    .where(and(eq(matches.id, id), eq(matches.isTest, true), isLive.sql(matches.status)))
    .returning({ id: matches.id });
  return rows.length > 0;
}

/** A test match not started yet kicks off now (its paused clone is started): its scheduled time becomes now. */
export async function kickOffNow({ tx, id }: { tx: Tx; id: string }): Promise<void> {
  await tx
    .update(matches)
    .set({ scheduled: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(matches.id, id), eq(matches.status, 'scheduled')));
}

/** Sets a match back to before kick-off, now: no score, clock, period, result, start time or state store (its settings stay). */
export async function resetToKickOff({ tx, id }: { tx: Tx; id: string }): Promise<void> {
  await tx
    .update(matches)
    .set({
      status: 'scheduled',
      scheduled: sql`now()`,
      homeScore: null,
      awayScore: null,
      period: null,
      clockSeconds: null,
      result: null,
      startedAt: null,
      stateStore: {},
      updatedAt: sql`now()`,
    })
    .where(eq(matches.id, id));
}

/** A user's follows (spent ones included), newest first: their data export. */
export async function followsOfUser({ db, userId }: { db: DbOrTx; userId: string }): Promise<MatchFollowRow[]> {
  return db
    .select()
    .from(matchFollows)
    .where(eq(matchFollows.userId, userId))
    .orderBy(sql`${matchFollows.followedAt} desc`, matchFollows.id);
}

/** Deletes a user's follows and follow quotas (their account is deleted). */
export async function deleteFollowsOfUser({ tx, userId }: { tx: Tx; userId: string }): Promise<void> {
  await tx.delete(matchFollows).where(eq(matchFollows.userId, userId));
  await tx.delete(followQuotaDays).where(eq(followQuotaDays.userId, userId));
}

/** Ids of the matches the user follows. */
export async function followedMatchIds({ db, userId }: { db: DbOrTx; userId: string }): Promise<string[]> {
  const rows = await db
    .select({ id: matchFollows.matchId })
    .from(matchFollows)
    .where(and(eq(matchFollows.userId, userId), eq(matchFollows.following, true)));
  return rows.map((r) => r.id);
}

/** The matches each of these users follows: one statement, however many users. */
export async function followsOfUsers({ db, userIds }: { db: DbOrTx; userIds: string[] }): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  if (!userIds.length) return out;
  const rows = await db
    .select({ userId: matchFollows.userId, matchId: matchFollows.matchId })
    .from(matchFollows)
    .where(and(anyUuid(matchFollows.userId, userIds), eq(matchFollows.following, true)));
  for (const r of rows) {
    let set = out.get(r.userId);
    if (!set) out.set(r.userId, (set = new Set()));
    set.add(r.matchId);
  }
  return out;
}

/** Where play stands on each of these matches: one statement, however many. */
export async function matchStates({ db, matchIds }: { db: DbOrTx; matchIds: string[] }): Promise<MatchStateRow[]> {
  if (!matchIds.length) return [];
  return db
    .select({
      id: matches.id,
      status: matches.status,
      period: matches.period,
      clockSeconds: matches.clockSeconds,
      homeScore: matches.homeScore,
      awayScore: matches.awayScore,
      // The match's latest settlement (an index-only read of question_issuances_resolution_seq_uq); the match's id written
      // out qualified: drizzle renders a column of the one table selected from unqualified.
      resolutionSeq: sql<number>`(select coalesce(max(qi.resolution_seq), 0)::int from ${questionIssuances} qi where qi.match_id = ${matches}.id)`,
    })
    .from(matches)
    .where(anyUuid(matches.id, matchIds))
    .orderBy(matches.scheduled, matches.id);
}

export type MatchStateRow = Pick<MatchRow, 'id' | 'status' | 'period' | 'clockSeconds' | 'homeScore' | 'awayScore'> & {
  /** The number of the match's latest settlement (0: none yet). */
  resolutionSeq: number;
};

/** A match with its league and its sponsor's brand (what a listener runs the match with, beside the league's catalog). */
export async function matchWithLeagueAndSponsor({ db, id }: { db: DbOrTx; id: string }) {
  const [row] = await db
    .select({ match: matches, league: leagues, matchSponsor: brands })
    .from(matches)
    .innerJoin(leagues, eq(leagues.id, matches.leagueId))
    .leftJoin(brands, eq(brands.id, matches.sponsorBrandId))
    .where(eq(matches.id, id));
  return row;
}

/** A match's status and state store, its row locked: the store is read, updated and written by one Match question at a time. */
export async function lockMatchStateStore({ tx, id }: { tx: Tx; id: string }) {
  const [current] = await tx.select({ status: matches.status, stateStore: matches.stateStore }).from(matches).where(eq(matches.id, id)).for('update');
  return current;
}

/**
 * The statuses of the matches with these sr_ids, their rows locked in sr_id
 * order (so two schedule syncs cannot deadlock): sr_id -> status.
 */
export async function lockStatusesBySrId({ tx, srIds }: { tx: Tx; srIds: string[] }): Promise<Map<string, MatchStatus>> {
  const rows = await tx
    .select({ srId: matches.srId, status: matches.status })
    .from(matches)
    .where(inArray(matches.srId, srIds))
    .orderBy(matches.srId)
    .for('update');
  return new Map(rows.map((r) => [r.srId, r.status]));
}

/** The id of the match with this sr_id. */
export async function matchIdBySrId({ db, srId }: { db: DbOrTx; srId: string }): Promise<string | undefined> {
  const [row] = await db.select({ id: matches.id }).from(matches).where(eq(matches.srId, srId));
  return row?.id;
}

/** Whether a match whose sr_id starts with `prefix` is still to be played or in play (not closed, cancelled or ended). */
export async function anyOpenWithSrIdPrefix({ db, prefix }: { db: DbOrTx; prefix: string }): Promise<boolean> {
  const active = await db
    .select({ id: matches.id })
    .from(matches)
    .where(and(like(matches.srId, `${prefix}%`), notInArray(matches.status, ['closed', 'cancelled', 'ended'])))
    .limit(1);
  return active.length > 0;
}

/** A match by id; with `lock`, its row locked until the transaction ends (`share`: it cannot change meanwhile; `update`: nor be locked by another). */
export async function findMatchRow({ db, id, lock }: { db: DbOrTx; id: string; lock?: 'share' | 'update' }): Promise<MatchRow | undefined> {
  const query = db.select().from(matches).where(eq(matches.id, id));
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

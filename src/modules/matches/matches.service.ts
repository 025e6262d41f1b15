/**
 * Matches: the list with question totals, admin updates and deletes, and
 * following.
 *
 * Following takes a slot of the player's daily quota; races are settled by
 * the database: UNIQUE(user_id, match_id) on follows (a second follow of one
 * match finds the first) and one conditional upsert on the day's counter row
 * (it is created at 1 or incremented only while below the quota), in the same
 * transaction as the follow insert, which a refused slot rolls back.
 */
import type { components, operations } from '../../../generated/api-types.js';
import type { Db, Tx } from '../../db/client.js';
import type { Events } from '../../events/catalogue.js';
import { isForeignKeyViolation } from '../../errors.js';
import { brandErrors } from '../brands/brands.errors.js';
import { leagueErrors } from '../leagues/leagues.errors.js';
import type { UserRow } from '../users/users.table.js';
import { periodsOfSport } from '../../domain/sports/league-registry.js';
import type { AllowlistChecker, LeaguesService } from '../leagues/leagues.service.js';
import { parsePeriodDistribution } from '../leagues/period-distribution.js';
import { parseTimeRange, utcDay } from '../shared/time-range.js';
import { followErrors, matchErrors } from './matches.errors.js';
import { checkFeedUrl, type FeedUrlPolicy } from './feed-url.js';
import { followQuotaDay, hasStarted, unfollowable } from './follow-rules.js';
import {
  deleteFollow,
  deleteMatchRow,
  insertFollow,
  leagueDefaultCap,
  listMatchViews,
  lockFollow,
  lockMatch,
  quotaUsed,
  refundActiveFollowsOfMatch,
  refundQuotaSlot,
  slotsOfMatch,
  slotUsage,
  takeQuotaSlot,
  updateFollow,
  updateMatchRow,
  type MatchView,
} from './matches.repository.js';
import type { MatchFollowRow, MatchRow } from './matches.table.js';

type Schemas = components['schemas'];

/** Most rows one list answers. */
export const MATCH_LIST_LIMIT = 1000;

/** The query of GET /api/matches, as the contract types it. */
export type MatchListQuery = NonNullable<operations['listMatches']['parameters']['query']>;

export type MatchDetailView = MatchView & { slots: Awaited<ReturnType<typeof slotsOfMatch>> };

/** A follow as the API shows it. */
export interface FollowResult {
  follow: Pick<MatchFollowRow, 'matchId' | 'userId' | 'following' | 'countsTowardQuota' | 'quotaDay' | 'followedAt' | 'unfollowedAt'>;
  refunded: boolean;
  /** null: the user is unrestricted. */
  followsRemainingToday: number | null;
}

export type MatchesService = ReturnType<typeof createMatchesService>;

export function createMatchesService({
  db,
  leagues,
  checkAllowlist,
  feedUrlPolicy,
  events,
}: {
  db: Db;
  leagues: Pick<LeaguesService, 'bySlug'>;
  checkAllowlist: AllowlistChecker;
  /** Which hosts a feed URL may name. */
  feedUrlPolicy: FeedUrlPolicy;
  /** After the commit: `followChanged`, `matchDeleted` (src/events/catalogue.ts). */
  events: Events;
}) {
  /** The detail view: admin operations only (update, clone), which see test matches. */
  async function view(dbOrTx: Db | Tx, id: string, viewerId: string | null): Promise<MatchDetailView> {
    const [row] = await listMatchViews({ db: dbOrTx, filter: { ids: [id], viewerId, allTestMatches: true, limit: 1 } });
    if (!row) throw matchErrors.notFound();
    return { ...row, slots: await slotsOfMatch({ db: dbOrTx, matchId: id }) };
  }

  /** follows_remaining_today: the quota less the slots used today (in the user's zone); null when unrestricted. */
  async function remainingToday(dbOrTx: Db | Tx, user: UserRow, now: Date): Promise<number | null> {
    const quota = user.matchDailyFollowCount;
    if (quota === null) return null;
    const used = await quotaUsed({ db: dbOrTx, userId: user.id, day: followQuotaDay(now, user.matchFollowTimezone) });
    return Math.max(quota - used, 0);
  }

  return {
    /** The detail view of one match (404 when absent). */
    detail: (id: string, viewerId: string | null) => view(db, id, viewerId),

    /**
     * One match as its viewer may see it: admins the detail view of any
     * match; anyone else a listed match, so a test match only while they
     * follow it (404 otherwise, as for an unknown id).
     */
    async get(id: string, viewer: UserRow | null): Promise<{ operator: MatchDetailView } | { player: MatchView }> {
      if (viewer?.isAdmin) return { operator: await view(db, id, viewer.id) };
      const [row] = await listMatchViews({ db, filter: { ids: [id], viewerId: viewer?.id ?? null, allTestMatches: false, limit: 1 } });
      if (!row) throw matchErrors.notFound();
      return { player: row };
    },

    /**
     * Filters are combined with AND. Without a scheduled range: the current
     * UTC calendar day, except with followed=true (every followed match).
     * Test matches are listed to admins, and to others only while they
     * follow them (a test match is followed by its id, which its operator
     * hands out).
     */
    async list(query: MatchListQuery, viewer: UserRow | null): Promise<MatchView[]> {
      if (query.followed !== undefined && !viewer) throw matchErrors.followedNeedsKey();
      const scheduled = parseTimeRange({ name: 'scheduled', from: query.scheduled_from, to: query.scheduled_to, error: matchErrors.invalidRange });
      let leagueId: string | undefined;
      if (query.league !== undefined) {
        try {
          leagueId = (await leagues.bySlug(query.league)).id;
        } catch (err) {
          // A supported league missing from this database has no matches.
          if (leagueErrors.notFound.is(err)) return [];
          throw err;
        }
      }
      const range = scheduled ?? (query.followed === true ? undefined : utcDay(new Date()));
      const statuses = query.status === undefined ? undefined : Array.isArray(query.status) ? query.status : [query.status];
      return listMatchViews({
        db,
        filter: {
          leagueId,
          scheduledFrom: range?.from,
          scheduledTo: range?.to,
          statuses,
          isTest: query.is_test,
          listenerEventsArchived: query.listener_events_archived,
          followed: query.followed,
          viewerId: viewer?.id ?? null,
          allTestMatches: viewer?.isAdmin === true,
          limit: MATCH_LIST_LIMIT,
        },
      });
    },

    /**
     * Partial update under a row lock. The match row is locked FOR NO KEY
     * UPDATE, which waits for a sponsorship assignment in progress (they lock
     * it FOR UPDATE before counting), so the slot count checked against a
     * lowered cap cannot change before we commit.
     */
    async update(id: string, patch: Schemas['MatchPatch'], viewerId: string | null): Promise<MatchDetailView> {
      try {
        return await db.transaction(async (tx) => {
          const match = await lockMatch({ tx, id, strength: 'no key update' });
          if (!match) throw matchErrors.notFound();
          const values: Partial<MatchRow> = {};
          if (patch.question_max_count !== undefined) {
            values.questionMaxCount = patch.question_max_count;
            // The effective cap: the override, or the league default when the override is cleared
            // (read under a share lock: a league update lowering it waits, then counts this match's slots).
            const cap = patch.question_max_count ?? (await leagueDefaultCap({ tx, leagueId: match.leagueId }));
            const usage = await slotUsage({ db: tx, matchId: id });
            if (usage.slots > cap) throw matchErrors.capBelowSlots(cap, { slots: usage.slots });
            if (usage.highestNumber !== null && usage.highestNumber > cap) throw matchErrors.capBelowSlots(cap, { questionNumber: usage.highestNumber });
          }
          if (patch.question_min_interval_seconds !== undefined) values.questionMinIntervalSeconds = patch.question_min_interval_seconds;
          if (patch.question_points !== undefined) values.questionPoints = patch.question_points;
          if (patch.answer_window_seconds !== undefined) values.answerWindowSeconds = patch.answer_window_seconds;
          if (patch.min_answer_seconds !== undefined) values.minAnswerSeconds = patch.min_answer_seconds;
          if (patch.question_probability !== undefined) values.questionProbability = patch.question_probability;
          if (patch.question_period_distribution !== undefined) {
            values.questionPeriodDistribution = parsePeriodDistribution(
              'question_period_distribution',
              patch.question_period_distribution,
              periodsOfSport(match.leagueSport),
              { nullable: true },
            );
          }
          if (patch.question_definition_allowlist !== undefined) {
            const ids = patch.question_definition_allowlist;
            values.questionDefinitionAllowlist =
              ids && (await checkAllowlist({ db: tx, leagueId: match.leagueId, kind: 'in_game', field: 'question_definition_allowlist', ids }));
          }
          if (patch.match_question_definition_allowlist !== undefined) {
            const ids = patch.match_question_definition_allowlist;
            values.matchQuestionDefinitionAllowlist =
              ids && (await checkAllowlist({ db: tx, leagueId: match.leagueId, kind: 'match', field: 'match_question_definition_allowlist', ids }));
          }
          if (patch.auto_dispatch_listener !== undefined) values.autoDispatchListener = patch.auto_dispatch_listener;
          if (patch.is_test !== undefined) values.isTest = patch.is_test;
          if (patch.feed_url !== undefined) {
            values.feedUrl = patch.feed_url === null ? null : checkFeedUrl(patch.feed_url, feedUrlPolicy);
            values.feedUrlByOperator = true;
          }
          if (patch.sponsor_brand_id !== undefined) {
            // The foreign key refuses an unknown brand (also one deleted meanwhile): 404 below.
            values.sponsorBrandId = patch.sponsor_brand_id;
          }
          await updateMatchRow({ db: tx, id, values });
          return view(tx, id, viewerId);
        });
      } catch (err) {
        if (isForeignKeyViolation(err)) throw brandErrors.notFound(patch.sponsor_brand_id ?? undefined);
        throw err;
      }
    },

    /**
     * Test matches only (409 for a real match). Everything hanging off the
     * match goes with it by ON DELETE CASCADE: follows, slots, issuances,
     * denials, listeners with their events and logs. Active follows that took
     * a quota slot (followed while the match was real) get it back.
     */
    async delete(id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const match = await lockMatch({ tx, id, strength: 'update' });
        if (!match) throw matchErrors.notFound();
        if (!match.isTest) throw matchErrors.notTest('delete', id, match.srId);
        await refundActiveFollowsOfMatch({ db: tx, matchId: id });
        await deleteMatchRow({ db: tx, id });
      });
      await events.emit({ type: 'matchDeleted', matchId: id });
    },

    /**
     * Idempotent. Already following: the same follow, nothing taken. A spent
     * row (unfollowed after a real match started) is reactivated, taking no
     * slot. A new follow of a real match by a restricted user takes one slot
     * of the day of the follow in the user's zone (409 when none is left); a
     * test match, or an unrestricted user, takes none. 409 also when the match
     * is closed or cancelled (unless already following: that stays a 200).
     */
    async follow(matchId: string, user: UserRow): Promise<FollowResult> {
      /** Whether this call started following (not an idempotent repeat). */
      let started = false;
      let result: FollowResult;
      try {
        result = await db.transaction(async (tx) => {
          const match = await lockMatch({ tx, id: matchId, strength: 'key share' });
          if (!match) throw matchErrors.notFound();
          const now = new Date();
          // A concurrent first follow of the same match may win the insert (UNIQUE(user_id, match_id)); then the next round reads its row.
          for (let attempt = 0; attempt < 3; attempt++) {
            const existing = await lockFollow({ tx, userId: user.id, matchId });
            if (existing?.following) {
              return { follow: existing, refunded: false, followsRemainingToday: await remainingToday(tx, user, now) };
            }
            if (unfollowable.has(match.status)) throw matchErrors.notFollowable(matchId, match.status);
            if (existing) {
              const follow = await updateFollow({ db: tx, id: existing.id, values: { following: true, unfollowedAt: null } });
              started = true;
              return { follow, refunded: false, followsRemainingToday: await remainingToday(tx, user, now) };
            }
            const quota = user.matchDailyFollowCount;
            const counts = !match.isTest && quota !== null;
            const day = followQuotaDay(now, user.matchFollowTimezone);
            const follow = await insertFollow({
              db: tx,
              values: { userId: user.id, matchId, following: true, countsTowardQuota: counts, quotaDay: counts ? day : null, followedAt: now },
            });
            if (!follow) continue;
            started = true;
            if (!counts) return { follow, refunded: false, followsRemainingToday: await remainingToday(tx, user, now) };
            const used = await takeQuotaSlot({ db: tx, userId: user.id, day, quota });
            if (used === undefined) {
              // Thrown inside the transaction: the follow inserted above is rolled back.
              throw followErrors.dailyLimit(quota, day, user.matchFollowTimezone || 'UTC');
            }
            return { follow, refunded: false, followsRemainingToday: Math.max(quota - used, 0) };
          }
          throw followErrors.busy();
        });
      } catch (err) {
        // The match was deleted between our read and the insert.
        if (isForeignKeyViolation(err)) throw matchErrors.notFound();
        throw err;
      }
      if (started) await events.emit({ type: 'followChanged', userId: user.id, matchId, following: true });
      return result;
    },

    /**
     * Before the match starts, or for a test match: the follow is deleted and
     * the slot it took goes back to that day's counter (refunded=true). After
     * a real match started: kept as a spent row (following=false), no refund.
     * 404 when the match is unknown or the caller does not follow it.
     */
    async unfollow(matchId: string, user: UserRow): Promise<FollowResult> {
      const result = await db.transaction(async (tx): Promise<FollowResult> => {
        const match = await lockMatch({ tx, id: matchId, strength: 'key share' });
        if (!match) throw matchErrors.notFound();
        const existing = await lockFollow({ tx, userId: user.id, matchId });
        if (!existing?.following) throw followErrors.notFound(matchId);
        const now = new Date();
        if (match.isTest || !hasStarted(match, now)) {
          await deleteFollow({ db: tx, id: existing.id });
          if (existing.countsTowardQuota && existing.quotaDay) await refundQuotaSlot({ db: tx, userId: user.id, day: existing.quotaDay });
          return {
            follow: { ...existing, following: false, unfollowedAt: now },
            refunded: true,
            followsRemainingToday: await remainingToday(tx, user, now),
          };
        }
        const follow = await updateFollow({ db: tx, id: existing.id, values: { following: false, unfollowedAt: now } });
        return { follow, refunded: false, followsRemainingToday: await remainingToday(tx, user, now) };
      });
      await events.emit({ type: 'followChanged', userId: user.id, matchId, following: false });
      return result;
    },
  };
}

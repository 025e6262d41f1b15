/**
 * Leaderboards: maintained score tables, written in the transaction that
 * scores a settled question's answers, and read a page at a time with the
 * caller's own rank. The rules (what counts, the ranking, the periods) are in
 * the contract's `Leaderboard` schema and docs/decisions.md.
 */
import type { components } from '../../../generated/api-types.js';
import type { Db, Tx } from '../../db/client.js';
import { matchErrors } from '../matches/matches.errors.js';
import { leaderboardErrors } from './leaderboards.errors.js';
import type { QuestionIssuanceRow } from '../issuances/issuances.table.js';
import type { LeaguesService } from '../leagues/leagues.service.js';
import { localDate, periodBounds, periodStarts, periodStartsOfDate, zoneOrUtc, type LeaderboardPeriodKind } from '../shared/calendar.js';
import type { UserRow } from '../users/users.table.js';
import {
  ALL_TIME_START,
  OVERALL_ID,
  addSettlement,
  boardForDelivery,
  expiredBoard,
  pruneBoard,
  ensureBoards,
  findBoards,
  lockLeaderboards,
  matchForScoring,
  membersBoard,
  positionsOf,
  rebuildUser,
  scoredZones,
  type BoardKey,
  type Period,
  type RankedRow,
  type Scope,
} from './leaderboards.repository.js';
import type { LeaderboardRow } from './leaderboards.table.js';

type Schemas = components['schemas'];

/** What a settlement changed: the match and the ids of the boards it wrote (for live updates). */
export interface LeaderboardChange {
  matchId: string;
  leaderboardIds: number[];
}

export interface BoardQuery {
  period: Period;
  /** A calendar date in the period wanted; default: today in the zone. */
  date?: string | undefined;
  offset: number;
  limit: number;
}

const keyString = (k: BoardKey) => `${k.scope}|${k.scopeId}|${k.period}|${k.periodStart}`;

/** The boards an answer scored at `at` by a player of zone `tz` counts in (match, league and the whole game). */
export function boardKeysFor({ matchId, leagueId, at, timeZone }: { matchId: string; leagueId: string; at: Date; timeZone: string }): BoardKey[] {
  const starts = periodStarts(at, timeZone);
  const periodic = (scope: Scope, scopeId: string): BoardKey[] => [
    { scope, scopeId, period: 'all_time', periodStart: ALL_TIME_START },
    ...(['day', 'week', 'month'] as const).map((p) => ({ scope, scopeId, period: p, periodStart: starts[p] })),
  ];
  return [
    { scope: 'match', scopeId: matchId, period: 'all_time', periodStart: ALL_TIME_START },
    ...periodic('league', leagueId),
    ...periodic('overall', OVERALL_ID),
  ];
}

export const toEntry = (r: RankedRow): Schemas['LeaderboardEntry'] => ({
  rank: r.rank,
  user_id: r.userId,
  display_name: r.name,
  points: r.points,
  correct_count: r.correct,
  answered_count: r.answered,
  current_streak: r.currentStreak,
  best_streak: r.bestStreak,
  reached_at: r.reachedAt.toISOString(),
});

export type LeaderboardsService = ReturnType<typeof createLeaderboardsService>;

export function createLeaderboardsService({ db, leagues, now = () => new Date() }: { db: Db; leagues: LeaguesService; now?: () => Date }) {
  /** The board a query names, in the caller's zone: its key and the period's bounds there. */
  function resolvePeriod(query: Pick<BoardQuery, 'period' | 'date'>, viewer: UserRow | null) {
    const timezone = zoneOrUtc(viewer?.matchFollowTimezone);
    if (query.period === 'all_time') {
      if (query.date !== undefined) throw leaderboardErrors.dateWithoutPeriod();
      return { timezone, periodStart: ALL_TIME_START, bounds: null };
    }
    const kind: LeaderboardPeriodKind = query.period;
    const periodStart = periodStartsOfDate(query.date ?? localDate(now(), timezone))[kind];
    const bounds = periodBounds(kind, periodStart, timezone);
    // Instants are years 0001 to 9999 (the contract's date-time): a period reaching past them has no answer to give.
    if (bounds.from.getUTCFullYear() < 1 || bounds.to.getUTCFullYear() > 9999) throw leaderboardErrors.dateOutOfRange(kind, query.date);
    return { timezone, periodStart, bounds };
  }

  async function findBoard(key: BoardKey): Promise<LeaderboardRow | undefined> {
    const [board] = await findBoards({ db, keys: [key] });
    return board;
  }

  async function read({
    scope,
    scopeId,
    leagueId,
    matchId,
    query,
    viewer,
    empty = false,
  }: {
    scope: Scope;
    scopeId: string;
    leagueId: string | null;
    matchId: string | null;
    query: BoardQuery;
    viewer: UserRow | null;
    empty?: boolean;
  }): Promise<Schemas['Leaderboard']> {
    const { timezone, periodStart, bounds } = resolvePeriod(query, viewer);
    // One statement: the board, the page, the player count and the caller's row and rank.
    const found = empty
      ? undefined
      : await boardForDelivery({
          db,
          key: { scope, scopeId, period: query.period, periodStart },
          top: query.limit,
          offset: query.offset,
          userIds: viewer ? [viewer.id] : [],
        });
    const page = { rows: found?.top ?? [], total: found?.playerCount ?? 0 };
    const me = viewer ? found?.mine.get(viewer.id) : undefined;
    return {
      scope,
      group_id: null,
      league_id: leagueId,
      match_id: matchId,
      period: query.period,
      period_start: query.period === 'all_time' ? null : periodStart,
      starts_at: bounds ? bounds.from.toISOString() : null,
      ends_at: bounds ? bounds.to.toISOString() : null,
      timezone,
      player_count: page.total,
      offset: query.offset,
      limit: query.limit,
      rows: page.rows.map(toEntry),
      me: me ? toEntry(me) : null,
    };
  }

  return {
    /**
     * Runs in the settling transaction, after the answers were scored: adds
     * them to every board they count in. Test matches count nowhere.
     */
    async applySettlement(tx: Tx, issuance: QuestionIssuanceRow): Promise<LeaderboardChange | undefined> {
      const match = await matchForScoring({ db: tx, matchId: issuance.matchId });
      if (!match || match.isTest) return undefined;
      const zones = await scoredZones({ db: tx, issuanceId: issuance.id });
      if (!zones.length) return undefined;
      await lockLeaderboards(tx);
      const keysByZone = zones.map((z) => ({
        zone: z.zone,
        keys: boardKeysFor({ matchId: issuance.matchId, leagueId: match.leagueId, at: z.scoredAt, timeZone: zoneOrUtc(z.zone) }),
      }));
      const ids = await ensureBoards({ db: tx, keys: keysByZone.flatMap((z) => z.keys) });
      const boardsByZone = keysByZone.flatMap((z) => z.keys.map((k) => ({ zone: z.zone, leaderboardId: ids.get(keyString(k))! })));
      const resolved = issuance.status === 'resolved' && issuance.correctAnswerIdentifier !== null;
      const leaderboardIds = await addSettlement({ tx, issuanceId: issuance.id, resolved, scoredAt: zones[0]!.scoredAt, boardsByZone });
      return { matchId: issuance.matchId, leaderboardIds };
    },

    /**
     * Deletes the boards of periods past the retention (days after 40 days,
     * weeks after 20 weeks, months after 25 months), in transactions of at
     * most `chunk` rows so settlements never wait long; at most `budget`
     * rows per call (a periodic task of the worker). Returns the rows deleted.
     */
    async pruneExpired({ chunk = 20_000, budget = 200_000 }: { chunk?: number; budget?: number } = {}): Promise<number> {
      let done = 0;
      const today = localDate(now(), 'UTC');
      while (done < budget) {
        const id = await expiredBoard({ db, today });
        if (id === undefined) break;
        let gone = false;
        while (!gone && done < budget) {
          gone = await db.transaction((tx) => pruneBoard({ tx, leaderboardId: id, rows: chunk }));
          done += chunk;
        }
      }
      return done;
    },

    /** Where a user stands (operators): the whole game and leagues all time and in their current periods, and their 20 latest matches. */
    async positions(user: UserRow): Promise<Schemas['UserLeaderboardPositions']> {
      const timezone = zoneOrUtc(user.matchFollowTimezone);
      const found = await positionsOf({ db, userId: user.id, starts: periodStarts(now(), timezone), matches: 20 });
      return {
        user_id: user.id,
        hidden_from_leaderboards: user.hiddenFromLeaderboards,
        is_active: user.isActive,
        timezone,
        positions: found.map((p) => ({
          scope: p.board.scope as Scope,
          league_id: p.board.scope === 'league' ? p.board.scopeId : null,
          match_id: p.board.scope === 'match' ? p.board.scopeId : null,
          period: p.board.period as Period,
          period_start: p.board.period === 'all_time' ? null : p.board.periodStart,
          player_count: p.playerCount,
          entry: toEntry(p.row),
        })),
      };
    },

    /** Rebuilds a user's rows from their answers: after hiding, deactivating, reactivating or a new time zone (in that change's transaction). */
    async rebuildUser(tx: Tx, userId: string): Promise<void> {
      await rebuildUser({ tx, userId });
    },

    overall: (query: BoardQuery, viewer: UserRow | null) => read({ scope: 'overall', scopeId: OVERALL_ID, leagueId: null, matchId: null, query, viewer }),

    async league(idOrSlug: string, query: BoardQuery, viewer: UserRow | null) {
      const league = await leagues.get(idOrSlug);
      return read({ scope: 'league', scopeId: league.id, leagueId: league.id, matchId: null, query, viewer });
    },

    async match(matchId: string, query: Omit<BoardQuery, 'period' | 'date'>, viewer: UserRow | null) {
      const match = await matchForScoring({ db, matchId });
      if (!match) throw matchErrors.notFound();
      return read({
        scope: 'match',
        scopeId: matchId,
        leagueId: match.leagueId,
        matchId,
        query: { ...query, period: 'all_time' },
        viewer,
        empty: match.isTest,
      });
    },

    /**
     * A board of some players only (a private group's members), ranked among
     * themselves: every one of them on the board (their number is bounded by
     * the group's limit), in the public board's order.
     */
    async ofMembers({
      groupId,
      scope,
      league,
      matchId,
      query,
      viewer,
      userIds,
      limit,
    }: {
      groupId: string;
      scope: Scope;
      league: string | undefined;
      matchId: string | undefined;
      query: Pick<BoardQuery, 'period' | 'date'>;
      viewer: UserRow;
      userIds: string[];
      limit: number;
    }): Promise<Schemas['Leaderboard']> {
      if (scope !== 'league' && league !== undefined) throw leaderboardErrors.scopeMismatch('league', scope);
      if (scope !== 'match' && matchId !== undefined) throw leaderboardErrors.scopeMismatch('match_id', scope);
      let scopeId = OVERALL_ID;
      let leagueId: string | null = null;
      let empty = false;
      if (scope === 'league') {
        if (league === undefined) throw leaderboardErrors.scopeIncomplete('league');
        leagueId = (await leagues.get(league)).id;
        scopeId = leagueId;
      } else if (scope === 'match') {
        if (matchId === undefined) throw leaderboardErrors.scopeIncomplete('match');
        if (query.period !== 'all_time') throw leaderboardErrors.matchPeriod();
        const match = await matchForScoring({ db, matchId });
        if (!match) throw matchErrors.notFound();
        leagueId = match.leagueId;
        scopeId = matchId;
        empty = match.isTest;
      }
      const { timezone, periodStart, bounds } = resolvePeriod(query, viewer);
      const board = empty ? undefined : await findBoard({ scope, scopeId, period: query.period, periodStart });
      const rows = board ? await membersBoard({ db, leaderboardId: board.id, userIds }) : [];
      const me = rows.find((r) => r.userId === viewer.id);
      return {
        scope,
        group_id: groupId,
        league_id: leagueId,
        match_id: scope === 'match' ? scopeId : null,
        period: query.period,
        period_start: query.period === 'all_time' ? null : periodStart,
        starts_at: bounds ? bounds.from.toISOString() : null,
        ends_at: bounds ? bounds.to.toISOString() : null,
        timezone,
        player_count: rows.length,
        offset: 0,
        limit,
        rows: rows.map(toEntry),
        me: me ? toEntry(me) : null,
      };
    },
  };
}

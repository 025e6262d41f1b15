/**
 * Leaderboards: maintained score tables, and reads of a page at a time with
 * the caller's own rank. The transaction that settles a question queues it
 * (`enqueueSettlement`); the worker applies the queue after the commit, a
 * chunk of answers per transaction (`applyQueued`), the match's board first,
 * then the all-time boards, then the day, week and month boards. The rules
 * (what counts, the ranking, the periods) are in the contract's `Leaderboard`
 * schema and docs/decisions.md.
 */
import { randomUUID } from 'node:crypto';
import type { components } from '../../../generated/api-types.js';
import type { Db, Tx } from '../../db/client.js';
import type { Events } from '../../events/catalogue.js';
import { matchErrors } from '../matches/matches.errors.js';
import { leaderboardErrors } from './leaderboards.errors.js';
import { metrics } from '../../observability/metrics.js';
import type { QuestionIssuanceRow } from '../issuances/issuances.table.js';
import type { LeaguesService } from '../leagues/leagues.service.js';
import { localDate, periodBounds, periodStarts, periodStartsOfDate, zoneOrUtc, type LeaderboardPeriodKind } from '../shared/calendar.js';
import type { UserRow } from '../users/users.table.js';
import { addChunk, chunkOf, ensureBoards, findBoards, indexesOnly, rebuildUser } from './leaderboards.applier.repository.js';
import {
  ALL_TIME_START,
  OVERALL_ID,
  PHASE,
  boardKeyText,
  boardKeysFor,
  phaseOf,
  type BoardKey,
  type Period,
  type Phase,
  type Scope,
} from './leaderboards.keys.js';
import {
  advanceQueued,
  assignPositions,
  enqueueSettlement,
  hasQueued,
  lockLeaderboards,
  matchForScoring,
  nextQueued,
  queueState,
  tryLockLeaderboards,
} from './leaderboards.queue.repository.js';
import {
  aheadInCopy,
  boardForDelivery,
  boardHead,
  boardPage,
  loadTie,
  membersBoard,
  playersAbove,
  positionsOf,
  streakBoard,
  totalAhead,
  TIE_SCAN_MAX,
  type BoardPage,
  type HeadRow,
  type RankedRow,
  type TieCopy,
} from './leaderboards.repository.js';
import { expiredBoard, keptFrom, pruneBoard, RETENTION_DAYS } from './leaderboards.retention.repository.js';
import {
  allRowsPage,
  keepSnapshotOpen,
  MARKER_END,
  markerBefore,
  namesOf,
  pendingUserChanges,
  pruneUserChanges,
  settlementAnswers,
  settlementsFrom,
  sqlProgress,
  userAnswers,
  type CopiedRow,
  type CopyCursors,
  type DirectAnswer,
  type DirectSettlement,
  type Marker,
  type UserAnswer,
} from './leaderboards.copy.repository.js';
import { markerText, WRITE_BATCH, type RedisBoards, type RedisRow } from './leaderboards.redis.js';
import type { LeaderboardRow } from './leaderboards.table.js';
import { applyAnswer, streakOf, type RankBy, type RuleRow } from './leaderboards.rule.js';

type Schemas = components['schemas'];

/** One chunk the applier committed: which settlement, which phase, how many answers, and whether that phase (or the whole settlement) is done with it. */
export interface AppliedChunk {
  seq: number;
  issuanceId: string;
  matchId: string;
  phase: Phase;
  answers: number;
  phaseDone: boolean;
  done: boolean;
  /** Seconds from the settlement's commit (its queue row) to this chunk's. */
  lag: number;
}

/** Board rows a chunk writes by default (LEADERBOARD_APPLY_CHUNK_ROWS): its answers are this divided by the boards of its phase. */
export const DEFAULT_CHUNK_ROWS = 20_000;
/** The phases' names in metrics. */
const PHASE_NAMES: Record<Phase, string> = { 1: 'match', 2: 'all_time', 3: 'periods' };
/** Boards an answer counts on in each phase: its match's; the league's and the whole game's all time; their day, week and month. */
const BOARDS_PER_ANSWER: Record<Phase, number> = { 1: 1, 2: 2, 3: 6 };

/** Test seam: runs inside a chunk's transaction after its rows were written (throwing rolls the chunk back, as a failing statement would). */
export type ChunkProbe = (chunk: Omit<AppliedChunk, 'phaseDone' | 'done' | 'lag'>) => void | Promise<void>;

export interface BoardQuery {
  period: Period;
  /** What the board is ranked by (the contract's `rank_by`); points when left out. */
  rankBy?: RankBy | undefined;
  /** A calendar date in the period wanted; default: today in the zone. */
  date?: string | undefined;
  offset: number;
  limit: number;
}

export { boardKeysFor };

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

/** How long a cached page may be served at its board's version (display names are not versioned; renames also empty the cache). */
const PAGE_TTL_MS = 1000;
/** Pages kept (boards x offset x limit). */
const PAGES_MAX = 256;
/** Players of large points totals kept in process, all copies together (66 bytes each). */
const TIE_ENTRIES_MAX = 1_000_000;
/** Rows of a read whose large totals have no copy yet that are counted a statement each; more: the one-statement read. */
const TIE_COUNTS_MAX = 4;
/** A total is copied again at most this often (it changes with every chunk that moves a player in, out or inside it). */
const TIE_RELOAD_MS = 1000;

export function createLeaderboardsService({
  db,
  leagues,
  now = () => new Date(),
  chunkRows: defaultChunkRows = DEFAULT_CHUNK_ROWS,
  tieScanMax = TIE_SCAN_MAX,
  events,
  onBackgroundError,
  redisBoards,
}: {
  db: Db;
  leagues: LeaguesService;
  now?: () => Date;
  /** Board rows per applied chunk. */
  chunkRows?: number;
  /** `boardChanged` after a chunk that changed a match's board committed (the live stream's `leaderboard` message); none in tools and tests. */
  events?: Events;
  /** Points totals of more players than this are ranked from an in-process copy (loaded in the background) instead of the rank index. */
  tieScanMax?: number;
  /** A background copy of a points total failed (the reads counted it through the index meanwhile). */
  onBackgroundError?: (err: unknown) => void;
  /**
   * With REDIS_URL: the boards in Redis (leaderboards.redis.ts), which every read is served from while they are
   * ready (PostgreSQL's read otherwise: being copied, Redis unreachable or slower than its command budget), and which
   * `copyToRedis` keeps up; `boardChanged` is then said once a match's board is in Redis. `onError`: a read fell back.
   */
  redisBoards?: { boards: RedisBoards; writer: RedisBoards; onError?: (err: unknown) => void };
}) {
  /** After a failed Redis read, reads go to PostgreSQL until then (a frozen server costs one command budget a second, not one a read). */
  let redisDownUntil = 0;
  /** How long reads skip Redis after it failed one, ms. */
  const REDIS_BACKOFF_MS = 1000;
  const redisUsable = () => redisBoards !== undefined && performance.now() >= redisDownUntil;
  const redisFailed = (err: unknown) => {
    redisDownUntil = performance.now() + REDIS_BACKOFF_MS;
    served.redisFallbacks++;
    redisBoards?.onError?.(err);
  };
  /** Board rows from Redis with the players' names (one primary-key read of the users). */
  async function withNames(rows: RedisRow[]): Promise<RankedRow[]> {
    const names = await namesOf({ db, userIds: [...new Set(rows.map((r) => r.userId))] });
    return rows.map(({ reachedUs, ...r }) => ({
      ...r,
      name: names.get(r.userId) ?? `Player ${r.userId.slice(0, 8)}`,
      reachedAt: new Date(Math.floor(reachedUs / 1000)),
    }));
  }
  // ------------------------------------------------------------ read caches (exact: keyed by versions the writers move)
  const pages = new Map<string, BoardPage & { at: number }>();
  const ties = new Map<string, TieCopy>();
  const tieLoads = new Map<string, number>();
  let tieEntries = 0;
  /** Reads served by each means (tests, and what a profile shows). */
  const served = { pageHits: 0, pageReads: 0, tieCopies: 0, tieScans: 0, tieScansFromEnd: 0, fallbacks: 0, redisReads: 0, redisFallbacks: 0 };

  function keepPage(key: string, page: BoardPage) {
    pages.delete(key);
    pages.set(key, { ...page, at: performance.now() });
    while (pages.size > PAGES_MAX) pages.delete(pages.keys().next().value!);
  }

  function keepTie(key: string, tie: TieCopy) {
    const old = ties.get(key);
    if (old) tieEntries -= old.count;
    ties.delete(key);
    if (tie.count > TIE_ENTRIES_MAX) return;
    ties.set(key, tie);
    tieEntries += tie.count;
    for (const [k, t] of ties) {
      if (tieEntries <= TIE_ENTRIES_MAX) break;
      ties.delete(k);
      tieEntries -= t.count;
    }
  }

  /**
   * The players of a row's points total ahead of it, from the in-process copy
   * at the total's version; without one, a copy is started and the answer is
   * whether to count from the total's end (an older copy places the row in
   * its second half).
   */
  function aheadFromCopy(boardId: number, row: HeadRow): number | { fromEnd: boolean } {
    const key = `${boardId}|${row.points}`;
    const copy = ties.get(key);
    if (copy && copy.version === row.tieVersion) {
      ties.delete(key);
      ties.set(key, copy);
      served.tieCopies++;
      return aheadInCopy(copy, row.tieKey);
    }
    const fromEnd = copy !== undefined && aheadInCopy(copy, row.tieKey) > copy.count / 2;
    const last = tieLoads.get(key);
    if (last === undefined || performance.now() - last > TIE_RELOAD_MS) {
      tieLoads.set(key, performance.now());
      void loadTie({ db, boardId, points: row.points }).then(
        (tie) => {
          if (tie) keepTie(key, tie);
          tieLoads.set(key, performance.now());
        },
        (err: unknown) => onBackgroundError?.(err),
      );
      if (tieLoads.size > 4 * PAGES_MAX) tieLoads.delete(tieLoads.keys().next().value!);
    }
    return { fromEnd };
  }

  /**
   * Whether a board's period is past its retention (the worker deletes such boards, a chunk at a time, from PostgreSQL
   * only): its reads are PostgreSQL's, never a copy kept in memory from before the deletion.
   */
  function pastRetention(key: BoardKey): boolean {
    return key.period !== 'all_time' && key.periodStart < keptFrom(key.period, localDate(now(), 'UTC'));
  }

  /** A group's rows: its members' on the public board, ranked among themselves (from Redis while its boards are ready). */
  async function groupRows(key: BoardKey, userIds: string[]): Promise<RankedRow[]> {
    if (redisUsable() && !pastRetention(key)) {
      try {
        const rows = await redisBoards!.boards.members(key, userIds);
        if (rows) {
          served.redisReads++;
          return withNames(rows);
        }
      } catch (err) {
        redisFailed(err);
      }
    }
    const board = await findBoard(key);
    return board ? membersBoard({ db, leaderboardId: board.id, userIds }) : [];
  }

  /**
   * A page of a board, its player count and some players' rows and ranks,
   * exact at one version of the board: the players' rows with their points
   * totals' sizes and versions in one statement; the page and the point
   * counts (shared by every reader) from the cache at the board's version,
   * or read and kept; the players ahead of a reader on the same points
   * counted in that statement when the total is small (at most
   * `tieScanMax`), else from an in-process copy of the total at its version
   * (or, while none is loaded, through the rank index). A writer committing
   * between the statements moves the versions, and the read starts again.
   */
  async function rankedRead(key: BoardKey, offset: number, limit: number, userIds: string[], rankBy: RankBy = 'points') {
    if (redisUsable() && !pastRetention(key)) {
      try {
        const found = await redisBoards!.boards.read(key, offset, limit, userIds, rankBy);
        if (found) {
          served.redisReads++;
          const named = await withNames([...found.top, ...found.mine.values()]);
          const top = named.slice(0, found.top.length);
          const mine = new Map(named.slice(found.top.length).map((r) => [r.userId, r] as const));
          // A board Redis has no row of: none in PostgreSQL either, but for a board nobody scored on yet the SQL read says
          // "no board" (undefined), which the callers answer alike (empty).
          return { playerCount: found.playerCount, top, mine };
        }
      } catch (err) {
        redisFailed(err);
      }
    }
    // A streak board: one statement over the streak's index (no cache: the streak boards are read far less than the
    // points boards, and a streak moves with nearly every settlement, so a page would rarely be read twice at a version).
    if (rankBy !== 'points') return streakBoard({ db, key, by: rankBy, top: limit, offset, userIds });
    return sqlRankedRead(key, offset, limit, userIds);
  }

  async function sqlRankedRead(key: BoardKey, offset: number, limit: number, userIds: string[]) {
    for (let attempt = 0; attempt < 3; attempt++) {
      const head = await boardHead({ db, key, userIds, tieScanMax });
      if (!head) return undefined;
      const pageKey = `${head.id}|${offset}|${limit}`;
      let page: BoardPage | undefined = pages.get(pageKey);
      if (page && page.version === head.version && performance.now() - (page as BoardPage & { at: number }).at <= PAGE_TTL_MS) served.pageHits++;
      else {
        served.pageReads++;
        page = await boardPage({ db, boardId: head.id, top: limit, offset });
        keepPage(pageKey, page);
        if (page.version !== head.version) continue;
      }
      const mine = new Map<string, RankedRow>();
      const fromCopies = head.rows.map((r) => r.aheadInTie ?? aheadFromCopy(head.id, r));
      // Many rows without a copy of their total (the live stream's receivers, before the copies are loaded): one statement
      // counts them all rather than a statement each.
      if (fromCopies.filter((n) => typeof n !== 'number').length > TIE_COUNTS_MAX) break;
      let moved = false;
      for (const [i, r] of head.rows.entries()) {
        const found = fromCopies[i]!;
        let inTie: number;
        if (typeof found === 'number') inTie = found;
        else {
          served.tieScans++;
          if (found.fromEnd) served.tieScansFromEnd++;
          const counted = await totalAhead({ db, boardId: head.id, row: r, fromEnd: found.fromEnd });
          if (counted.version !== r.tieVersion) moved = true;
          inTie = counted.ahead;
        }
        const { tiePlayers: _p, tieVersion: _v, aheadInTie: _t, tieKey: _k, ...row } = r;
        mine.set(r.userId, { ...row, rank: 1 + playersAbove(page, r.points) + inTie });
      }
      if (moved) continue;
      return { playerCount: page.above[page.points.length]!, top: page.top, mine };
    }
    // Writers kept moving the board between the statements, or too many totals to count one by one: the one-statement
    // read (exact by itself).
    served.fallbacks++;
    return boardForDelivery({ db, key, top: limit, offset, userIds });
  }

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
    const rankBy = query.rankBy ?? 'points';
    // One statement: the board, the page, the player count and the caller's row and rank.
    const found = empty
      ? undefined
      : await rankedRead({ scope, scopeId, period: query.period, periodStart }, query.offset, query.limit, viewer ? [viewer.id] : [], rankBy);
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
      rank_by: rankBy,
      player_count: page.total,
      offset: query.offset,
      limit: query.limit,
      rows: page.rows.map(toEntry),
      me: me ? toEntry(me) : null,
    };
  }

  /**
   * Applies one chunk of the queue in its own transaction, under the
   * leaderboards' lock (`wait`: waits for it; else 'busy' when another
   * writer holds it): up to `chunkRows` board rows of the first queued
   * settlement's current phase, and the settlement's cursor moved past them
   * in the same transaction, so a chunk counts exactly once whatever fails
   * when. Undefined when nothing is queued.
   */
  async function applyNext({ wait = false, chunkRows = defaultChunkRows, probe }: { wait?: boolean; chunkRows?: number; probe?: ChunkProbe } = {}): Promise<
    AppliedChunk | 'busy' | undefined
  > {
    await assignPositions({ db });
    const applied = await db.transaction(async (tx): Promise<AppliedChunk | 'busy' | undefined> => {
      if (wait) await lockLeaderboards(tx);
      else if (!(await tryLockLeaderboards(tx))) return 'busy';
      await indexesOnly(tx);
      const head = await nextQueued({ tx });
      if (!head) return undefined;
      const match = await matchForScoring({ db: tx, matchId: head.matchId });
      const base = { seq: head.seq, issuanceId: head.issuanceId, matchId: head.matchId, phase: head.phase };
      if (!match || match.isTest) {
        const lag = await advanceQueued({ tx, seq: head.seq, phase: PHASE.done, cursor: null });
        return { ...base, answers: 0, phaseDone: true, done: true, lag };
      }
      const limit = Math.max(1, Math.floor(chunkRows / BOARDS_PER_ANSWER[head.phase]));
      const chunk = await chunkOf({ tx, issuanceId: head.issuanceId, cursor: head.cursor, limit });
      if (chunk.count > 0) {
        const keysByZone = chunk.zones.map((zone) => ({
          zone,
          keys: boardKeysFor({ matchId: head.matchId, leagueId: match.leagueId, at: head.scoredAt, timeZone: zoneOrUtc(zone) }).filter(
            (k) => phaseOf(k) === head.phase,
          ),
        }));
        const ids = await ensureBoards({ db: tx, keys: keysByZone.flatMap((z) => z.keys) });
        const boardsByZone = keysByZone.flatMap((z) => z.keys.map((k) => ({ zone: z.zone, leaderboardId: ids.get(boardKeyText(k))! })));
        await addChunk({
          tx,
          issuanceId: head.issuanceId,
          resolved: head.resolved,
          scoredAt: head.scoredAt,
          after: head.cursor,
          through: chunk.last!,
          boardsByZone,
        });
        await probe?.({ ...base, answers: chunk.count });
      }
      // Fewer than asked: nobody after them counts in this phase.
      const phaseDone = chunk.count < limit;
      const next = phaseDone ? ((head.phase + 1) as Phase | 4) : head.phase;
      const lag = await advanceQueued({ tx, seq: head.seq, phase: next, cursor: phaseDone ? null : chunk.last });
      return { ...base, answers: chunk.count, phaseDone, done: next === PHASE.done, lag };
    });
    if (applied && applied !== 'busy' && applied.phaseDone) metrics.leaderboardLag.observe({ phase: PHASE_NAMES[applied.phase] }, applied.lag);
    // With the boards in Redis, a match's board changed for readers once it is copied there (copyToRedis says so).
    if (!redisBoards && applied && applied !== 'busy' && applied.phase === PHASE.match && applied.answers > 0)
      await events?.emit({ type: 'boardChanged', matchId: applied.matchId });
    if (applied && applied !== 'busy' && applied.phaseDone) await events?.emit({ type: 'boardsApplied', phase: applied.phase });
    return applied;
  }

  /**
   * Applies the queue a chunk at a time until it is empty, `budgetMs` has
   * passed, `stopped()` says so, or (without `wait`) another writer holds
   * the lock. The worker calls it every LEADERBOARD_APPLY_POLL_MS and after
   * each settlement of its process. Returns the chunks applied.
   */
  async function applyQueued({
    wait = false,
    chunkRows,
    budgetMs = Infinity,
    stopped = () => false,
    onChunk,
    probe,
  }: {
    wait?: boolean;
    chunkRows?: number;
    budgetMs?: number;
    stopped?: () => boolean;
    probe?: ChunkProbe;
    onChunk?: (chunk: AppliedChunk) => void;
  } = {}): Promise<number> {
    const started = performance.now();
    if (!wait && !(await hasQueued({ db }))) return 0;
    let chunks = 0;
    while (!stopped() && performance.now() - started < budgetMs) {
      const applied = await applyNext({ wait, chunkRows, probe });
      if (!applied || applied === 'busy') break;
      chunks++;
      onChunk?.(applied);
    }
    return chunks;
  }

  // ------------------------------------------------------------ the copy into Redis (one writer: a lease in Redis)
  /** This process's writer token (its lease in Redis fences its writes: a stale writer's late write is refused). */
  const writerToken = randomUUID();
  /** The writer's lease, ms: renewed by every round; another process's worker takes over once it ran out. */
  const WRITER_LEASE_MS = 30_000;

  /** When a board's keys leave Redis (unix seconds; 0: never): a period board once past the retention, as in PostgreSQL. */
  function expireAt(key: BoardKey): number {
    if (key.period === 'all_time') return 0;
    return Math.floor(Date.parse(`${key.periodStart}T00:00:00Z`) / 1000) + (RETENTION_DAYS[key.period] + 1) * 86_400;
  }

  /**
   * Copies every board row from PostgreSQL into Redis (Redis lost them, or
   * never had them) in one snapshot, with the markers of where the SQL
   * applier stood in it: the settlements after them are applied from their
   * answers next, none twice. Reads are PostgreSQL's until `ready`.
   */
  async function fullCopy(w: RedisBoards, stopped: () => boolean): Promise<number | false> {
    await w.clear(writerToken, WRITER_LEASE_MS);
    return db.transaction(
      async (tx) => {
        await keepSnapshotOpen(tx);
        const progress = await sqlProgress({ tx });
        let after: { userId: string; boardId: number } | null = null;
        let rows = 0;
        do {
          if (stopped() || !(await w.take(writerToken, WRITER_LEASE_MS))) return false;
          const page: { rows: CopiedRow[]; last: { userId: string; boardId: number } | null } = await allRowsPage({ db: tx, after, limit: 20_000 });
          if (!(await w.write({ token: writerToken, incremental: false, rows: page.rows, expireAt }))) return false;
          rows += page.rows.length;
          after = page.last;
        } while (after);
        const cursors = { d1: markerText(progress.d1), d2: markerText(progress.d2), d3: markerText(progress.d3), u: progress.u, ready: w.readyValue };
        return (await w.write({ token: writerToken, incremental: false, rows: [], cursors, expireAt })) && rows;
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  }

  /** Answers of settlements kept by the writer between phases (a settlement's answers are read once), at most. */
  const ANSWERS_KEPT_MAX = 1_000_000;

  /**
   * Applies one settlement's answers to the boards of one phase in Redis, by
   * the rule, a batch of answerers (`batchRows` board rows) per script, each
   * script moving the phase's marker past its batch (the last to END).
   * `marker`: the phase's marker before it (answers at or before it are not
   * sent; `replay`: sent all the same, the scripts skip them). Returns the
   * rows sent, or false when refused or stopped.
   */
  async function applySettlement({
    w,
    s,
    phase,
    answers,
    marker,
    batchRows,
    replay,
    stopped,
  }: {
    w: RedisBoards;
    s: DirectSettlement;
    phase: Phase;
    answers: DirectAnswer[];
    marker: Marker;
    batchRows: number;
    replay: boolean;
    stopped: () => boolean;
  }): Promise<number | false> {
    const at = new Date(Math.floor(s.scoredUs / 1000));
    const keysByZone = new Map<string, BoardKey[]>();
    const keysOf = (zone: string) => {
      let keys = keysByZone.get(zone);
      if (!keys) {
        keys = boardKeysFor({ matchId: s.matchId, leagueId: s.leagueId!, at, timeZone: zoneOrUtc(zone) }).filter((k) => phaseOf(k) === phase);
        keysByZone.set(zone, keys);
      }
      return keys;
    };
    const todo = replay ? answers : answers.filter((a) => s.position > marker.position || a.userId > marker.userId);
    const step = Math.max(1, Math.floor(batchRows / BOARDS_PER_ANSWER[phase]));
    let rows = 0;
    for (let i = 0; i === 0 || i < todo.length; i += step) {
      if (stopped()) return false;
      const batch = todo.slice(i, i + step);
      const boards = new Map<string, { key: BoardKey; expire: number; rows: DirectAnswer[] }>();
      for (const a of batch)
        for (const key of keysOf(a.zone)) {
          const text = boardKeyText(key);
          let b = boards.get(text);
          if (!b) boards.set(text, (b = { key, expire: expireAt(key), rows: [] }));
          b.rows.push(a);
          rows++;
        }
      const through = i + step >= todo.length ? MARKER_END : batch[batch.length - 1]!.userId;
      if (!(await w.apply({ token: writerToken, phase, position: s.position, through, atUs: s.scoredUs, boards: [...boards.values()] }))) return false;
    }
    return rows;
  }

  /**
   * A user's rows in Redis computed again from their answers by the rule (in
   * the boards' order: positions, then as the rebuild orders answers settled
   * before the queue), each board up to its phase's marker: absolute rows,
   * none when the user does not count; and no row on every other board any of
   * their answers could be on in another zone (a zone changed).
   */
  async function userRowsUpTo(userId: string, markers: CopyCursors): Promise<CopiedRow[]> {
    const { counts, zone, answers } = await userAnswers({ db, userId });
    const timeZone = zoneOrUtc(zone);
    const order = (a: UserAnswer, b: UserAnswer) =>
      (a.position ?? 0) - (b.position ?? 0) ||
      a.scoredUs - b.scoredUs ||
      (a.resolvedSeq ?? -1) - (b.resolvedSeq ?? -1) ||
      (a.issuanceId < b.issuanceId ? -1 : a.issuanceId > b.issuanceId ? 1 : 0);
    const rows = new Map<string, { key: BoardKey; row: RuleRow | undefined }>();
    const board = (key: BoardKey) => {
      const text = boardKeyText(key);
      let r = rows.get(text);
      if (!r) rows.set(text, (r = { key, row: undefined }));
      return r;
    };
    // Answers queued but not given a position yet are on no board in Redis.
    for (const a of answers.filter((x) => !x.queued || x.position !== null).sort(order)) {
      const at = new Date(Math.floor(a.scoredUs / 1000));
      // A zone's local date is the UTC date of a time between 12 hours before and 14 hours after.
      for (const h of [-12, 0, 14])
        for (const k of boardKeysFor({ matchId: a.matchId, leagueId: a.leagueId, at: new Date(at.getTime() + h * 3_600_000), timeZone: 'UTC' })) board(k);
      if (!counts) continue;
      for (const key of boardKeysFor({ matchId: a.matchId, leagueId: a.leagueId, at, timeZone })) {
        const m = markers[`d${phaseOf(key)}`];
        if (a.queued && markerBefore(m, { position: a.position!, userId })) continue;
        const r = board(key);
        r.row = applyAnswer(r.row, { outcome: a.outcome, points: a.points, atUs: a.scoredUs });
      }
    }
    return [...rows.values()].map(({ key, row }) => ({ key, userId, row: row ?? null }));
  }

  /**
   * Brings the boards in Redis up to the settlements and users' changes
   * committed in PostgreSQL (the worker's writer task, kicked by each
   * settlement and every LEADERBOARD_APPLY_POLL_MS), without waiting for the
   * SQL applier: each settlement's answers, read once, applied to the boards
   * of each phase in the applier's order (match boards first) with the
   * phase's marker in the same script; then each user whose rows were
   * rebuilt, computed again from their answers; every board copied from
   * PostgreSQL when Redis lost them. Returns the rows written (0: nothing to
   * do, or another process's worker holds the lease). Test seams: `batchRows`
   * (board rows per script), `replay` (every settlement and user change sent
   * again from the start: the scripts must skip what they applied).
   */
  async function copyToRedis({
    stopped = () => false,
    batchRows = WRITE_BATCH,
    replay = false,
    onStep,
  }: {
    stopped?: () => boolean;
    batchRows?: number;
    replay?: boolean;
    /** Each settlement's answers read and each phase applied, with its ms (the bench's breakdown). */
    onStep?: (step: { position: number; what: 'answers' | Phase; ms: number }) => void;
  } = {}): Promise<number> {
    if (!redisBoards) return 0;
    const w = redisBoards.writer;
    if (!(await w.take(writerToken, WRITER_LEASE_MS))) return 0;
    let written = 0;
    if (!(await w.ready())) {
      const copied = await fullCopy(w, stopped);
      if (copied === false) return 0;
      written += copied;
    }
    const kept = new Map<string, DirectAnswer[]>();
    let keptAnswers = 0;
    const answersOf = async (s: DirectSettlement): Promise<DirectAnswer[]> => {
      if (!s.leagueId) return [];
      let found = kept.get(s.issuanceId);
      if (!found) {
        const t0 = performance.now();
        found = await settlementAnswers({ db, issuanceId: s.issuanceId });
        onStep?.({ position: s.position, what: 'answers', ms: performance.now() - t0 });
        for (const [id, list] of kept) {
          if (keptAnswers + found.length <= ANSWERS_KEPT_MAX) break;
          kept.delete(id);
          keptAnswers -= list.length;
        }
        kept.set(s.issuanceId, found);
        keptAnswers += found.length;
      }
      return found;
    };
    const next = (m: Marker) => (m.userId === MARKER_END ? m.position + 1 : m.position);
    while (!stopped()) {
      await assignPositions({ db });
      const cur = await w.cursors();
      const settlements = await settlementsFrom({ db, from: replay ? 0 : Math.min(next(cur.d1), next(cur.d2), next(cur.d3)), limit: replay ? 10_000 : 20 });
      let work = false;
      // Phase by phase, as the SQL applier goes: a settlement's match board first, then the all-time boards, then the periods.
      for (const phase of [1, 2, 3] as const) {
        const marker = cur[`d${phase}`];
        for (const s of settlements) {
          if (!replay && !markerBefore(marker, { position: s.position, userId: MARKER_END })) continue;
          work = true;
          const answers = await answersOf(s);
          const t0 = performance.now();
          const sent = await applySettlement({ w, s, phase, answers, marker, batchRows, replay, stopped });
          if (sent === false) return written;
          onStep?.({ position: s.position, what: phase, ms: performance.now() - t0 });
          written += sent;
          if (phase === PHASE.match) await events?.emit({ type: 'boardChanged', matchId: s.matchId });
        }
      }
      for (const s of settlements) {
        const list = kept.get(s.issuanceId);
        if (list) keptAnswers -= list.length;
        kept.delete(s.issuanceId);
      }
      // Read after the settlements: under the leaderboards' lock in shared mode, this waits for the applier's chunk in flight.
      const users = await pendingUserChanges({ db, after: replay ? 0 : cur.u, limit: 100 });
      if (users.length) work = true;
      for (const u of users) {
        if (stopped()) return written;
        const rows = await userRowsUpTo(u.userId, await w.cursors());
        if (!(await w.write({ token: writerToken, incremental: true, rows, cursors: { u: u.seq }, expireAt, batchRows }))) return written;
        written += rows.length;
      }
      if (replay) replay = false;
      else if (!work) break;
    }
    return written;
  }

  return {
    /**
     * Runs in the settling transaction, after the answers were scored: queues
     * the settlement for the boards (one row; none for a test match or a
     * question nobody answered). The boards take it after the commit.
     */
    async enqueueSettlement(tx: Tx, issuance: QuestionIssuanceRow): Promise<boolean> {
      const resolved = issuance.status === 'resolved' && issuance.correctAnswerIdentifier !== null;
      return enqueueSettlement({ tx, issuanceId: issuance.id, matchId: issuance.matchId, resolved, scoredAt: issuance.resolvedAt });
    },

    applyNext,
    applyQueued,
    copyToRedis,

    /** Whether boards are served from Redis (REDIS_URL). */
    inRedis: redisBoards !== undefined,

    /** Closes the Redis connections of the boards (none without them). */
    async close(): Promise<void> {
      if (!redisBoards) return;
      for (const r of new Set([redisBoards.boards.redis, redisBoards.writer.redis])) await r.quit().catch(() => r.disconnect());
    },

    /** Empties the cached pages (a user's name or state changed: pages carry display names, which are not versioned). */
    forgetPages: () => pages.clear(),

    /** What the read caches hold, and how reads were served since start. */
    cacheState: () => ({ pages: pages.size, ties: ties.size, tieMembers: tieEntries, ...served }),

    /** Applies everything queued, waiting for the lock (tests, scripts): after it, the boards have every settlement committed before the call. */
    drain: (options: { chunkRows?: number; probe?: ChunkProbe; onChunk?: (chunk: AppliedChunk) => void } = {}) => applyQueued({ ...options, wait: true }),

    /** Settlements waiting for the boards, and how long the oldest has waited (seconds). */
    queueState: () => queueState({ db }),

    /**
     * Deletes the boards of periods past the retention (days after 40 days,
     * weeks after 20 weeks, months after 25 months), in transactions of at
     * most `chunk` rows so settlements never wait long; at most `budget`
     * rows per call (a periodic task of the worker). Returns the rows deleted.
     */
    async pruneExpired({ chunk = 20_000, budget = 200_000 }: { chunk?: number; budget?: number } = {}): Promise<number> {
      let done = 0;
      const today = localDate(now(), 'UTC');
      await db.transaction((tx) => pruneUserChanges({ tx }));
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

    /** A match's board for the live stream: the top rows, the player count and each receiver's row and rank (as a read ranks them). */
    matchForDelivery: ({ matchId, userIds, top }: { matchId: string; userIds: string[]; top: number }) =>
      rankedRead({ scope: 'match', scopeId: matchId, period: 'all_time', periodStart: ALL_TIME_START }, 0, top, userIds),

    /** Some players' rows on a match's board (the live stream's group boards), ranked among themselves, as a group's read ranks them. */
    matchMembersForDelivery: ({ matchId, userIds }: { matchId: string; userIds: string[] }) =>
      groupRows({ scope: 'match', scopeId: matchId, period: 'all_time', periodStart: ALL_TIME_START }, userIds),

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
      query: Pick<BoardQuery, 'period' | 'date' | 'rankBy'>;
      viewer: UserRow;
      userIds: string[];
      limit: number;
    }): Promise<Schemas['Leaderboard']> {
      const rankBy = query.rankBy ?? 'points';
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
      const inPointsOrder = empty ? [] : await groupRows({ scope, scopeId, period: query.period, periodStart }, userIds);
      // A streak board of the group: its members' rows by the streak, ties in the rank order they came in (a stable sort;
      // exact to the microsecond, as the read ordered them), as `compareRowsBy` orders. A group is small: sorted here.
      const rows =
        rankBy === 'points' ? inPointsOrder : inPointsOrder.sort((a, b) => streakOf(b, rankBy) - streakOf(a, rankBy)).map((r, i) => ({ ...r, rank: i + 1 }));
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
        rank_by: rankBy,
        player_count: rows.length,
        offset: 0,
        limit,
        rows: rows.map(toEntry),
        me: me ? toEntry(me) : null,
      };
    },
  };
}

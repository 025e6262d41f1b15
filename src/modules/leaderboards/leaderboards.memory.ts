/**
 * The in-process match boards: a match's board (scope match, all time: the
 * board the live stream and the players read during a match) kept in memory
 * once it is read, so a settlement is on it as soon as it is committed, not
 * once the applier has written its rows (seconds for 100,000 answers).
 * PostgreSQL stays the durable truth and the fallback: a board is served from
 * memory only when it is loaded and trusted, else the read is the SQL read.
 *
 * A board is loaded in one REPEATABLE READ snapshot together with the state
 * of the match's settlements in the queue (each one's phase and cursor): its
 * rows, then the answers of each settlement not yet applied to the match board
 * (phase 1: the players after its cursor) applied in memory, in the applier's
 * order. After that, every settlement of the match not seen before (a read
 * checks the queue first, one statement; the bus's `settled` and `board`
 * events start the same check at once) is applied in memory with its answers
 * (one indexed statement), with the rules of the SQL applier (`addChunk`):
 * points, correct, answered, the streaks (a resolved question extends a right
 * answer's and ends a wrong one's; a voided or revoked one moves neither),
 * `reached_at` (the last right answer's time, the first answer's while none is
 * right), players not active or hidden left out (a set of the users who
 * count nowhere, kept by their announcements: no probe into the users per
 * answer). Settlements are applied in
 * the order the applier gives them (`position`, or for those without one yet,
 * their queue number): when the positions the applier assigns later contradict
 * the order they were applied in (two settlements of the match committed out
 * of their queue order), the board is dropped and loaded again.
 *
 * A user's change (hidden, deactivated, reactivated; announced by the
 * database's trigger on the bus at commit) recomputes that user's row from
 * PostgreSQL's (one snapshot: the row and the settlements' cursors) plus the
 * answers PostgreSQL has not applied yet. Names are not kept: a read takes
 * the names of the rows it shows (primary-key probes), and a shown player who
 * no longer counts makes the read fall back and the row be recomputed. The
 * process committing a change reads PostgreSQL until its announcement is back.
 *
 * The ranking is one array of the rows in rank order (points desc, correct
 * desc, reached_at, user id: the rank index's order), rebuilt per settlement
 * by merging the moved rows (sorted) into the unmoved ones: O(n + k log k) a
 * settlement, and a page is a slice, a rank a binary search, O(log n).
 *
 * Bounded: at most MATCH_BOARDS_MAX boards and MATCH_ROWS_MAX rows in all,
 * least recently read first out. Not trusted (every read the SQL read, every
 * board dropped) while the bus does not listen or after a gap in it.
 */
import type { Db } from '../../db/client.js';
import {
  ALL_TIME_START,
  boardNames,
  boardRows,
  matchForScoring,
  matchSettlements,
  notCountingUsers,
  settledAnswers,
  userAnswers,
  type BoardKey,
  type MatchSettlement,
  type MemoryRow,
  type RankedRow,
  type SettledAnswer,
} from './leaderboards.repository.js';

/** Match boards kept in process at most. */
export const MATCH_BOARDS_MAX = 16;
/** Rows of match boards kept in process at most, all boards together (about 230 bytes each, the user id's text included: 230 MB; measured). */
export const MATCH_ROWS_MAX = 1_000_000;
/** How long a change this process commits makes its reads the SQL read at most, while its announcement is not back. */
const CHANGING_MS = 5000;
/** A board whose load failed is not loaded again for this long (its reads are the SQL read meanwhile). */
const RETRY_LOAD_MS = 1000;

/** The first 48 bits of a uuid as a number: uuids compared by it first, as their text only when it is equal (numbers compare faster). */
export const idKeyOf = (id: string) => parseInt(id.slice(0, 8), 16) * 65536 + parseInt(id.slice(9, 13), 16);

/** The rank index's order: points desc, correct desc, reached_at, user id (uuids order as their lowercase text). */
export function rankOrder(a: MemoryRow, b: MemoryRow): number {
  return (
    b.points - a.points || b.correct - a.correct || a.reachedUs - b.reachedUs || a.idKey - b.idKey || (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0)
  );
}

/** One settlement's answer applied to a row (changed in place; undefined: a new row), as `addChunk` applies it. */
export function applyAnswer(row: MemoryRow | undefined, a: { userId: string; points: number; correct: number }, resolved: boolean, atUs: number): MemoryRow {
  if (!row)
    return {
      userId: a.userId,
      idKey: idKeyOf(a.userId),
      stamp: 0,
      points: a.points,
      correct: a.correct,
      answered: 1,
      currentStreak: a.correct,
      bestStreak: a.correct,
      reachedUs: atUs,
    };
  // As the SQL: every column from the row before the answer.
  row.reachedUs =
    a.correct === 1 && row.correct === 0
      ? atUs
      : a.correct === 1
        ? Math.max(row.reachedUs, atUs)
        : row.correct === 0
          ? Math.min(row.reachedUs, atUs)
          : row.reachedUs;
  const extended = a.correct === 1 ? row.currentStreak + 1 : 0;
  row.points += a.points;
  row.correct += a.correct;
  row.answered += 1;
  if (resolved) {
    row.bestStreak = Math.max(row.bestStreak, extended);
    row.currentStreak = extended;
  }
  return row;
}

/** The applier's order of settlements is consistent with the order applied: positioned ones by position, then unpositioned ones by seq. */
export function consistentOrder(applied: { seq: number; position: number | null }[]): boolean {
  let lastPosition = -Infinity;
  let lastSeq = -Infinity;
  let unpositioned = false;
  for (const s of applied) {
    if (s.position !== null) {
      if (unpositioned || s.position <= lastPosition) return false;
      lastPosition = s.position;
    } else {
      if (unpositioned && s.seq <= lastSeq) return false;
      unpositioned = true;
      lastSeq = s.seq;
    }
  }
  return true;
}

export class MatchBoard {
  rows = new Map<string, MemoryRow>();
  sorted: MemoryRow[] = [];
  /** The match's settlements this board has (from the snapshot, or applied here), in the order applied. */
  applied: { issuanceId: string; seq: number; position: number | null; resolved: boolean }[] = [];
  known = new Set<string>();
  /** Whether PostgreSQL has (or, once the applier caught up, will have) this board. */
  exists = false;
  broken = false;
  private stamps = 0;
  /** The last settlement applied after the load: its answers, and the milliseconds reading them and applying them (the merge included). */
  lastApply = { answers: 0, readMs: 0, applyMs: 0 };
  private tail: Promise<void> = Promise.resolve();
  private queuedSync: Promise<void> | null = null;

  /** `out`: the users who count on no board (deactivated or hidden), shared by the process's boards. */
  constructor(
    readonly matchId: string,
    private readonly out: Set<string>,
  ) {}

  /** Runs `fn` after everything queued on this board (one change at a time). */
  run(fn: () => Promise<void>): Promise<void> {
    const next = this.tail.then(fn);
    this.tail = next.catch(() => undefined);
    return next;
  }

  /** A check of the queue that starts after the call (shared by every caller until it starts). */
  sync(db: Db): Promise<void> {
    if (this.queuedSync) return this.queuedSync;
    const p = this.run(async () => {
      this.queuedSync = null;
      await this.syncNow(db);
    });
    this.queuedSync = p;
    return p;
  }

  /** Applies every settlement of the match not seen before, in the applier's order; checks the order of those seen against their positions. */
  async syncNow(db: Db): Promise<void> {
    if (this.broken) return;
    const list = await matchSettlements({ db, matchId: this.matchId });
    const byIssuance = new Map(list.map((s) => [s.issuanceId, s]));
    for (const a of this.applied) if (a.position === null) a.position = byIssuance.get(a.issuanceId)?.position ?? null;
    const fresh = list.filter((s) => !this.known.has(s.issuanceId));
    for (const s of fresh) {
      this.note(s);
      const t0 = performance.now();
      const answers = await settledAnswers({ db, issuanceId: s.issuanceId, after: null });
      const t1 = performance.now();
      this.apply(s, answers);
      this.lastApply = { answers: answers.length, readMs: t1 - t0, applyMs: performance.now() - t1 };
    }
    if (!consistentOrder(this.applied)) this.broken = true;
  }

  note(s: MatchSettlement) {
    this.known.add(s.issuanceId);
    this.applied.push({ issuanceId: s.issuanceId, seq: s.seq, position: s.position, resolved: s.resolved });
  }

  /** A settlement's answers (those not applied to the loaded rows) applied, and the ranking rebuilt by a merge. */
  apply(s: Pick<MatchSettlement, 'resolved' | 'scoredUs'>, answers: SettledAnswer[]) {
    // Rows moved by this settlement carry its stamp (no set of ids to build and probe: 100,000 answers on a board of 190,000).
    const stamp = ++this.stamps;
    const changed: MemoryRow[] = [];
    let gone = false;
    for (const a of answers) {
      let row = this.rows.get(a.userId);
      if (this.out.has(a.userId)) {
        // A player who counts nowhere: the change's rebuild removed their rows (its announcement recomputes them too).
        if (row) {
          this.rows.delete(a.userId);
          row.stamp = stamp;
          gone = true;
        }
        continue;
      }
      if (row) applyAnswer(row, a, s.resolved, s.scoredUs);
      else {
        row = applyAnswer(undefined, a, s.resolved, s.scoredUs);
        this.rows.set(a.userId, row);
      }
      if (row.stamp !== stamp) {
        row.stamp = stamp;
        changed.push(row);
      }
      this.exists = true;
    }
    if (changed.length || gone)
      this.merge(
        this.sorted.filter((r) => r.stamp !== stamp),
        changed,
      );
  }

  /** The unmoved rows (in order) and the moved ones (sorted here) merged into the ranking. */
  private merge(kept: MemoryRow[], changed: MemoryRow[]) {
    changed.sort(rankOrder);
    const out = new Array<MemoryRow>(kept.length + changed.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < kept.length && j < changed.length) out[k++] = rankOrder(kept[i]!, changed[j]!) <= 0 ? kept[i++]! : changed[j++]!;
    while (i < kept.length) out[k++] = kept[i++]!;
    while (j < changed.length) out[k++] = changed[j++]!;
    this.sorted = out;
  }

  /** The ranking again after `moved` rows changed (or went): the unmoved ones kept in order, the moved ones sorted and merged in. */
  reorder(moved: Set<string>) {
    if (!moved.size) return;
    const changed: MemoryRow[] = [];
    for (const id of moved) {
      const r = this.rows.get(id);
      if (r) changed.push(r);
    }
    this.merge(
      this.sorted.filter((r) => !moved.has(r.userId)),
      changed,
    );
  }

  /** 0-based place of a row in the ranking: a binary search. */
  indexOf(row: MemoryRow): number {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (rankOrder(this.sorted[mid]!, row) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

export type MatchBoards = ReturnType<typeof createMatchBoards>;

/**
 * The in-process match boards of one process. `trusted`: whether the bus
 * listens (no gap since the boards were loaded: `resync` drops them all).
 */
export function createMatchBoards({
  db,
  trusted,
  maxBoards = MATCH_BOARDS_MAX,
  maxRows = MATCH_ROWS_MAX,
  onError,
}: {
  db: Db;
  trusted: () => boolean;
  maxBoards?: number;
  maxRows?: number;
  onError?: (err: unknown) => void;
}) {
  const boards = new Map<string, MatchBoard>();
  const loading = new Map<string, Promise<void>>();
  const failedAt = new Map<string, number>();
  /** Moves on when every board is dropped: a load started before that is not kept. */
  let generation = 0;
  const served = { memoryReads: 0, memoryMisses: 0, loads: 0, drops: 0 };
  /**
   * The users who count on no board (deactivated or hidden): loaded once (one scan of the users) before the first
   * board, then kept by the users' announcements (each one reads that user's state). Applying a settlement takes
   * its answers' players from it, not from a probe into the users per answer (80% of that statement's time).
   */
  let out: Set<string> | null = null;
  let outLoad: Promise<Set<string>> | null = null;
  /**
   * Users whose change this process is committing (their rows rebuilt in its transaction) and whose announcement
   * has not been heard back yet: meanwhile every match board read here is the SQL read, so a player reads their own
   * change at once. Counted per change; forgotten after CHANGING_MS (a rolled-back change is never announced).
   */
  const changing = new Map<string, { n: number; until: number }>();
  /** Users announced while the set or a board was loading: their state, and their rows on that board, again after it. */
  const announcedDuringLoad = new Map<string, Set<string>>();

  function outUsers(): Promise<Set<string>> {
    if (out) return Promise.resolve(out);
    if (!outLoad) {
      const started = generation;
      announcedDuringLoad.set('', new Set());
      outLoad = notCountingUsers({ db })
        .then(async (loaded) => {
          const again = announcedDuringLoad.get('') ?? new Set<string>();
          announcedDuringLoad.delete('');
          if (again.size) {
            const states = await boardNames({ db, userIds: [...again] });
            for (const id of again)
              if (states.get(id)?.counts) loaded.delete(id);
              else loaded.add(id);
          }
          if (generation === started) out = loaded;
          return loaded;
        })
        .finally(() => {
          outLoad = null;
          announcedDuringLoad.delete('');
        });
    }
    return outLoad;
  }

  /** A user's state again in the set (their announcement). */
  async function refreshOut(userId: string) {
    if (!out) return;
    const states = await boardNames({ db, userIds: [userId] });
    if (states.get(userId)?.counts) out.delete(userId);
    else out.add(userId);
  }

  function drop(matchId: string) {
    if (boards.delete(matchId)) served.drops++;
  }

  function dropAll() {
    generation++;
    out = null;
    served.drops += boards.size;
    boards.clear();
  }

  function keep(board: MatchBoard) {
    boards.delete(board.matchId);
    boards.set(board.matchId, board);
    let total = 0;
    for (const b of boards.values()) total += b.rows.size;
    for (const [id, b] of boards) {
      if (boards.size <= maxBoards && total <= maxRows) break;
      boards.delete(id);
      total -= b.rows.size;
    }
  }

  /** The board in one snapshot with the queue's state, and what the applier has not written yet applied in memory. */
  async function load(matchId: string): Promise<MatchBoard | undefined> {
    const match = await matchForScoring({ db, matchId });
    // A test match has no boards (the SQL read answers that); no such match: the handlers answer it.
    if (!match || match.isTest) return undefined;
    const key: BoardKey = { scope: 'match', scopeId: matchId, period: 'all_time', periodStart: ALL_TIME_START };
    const board = new MatchBoard(matchId, await outUsers());
    await db.transaction(
      async (tx) => {
        const list = await matchSettlements({ db: tx, matchId });
        const found = await boardRows({ db: tx, key });
        if (found) {
          board.exists = true;
          for (const r of found.rows) board.rows.set(r.userId, r);
          board.sorted = [...board.rows.values()].sort(rankOrder);
        }
        for (const s of list) {
          board.note(s);
          // Phase 1: the match board has the players up to the cursor (none without one); later phases: every player.
          if (s.phase === 1) board.apply(s, await settledAnswers({ db: tx, issuanceId: s.issuanceId, after: s.cursor }));
        }
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    if (!consistentOrder(board.applied)) return undefined;
    return board;
  }

  function startLoad(matchId: string) {
    if (loading.has(matchId)) return;
    const last = failedAt.get(matchId);
    if (last !== undefined && performance.now() - last < RETRY_LOAD_MS) return;
    const started = generation;
    announcedDuringLoad.set(matchId, new Set());
    const p = load(matchId)
      .then(
        (board) => {
          const again = announcedDuringLoad.get(matchId) ?? new Set<string>();
          if (board && generation === started && trusted() && board.rows.size <= maxRows) {
            served.loads++;
            keep(board);
            failedAt.delete(matchId);
            // Users announced while it loaded: the snapshot may be older than their change.
            for (const id of again) void userChangedOn(board, id);
          } else failedAt.set(matchId, performance.now());
        },
        (err: unknown) => {
          failedAt.set(matchId, performance.now());
          onError?.(err);
        },
      )
      .finally(() => {
        loading.delete(matchId);
        announcedDuringLoad.delete(matchId);
      });
    loading.set(matchId, p);
    if (failedAt.size > 4 * maxBoards) failedAt.delete(failedAt.keys().next().value!);
  }

  /** A user's row again: PostgreSQL's at one snapshot, and the answers PostgreSQL has not applied to it of the settlements this board has. */
  async function recompute(board: MatchBoard, userId: string) {
    await board.syncNow(db);
    if (board.broken) return;
    const key: BoardKey = { scope: 'match', scopeId: board.matchId, period: 'all_time', periodStart: ALL_TIME_START };
    await db.transaction(
      async (tx) => {
        const list = await matchSettlements({ db: tx, matchId: board.matchId });
        // A settlement committed since the check above: the board takes it on its next check; this row would have it already.
        if (list.some((s) => !board.known.has(s.issuanceId))) {
          board.broken = true;
          return;
        }
        const state = await boardNames({ db: tx, userIds: [userId] });
        const moved = new Set([userId]);
        const counts = state.get(userId)?.counts === true;
        if (counts) out?.delete(userId);
        else out?.add(userId);
        if (!counts) {
          board.rows.delete(userId);
          board.reorder(moved);
          return;
        }
        const found = await boardRows({ db: tx, key, userId });
        // The settlements whose answer of this user PostgreSQL has not applied yet (phase 1, the user after the cursor).
        const phaseOf = new Map(list.map((s) => [s.issuanceId, s]));
        const pending = board.applied.filter((a) => {
          const s = phaseOf.get(a.issuanceId)!;
          return s.phase === 1 && (s.cursor === null || userId > s.cursor);
        });
        const answers = await userAnswers({ db: tx, userId, issuanceIds: pending.map((p) => p.issuanceId) });
        let row = found?.rows[0];
        if (found) board.exists = true;
        for (const p of pending) {
          const a = answers.get(p.issuanceId);
          if (a) row = applyAnswer(row, { userId, ...a }, p.resolved, phaseOf.get(p.issuanceId)!.scoredUs);
        }
        if (row) {
          board.rows.set(userId, row);
          board.exists = true;
        } else board.rows.delete(userId);
        board.reorder(moved);
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  }

  function userChangedOn(board: MatchBoard, userId: string) {
    return board
      .run(() => recompute(board, userId))
      .catch((err: unknown) => {
        board.broken = true;
        onError?.(err);
      });
  }

  const api = {
    /**
     * A match board's page, player count and some players' rows and ranks
     * from memory, after a check of the queue (every settlement committed
     * before the call is on it); undefined when the board does not exist;
     * null when memory cannot serve it (not loaded yet: its load starts; not
     * trusted): the caller reads PostgreSQL.
     */
    async read(
      matchId: string,
      offset: number,
      limit: number,
      userIds: string[],
    ): Promise<{ playerCount: number; top: RankedRow[]; mine: Map<string, RankedRow> } | undefined | null> {
      if (!trusted()) {
        if (boards.size) dropAll();
        served.memoryMisses++;
        return null;
      }
      if (changing.size) {
        const now = performance.now();
        for (const [id, c] of changing)
          if (c.until < now) {
            changing.delete(id);
            void api.userChanged(id);
          }
        if (changing.size) {
          served.memoryMisses++;
          return null;
        }
      }
      const board = boards.get(matchId);
      if (!board) {
        startLoad(matchId);
        served.memoryMisses++;
        return null;
      }
      try {
        await board.sync(db);
      } catch (err) {
        board.broken = true;
        onError?.(err);
      }
      if (board.broken || boards.get(matchId) !== board || !trusted()) {
        drop(matchId);
        served.memoryMisses++;
        return null;
      }
      keep(board);
      if (!board.exists) {
        served.memoryReads++;
        return undefined;
      }
      // The rows and ranks copied now, at one state of the board: a settlement applied while the names are read changes rows in place.
      const ranked = (r: MemoryRow, rank: number): RankedRow => ({
        rank,
        userId: r.userId,
        name: '',
        points: r.points,
        correct: r.correct,
        answered: r.answered,
        currentStreak: r.currentStreak,
        bestStreak: r.bestStreak,
        reachedAt: new Date(Math.floor(r.reachedUs / 1000)),
      });
      const playerCount = board.sorted.length;
      const top = board.sorted.slice(offset, offset + limit).map((r, i) => ranked(r, offset + i + 1));
      const mine = userIds.flatMap((id) => {
        const r = board.rows.get(id);
        return r ? [ranked(r, board.indexOf(r) + 1)] : [];
      });
      const names = await boardNames({ db, userIds: [...new Set([...top, ...mine].map((r) => r.userId))] });
      // A shown player who no longer counts: a change the bus has not announced here yet. Their row again, and this read from PostgreSQL.
      const stale = [...top, ...mine].filter((r) => !names.get(r.userId)?.counts);
      if (stale.length) {
        for (const r of stale) void userChangedOn(board, r.userId);
        served.memoryMisses++;
        return null;
      }
      for (const r of [...top, ...mine]) r.name = names.get(r.userId)!.name;
      served.memoryReads++;
      return { playerCount, top, mine: new Map(mine.map((r) => [r.userId, r])) };
    },

    /** A settlement of the match was committed, or the applier wrote a chunk of it (the bus): a loaded board checks the queue at once. */
    settled(matchId: string) {
      const board = boards.get(matchId);
      if (board)
        void board.sync(db).catch((err: unknown) => {
          board.broken = true;
          onError?.(err);
        });
    },

    /** A user's row or state changed (the bus): their row on every loaded board again. */
    async userChanged(userId: string) {
      for (const users of announcedDuringLoad.values()) users.add(userId);
      try {
        await refreshOut(userId);
      } catch (err) {
        // Their state unknown: nothing in memory can be trusted about them.
        dropAll();
        onError?.(err);
        return;
      }
      await Promise.all([...boards.values()].map((b) => userChangedOn(b, userId)));
      const c = changing.get(userId);
      if (c && --c.n <= 0) changing.delete(userId);
    },

    /** This process is changing a user's leaderboard inputs in a transaction (their rows rebuilt in it): see `changing`. */
    userChanging(userId: string) {
      const c = changing.get(userId);
      changing.set(userId, { n: (c?.n ?? 0) + 1, until: performance.now() + CHANGING_MS });
      // Rolled-back changes are never announced and leave their entries until a read looks: a bound, oldest first out.
      if (changing.size > 10_000) changing.delete(changing.keys().next().value!);
    },

    /** The bus listens again after a gap (events may be lost): every board is dropped. */
    resync: dropAll,

    /** Waits for the loads under way (tests). */
    loaded: () => Promise.all(loading.values()).then(() => undefined),

    /** Boards and rows kept, and how reads were served. */
    state: () => ({ boards: boards.size, rows: [...boards.values()].reduce((n, b) => n + b.rows.size, 0), ...served }),

    /** The last settlement applied to a match's board after its load (answers, ms reading them, ms applying them). */
    lastApply: (matchId: string) => boards.get(matchId)?.lastApply,
  };
  return api;
}

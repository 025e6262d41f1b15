/**
 * The in-process boards: a board a process reads (a match's, a league's or
 * the whole game's; all time, or a day, week or month) kept in memory once it
 * is read, so a settlement is on it as soon as it is committed, not once the
 * applier has written its rows (seconds for the match's board, tens of
 * seconds for the other eight boards of 100,000 answers). PostgreSQL stays the
 * durable truth and the fallback: a board is served from memory only when it
 * is loaded and trusted, else the read is the SQL read.
 *
 * A board is loaded in one REPEATABLE READ snapshot together with the queue's
 * state (each pending settlement's phase and cursor, and the highest position
 * the applier has assigned): its rows, then the answers of each pending
 * settlement the board's rows do not have yet applied in memory, in the
 * applier's order (a settlement in an earlier phase than the board's: all of
 * them; in the board's phase: the players after its cursor). After that,
 * every settlement not seen before (a read checks the queue first, one
 * statement for every kept board: the settlements positioned after the lowest
 * position every board has seen, and those not positioned yet; the bus's
 * `settled` and `board` events start the same check at once) is applied with
 * its answers (one indexed statement, shared by every board it is on) to the
 * boards it is on: its match's, its league's and the whole game's, and of
 * the period boards those whose period its time falls in, in each player's
 * zone (the process keeps the users' zones, from one scan of the users before
 * its first period board, kept by their announcements). The rules are the SQL
 * applier's (`addChunk`): points, correct, answered, the streaks (a resolved
 * question extends a right answer's and ends a wrong one's; a voided or
 * revoked one moves neither), `reached_at` (the last right answer's time, the
 * first answer's while none is right), players not active or hidden left out
 * (a set of the users who count nowhere, kept by their announcements: no probe
 * into the users per answer). Settlements are applied in the order the
 * applier gives them (`position`, or for those without one yet, their queue
 * number): when the positions the applier assigns later contradict the order
 * they were applied in (two settlements committed out of their queue order),
 * the board is dropped and loaded again.
 *
 * A user's change (hidden, deactivated, reactivated, a new zone; announced by
 * the database's trigger on the bus at commit) recomputes that user's row on
 * every kept board from PostgreSQL's (one snapshot: the row and the pending
 * settlements' cursors) plus the answers PostgreSQL has not applied to it yet.
 * Names are not kept: a read takes the names of the rows it shows
 * (primary-key probes), and a shown player who no longer counts makes the
 * read fall back and the row be recomputed. The process committing a change
 * reads PostgreSQL until its announcement is back.
 *
 * The ranking is one array of the rows in rank order (points desc, correct
 * desc, reached_at, user id: the rank index's order), rebuilt per settlement
 * by merging the moved rows (sorted) into the unmoved ones: O(n + k log k) a
 * settlement, and a page is a slice, a rank a binary search, O(log n).
 *
 * Bounded: at most MEMORY_BOARDS_MAX boards and MEMORY_ROWS_MAX rows in all,
 * least recently read first out. Not trusted (every read the SQL read, every
 * board dropped) while the bus does not listen or after a gap in it.
 */
import { LEADERBOARD_MEMORY_BOARDS, LEADERBOARD_MEMORY_ROWS_MAX } from '../../config.js';
import type { Db } from '../../db/client.js';
import { periodStarts, zoneOrUtc } from '../shared/calendar.js';
import {
  PHASE,
  boardNames,
  boardRow,
  userKeyOf,
  boardRowsPage,
  findBoards,
  matchForScoring,
  notCountingUsers,
  pendingSettlements,
  settledAnswers,
  settlementsSince,
  userAnswers,
  userZonesPage,
  type BoardKey,
  type MemoryRow,
  type RankedRow,
  type Settlement,
  type SettledAnswer,
  type UserKey,
} from './leaderboards.repository.js';

/** Boards kept in process at most, and rows in all (about 110 bytes each with their room in the columns: 440 MB; measured), unless given. */
const MEMORY_BOARDS_MAX = LEADERBOARD_MEMORY_BOARDS;
const MEMORY_ROWS_MAX = LEADERBOARD_MEMORY_ROWS_MAX;
/** How long a change this process commits makes its reads the SQL read at most, while its announcement is not back. */
const CHANGING_MS = 5000;
/** A board whose load failed is not loaded again for this long (its reads are the SQL read meanwhile). */
const RETRY_LOAD_MS = 1000;
/** Rows a board's load reads per statement (in rank order), giving way to other work between pages. */
const LOAD_PAGE_ROWS = 50_000;
/** Lets the process's other work (reads, I/O) run between two long steps (a page of a load, a board's share of a settlement). */
const giveWay = () => new Promise<void>((resolve) => setImmediate(resolve));
/** A user's row recomputed while settlements keep arriving: tries before the board is dropped and loaded again. */
const RECOMPUTE_TRIES = 3;

/** A board's key as text (the kept boards' map). */
const boardKeyText = (k: BoardKey) => `${k.scope}|${k.scopeId}|${k.period}|${k.periodStart}`;

/** The applier's phase of a board: the match's first, then the all-time boards, then the periods. */
const phaseOfBoard = (k: BoardKey): number => (k.scope === 'match' ? PHASE.match : k.period === 'all_time' ? PHASE.allTime : PHASE.periods);

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

/** No row (the chains' end, a user without one). */
export const NONE = -1;

/** A typed array of `cap` entries holding `old`'s at the start. */
const grown = <T extends Int32Array | Float64Array>(old: T, cap: number): T => {
  const next = new (old.constructor as new (n: number) => T)(cap);
  next.set(old);
  return next;
};

/**
 * Users (their ids' keys) in a hash table of typed arrays, each at a row
 * number its owner uses for columns of its own: a board's rows, the users'
 * zones, the users who count nowhere. Chains through `nextOf` from heads by
 * the id's low 32 bits (as many heads as rows of room, a power of two); a
 * removed row's key is NaN (found by no key) and its number is reused. No
 * object per user: a map of 1,000,000 entries keyed by the ids' text took
 * about 70 ms for 100,000 lookups (about 15 ms here), a map of objects about
 * 230 bytes a row (measured), and the collector traced them all.
 */
export class KeyIndex {
  size = 0;
  /** Rows of room: an owner's columns are this long. */
  cap = 0;
  private used = 0;
  private readonly free: number[] = [];
  idKey = new Float64Array(0);
  idMid = new Float64Array(0);
  idLow = new Float64Array(0);
  private nextOf = new Int32Array(0);
  private heads = new Int32Array(0);

  /** A user's row, or NONE. */
  find(k: UserKey): number {
    const { idKey, idMid, idLow, nextOf, heads } = this;
    if (!heads.length) return NONE;
    for (let i = heads[(k.idLow >>> 0) & (heads.length - 1)]!; i !== NONE; i = nextOf[i]!)
      if (idLow[i] === k.idLow && idMid[i] === k.idMid && idKey[i] === k.idKey) return i;
    return NONE;
  }

  /** Room for `more` new users; true when it grew (the owner's columns then grow to `cap`). */
  reserve(more: number): boolean {
    if (this.used + more <= this.cap) return false;
    let cap = Math.max(1024, this.cap * 2);
    while (cap < this.used + more) cap *= 2;
    this.idKey = grown(this.idKey, cap);
    this.idMid = grown(this.idMid, cap);
    this.idLow = grown(this.idLow, cap);
    this.nextOf = grown(this.nextOf, cap);
    this.cap = cap;
    const heads = new Int32Array(cap).fill(NONE);
    for (let i = 0; i < this.used; i++) {
      if (Number.isNaN(this.idKey[i])) continue;
      const h = (this.idLow[i]! >>> 0) & (cap - 1);
      this.nextOf[i] = heads[h]!;
      heads[h] = i;
    }
    this.heads = heads;
    return true;
  }

  /** A user's new row (reserve first; the user has none). */
  add(k: UserKey): number {
    const i = this.free.length ? this.free.pop()! : this.used++;
    this.idKey[i] = k.idKey;
    this.idMid[i] = k.idMid;
    this.idLow[i] = k.idLow;
    const h = (k.idLow >>> 0) & (this.heads.length - 1);
    this.nextOf[i] = this.heads[h]!;
    this.heads[h] = i;
    this.size++;
    return i;
  }

  /** A row given up: out of its chain, its number reused later. */
  remove(i: number): void {
    const h = (this.idLow[i]! >>> 0) & (this.heads.length - 1);
    const { nextOf, heads } = this;
    let prev = NONE;
    for (let j = heads[h]!; j !== NONE; prev = j, j = nextOf[j]!)
      if (j === i) {
        if (prev !== NONE) nextOf[prev] = nextOf[i]!;
        else heads[h] = nextOf[i]!;
        break;
      }
    this.idKey[i] = NaN;
    this.free.push(i);
    this.size--;
  }

  /** A user in the index (a set's add). */
  include(k: UserKey): void {
    if (this.find(k) !== NONE) return;
    this.reserve(1);
    this.add(k);
  }

  /** A user out of the index (a set's delete). */
  exclude(k: UserKey): void {
    const i = this.find(k);
    if (i !== NONE) this.remove(i);
  }

  /** A row's user id, written out from its key. */
  userIdAt(i: number): string {
    const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
    const key = hex(this.idKey[i]!, 12);
    const mid = hex(this.idMid[i]!, 8);
    return `${key.slice(0, 8)}-${key.slice(8)}-${mid.slice(0, 4)}-${mid.slice(4)}-${hex(this.idLow[i]!, 12)}`;
  }
}

/** The users who count on no board (deactivated or hidden). */
export type OutUsers = KeyIndex;

/** The users' own zones (the period boards: an answer's period is its player's), by their ids' keys. */
export class UserZones {
  private readonly keys = new KeyIndex();
  private readonly names: string[] = [];
  private readonly nameIndex = new Map<string, number>();
  private zoneOf = new Int32Array(0);

  /** A user's own zone (undefined: none, UTC). */
  get(k: UserKey): string | undefined {
    const i = this.keys.find(k);
    return i === NONE ? undefined : this.names[this.zoneOf[i]!];
  }

  set(k: UserKey, zone: string): void {
    let z = this.nameIndex.get(zone);
    if (z === undefined) {
      z = this.names.push(zone) - 1;
      this.nameIndex.set(zone, z);
    }
    let i = this.keys.find(k);
    if (i === NONE) {
      if (this.keys.reserve(1)) this.zoneOf = grown(this.zoneOf, this.keys.cap);
      i = this.keys.add(k);
    }
    this.zoneOf[i] = z;
  }

  delete(k: UserKey): void {
    this.keys.exclude(k);
  }
}

/** An answer as a row takes it: its points, whether right, whether its question resolved (streaks), its time. */
export interface RowAnswer {
  points: number;
  correct: number;
  resolved: boolean;
  atUs: number;
}

/**
 * A board kept in memory. Its rows are columns (typed arrays indexed by row:
 * the id's key in a KeyIndex, points, correct, answered, the streaks,
 * reached_at, a stamp), not an object a row: a settlement's pass over a
 * ranking of 1,000,000 rows reads two small arrays instead of 1,000,000
 * objects spread over the heap (measured, 1,000,000 rows and 50,000 moved:
 * the moved rows' sort 27 -> 11 ms, the merge 70 -> 19 ms), a row costs
 * about 110 bytes (room for growth included; measured) instead of 230, and
 * the collector has no rows to trace. The ranking (`sorted`) is the rows'
 * numbers in rank order.
 */
export class MemoryBoard {
  /** The rows' numbers in rank order. */
  sorted = new Int32Array(0);
  /** The settlements on this board applied here (from the snapshot, or after it) and not yet behind `seenThrough`, in the order applied. */
  applied: { issuanceId: string; seq: number; position: number | null }[] = [];
  /** Settlements seen (applied, or not on this board) that are not behind `seenThrough`: no-position ones, or positioned after it. */
  known = new Set<string>();
  /** Every settlement positioned up to here is on the board (in the rows loaded, or applied since): later checks look past it. */
  seenThrough = 0;
  /** Whether PostgreSQL has (or, once the applier caught up, will have) this board. */
  exists = false;
  broken = false;
  readonly phase: number;
  readonly text: string;
  private stamps = 0;
  /** The last settlement applied after the load: its answers, and the milliseconds reading them and applying them (the merge included). */
  lastApply = { answers: 0, readMs: 0, applyMs: 0 };

  private readonly keys = new KeyIndex();
  private points = new Int32Array(0);
  private correct = new Int32Array(0);
  private answered = new Int32Array(0);
  private currentStreak = new Int32Array(0);
  private bestStreak = new Int32Array(0);
  private reachedUs = new Float64Array(0);
  private stampOf = new Int32Array(0);

  /** `out`: the users who count on no board (deactivated or hidden), shared by the process's boards. */
  constructor(
    readonly key: BoardKey,
    private readonly out: OutUsers,
  ) {
    this.phase = phaseOfBoard(key);
    this.text = boardKeyText(key);
  }

  /** Rows kept. */
  get size(): number {
    return this.keys.size;
  }

  /** Whether a settlement's answers count on this board's scope (its match, its league, the whole game); a test match's nowhere. */
  covers(s: Settlement): boolean {
    if (s.isTest) return false;
    return this.key.scope === 'overall' || (this.key.scope === 'league' ? s.leagueId === this.key.scopeId : s.matchId === this.key.scopeId);
  }

  /**
   * Whether a player's answer of a settlement this board covers lands in its
   * period, given the player's zone (null: UTC): always on an all-time board;
   * on a period board when the settlement's time falls in it in that zone.
   */
  inPeriod(s: Settlement, zone: string | null | undefined): boolean {
    if (this.key.period === 'all_time') return true;
    return periodStarts(new Date(Math.floor(s.scoredUs / 1000)), zoneOrUtc(zone ?? ''))[this.key.period] === this.key.periodStart;
  }

  note(s: Settlement) {
    this.known.add(s.issuanceId);
    if (this.covers(s)) this.applied.push({ issuanceId: s.issuanceId, seq: s.seq, position: s.position });
  }

  /** Room for `more` new rows without growing (so the columns can be held in locals meanwhile). */
  private reserve(more: number) {
    if (!this.keys.reserve(more)) return;
    const cap = this.keys.cap;
    this.points = grown(this.points, cap);
    this.correct = grown(this.correct, cap);
    this.answered = grown(this.answered, cap);
    this.currentStreak = grown(this.currentStreak, cap);
    this.bestStreak = grown(this.bestStreak, cap);
    this.reachedUs = grown(this.reachedUs, cap);
    this.stampOf = grown(this.stampOf, cap);
  }

  /** The row of a user (by their id's key), or NONE. */
  find(k: UserKey): number {
    return this.keys.find(k);
  }

  /** A row's values as an object (the user id written out from its key). */
  rowAt(i: number): MemoryRow {
    const { keys } = this;
    return {
      userId: keys.userIdAt(i),
      idKey: keys.idKey[i]!,
      idMid: keys.idMid[i]!,
      idLow: keys.idLow[i]!,
      points: this.points[i]!,
      correct: this.correct[i]!,
      answered: this.answered[i]!,
      currentStreak: this.currentStreak[i]!,
      bestStreak: this.bestStreak[i]!,
      reachedUs: this.reachedUs[i]!,
    };
  }

  /** A row from its values (reserve first). */
  private write(i: number, r: MemoryRow) {
    this.points[i] = r.points;
    this.correct[i] = r.correct;
    this.answered[i] = r.answered;
    this.currentStreak[i] = r.currentStreak;
    this.bestStreak[i] = r.bestStreak;
    this.reachedUs[i] = r.reachedUs;
  }

  /** Rows loaded in rank order (a load's pages), appended to the ranking; false when one was out of order (then `resort`). */
  append(rows: MemoryRow[]): boolean {
    this.reserve(rows.length);
    const start = this.sorted.length;
    const sorted = new Int32Array(start + rows.length);
    sorted.set(this.sorted);
    let ordered = true;
    const cmp = this.comparator();
    for (const [n, r] of rows.entries()) {
      const i = this.keys.add(r);
      this.write(i, r);
      sorted[start + n] = i;
      if (start + n > 0 && cmp(sorted[start + n - 1]!, i) >= 0) ordered = false;
    }
    this.sorted = sorted;
    return ordered;
  }

  /** The ranking sorted anew (never expected: a load's rows come in rank order). */
  resort() {
    this.sorted.sort(this.comparator());
  }

  /** The rank index's order on rows: points desc, correct desc, reached_at, user id (its key's parts in turn: the ids' text order). */
  private comparator() {
    const { points, correct, reachedUs } = this;
    const { idKey, idMid, idLow } = this.keys;
    return (a: number, b: number) =>
      points[b]! - points[a]! ||
      correct[b]! - correct[a]! ||
      reachedUs[a]! - reachedUs[b]! ||
      idKey[a]! - idKey[b]! ||
      idMid[a]! - idMid[b]! ||
      idLow[a]! - idLow[b]!;
  }

  /** A new row's values from its first answer, as the SQL applier inserts it. */
  private first(i: number, a: RowAnswer) {
    this.points[i] = a.points;
    this.correct[i] = a.correct;
    this.answered[i] = 1;
    this.currentStreak[i] = a.correct;
    this.bestStreak[i] = a.correct;
    this.reachedUs[i] = a.atUs;
  }

  /**
   * Another answer on a row, as the SQL applier updates it (every column from
   * the row before the answer): a resolved question extends a right answer's
   * streak and ends a wrong one's, a voided or revoked one moves neither;
   * reached_at is the last right answer's time (the first answer's while none
   * is right). Whether the row's place in the ranking changed.
   */
  private again(i: number, a: RowAnswer): boolean {
    const { points, correct, reachedUs, currentStreak, bestStreak } = this;
    const p = points[i]!;
    const c = correct[i]!;
    const r = reachedUs[i]!;
    reachedUs[i] = a.correct === 1 && c === 0 ? a.atUs : a.correct === 1 ? Math.max(r, a.atUs) : c === 0 ? Math.min(r, a.atUs) : r;
    const extended = a.correct === 1 ? currentStreak[i]! + 1 : 0;
    points[i] = p + a.points;
    correct[i] = c + a.correct;
    this.answered[i] = this.answered[i]! + 1;
    if (a.resolved) {
      bestStreak[i] = Math.max(bestStreak[i]!, extended);
      currentStreak[i] = extended;
    }
    return points[i] !== p || correct[i] !== c || reachedUs[i] !== r;
  }

  /**
   * A settlement's answers (those the loaded rows do not have) applied with
   * the SQL applier's rules (`first`, `again`), and the ranking rebuilt: the
   * rows whose place moved (a wrong answer usually moves none) sorted and
   * merged with the others in one pass. `counts`: whether the answer at an
   * index lands on this board (a period board's players by their zones);
   * default every one.
   */
  apply(s: Pick<Settlement, 'resolved' | 'scoredUs'>, answers: SettledAnswer[], counts?: (index: number) => boolean) {
    // Rows moved by this settlement carry its stamp (the merge leaves them out of their old places).
    const stamp = ++this.stamps;
    const changed: number[] = [];
    /** Rows of the ranking that leave their place (moved or gone). */
    let leaving = 0;
    this.reserve(answers.length);
    const { stampOf, keys, out } = this;
    const answer: RowAnswer = { points: 0, correct: 0, resolved: s.resolved, atUs: s.scoredUs };
    for (let n = 0; n < answers.length; n++) {
      const a = answers[n]!;
      if (counts && !counts(n)) continue;
      let i = keys.find(a);
      if (out.size && out.find(a) !== NONE) {
        // A player who counts nowhere: the change's rebuild removed their rows (its announcement recomputes them too).
        if (i !== NONE) {
          stampOf[i] = stamp;
          keys.remove(i);
          leaving++;
        }
        continue;
      }
      this.exists = true;
      answer.points = a.points;
      answer.correct = a.correct;
      if (i === NONE) {
        i = keys.add(a);
        this.first(i, answer);
        stampOf[i] = stamp;
        changed.push(i);
      } else if (this.again(i, answer) && stampOf[i] !== stamp) {
        stampOf[i] = stamp;
        changed.push(i);
        leaving++;
      }
    }
    if (changed.length || leaving) this.merge(stamp, leaving, changed);
  }

  /**
   * A user's row again (their change recomputed): PostgreSQL's row (`base`,
   * undefined: none) with the answers it does not have yet, by the same
   * rules as `apply`; no row when neither. Its place in the ranking again.
   */
  recomputed(k: UserKey, base: MemoryRow | undefined, answers: RowAnswer[]) {
    const stamp = ++this.stamps;
    let leaving = 0;
    this.reserve(1);
    const old = this.keys.find(k);
    if (old !== NONE) {
      this.stampOf[old] = stamp;
      this.keys.remove(old);
      leaving++;
    }
    const changed: number[] = [];
    if (base || answers.length) {
      const i = this.keys.add(k);
      if (base) this.write(i, base);
      else this.first(i, answers[0]!);
      for (const a of base ? answers : answers.slice(1)) this.again(i, a);
      this.stampOf[i] = stamp;
      changed.push(i);
      this.exists = true;
    }
    if (changed.length || leaving) this.merge(stamp, leaving, changed);
  }

  /** The ranking without the rows stamped `stamp` (`leaving` of them), and `changed` (sorted here) merged in: one pass. */
  private merge(stamp: number, leaving: number, changed: number[]) {
    const cmp = this.comparator();
    const moved = Int32Array.from(changed).sort(cmp);
    const from = this.sorted;
    const stampOf = this.stampOf;
    const out = new Int32Array(from.length - leaving + moved.length);
    let j = 0;
    let k = 0;
    let next = moved.length ? moved[0]! : NONE;
    for (let n = 0; n < from.length; n++) {
      const r = from[n]!;
      if (stampOf[r] === stamp) continue;
      while (next !== NONE && cmp(next, r) < 0) {
        out[k++] = next;
        next = ++j < moved.length ? moved[j]! : NONE;
      }
      out[k++] = r;
    }
    while (j < moved.length) out[k++] = moved[j++]!;
    this.sorted = out;
  }

  /**
   * After a check of the queue that returned every settlement positioned
   * after `seenThrough` up to `through`: those are all seen. The order applied
   * is checked against the positions (a contradiction breaks the board), then
   * what lies behind the new mark is forgotten.
   */
  seen(through: number, positions: Map<string, number | null>) {
    for (const a of this.applied) if (a.position === null) a.position = positions.get(a.issuanceId) ?? null;
    if (!consistentOrder(this.applied)) this.broken = true;
    if (through <= this.seenThrough) return;
    this.seenThrough = through;
    this.applied = this.applied.filter((a) => a.position === null || a.position > through);
    for (const [id, position] of positions) if (position !== null && position <= through) this.known.delete(id);
  }

  /** 0-based place of a row in the ranking: a binary search. */
  indexOf(row: number): number {
    const cmp = this.comparator();
    const sorted = this.sorted;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cmp(sorted[mid]!, row) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

export type MemoryBoards = ReturnType<typeof createMemoryBoards>;

/**
 * The in-process boards of one process. `trusted`: whether the bus listens
 * (no gap since the boards were loaded: `resync` drops them all).
 */
export function createMemoryBoards({
  db,
  trusted,
  maxBoards = MEMORY_BOARDS_MAX,
  maxRows = MEMORY_ROWS_MAX,
  onError,
}: {
  db: Db;
  trusted: () => boolean;
  maxBoards?: number;
  maxRows?: number;
  onError?: (err: unknown) => void;
}) {
  const boards = new Map<string, MemoryBoard>();
  const loading = new Map<string, Promise<void>>();
  /** The last load started: the next one starts after it. */
  let loadsDone: Promise<unknown> = Promise.resolve();
  const failedAt = new Map<string, number>();
  /** Moves on when every board is dropped: a load started before that is not kept. */
  let generation = 0;
  const served = { memoryReads: 0, memoryMisses: 0, loads: 0, drops: 0 };
  /**
   * The users who count on no board (deactivated or hidden): loaded once (one scan of the users) before the first
   * board, then kept by the users' announcements (each one reads that user's state). Applying a settlement takes
   * its answers' players from it, not from a probe into the users per answer (80% of that statement's time).
   */
  let out: OutUsers | null = null;
  let outLoad: Promise<OutUsers> | null = null;
  /** The users' own zones (period boards: an answer's period is its player's): loaded before the first period board, kept alike. */
  let zones: UserZones | null = null;
  let zonesLoad: Promise<UserZones> | null = null;
  /**
   * Users whose change this process is committing (their rows rebuilt in its transaction) and whose announcement
   * has not been heard back yet: meanwhile every read here is the SQL read, so a player reads their own change at
   * once. Counted per change; forgotten after CHANGING_MS (a rolled-back change is never announced).
   */
  const changing = new Map<string, { n: number; until: number }>();
  /** Users announced while the users' sets or a board were loading: their state, and their rows on that board, again after it. */
  const announcedDuringLoad = new Map<string, Set<string>>();
  /** Every change to the kept boards (a check of the queue, a user's row again) runs after the one before. */
  let tail: Promise<void> = Promise.resolve();
  let queuedSync: Promise<void> | null = null;

  function run(fn: () => Promise<void>): Promise<void> {
    const next = tail.then(fn);
    tail = next.catch(() => undefined);
    return next;
  }

  /** A set of the users, loaded once (announcements heard meanwhile applied after it), kept until every board is dropped. */
  function usersSet<T>(
    name: string,
    get: () => T | null,
    set: (v: T) => void,
    loadOf: () => Promise<T> | null,
    setLoad: (p: Promise<T> | null) => void,
    fetch: () => Promise<T>,
    update: (v: T, id: string, state: { counts: boolean; zone: string | null } | undefined) => void,
  ): Promise<T> {
    const have = get();
    if (have) return Promise.resolve(have);
    const under = loadOf();
    if (under) return under;
    const started = generation;
    announcedDuringLoad.set(name, new Set());
    const p = fetch()
      .then(async (loaded) => {
        const again = announcedDuringLoad.get(name) ?? new Set<string>();
        announcedDuringLoad.delete(name);
        if (again.size) {
          const states = await boardNames({ db, userIds: [...again] });
          for (const id of again) update(loaded, id, states.get(id));
        }
        if (generation === started) set(loaded);
        return loaded;
      })
      .finally(() => {
        setLoad(null);
        announcedDuringLoad.delete(name);
      });
    setLoad(p);
    return p;
  }

  const updateOut = (set: OutUsers, id: string, state: { counts: boolean } | undefined) =>
    state?.counts ? set.exclude(userKeyOf(id)) : set.include(userKeyOf(id));
  const updateZone = (index: UserZones, userId: string, state: { zone: string | null } | undefined) =>
    state?.zone == null ? index.delete(userKeyOf(userId)) : index.set(userKeyOf(userId), state.zone);

  const outUsers = () =>
    usersSet(
      '\0out',
      () => out,
      (v) => (out = v),
      () => outLoad,
      (p) => (outLoad = p),
      async () => {
        const set: OutUsers = new KeyIndex();
        for (const id of await notCountingUsers({ db })) set.include(userKeyOf(id));
        return set;
      },
      updateOut,
    );
  const zonesOfUsers = () =>
    usersSet(
      '\0zones',
      () => zones,
      (v) => (zones = v),
      () => zonesLoad,
      (p) => (zonesLoad = p),
      async () => {
        // A page of users at a time, giving way between pages (1,000,000 users at once outlast the statement timeout).
        const index = new UserZones();
        for (let after: string | null = null; ;) {
          const page = await userZonesPage({ db, after, limit: LOAD_PAGE_ROWS * 2 });
          for (const [userId, zone] of page.zones) index.set(userKeyOf(userId), zone);
          if (page.done || !page.last) break;
          after = page.last;
          await giveWay();
        }
        return index;
      },
      updateZone,
    );

  /** A user's state again in the sets (their announcement). */
  async function refreshUser(userId: string) {
    if (!out && !zones) return;
    const state = (await boardNames({ db, userIds: [userId] })).get(userId);
    if (out) updateOut(out, userId, state);
    if (zones) updateZone(zones, userId, state);
  }

  function drop(text: string) {
    if (boards.delete(text)) served.drops++;
  }

  function dropAll() {
    generation++;
    out = null;
    zones = null;
    served.drops += boards.size;
    boards.clear();
  }

  function keep(board: MemoryBoard) {
    boards.delete(board.text);
    boards.set(board.text, board);
    let total = 0;
    for (const b of boards.values()) total += b.size;
    for (const [text, b] of boards) {
      if (boards.size <= maxBoards && total <= maxRows) break;
      boards.delete(text);
      total -= b.size;
    }
  }

  /** Each answer's player's own zone (undefined: none, UTC), looked up once for every period board of a settlement. */
  function zonesOf(answers: SettledAnswer[]): (string | undefined)[] {
    const z = zones;
    return answers.map((a) => z?.get(a));
  }

  /** Whether the answer at an index lands on a board: on a period board, in its player's zone's period (`answerZones`). */
  function countsOn(board: MemoryBoard, s: Settlement, answerZones: () => (string | undefined)[]): ((index: number) => boolean) | undefined {
    if (board.key.period === 'all_time') return undefined;
    const byZone = answerZones();
    const inZone = new Map<string | undefined, boolean>();
    return (i) => {
      const zone = byZone[i];
      let yes = inZone.get(zone);
      if (yes === undefined) inZone.set(zone, (yes = board.inPeriod(s, zone)));
      return yes;
    };
  }

  /** The board in one snapshot with the queue's state, and what the applier has not written to it yet applied in memory. */
  async function load(key: BoardKey): Promise<MemoryBoard | undefined> {
    if (key.scope === 'match') {
      const match = await matchForScoring({ db, matchId: key.scopeId });
      // A test match has no boards (the SQL read answers that); no such match: the handlers answer it.
      if (!match || match.isTest) return undefined;
    }
    const board = new MemoryBoard(key, await outUsers());
    if (key.period !== 'all_time') await zonesOfUsers();
    await db.transaction(
      async (tx) => {
        const { pending, maxPosition } = await pendingSettlements({ db: tx });
        const [found] = await findBoards({ db: tx, keys: [key] });
        if (found) {
          board.exists = true;
          // In rank order, a page at a time (the index's order is the ranking's: no sort here).
          let ordered = true;
          for (let after: MemoryRow | null = null; ;) {
            const page = await boardRowsPage({ db: tx, boardId: found.id, after, limit: LOAD_PAGE_ROWS });
            if (!board.append(page)) ordered = false;
            if (page.length < LOAD_PAGE_ROWS) break;
            after = page[page.length - 1]!;
            await giveWay();
          }
          // Never expected (PostgreSQL orders uuids as their lowercase text): a ranking out of order would misplace ranks.
          if (!ordered) board.resort();
        }
        for (const s of pending) {
          board.note(s);
          if (!board.covers(s) || s.phase > board.phase) continue;
          // An earlier phase: none of its answers is on this board yet; the board's own phase: those after the cursor.
          const answers = await settledAnswers({ db: tx, issuanceId: s.issuanceId, after: s.phase === board.phase ? s.cursor : null });
          board.apply(
            s,
            answers,
            countsOn(board, s, () => zonesOf(answers)),
          );
        }
        board.seen(maxPosition, new Map(pending.map((s) => [s.issuanceId, s.position])));
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    return board.broken ? undefined : board;
  }

  function startLoad(key: BoardKey) {
    const text = boardKeyText(key);
    if (loading.has(text)) return;
    const last = failedAt.get(text);
    if (last !== undefined && performance.now() - last < RETRY_LOAD_MS) return;
    const started = generation;
    announcedDuringLoad.set(text, new Set());
    // One load at a time: loads side by side share one core to turn their pages into rows, and each one's transaction
    // would wait between its statements for the others' (the idle-in-transaction timeout ends it past 5 s).
    const p = loadsDone
      .then(() => load(key))
      .then(
        (board) => {
          const again = announcedDuringLoad.get(text) ?? new Set<string>();
          if (board && generation === started && trusted() && board.size <= maxRows) {
            served.loads++;
            keep(board);
            failedAt.delete(text);
            // Users announced while it loaded: the snapshot may be older than their change.
            for (const id of again) void userChangedOn(board, id);
          } else failedAt.set(text, performance.now());
        },
        (err: unknown) => {
          failedAt.set(text, performance.now());
          onError?.(err);
        },
      )
      .finally(() => {
        loading.delete(text);
        announcedDuringLoad.delete(text);
      });
    loading.set(text, p);
    loadsDone = p.catch(() => undefined);
    if (failedAt.size > 4 * maxBoards) failedAt.delete(failedAt.keys().next().value!);
  }

  /** A check of the queue that starts after the call (shared by every caller until it starts). */
  function sync(): Promise<void> {
    if (queuedSync) return queuedSync;
    const p = run(async () => {
      queuedSync = null;
      await syncNow();
    });
    queuedSync = p;
    return p;
  }

  /**
   * Every settlement no kept board has seen, applied to the boards it is on,
   * in the applier's order: its answers read once for them all.
   */
  async function syncNow(): Promise<void> {
    const live = [...boards.values()].filter((b) => !b.broken);
    if (!live.length) return;
    const after = Math.min(...live.map((b) => b.seenThrough));
    const list = await settlementsSince({ db, after });
    const needsZones = live.some((b) => b.key.period !== 'all_time');
    if (needsZones) await zonesOfUsers();
    let through = after;
    for (const s of list) {
      if (s.position !== null && s.position > through) through = s.position;
      const takers = live.filter((b) => !b.known.has(s.issuanceId) && (s.position === null || s.position > b.seenThrough));
      if (!takers.length) continue;
      for (const b of takers) b.note(s);
      const on = takers.filter((b) => b.covers(s));
      if (!on.length) continue;
      const t0 = performance.now();
      const answers = await settledAnswers({ db, issuanceId: s.issuanceId, after: null });
      const readMs = performance.now() - t0;
      let answerZones: (string | undefined)[] | undefined;
      for (const b of on) {
        await giveWay();
        const t1 = performance.now();
        b.apply(
          s,
          answers,
          countsOn(b, s, () => (answerZones ??= zonesOf(answers))),
        );
        b.lastApply = { answers: answers.length, readMs, applyMs: performance.now() - t1 };
      }
    }
    const positions = new Map(list.map((s) => [s.issuanceId, s.position]));
    for (const b of live) b.seen(through, positions);
  }

  /**
   * A user's row again on a board: PostgreSQL's at one snapshot, and the
   * answers of the pending settlements PostgreSQL has not applied to it (every
   * one in that snapshot is on the kept board: the queue is checked first, and
   * again when a settlement committed in between).
   */
  async function recompute(board: MemoryBoard, userId: string) {
    for (let attempt = 0; attempt < RECOMPUTE_TRIES; attempt++) {
      await syncNow();
      if (board.broken) return;
      const done = await db.transaction(
        async (tx) => {
          // A settlement committed since the check above: the board takes it on the next check, and this row would have it already.
          const since = await settlementsSince({ db: tx, after: board.seenThrough });
          if (since.some((s) => board.covers(s) && !board.known.has(s.issuanceId))) return false;
          const state = (await boardNames({ db: tx, userIds: [userId] })).get(userId);
          if (out) updateOut(out, userId, state);
          if (zones) updateZone(zones, userId, state);
          if (!state?.counts) {
            board.recomputed(userKeyOf(userId), undefined, []);
            return true;
          }
          const { pending } = await pendingSettlements({ db: tx });
          const found = await boardRow({ db: tx, key: board.key, userId });
          // Pending on this board for this user: an earlier phase, or the board's phase with the user after the cursor.
          const todo = pending.filter(
            (s) =>
              board.covers(s) &&
              (s.phase < board.phase || (s.phase === board.phase && (s.cursor === null || userId > s.cursor))) &&
              board.inPeriod(s, state.zone),
          );
          const answers = await userAnswers({ db: tx, userId, issuanceIds: todo.map((s) => s.issuanceId) });
          if (found) board.exists = true;
          board.recomputed(
            userKeyOf(userId),
            found?.row,
            todo.flatMap((s) => {
              const a = answers.get(s.issuanceId);
              return a ? [{ ...a, resolved: s.resolved, atUs: s.scoredUs }] : [];
            }),
          );
          return true;
        },
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      );
      if (done) return;
    }
    board.broken = true;
  }

  function userChangedOn(board: MemoryBoard, userId: string) {
    return run(() => recompute(board, userId)).catch((err: unknown) => {
      board.broken = true;
      onError?.(err);
    });
  }

  /**
   * A kept board, brought up to date with the queue (every settlement committed before the call is on it); undefined
   * when the board does not exist; null when memory cannot serve it (not loaded yet: its load starts; not trusted).
   */
  async function keptBoard(key: BoardKey): Promise<MemoryBoard | undefined | null> {
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
    const text = boardKeyText(key);
    const board = boards.get(text);
    if (!board) {
      startLoad(key);
      served.memoryMisses++;
      return null;
    }
    try {
      await sync();
    } catch (err) {
      board.broken = true;
      onError?.(err);
    }
    if (board.broken || boards.get(text) !== board || !trusted()) {
      drop(text);
      served.memoryMisses++;
      return null;
    }
    keep(board);
    if (!board.exists) {
      served.memoryReads++;
      return undefined;
    }
    return board;
  }

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

  /**
   * The shown rows' names (primary-key probes); false when a shown player no longer counts (a change the bus has not
   * announced here yet): their row again, and the read from PostgreSQL.
   */
  async function named(board: MemoryBoard, rows: RankedRow[]): Promise<boolean> {
    const names = await boardNames({ db, userIds: [...new Set(rows.map((r) => r.userId))] });
    const stale = rows.filter((r) => !names.get(r.userId)?.counts);
    if (stale.length) {
      for (const r of stale) void userChangedOn(board, r.userId);
      served.memoryMisses++;
      return false;
    }
    for (const r of rows) r.name = names.get(r.userId)!.name;
    served.memoryReads++;
    return true;
  }

  const api = {
    /**
     * A board's page, player count and some players' rows and ranks from
     * memory, after a check of the queue (every settlement committed before
     * the call is on it); undefined when the board does not exist; null when
     * memory cannot serve it (not loaded yet: its load starts; not trusted):
     * the caller reads PostgreSQL.
     */
    async read(
      key: BoardKey,
      offset: number,
      limit: number,
      userIds: string[],
    ): Promise<{ playerCount: number; top: RankedRow[]; mine: Map<string, RankedRow> } | undefined | null> {
      const board = await keptBoard(key);
      if (!board) return board;
      // The rows and ranks copied now, at one state of the board: a settlement applied while the names are read changes rows.
      const playerCount = board.sorted.length;
      const top = [...board.sorted.subarray(offset, offset + limit)].map((i, n) => ranked(board.rowAt(i), offset + n + 1));
      const mine = userIds.flatMap((id) => {
        const i = board.find(userKeyOf(id));
        return i === NONE ? [] : [ranked(board.rowAt(i), board.indexOf(i) + 1)];
      });
      if (!(await named(board, [...top, ...mine]))) return null;
      return { playerCount, top, mine: new Map(mine.map((r) => [r.userId, r])) };
    },

    /**
     * A private group's board from memory: the rows some players (its members)
     * have on a kept board, ranked among themselves; undefined and null as `read`.
     */
    async members(key: BoardKey, userIds: string[]): Promise<RankedRow[] | undefined | null> {
      const board = await keptBoard(key);
      if (!board) return board;
      const rows = userIds
        .map((id) => board.find(userKeyOf(id)))
        .filter((i) => i !== NONE)
        .map((i) => ({ i, place: board.indexOf(i) }))
        .sort((x, y) => x.place - y.place)
        .map(({ i }, n) => ranked(board.rowAt(i), n + 1));
      return (await named(board, rows)) ? rows : null;
    },

    /** A settlement was committed, or the applier wrote a chunk of one (the bus): the kept boards check the queue at once. */
    settled() {
      if (boards.size)
        void sync().catch((err: unknown) => {
          for (const b of boards.values()) b.broken = true;
          onError?.(err);
        });
    },

    /** A user's row or state changed (the bus): their row on every kept board again. */
    async userChanged(userId: string) {
      for (const users of announcedDuringLoad.values()) users.add(userId);
      try {
        await refreshUser(userId);
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
    state: () => ({ boards: boards.size, rows: [...boards.values()].reduce((n, b) => n + b.size, 0), ...served }),

    /** The last settlement applied to a kept board after its load (answers, ms reading them, ms applying them to it). */
    lastApply: (key: BoardKey) => boards.get(boardKeyText(key))?.lastApply,
  };
  return api;
}

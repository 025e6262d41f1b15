/**
 * The catalogue of domain events: every "something changed" the service
 * reacts to, each with the place it is handled.
 *
 * - `transaction`: emitted inside the transaction that made the change, with
 *   it (`tx`); its reactions write in that transaction, and one that fails
 *   rolls the change back.
 * - `commit`: emitted in this process after the change committed; its
 *   reactions run one after another, each on its own (one that fails is
 *   logged, the change stands). This process's caches learn of its own
 *   writes here, before the request that made them is answered.
 * - `bus`: heard from the cross-process bus (`src/live/bus.ts`, or with
 *   Redis `src/live/redis-bus.ts`: match events only where followed), in every
 *   process, this one included: what other processes (and the database's
 *   triggers, drizzle/0011_*, 0017_*) report. Ids only.
 *
 * Who reacts to each is listed in one file, `src/events/reactions.ts`, typed
 * so that an event nobody handles fails the type check. Modules see only the
 * `Events` port (emit).
 */
import type { Tx } from '../db/client.js';
import type { BusEvent } from '../live/bus.js';
import type { QuestionIssuanceRow } from '../modules/issuances/issuances.table.js';
import type { MatchRow } from '../modules/matches/matches.table.js';
import type { UserRow } from '../modules/users/users.table.js';

export type Where = 'transaction' | 'commit' | 'bus';

/** The events emitted in this process, by name. */
export interface LocalEvents {
  /** A question is being settled (resolved, voided, revoked): its answers are scored, its settlement queued for the boards. */
  settling: { tx: Tx; row: QuestionIssuanceRow };
  /** A user's leaderboard rows depend on what changed (on or off the boards, another time zone): they are rebuilt. */
  boardInputsChanged: { tx: Tx; userId: string };
  /** The engine issued a question. */
  issued: { row: QuestionIssuanceRow };
  /** A question was settled, or locked (a Match question at kick-off). */
  settled: { row: QuestionIssuanceRow };
  /** The engine changed a match's state (status, period, clock, score). */
  matchChanged: { matchId: string; values: Partial<MatchRow> };
  /**
   * A user's row changed (profile, flags, password, last login). `shown`: it
   * changed what boards show of them (name, hidden, active, deleted).
   */
  userChanged: { userId: string; shown: boolean };
  /** Some API keys of the user were revoked, or the user deactivated: their keys stop working, their sockets close. */
  keysRevoked: { userId: string };
  /** A user followed or unfollowed a match. */
  followChanged: { userId: string; matchId: string; following: boolean };
  /** The leagues table changed (an operator's update, a definition's deletion scrubbing allowlists). */
  leaguesChanged: Record<never, never>;
  /** A match's board changed for its readers (the SQL applier wrote it; with REDIS_URL, the writer of the boards in Redis did). */
  boardChanged: { matchId: string };
  /** The SQL applier finished a phase of a settlement (its boards in PostgreSQL have it): the writers look for more. */
  boardsApplied: { phase: 1 | 2 | 3 };
  /** A (test) match was deleted. */
  matchDeleted: { matchId: string };
  /** A player registered. */
  registered: { user: UserRow };
  /** A user has a new, unverified email (or was created with one). */
  emailChanged: { user: UserRow };
}

/** Where each local event is handled. */
export const WHERE = {
  settling: 'transaction',
  boardInputsChanged: 'transaction',
  issued: 'commit',
  settled: 'commit',
  matchChanged: 'commit',
  userChanged: 'commit',
  keysRevoked: 'commit',
  followChanged: 'commit',
  leaguesChanged: 'commit',
  boardChanged: 'commit',
  boardsApplied: 'commit',
  matchDeleted: 'commit',
  registered: 'commit',
  emailChanged: 'commit',
} as const satisfies { [K in keyof LocalEvents]: Exclude<Where, 'bus'> };

export type LocalEventType = keyof LocalEvents;

/** One local event: `{ type, ...payload }`. */
export type DomainEvent = { [K in LocalEventType]: { type: K } & LocalEvents[K] }[LocalEventType];
export type EventOf<K extends LocalEventType> = Extract<DomainEvent, { type: K }>;

// A transaction event carries its transaction; a commit event never does (its reactions must not write in it).
type CarriesTx<K extends LocalEventType> = LocalEvents[K] extends { tx: Tx } ? 'transaction' : 'commit';
type IsTrue<T extends true> = T;
export type _WhereMatchesPayload = IsTrue<{ [K in LocalEventType]: (typeof WHERE)[K] extends CarriesTx<K> ? true : false }[LocalEventType]>;

/**
 * What is heard on the bus, by kind (see `BusEvent`), and `resync`: the bus
 * listens again after a gap, so events may have been missed.
 */
export type BusEvents = { [K in BusEvent['k']]: Extract<BusEvent, { k: K }> } & { resync: Record<never, never> };
export type BusEventType = keyof BusEvents;

/** The port modules and the engine get: they say what changed, never who reacts. */
export interface Events {
  /** Runs the event's reactions; a transaction event's failure is thrown (rolls back), a commit event's is logged. */
  emit(event: DomainEvent): Promise<void>;
}

/**
 * The named sets of statuses the rules are written in, as plain values: what
 * the operator UI and any code without SQL imports. `src/domain/vocabulary.ts`
 * gives each the same set with its SQL form too; the sets are declared here
 * only, once.
 */
import type { IssuanceStatus, ListenerStatus, MatchStatus } from '../../generated/vocabulary.js';

export interface StatusValues<T extends string> {
  /** The statuses, in the contract's order. */
  readonly values: readonly T[];
  /** True when the status is one of them. */
  has(status: string | null | undefined): status is T;
}

export function statusValues<T extends string>(values: readonly T[]): StatusValues<T> {
  const set = new Set<string>(values);
  return { values, has: (status): status is T => status !== null && status !== undefined && set.has(status) };
}

// Matches ------------------------------------------------------------------

/** Before kick-off (a postponed match will still be played): Match questions answerable, sponsorship slots editable. */
export const notStarted = statusValues<MatchStatus>(['scheduled', 'postponed']);
/** In play: the live statuses. */
export const isLive = statusValues<MatchStatus>(['live', 'break']);
/** Play has begun (or is over with a result): it has a score. */
export const hasStarted = statusValues<MatchStatus>(['live', 'break', 'ended', 'closed']);
/** Over: play finished, result final, or called off. */
export const isOver = statusValues<MatchStatus>(['ended', 'closed', 'cancelled']);
/** Play is over (result pending or final): a listener's feed has nothing more to say. */
export const playOver = statusValues<MatchStatus>(['ended', 'closed']);
/** Nobody may start following it any more. */
export const unfollowable = statusValues<MatchStatus>(['closed', 'cancelled']);
/** Its in-game questions can no longer resolve (result final, called off, or put off). */
export const stopsInGameQuestions = statusValues<MatchStatus>(['closed', 'cancelled', 'postponed']);
/** A listener may be dispatched to it. */
export const dispatchable = statusValues<MatchStatus>(['scheduled', 'live', 'break']);

// Question issuances -------------------------------------------------------

/** Not settled yet: answerable (`open`) or waiting for the result (`locked`). */
export const unsettled = statusValues<IssuanceStatus>(['open', 'locked']);
/** Settled for good: never re-graded. */
export const settled = statusValues<IssuanceStatus>(['resolved', 'voided', 'revoked']);
/** What players may see of a match's past questions. */
export const playerVisible = statusValues<IssuanceStatus>(['resolved', 'voided']);

// Listeners ----------------------------------------------------------------

/** Holds the match: waiting for a process or running in one (at most one per match). */
export const activeListener = statusValues<ListenerStatus>(['queued', 'running']);

/**
 * The statuses and kinds of matches, questions, listeners and answers: the
 * contract's enums (generated/vocabulary.ts, from openapi/openapi.yaml) and the
 * named sets the rules are written in. Each set answers in TypeScript
 * (`isOver.has(match.status)`) and in SQL (`isOver.sql(matches.status)`), so a
 * rule reads the same in both and is declared once.
 */
import { sql, type Column, type SQL } from 'drizzle-orm';
import { AnswerOutcome, IssuanceStatus, ListenerSource, ListenerStatus, MatchStatus, QuestionKind } from '../../generated/vocabulary.js';

export { AnswerOutcome, IssuanceStatus, ListenerSource, ListenerStatus, MatchStatus, QuestionKind };

/** An answer's stored outcome once scored (`pending` is what an unscored answer shows: no outcome yet). */
export type ScoredOutcome = Exclude<AnswerOutcome, 'pending'>;

export interface StatusSet<T extends string> {
  /** The statuses, in the contract's order. */
  readonly values: readonly T[];
  /** True when the status is one of them. */
  has(status: string | null | undefined): status is T;
  /** SQL: the column is one of them. */
  sql(column: Column | SQL): SQL;
  /** SQL: the column is none of them. */
  notSql(column: Column | SQL): SQL;
}

function statusSet<T extends string>(values: readonly T[]): StatusSet<T> {
  const set = new Set<string>(values);
  const list = sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );
  return {
    values,
    has: (status): status is T => status !== null && status !== undefined && set.has(status),
    sql: (column) => sql`${column} in (${list})`,
    notSql: (column) => sql`${column} not in (${list})`,
  };
}

// Matches ------------------------------------------------------------------

/** Before kick-off (a postponed match will still be played): Match questions answerable, sponsorship slots editable. */
export const notStarted = statusSet<MatchStatus>(['scheduled', 'postponed']);
/** In play: the live statuses. */
export const isLive = statusSet<MatchStatus>(['live', 'break']);
/** Play has begun (or is over with a result). */
export const hasStarted = statusSet<MatchStatus>(['live', 'break', 'ended', 'closed']);
/** Over: play finished, result final, or called off. */
export const isOver = statusSet<MatchStatus>(['ended', 'closed', 'cancelled']);
/** Play is over (result pending or final): a listener's feed has nothing more to say. */
export const playOver = statusSet<MatchStatus>(['ended', 'closed']);
/** Nobody may start following it any more. */
export const unfollowable = statusSet<MatchStatus>(['closed', 'cancelled']);
/** Its in-game questions can no longer resolve (result final, called off, or put off). */
export const stopsInGameQuestions = statusSet<MatchStatus>(['closed', 'cancelled', 'postponed']);
/** A listener may be dispatched to it. */
export const dispatchable = statusSet<MatchStatus>(['scheduled', 'live', 'break']);

// Question issuances -------------------------------------------------------

/** Not settled yet: answerable (`open`) or waiting for the result (`locked`). */
export const unsettled = statusSet<IssuanceStatus>(['open', 'locked']);
/** Settled for good: never re-graded. */
export const settled = statusSet<IssuanceStatus>(['resolved', 'voided', 'revoked']);
/** What players may see of a match's past questions. */
export const playerVisible = statusSet<IssuanceStatus>(['resolved', 'voided']);

// Listeners ----------------------------------------------------------------

/** Holds the match: waiting for a process or running in one (at most one per match). */
export const activeListener = statusSet<ListenerStatus>(['queued', 'running']);

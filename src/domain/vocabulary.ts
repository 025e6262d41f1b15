/**
 * The statuses and kinds of matches, questions, listeners and answers: the
 * contract's enums (generated/vocabulary.ts, from openapi/openapi.yaml) and the
 * named sets the rules are written in. Each set answers in TypeScript
 * (`isOver.has(match.status)`) and in SQL (`isOver.sql(matches.status)`), so a
 * rule reads the same in both and is declared once (the sets' values and
 * meanings in src/domain/statuses.ts).
 */
import { sql, type Column, type SQL } from 'drizzle-orm';
import * as values from './statuses.js';
import type { StatusValues } from './statuses.js';
import { AnswerOutcome, IssuanceStatus, ListenerSource, ListenerStatus, MatchStatus, QuestionKind } from '../../generated/vocabulary.js';

export { AnswerOutcome, IssuanceStatus, ListenerSource, ListenerStatus, MatchStatus, QuestionKind };

/** An answer's stored outcome once scored (`pending` is what an unscored answer shows: no outcome yet). */
export type ScoredOutcome = Exclude<AnswerOutcome, 'pending'>;

export interface StatusSet<T extends string> extends StatusValues<T> {
  /** SQL: the column is one of them. */
  sql(column: Column | SQL): SQL;
  /** SQL: the column is none of them. */
  notSql(column: Column | SQL): SQL;
}

/** A set of src/domain/statuses.ts with its SQL form. */
function withSql<T extends string>(set: StatusValues<T>): StatusSet<T> {
  const list = sql.join(
    set.values.map((v) => sql`${v}`),
    sql`, `,
  );
  return {
    ...set,
    sql: (column) => sql`${column} in (${list})`,
    notSql: (column) => sql`${column} not in (${list})`,
  };
}

// Matches ------------------------------------------------------------------

export const notStarted = withSql(values.notStarted);
export const isLive = withSql(values.isLive);
export const hasStarted = withSql(values.hasStarted);
export const isOver = withSql(values.isOver);
export const playOver = withSql(values.playOver);
export const unfollowable = withSql(values.unfollowable);
export const stopsInGameQuestions = withSql(values.stopsInGameQuestions);
export const dispatchable = withSql(values.dispatchable);

// Question issuances -------------------------------------------------------

export const unsettled = withSql(values.unsettled);
export const settled = withSql(values.settled);
export const playerVisible = withSql(values.playerVisible);

// Listeners ----------------------------------------------------------------

export const activeListener = withSql(values.activeListener);

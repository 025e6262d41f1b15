import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { questionAnswers } from '../answers/answers.table.js';
import { questionIssuances } from '../issuances/issuances.table.js';
import { userFeedback, type UserFeedbackRow } from './feedback.table.js';

export type NewFeedback = typeof userFeedback.$inferInsert;

export interface FeedbackSubject {
  id: string;
  matchId: string;
  questionIssuanceId: string;
  outcome: string | null;
  /** The issuance's kind: in_game or match. */
  kind: string;
}

/**
 * One of the user's answers with its issuance's kind, or undefined when the
 * answer is unknown or another user's. The answer row is locked for the
 * transaction (FOR NO KEY UPDATE), so concurrent submissions on the same
 * answer run one after the other and the duplicate check holds.
 */
export async function findOwnAnswer({ db, id, userId }: { db: DbOrTx; id: string; userId: string }): Promise<FeedbackSubject | undefined> {
  const [row] = await db
    .select({
      id: questionAnswers.id,
      matchId: questionAnswers.matchId,
      questionIssuanceId: questionAnswers.questionIssuanceId,
      outcome: questionAnswers.outcome,
      kind: questionIssuances.kind,
    })
    .from(questionAnswers)
    .innerJoin(questionIssuances, eq(questionIssuances.id, questionAnswers.questionIssuanceId))
    .where(and(eq(questionAnswers.id, id), eq(questionAnswers.userId, userId)))
    .limit(1)
    .for('no key update', { of: questionAnswers });
  return row;
}

/** Inserts the row; undefined when the answer already has feedback with this topic (the unique index decides). */
export async function insertFeedback({ db, values }: { db: DbOrTx; values: NewFeedback }): Promise<UserFeedbackRow | undefined> {
  const [row] = await db
    .insert(userFeedback)
    .values(values)
    .onConflictDoNothing({ target: [userFeedback.subjectId, userFeedback.topic] })
    .returning();
  return row;
}

export async function findFeedback({ db, id }: { db: DbOrTx; id: string }): Promise<UserFeedbackRow | undefined> {
  const [row] = await db.select().from(userFeedback).where(eq(userFeedback.id, id)).limit(1);
  return row;
}

export interface FeedbackListFilter {
  userId?: string | undefined;
  matchId?: string | undefined;
  created?: { from: Date; to: Date } | undefined;
  subjectType?: string | undefined;
  topic?: string | undefined;
  offset: number;
  limit: number;
}

/** One page, newest first (id breaks ties), and the filtered total: two statements whatever the page size. */
export async function listFeedback({ db, filter }: { db: DbOrTx; filter: FeedbackListFilter }): Promise<{ rows: UserFeedbackRow[]; total: number }> {
  const conditions: SQL[] = [];
  if (filter.userId !== undefined) conditions.push(eq(userFeedback.userId, filter.userId));
  if (filter.matchId !== undefined) conditions.push(eq(userFeedback.matchId, filter.matchId));
  if (filter.created) conditions.push(gte(userFeedback.createdAt, filter.created.from), lt(userFeedback.createdAt, filter.created.to));
  if (filter.subjectType !== undefined) conditions.push(eq(userFeedback.subjectType, filter.subjectType));
  if (filter.topic !== undefined) conditions.push(eq(userFeedback.topic, filter.topic));
  const where = conditions.length ? and(...conditions) : undefined;
  const rows = await db
    .select()
    .from(userFeedback)
    .where(where)
    .orderBy(desc(userFeedback.createdAt), desc(userFeedback.id))
    .offset(filter.offset)
    .limit(filter.limit);
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(userFeedback)
    .where(where);
  return { rows, total: count?.n ?? 0 };
}

/** Deletes a user's feedback (their account is deleted: their words go with it). */
export async function deleteFeedbackOfUser({ tx, userId }: { tx: Tx; userId: string }): Promise<void> {
  await tx.delete(userFeedback).where(eq(userFeedback.userId, userId));
}

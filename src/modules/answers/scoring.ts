/**
 * Scoring: when an issuance settles, every answer to it gets its outcome and
 * points in the same transaction, in one statement whatever the number of
 * answers. A correct answer scores the points fixed when the question was
 * issued; voided and revoked questions score nothing. Answers are scored once
 * (a settled issuance is never re-graded).
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import type { QuestionIssuanceRow } from '../issuances/issuances.table.js';
import { questionAnswers } from './answers.table.js';

export async function scoreSettledIssuance(tx: Tx, issuance: QuestionIssuanceRow): Promise<void> {
  const resolved = issuance.status === 'resolved' && issuance.correctAnswerIdentifier !== null;
  const correct = issuance.correctAnswerIdentifier ?? '';
  await tx
    .update(questionAnswers)
    .set({
      outcome: resolved ? sql`case when ${questionAnswers.selectedAnswerIdentifier} = ${correct} then 'correct' else 'incorrect' end` : 'void',
      pointsAwarded: resolved ? sql`case when ${questionAnswers.selectedAnswerIdentifier} = ${correct} then ${issuance.points}::int else 0 end` : 0,
      // updated_at stays the time the player last answered
      scoredAt: issuance.resolvedAt ?? sql`now()`,
    })
    .where(and(eq(questionAnswers.questionIssuanceId, issuance.id), isNull(questionAnswers.outcome)));
}

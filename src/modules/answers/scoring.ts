/**
 * Scoring: when an issuance settles, every answer to it gets its outcome and
 * points in the same transaction, in one statement whatever the number of
 * answers. A correct answer scores the points fixed when the question was
 * issued; voided and revoked questions score nothing. Answers are scored once
 * (a settled issuance is never re-graded).
 */
import type { Tx } from '../../db/client.js';
import type { QuestionIssuanceRow } from '../issuances/issuances.table.js';
import { scoreAnswersOf } from './answers.repository.js';

export async function scoreSettledIssuance(tx: Tx, issuance: QuestionIssuanceRow): Promise<void> {
  const resolved = issuance.status === 'resolved' && issuance.correctAnswerIdentifier !== null;
  await scoreAnswersOf({
    tx,
    issuanceId: issuance.id,
    correct: resolved ? issuance.correctAnswerIdentifier : null,
    points: issuance.points,
    scoredAt: issuance.resolvedAt,
  });
}

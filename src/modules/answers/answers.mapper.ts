import { isoTimestamps } from '../shared/dto-fields.js';
import type { components } from '../../../generated/api-types.js';
import { secondsRemaining } from '../issuances/issuances.mapper.js';
import { toMatchRef } from '../listeners/listeners.mapper.js';
import type { HistoryRow, OpenRow } from './answers.repository.js';
import type { QuestionAnswerRow } from './answers.table.js';
import { toCrowd } from './crowd.js';

type Schemas = components['schemas'];

export function toQuestionAnswerDto(row: QuestionAnswerRow): Schemas['QuestionAnswer'] {
  return {
    id: row.id,
    question_issuance_id: row.questionIssuanceId,
    selected_answer_identifier: row.selectedAnswerIdentifier,
    ...isoTimestamps(row),
  };
}

export function toOpenQuestion(row: OpenRow, now: Date): Schemas['OpenQuestion'] {
  const i = row.issuance;
  return {
    question_issuance_id: i.id,
    kind: i.kind as Schemas['OpenQuestion']['kind'],
    match: toMatchRef(row.match, row.league),
    question_text: i.questionText,
    choices: i.choices,
    is_pivotal_moment: i.isPivotalMoment,
    points: i.points,
    issued_at: i.issuedAt.toISOString(),
    closes_at: i.closesAt.toISOString(),
    seconds_remaining: secondsRemaining(i, now),
    current_answer: row.currentAnswer,
    // Nothing before the caller has answered: the crowd is not there to copy.
    crowd: row.currentAnswer !== null ? toCrowd(i.choices, row.crowd ?? i.crowd ?? {}) : null,
    sponsor_brand: i.sponsorBrand ?? null,
    match_sponsor_brand: i.matchSponsorBrand ?? null,
  };
}

const OUTCOMES: Record<string, Schemas['AnswerHistoryItem']['outcome']> = { correct: 'correct', incorrect: 'incorrect', void: 'void' };

export function toHistoryItem(row: HistoryRow): Schemas['AnswerHistoryItem'] {
  const { answer, issuance } = row;
  return {
    answer_id: answer.id,
    question_issuance_id: issuance.id,
    kind: issuance.kind as Schemas['AnswerHistoryItem']['kind'],
    match: toMatchRef(row.match, row.league),
    question_text: issuance.questionText,
    choices: issuance.choices,
    selected_answer_identifier: answer.selectedAnswerIdentifier,
    answered_at: answer.updatedAt.toISOString(),
    issuance_status: issuance.status as Schemas['AnswerHistoryItem']['issuance_status'],
    outcome: answer.outcome ? (OUTCOMES[answer.outcome] ?? 'void') : 'pending',
    correct_answer_identifier: issuance.status === 'resolved' ? issuance.correctAnswerIdentifier : null,
    points_awarded: answer.pointsAwarded,
    points_possible: issuance.points,
    resolved_at: issuance.resolvedAt ? issuance.resolvedAt.toISOString() : null,
    crowd: toCrowd(issuance.choices, row.crowd ?? issuance.crowd ?? {}),
    sponsor_brand: issuance.sponsorBrand ?? null,
    match_sponsor_brand: issuance.matchSponsorBrand ?? null,
  };
}

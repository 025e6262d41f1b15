import type { components } from '../../../generated/api-types.js';
import type { UserFeedbackRow } from './feedback.table.js';

export type FeedbackDto = components['schemas']['Feedback'];

/** The one place a feedback row becomes the contract's Feedback. */
export function toFeedbackDto(row: UserFeedbackRow): FeedbackDto {
  return {
    id: row.id,
    user_id: row.userId,
    subject_type: row.subjectType,
    subject_id: row.subjectId,
    topic: row.topic,
    description: row.description,
    match_id: row.matchId,
    question_issuance_id: row.questionIssuanceId,
    created_at: row.createdAt.toISOString(),
  };
}

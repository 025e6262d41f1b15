/** Every error the feedback module answers with: its status, its stable code (X-Error-Code) and its message. */
import { errorFactory, quote } from '../../errors.js';
import { halfRangeMessage } from '../shared/shared.errors.js';

export const feedbackErrors = {
  notFound: errorFactory(404, 'feedback.not_found', () => 'feedback not found'),
  /** The answer is unknown, or another user's: one answer for both, so ids of others' answers are not confirmed. */
  subjectNotFound: errorFactory(404, 'feedback.subject_not_found', () => 'answer not found'),
  invalidSubjectType: errorFactory(
    400,
    'feedback.invalid_subject_type',
    (subjectType: string, known: readonly string[]) => `subject_type ${quote(subjectType)} is not one of the form's subject types: ${known.join(', ')}`,
  ),
  invalidTopic: errorFactory(
    400,
    'feedback.invalid_topic',
    (topic: string, subjectType: string, topics: readonly string[]) =>
      `topic ${quote(topic)} is not a topic of ${subjectType}; expected one of: ${topics.join(', ')}`,
  ),
  descriptionTooLong: errorFactory(
    400,
    'feedback.description_too_long',
    (length: number, max: number) => `description is ${length} characters long; at most ${max} are allowed`,
  ),
  /** The answer is not of the subject type's kind; `fitting` is the subject type it would be filed as. */
  subjectKindMismatch: errorFactory(
    400,
    'feedback.subject_kind_mismatch',
    (answerId: string, kind: string, subjectType: string, fitting: string | undefined) =>
      `answer ${answerId} is an answer to ${kind === 'match' ? 'a Match question' : 'an in-game question'}, not a ${subjectType}${fitting ? `; file it as ${fitting}` : ''}`,
  ),
  subjectPending: errorFactory(
    409,
    'feedback.subject_pending',
    (answerId: string) => `answer ${answerId} is not settled yet; feedback can be filed once its question is resolved or voided`,
  ),
  duplicate: errorFactory(
    409,
    'feedback.duplicate',
    (answerId: string, topic: string) => `feedback on answer ${answerId} with topic ${quote(topic)} was already filed`,
  ),
  invalidRange: errorFactory(400, 'feedback.invalid_range', halfRangeMessage),
};

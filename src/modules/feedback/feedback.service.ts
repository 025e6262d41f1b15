/**
 * User feedback: players file it on their own settled answers; a player reads
 * their own rows, an admin everyone's.
 */
import { parseTimeRange } from '../shared/time-range.js';
import type { components, operations } from '../../../generated/api-types.js';
import type { Db } from '../../db/client.js';
import { feedbackErrors } from './feedback.errors.js';
import type { UserRow } from '../users/users.table.js';
import { DESCRIPTION_MAX_LENGTH, feedbackForm, findSubjectType, subjectTypeForKind, subjectTypeNames } from './feedback-form.js';
import { findFeedback, findOwnAnswer, insertFeedback, listFeedback, type FeedbackListFilter } from './feedback.repository.js';
import type { UserFeedbackRow } from './feedback.table.js';

type FeedbackCreate = components['schemas']['FeedbackCreate'];

/** The query of GET /api/user-feedback, as the contract types it. */
export type FeedbackListQuery = NonNullable<operations['listUserFeedback']['parameters']['query']>;

/** Characters as a person counts them in the limit: Unicode code points (an emoji is one, not two UTF-16 units or four bytes). */
export const characterCount = (text: string) => Array.from(text).length;

/** Trimmed; blank (or absent, or null) is stored as null. */
function parseDescription(value: string | null | undefined): string | null {
  const text = value?.trim() ?? '';
  if (!text) return null;
  const length = characterCount(text);
  if (length > DESCRIPTION_MAX_LENGTH) throw feedbackErrors.descriptionTooLong(length, DESCRIPTION_MAX_LENGTH);
  return text;
}

export type FeedbackService = ReturnType<typeof createFeedbackService>;

export function createFeedbackService({ db }: { db: Db }) {
  return {
    form: feedbackForm,

    /**
     * Files feedback on one of the caller's settled answers. Checks in order:
     * subject type and topic against the form (400), the description length
     * (400), the answer is the caller's (404), of the subject type's kind
     * (400), settled (409), and no earlier feedback of the same topic on it
     * (409). Match and issuance ids come from the answer.
     */
    async create(user: UserRow, body: FeedbackCreate): Promise<UserFeedbackRow> {
      const type = findSubjectType(body.subject_type);
      if (!type) throw feedbackErrors.invalidSubjectType(body.subject_type, subjectTypeNames());
      const topics = type.topics.map((t) => t.topic);
      if (!(topics as readonly string[]).includes(body.topic)) throw feedbackErrors.invalidTopic(body.topic, type.subject_type, topics);
      const description = parseDescription(body.description);
      return db.transaction(async (tx) => {
        const answer = await findOwnAnswer({ db: tx, id: body.subject_id, userId: user.id });
        // Unknown, or another user's: one answer for both, so ids of others' answers are not confirmed.
        if (!answer) throw feedbackErrors.subjectNotFound();
        if (answer.kind !== type.history_kind) {
          throw feedbackErrors.subjectKindMismatch(answer.id, answer.kind, type.subject_type, subjectTypeForKind(answer.kind)?.subject_type);
        }
        if (answer.outcome === null) throw feedbackErrors.subjectPending(answer.id);
        const row = await insertFeedback({
          db: tx,
          values: {
            userId: user.id,
            subjectType: type.subject_type,
            subjectId: answer.id,
            topic: body.topic,
            description,
            matchId: answer.matchId,
            questionIssuanceId: answer.questionIssuanceId,
          },
        });
        // The unique index on answer and topic settles repeats, concurrent ones included.
        if (!row) throw feedbackErrors.duplicate(answer.id, body.topic);
        return row;
      });
    },

    /** A page and the filtered total; a player's rows only (their user_id filter is ignored), an admin's choice of everyone's. */
    async list(user: UserRow, query: FeedbackListQuery): Promise<{ rows: UserFeedbackRow[]; total: number }> {
      const filter: FeedbackListFilter = {
        userId: user.isAdmin ? query.user_id : user.id,
        matchId: query.match_id,
        created: parseTimeRange({ name: 'created', from: query.created_from, to: query.created_to, error: feedbackErrors.invalidRange }),
        subjectType: query.subject_type,
        topic: query.topic,
        offset: query.offset ?? 0,
        limit: query.limit ?? 50,
      };
      return listFeedback({ db, filter });
    },

    /** One row for its owner or an admin; another player's row is 404, like an unknown id. */
    async get(user: UserRow, id: string): Promise<UserFeedbackRow> {
      const row = await findFeedback({ db, id });
      // Another user's feedback is not confirmed either.
      if (!row || (!user.isAdmin && row.userId !== user.id)) throw feedbackErrors.notFound();
      return row;
    },
  };
}

/**
 * User feedback: players file it on their own settled answers; a player reads
 * their own rows, an admin everyone's.
 */
import { parseTimeRange } from '../shared/time-range.js';
import type { components, operations } from '../../../generated/api-types.js';
import type { Db } from '../../db/client.js';
import { badRequest, conflict, notFound, quote } from '../../errors.js';
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
  if (length > DESCRIPTION_MAX_LENGTH) {
    throw badRequest('feedback.description_too_long', `description is ${length} characters long; at most ${DESCRIPTION_MAX_LENGTH} are allowed`);
  }
  return text;
}

const list = (values: readonly string[]) => values.join(', ');

/** Unknown, or another user's: one answer for both, so ids of others' answers and feedback are not confirmed. */
const answerNotFound = () => notFound('answer', 'feedback.subject_not_found');
const feedbackNotFound = () => notFound('feedback');

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
      if (!type) {
        throw badRequest('feedback.invalid_subject_type', `subject_type ${quote(body.subject_type)} is not one of the form's subject types: ${list(subjectTypeNames())}`);
      }
      const topics = type.topics.map((t) => t.topic);
      if (!(topics as readonly string[]).includes(body.topic)) {
        throw badRequest('feedback.invalid_topic', `topic ${quote(body.topic)} is not a topic of ${type.subject_type}; expected one of: ${list(topics)}`);
      }
      const description = parseDescription(body.description);
      return db.transaction(async (tx) => {
        const answer = await findOwnAnswer({ db: tx, id: body.subject_id, userId: user.id });
        if (!answer) throw answerNotFound();
        if (answer.kind !== type.history_kind) {
          const fitting = subjectTypeForKind(answer.kind);
          throw badRequest(
            'feedback.subject_kind_mismatch',
            `answer ${answer.id} is an answer to ${answer.kind === 'match' ? 'a Match question' : 'an in-game question'}, not a ${type.subject_type}${fitting ? `; file it as ${fitting.subject_type}` : ''}`,
          );
        }
        if (answer.outcome === null) throw conflict('feedback.subject_pending', `answer ${answer.id} is not settled yet; feedback can be filed once its question is resolved or voided`);
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
        if (!row) throw conflict('feedback.duplicate', `feedback on answer ${answer.id} with topic ${quote(body.topic)} was already filed`);
        return row;
      });
    },

    /** A page and the filtered total; a player's rows only (their user_id filter is ignored), an admin's choice of everyone's. */
    async list(user: UserRow, query: FeedbackListQuery): Promise<{ rows: UserFeedbackRow[]; total: number }> {
      const filter: FeedbackListFilter = {
        userId: user.isAdmin ? query.user_id : user.id,
        matchId: query.match_id,
        created: parseTimeRange({ name: 'created', from: query.created_from, to: query.created_to, code: 'feedback.invalid_range' }),
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
      if (!row || (!user.isAdmin && row.userId !== user.id)) throw feedbackNotFound();
      return row;
    },
  };
}

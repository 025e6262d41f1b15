/**
 * The feedback form catalog, the one place it is defined: the subject types a
 * player may file feedback on (each the kind of answer-history row it is), the
 * topics of each, and the description limit. The form endpoint serves it as
 * is; submission validates against it.
 */
import type { components } from '../../../generated/api-types.js';

export type FeedbackFormDto = components['schemas']['FeedbackForm'];
type SubjectTypeEntry = FeedbackFormDto['subject_types'][number];

/** Longest description, in characters (Unicode code points, not bytes). */
export const DESCRIPTION_MAX_LENGTH = 1000;

const SUBJECT_TYPES = [
  {
    subject_type: 'in_game_answer',
    label: 'An in-game answer',
    history_kind: 'in_game',
    topics: [
      { topic: 'wrong_result', label: 'The result is wrong' },
      { topic: 'unclear_question', label: 'The question was unclear' },
      { topic: 'answer_window_too_short', label: 'The answer window was too short' },
      { topic: 'technical_problem', label: 'A technical problem' },
      { topic: 'other', label: 'Something else' },
    ],
  },
  {
    subject_type: 'match_answer',
    label: 'A Match question answer',
    history_kind: 'match',
    topics: [
      { topic: 'wrong_result', label: 'The result is wrong' },
      { topic: 'unclear_question', label: 'The question was unclear' },
      { topic: 'technical_problem', label: 'A technical problem' },
      { topic: 'other', label: 'Something else' },
    ],
  },
] as const satisfies readonly SubjectTypeEntry[];

export type FeedbackSubjectType = (typeof SUBJECT_TYPES)[number];

/** The form as the contract returns it (a fresh copy: callers cannot change the catalog). */
export function feedbackForm(): FeedbackFormDto {
  return {
    subject_types: SUBJECT_TYPES.map((s) => ({ ...s, topics: s.topics.map((t) => ({ ...t })) })),
    description_max_length: DESCRIPTION_MAX_LENGTH,
  };
}

/** The catalog entry of a subject type, or undefined when the form has no such type. */
export const findSubjectType = (subjectType: string): FeedbackSubjectType | undefined => SUBJECT_TYPES.find((s) => s.subject_type === subjectType);

export const subjectTypeNames = (): string[] => SUBJECT_TYPES.map((s) => s.subject_type);

/** The subject type whose history kind is `kind` (in_game or match). */
export const subjectTypeForKind = (kind: string): FeedbackSubjectType | undefined => SUBJECT_TYPES.find((s) => s.history_kind === kind);

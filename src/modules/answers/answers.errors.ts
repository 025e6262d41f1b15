/** Every error answering a question answers with, beside issuance.not_found: its status, its stable code (X-Error-Code) and its message. */
import { errorFactory, quote } from '../../errors.js';

export const answerErrors = {
  /** A live question needs a follow; so does a Match question for an account with a daily follow quota. */
  notFollowing: errorFactory(403, 'answer.not_following', (kind: 'in_game' | 'match') =>
    kind === 'in_game' ? 'follow the match to answer its live questions' : 'follow the match to answer its questions (your account has a daily follow quota)',
  ),
  alreadyResolved: errorFactory(409, 'answer.already_resolved', (status: string) => `this question is already ${status}`),
  /** A Match question locks at kick-off. */
  locked: errorFactory(410, 'answer.locked', () => 'this Match question locked at kick-off'),
  windowExpired: errorFactory(410, 'answer.window_expired', () => 'the answer window of this question has expired'),
  invalidChoice: errorFactory(
    400,
    'answer.invalid_choice',
    (choice: string, choices: readonly string[]) => `${quote(choice)} is not a choice of this question; choose one of ${choices.join(', ')}`,
  ),
};

/**
 * The issuances module's front door: what the rest of the service may read
 * and write of its table (scripts/eslint/front-doors.js: its repositories
 * are its own). Each statement takes the connection or the caller's
 * transaction.
 */
export {
  // The live engine: issue, lock, settle, void (in its batch's transaction).
  inGameIssuancesOfMatch,
  insertInGameIssuance,
  insertMatchIssuance,
  lockStartedMatchQuestions,
  // Match questions: the pairs due for issuance, and those to settle from the result.
  dueMatchQuestions,
  matchQuestionsToResolve,
  settleByTrigger,
  settleIssuance,
  settleOpenOfMatch,
  voidOrphaned,
  type NewIssuance,
  type SettlingEvents,
  // Schedule sync and match control: a kick-off moved moves the Match questions' closing.
  moveMatchQuestionsClosing,
  // Match control: a reset match loses its issuances.
  deleteIssuancesOfMatch,
  // A match by id (settings inheritance, push delivery).
  findMatch,
  // The live stream's deliveries: one statement per event, whatever the number of receivers.
  issuanceForDelivery,
  settledForDelivery,
  type SettledForDelivery,
  // The Redis transport's publisher: a settlement with every answer, read once whoever receives it.
  settlementWithAllAnswers,
  type AnswerGroup,
} from './issuances.repository.js';

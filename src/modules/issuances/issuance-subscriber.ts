/**
 * What happens after the engine issues or settles a question: live delivery,
 * push notifications and the like implement this. The engine calls each one
 * on its own (src/engine/subscribers.ts); one that fails is logged and stops
 * neither the engine nor the others. Scoring is not a subscriber: it runs
 * inside the settling transaction.
 */
import type { MatchRow } from '../matches/matches.table.js';
import type { QuestionIssuanceRow } from './issuances.table.js';

export interface EngineSubscriber {
  name: string;
  onIssued?(row: QuestionIssuanceRow): void | Promise<void>;
  onSettled?(row: QuestionIssuanceRow): void | Promise<void>;
  onMatchChanged?(matchId: string, values: Partial<MatchRow>): void | Promise<void>;
}

/**
 * What happens after the engine issues or settles a question: live delivery,
 * push notifications and the like subscribe here. Each subscriber runs on its
 * own; one that fails is logged and does not stop the engine or the others.
 * Scoring is not a subscriber: it runs inside the store's settling transaction.
 */
import type { Logger } from '../logger.js';
import type { QuestionIssuanceRow } from '../modules/issuances/issuances.table.js';
import type { MatchRow } from '../modules/matches/matches.table.js';
import type { EngineHooks } from './listener-runner.js';

export interface EngineSubscriber {
  name: string;
  onIssued?(row: QuestionIssuanceRow): void | Promise<void>;
  onSettled?(row: QuestionIssuanceRow): void | Promise<void>;
  onMatchChanged?(matchId: string, values: Partial<MatchRow>): void | Promise<void>;
}

export function engineHooks({ logger, subscribers }: { logger: Logger; subscribers: EngineSubscriber[] }): EngineHooks {
  const each = async <K extends 'onIssued' | 'onSettled' | 'onMatchChanged'>(hook: K, ...args: Parameters<NonNullable<EngineSubscriber[K]>>) => {
    for (const s of subscribers) {
      const fn = s[hook] as ((...a: unknown[]) => void | Promise<void>) | undefined;
      if (!fn) continue;
      try {
        await fn.apply(s, args);
      } catch (err) {
        logger.error({ err, subscriber: s.name, hook }, 'engine subscriber failed');
      }
    }
  };
  return {
    onIssued: (row) => each('onIssued', row),
    onSettled: (row) => each('onSettled', row),
    onMatchChanged: (matchId, values) => each('onMatchChanged', matchId, values),
  };
}

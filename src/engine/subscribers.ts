/**
 * The engine's hooks fanned out to its subscribers (the interface they
 * implement is the issuances module's EngineSubscriber): each runs on its
 * own, and one that fails is logged without stopping the engine or the others.
 */
import type { Logger } from '../logger.js';
import { metrics } from '../observability/metrics.js';
import { traced } from '../observability/tracing.js';
import type { EngineSubscriber } from '../modules/issuances/issuance-subscriber.js';
import type { EngineHooks } from './listener-runner.js';

export type { EngineSubscriber };

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
    onIssued: (row) => {
      metrics.issuances.inc({ kind: row.kind });
      return traced('engine.deliver', { 'qp.issuance_id': row.id, 'qp.hook': 'issued' }, () => each('onIssued', row));
    },
    onSettled: (row) => {
      metrics.resolutions.inc({ status: row.status });
      return traced('engine.deliver', { 'qp.issuance_id': row.id, 'qp.hook': 'settled' }, () => each('onSettled', row));
    },
    onMatchChanged: (matchId, values) => each('onMatchChanged', matchId, values),
  };
}

/**
 * The engine's hooks as domain events: what the engine reports after a
 * commit (an issuance, a settlement, a match's state) is emitted as
 * `issued`, `settled` and `matchChanged` (src/events/catalogue.ts); who
 * reacts is listed in src/events/reactions.ts. Each reaction runs on its own:
 * one that fails is logged without stopping the engine or the others.
 */
import type { Events } from '../events/catalogue.js';
import { traced } from '../observability/tracing.js';
import type { EngineHooks } from './listener-runner.js';

export function engineHooks(events: Events): EngineHooks {
  return {
    onIssued: (row) => {
      return traced('engine.deliver', { 'qp.issuance_id': row.id, 'qp.hook': 'issued' }, () => events.emit({ type: 'issued', row }));
    },
    onSettled: (row) => {
      return traced('engine.deliver', { 'qp.issuance_id': row.id, 'qp.hook': 'settled' }, () => events.emit({ type: 'settled', row }));
    },
    onMatchChanged: (matchId, values) => events.emit({ type: 'matchChanged', matchId, values }),
  };
}

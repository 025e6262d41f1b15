/**
 * A promise rejected with nobody to handle it is a bug, but Node's default
 * (ending the process) turns one such bug, hit during a database outage or
 * by one odd request, into every player's game stopping at once. A serving
 * process logs it as an error with the reason, counts it
 * (qp_unhandled_rejections_total: alert on any increase) and goes on.
 * Exceptions thrown outside any promise still end the process (its state
 * may be broken); the supervisor restarts it.
 */
import type { Logger } from '../logger.js';
import { metrics } from './metrics.js';

export function guardUnhandledRejections(logger: Logger): void {
  process.on('unhandledRejection', (reason) => {
    metrics.unhandledRejections.inc();
    logger.error({ err: reason }, 'unhandled promise rejection: the process goes on; this is a bug, report it with this log line');
  });
}

/** The engine worker as configured for this process (npm start, npm run worker). */
import type { Services } from '../services.js';
import { DEFAULT_WORKER_OPTIONS, EngineWorker, type WorkerTask } from './worker.js';

export function createEngineWorker(services: Services, tasks: WorkerTask[] = []): EngineWorker {
  const { engine, logger, config } = services;
  return new EngineWorker({
    store: engine.store,
    hooks: engine.hooks,
    logger,
    brandSnapshot: engine.brandSnapshot,
    tasks,
    options: {
      ...DEFAULT_WORKER_OPTIONS,
      pollMs: config.engine.pollMs,
      leaseMs: config.engine.leaseMs,
      heartbeatMs: config.engine.heartbeatMs,
      staleAfterMs: config.engine.staleAfterMs,
      maxListeners: config.engine.maxListeners,
      seed: config.engine.seed,
      feedUrlTemplate: config.engine.feedUrlTemplate,
    },
  });
}

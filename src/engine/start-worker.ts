/** The engine worker as configured for this process (npm start, npm run worker). */
import type { Services } from '../services.js';
import { createMatchQuestions } from './match-questions.js';
import { DEFAULT_WORKER_OPTIONS, EngineWorker, type WorkerTask } from './worker.js';

/** The worker with its periodic tasks: Match questions (issue, lock, resolve), ended sign-in counters, sessions and their keys, leaderboards of periods past their retention, and any extra ones. */
export function createEngineWorker(services: Services, extraTasks: WorkerTask[] = []): EngineWorker {
  const { engine, logger, config } = services;
  const matchQuestions = createMatchQuestions({
    db: services.database.db,
    store: engine.store,
    hooks: engine.hooks,
    logger,
    brandSnapshot: engine.brandSnapshot,
  });
  const signInCleanup: WorkerTask = {
    name: 'sign-in-cleanup',
    everyMs: 10 * 60_000,
    run: async () => {
      await services.loginThrottle.cleanup();
      await services.adminSessions.cleanup();
    },
  };
  const leaderboardRetention: WorkerTask = {
    name: 'leaderboard-retention',
    everyMs: 60 * 60_000,
    run: async () => {
      await services.leaderboards.pruneExpired();
    },
  };
  const tasks = [matchQuestions.task(config.engine.pollMs), signInCleanup, leaderboardRetention, ...extraTasks];
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
      replayMinAnswerMs: config.engine.replayMinAnswerSeconds * 1000,
      feedAllowPrivateAddresses: config.engine.feedAllowPrivateAddresses,
      feedUrlTemplate: config.engine.feedUrlTemplate,
    },
  });
}

/** The engine worker as configured for this process (npm start, npm run worker). */
import type { Services } from '../services.js';
import { createMatchQuestions } from './match-questions.js';
import { DEFAULT_WORKER_OPTIONS, EngineWorker, type WorkerTask } from './worker.js';

/**
 * Housekeeping (ended sign-in counters and sessions, boards past their retention) runs first a minute after the start,
 * not with it: nothing waits for it, and a start's first moments belong to serving and to the engine's first round
 * (its first leaderboard retention alone cost 10-15 ms of CPU, most of it the first time-zone formatter).
 */
export const HOUSEKEEPING_FIRST_RUN_MS = 60_000;

/**
 * The worker with its periodic tasks: Match questions (issue, lock, resolve), the leaderboards' applier, ended
 * sign-in counters, sessions and their keys, leaderboards of periods past their retention, and any extra ones.
 */
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
    firstAfterMs: HOUSEKEEPING_FIRST_RUN_MS,
    run: async () => {
      await services.loginThrottle.cleanup();
      await services.adminSessions.cleanup();
      await services.account.cleanup();
    },
  };
  const leaderboardRetention: WorkerTask = {
    name: 'leaderboard-retention',
    everyMs: 60 * 60_000,
    firstAfterMs: HOUSEKEEPING_FIRST_RUN_MS,
    run: async () => {
      await services.leaderboards.pruneExpired();
    },
  };
  const tasks = [
    matchQuestions.task(config.engine.pollMs),
    ...engine.leaderboardWriters.map((w) => w.task),
    signInCleanup,
    leaderboardRetention,
    ...extraTasks,
  ];
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

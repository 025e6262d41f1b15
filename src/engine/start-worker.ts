/** The engine worker as configured for this process (npm start, npm run worker). */
import type { Services } from '../services.js';
import { createMatchQuestions } from './match-questions.js';
import type { EngineSubscriber } from './subscribers.js';
import { DEFAULT_WORKER_OPTIONS, EngineWorker, type WorkerTask } from './worker.js';

/**
 * The leaderboards' applier as the worker runs it: every
 * LEADERBOARD_APPLY_POLL_MS, and at once after each settlement of this
 * process (its subscriber), once more when one comes while it runs. Other
 * processes' settlements wait for the poll (of any worker: they share the
 * queue, and the database's lock lets one write at a time).
 */
function leaderboardApplier(services: Services): { task: WorkerTask; subscriber: EngineSubscriber } {
  const { leaderboards, logger, config } = services;
  /** The worker, once it runs the task (a kick before that, or after its stop, does nothing). */
  let worker: { readonly stopped: boolean } | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  const run = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await leaderboards.applyQueued({ stopped: () => worker?.stopped ?? true });
        } while (again && !worker?.stopped);
      } finally {
        running = null;
      }
    })();
    return running;
  };
  return {
    task: {
      name: 'leaderboard-apply',
      everyMs: config.engine.leaderboardApplyPollMs,
      run: (w) => {
        worker = w ?? { stopped: false };
        return run();
      },
    },
    subscriber: {
      name: 'leaderboard-apply',
      onSettled(row) {
        if (!worker || worker.stopped || row.status === 'locked') return;
        // Not awaited: the engine goes on while the boards take the settlement.
        run().catch((err: unknown) => logger.error({ err }, 'leaderboards: applying queued settlements failed'));
      },
    },
  };
}

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
  const applier = leaderboardApplier(services);
  engine.subscribers.push(applier.subscriber);
  const tasks = [matchQuestions.task(config.engine.pollMs), applier.task, signInCleanup, leaderboardRetention, ...extraTasks];
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

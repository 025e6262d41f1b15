import type { Logger } from '../logger.js';
import type { WorkerTask } from './worker.js';

export interface LeaderboardWriter {
  name: string;
  /** The worker's periodic task. */
  task: WorkerTask;
  /** Something for the boards committed in this process: write now (nothing before the worker runs the task, or after its stop). */
  kick(): void;
}

/**
 * One writer of the boards as the worker runs it: every `everyMs`, and at
 * once when kicked (reactions to `settled`, `boardsApplied` and users'
 * changes in src/events/reactions.ts), once more when kicked while it runs.
 * The writers: the SQL applier of the settlements' queue (leaderboards
 * service `applyQueued`; the database's lock lets one process write at a
 * time) and, with REDIS_URL, the writer of the boards in Redis, which
 * applies each settlement from its answers without waiting for the SQL
 * applier (`copyToRedis`; a lease in Redis lets one process write at a
 * time).
 */
export function createLeaderboardWriter({
  name,
  write,
  logger,
  everyMs,
}: {
  name: string;
  write: (opts: { stopped: () => boolean }) => Promise<unknown>;
  logger: Logger;
  everyMs: number;
}): LeaderboardWriter {
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
          await write({ stopped: () => worker?.stopped ?? true });
        } while (again && !worker?.stopped);
      } finally {
        running = null;
      }
    })();
    return running;
  };
  return {
    name,
    task: {
      name,
      everyMs,
      run: (w) => {
        worker = w ?? { stopped: false };
        return run();
      },
    },
    kick() {
      if (!worker || worker.stopped) return;
      // Not awaited: the engine goes on while the boards take the change.
      run().catch((err: unknown) => logger.error({ err, writer: name }, 'leaderboards: a writer of the boards failed'));
    },
  };
}

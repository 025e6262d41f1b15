/**
 * The engine worker of a process: dispatches listeners for live matches,
 * claims queued listeners (or ones whose owner died: their lease ran out),
 * and runs them. Any number of processes can run a worker against the same
 * PostgreSQL database; claims use FOR UPDATE SKIP LOCKED, so each listener
 * runs in exactly one process at a time.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Logger } from '../logger.js';
import { metrics } from '../observability/metrics.js';
import type { BrandRow } from '../modules/brands/brands.table.js';
import type { BrandSnapshot } from '../modules/issuances/issuances.table.js';
import { ListenerRunner, type EngineHooks, type RunnerOptions } from './listener-runner.js';
import type { EngineStore } from './store.js';

export interface WorkerOptions extends Omit<RunnerOptions, 'workerId'> {
  workerId?: string;
  pollMs: number;
  maxListeners: number;
  /** Enqueue listeners for matches with a feed, from this many minutes before kick-off. */
  dispatchHorizonMinutes: number;
  /** Feed URL of a match without its own: `{sr_id}` is replaced (FEED_URL_TEMPLATE). */
  feedUrlTemplate?: string | undefined;
  autoDispatch: boolean;
}

export const DEFAULT_WORKER_OPTIONS: WorkerOptions = {
  pollMs: 2000,
  maxListeners: 20,
  dispatchHorizonMinutes: 10,
  autoDispatch: true,
  leaseMs: 15_000,
  heartbeatMs: 3000,
  staleAfterMs: 10_000,
  seed: '',
  catalogRefreshMs: 15_000,
  flushEvery: 50,
  replayMinAnswerMs: 0,
};

/** Extra periodic work of the worker (the Match question scheduler, for one). `run` may check `worker.stopped` between steps of a long run. */
export type WorkerTask = {
  name: string;
  everyMs: number;
  /** The first run, this long after the worker starts (default 0: at once). Housekeeping waits, so a start serves first. */
  firstAfterMs?: number;
  run: (worker?: { readonly stopped: boolean }) => Promise<void>;
};

export class EngineWorker {
  readonly workerId: string;
  /** Running listeners by claim (a listener this process claimed again while its earlier run is still halting has two). */
  private readonly runners = new Map<string, { runner: ListenerRunner; done: Promise<unknown> }>();
  /** Claims made so far: the n of the n-th claim's token, `<worker id>#<n>`. */
  private claims = 0;
  private timers: NodeJS.Timeout[] = [];
  private ticking = false;
  /** Set by stop(): tasks stop between their steps. */
  stopped = false;
  /** When the worker started, and last completed a round (readiness: the engine ticks). */
  startedAt: number | null = null;
  lastTickAt: number | null = null;

  constructor(
    private readonly deps: {
      store: EngineStore;
      hooks: EngineHooks;
      logger: Logger;
      brandSnapshot: (brand: BrandRow) => BrandSnapshot;
      options: WorkerOptions;
      tasks?: WorkerTask[];
    },
  ) {
    this.workerId = deps.options.workerId ?? `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  }

  start(): void {
    const { options } = this.deps;
    this.startedAt = Date.now();
    this.timers.push(setInterval(() => void this.tick(), options.pollMs));
    for (const task of this.deps.tasks ?? []) {
      // A run that outlasts its interval is not started again on top of itself.
      let running = false;
      const run = () => {
        if (running || this.stopped) return;
        running = true;
        return task
          .run(this)
          .catch((err) => {
            this.deps.logger.error({ err, task: task.name }, 'worker task failed');
          })
          .finally(() => (running = false));
      };
      const first = task.firstAfterMs ?? 0;
      if (first > 0)
        this.timers.push(
          setTimeout(() => {
            void run();
            if (!this.stopped) this.timers.push(setInterval(run, task.everyMs));
          }, first),
        );
      else {
        this.timers.push(setInterval(run, task.everyMs));
        void run();
      }
    }
    void this.tick();
    this.deps.logger.info({ worker: this.workerId }, 'engine worker started');
  }

  /**
   * One round: stop orphaned stop requests, void questions nothing can resolve any more,
   * dispatch live matches, claim and run what is claimable.
   */
  async tick(): Promise<void> {
    if (this.ticking || this.stopped) return;
    this.ticking = true;
    const { store, options, logger, hooks } = this.deps;
    try {
      for (const matchId of await store.reapStopped()) {
        for (const row of await store.revokeOpenIssuances(matchId)) await hooks.onSettled?.(row);
      }
      // The safety net: whatever path stopped a match without settling its open questions, players see them voided.
      const orphaned = await store.voidOrphaned();
      if (orphaned.length)
        logger.info({ issuances: orphaned.map((r) => r.id) }, `${orphaned.length} open question(s) voided: their match is over or has no running listener`);
      for (const row of orphaned) await hooks.onSettled?.(row);
      if (options.autoDispatch) {
        const template = options.feedUrlTemplate;
        for (const match of await store.matchesToDispatch({ horizonMinutes: options.dispatchHorizonMinutes, anyFeed: Boolean(template) })) {
          const feedUrl = match.feedUrl ?? template!.replaceAll('{sr_id}', encodeURIComponent(match.srId));
          const { created } = await store.enqueue({ matchId: match.id, source: 'feed', feedUrl });
          if (created) logger.info({ match: match.id }, 'listener dispatched');
        }
      }
      while (!this.stopped && this.runners.size < options.maxListeners) {
        // The fencing token: a new one at every claim, never the process alone. A process that stalled past its lease,
        // lost the listener and claimed it back must not let its earlier run (still going until its next renewal
        // fails) pass the lease fence with it and write from its stale state.
        const claim = `${this.workerId}#${this.claims + 1}`;
        const listener = await store.claim({ workerId: claim, leaseMs: options.leaseMs });
        if (!listener) break;
        this.claims++;
        const runner = new ListenerRunner(listener, {
          store,
          hooks: this.deps.hooks,
          logger,
          brandSnapshot: this.deps.brandSnapshot,
          options: { ...options, workerId: claim },
        });
        const done = runner
          .run()
          .catch((err) => logger.error({ err, listener: listener.id }, 'listener run crashed'))
          .finally(() => this.runners.delete(claim));
        this.runners.set(claim, { runner, done });
      }
      this.lastTickAt = Date.now();
      metrics.engineLastTick.set(this.lastTickAt / 1000);
    } catch (err) {
      logger.error({ err }, 'engine worker tick failed');
    } finally {
      this.ticking = false;
      metrics.listenersRunning.set(this.runners.size);
    }
  }

  /** Graceful stop: running listeners go back to the queue so another process continues them at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    for (const { runner } of this.runners.values()) runner.halt('released');
    await Promise.all([...this.runners.values()].map((r) => r.done));
  }
}

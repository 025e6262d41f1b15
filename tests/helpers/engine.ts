/** Running the live engine in tests: an in-process worker with short intervals, a worker process, and polling helpers. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { EngineHooks } from '../../src/engine/listener-runner.js';
import type { EngineStore } from '../../src/engine/store.js';
import { DEFAULT_WORKER_OPTIONS, EngineWorker, type WorkerOptions } from '../../src/engine/worker.js';
import type { TestApp } from './test-app.js';
import { TEST_LANGUAGE_TIME_SCALE } from './language-time.js';
import { waitBound } from './bounds.js';

/**
 * Short intervals for tests. The staleness limit is long: tests replay whole matches as fast as the machine goes, so
 * the worker reads a backlog by design, and on a loaded machine working through it can take longer than a few seconds
 * without a heartbeat read (the feed would count as stale and questions be denied). Staleness has its own tests, with
 * their own limits.
 */
export const FAST_WORKER: Partial<WorkerOptions> = {
  pollMs: 100,
  heartbeatMs: 200,
  leaseMs: 3000,
  staleAfterMs: 60_000,
  catalogRefreshMs: 500,
  flushEvery: 25,
};

/**
 * Starts a worker of this app (fast polling); `store` replaces the app's engine store (a test wraps a write to slow or count it),
 * `hooks` the app's engine hooks (a test looks at the match after each commit).
 */
export function startWorker(
  app: TestApp,
  overrides: Partial<WorkerOptions> = {},
  store: EngineStore = app.services.engine.store,
  hooks: EngineHooks = app.services.engine.hooks,
): EngineWorker {
  const { engine, logger } = app.services;
  const worker = new EngineWorker({
    store,
    hooks,
    logger,
    brandSnapshot: engine.brandSnapshot,
    options: { ...DEFAULT_WORKER_OPTIONS, ...FAST_WORKER, ...overrides },
  });
  worker.start();
  return worker;
}

export interface WorkerProcess {
  child: ChildProcess;
  /** What the process has printed so far (stdout and stderr). */
  output(): string;
}

/**
 * A worker in a process of its own (`npm run worker`, started through node
 * itself: the tsx CLI would fork a second process that a kill leaves
 * running) on the app's PostgreSQL database, with short intervals and the
 * lease, heartbeat, staleness and engine seed given.
 */
export function spawnWorkerProcess(
  app: TestApp,
  { leaseMs, staleAfterMs, heartbeatMs = 200, seed = '' }: { leaseMs: number; staleAfterMs: number; heartbeatMs?: number; seed?: string },
): WorkerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/worker.ts'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: {
      ...process.env,
      DATABASE_URL: app.db.url!,
      APP_ENV: 'test',
      PASSWORD_HASH_COST: 'minimal',
      LANGUAGE_TIME_SCALE: String(TEST_LANGUAGE_TIME_SCALE),
      LOG_LEVEL: 'warn',
      ENGINE_POLL_MS: '100',
      ENGINE_HEARTBEAT_MS: String(heartbeatMs),
      ENGINE_LEASE_MS: String(leaseMs),
      ENGINE_STALE_AFTER_MS: String(staleAfterMs),
      ENGINE_SEED: seed,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  return { child, output: () => output };
}

/** Polls until `probe` returns a truthy value; fails with `what` after the timeout (a function: built only then, from the state at that moment). */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | null | false>,
  { what, timeoutMs = 30_000, intervalMs = 50 }: { what: string | (() => string); timeoutMs?: number; intervalMs?: number },
): Promise<T> {
  // With a floor under the caller's bound (tests/helpers/bounds.ts).
  const bound = waitBound(timeoutMs);
  const deadline = Date.now() + bound;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${bound} ms waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Running the live engine in tests: an in-process worker with short intervals, and polling helpers. */
import { DEFAULT_WORKER_OPTIONS, EngineWorker, type WorkerOptions } from '../../src/engine/worker.js';
import type { TestApp } from './test-app.js';

export const FAST_WORKER: Partial<WorkerOptions> = { pollMs: 100, heartbeatMs: 200, leaseMs: 3000, staleAfterMs: 3000, catalogRefreshMs: 500, flushEvery: 25 };

export function startWorker(app: TestApp, overrides: Partial<WorkerOptions> = {}): EngineWorker {
  const { engine, logger } = app.services;
  const worker = new EngineWorker({
    store: engine.store,
    hooks: engine.hooks,
    logger,
    brandSnapshot: engine.brandSnapshot,
    options: { ...DEFAULT_WORKER_OPTIONS, ...FAST_WORKER, ...overrides },
  });
  worker.start();
  return worker;
}

/** Polls until `probe` returns a truthy value; fails with `what` after the timeout. */
export async function waitFor<T>(probe: () => Promise<T | undefined | null | false>, { what, timeoutMs = 30_000, intervalMs = 50 }: { what: string; timeoutMs?: number; intervalMs?: number }): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

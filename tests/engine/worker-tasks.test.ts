/**
 * The engine worker's periodic tasks: each runs at once and then every `everyMs`, except one with `firstAfterMs`
 * (housekeeping), which first runs that long after the start, so a start's first moments serve requests and the
 * engine's first round.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_WORKER_OPTIONS, EngineWorker, type WorkerTask } from '../../src/engine/worker.js';
import { createLogger } from '../../src/logger.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A store with nothing to do: every step of a round finds nothing, and nothing is there to claim. */
const idleStore = { reapStopped: async () => [], voidOrphaned: async () => [], matchesToDispatch: async () => [], claim: async () => null };

/** A worker with these tasks and nothing else to do (its rounds hourly). */
const workerWith = (tasks: WorkerTask[]) =>
  new EngineWorker({
    store: idleStore as never,
    hooks: {} as never,
    logger: createLogger('silent'),
    brandSnapshot: (() => ({})) as never,
    options: { ...DEFAULT_WORKER_OPTIONS, pollMs: 3_600_000 },
    tasks,
  });

describe('worker tasks', () => {
  it('run at once and then every everyMs; with firstAfterMs, first after that delay; none after stop', async () => {
    vi.useFakeTimers();
    const runs: string[] = [];
    const task = (name: string, extra: Partial<WorkerTask> = {}): WorkerTask => ({
      name,
      everyMs: 1_000,
      run: async () => {
        runs.push(`${name}@${Date.now() - started}`);
      },
      ...extra,
    });
    const worker = workerWith([task('now'), task('later', { firstAfterMs: 2_500 })]);
    const started = Date.now();
    worker.start();
    await vi.advanceTimersByTimeAsync(4_600);
    expect(runs.filter((r) => r.startsWith('now'))).toEqual(['now@0', 'now@1000', 'now@2000', 'now@3000', 'now@4000']);
    expect(runs.filter((r) => r.startsWith('later'))).toEqual(['later@2500', 'later@3500', 'later@4500']);
    await worker.stop();
    const count = runs.length;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(runs.length).toBe(count);
  });

  it('a worker stopped before a delayed first run never runs it', async () => {
    vi.useFakeTimers();
    let ran = 0;
    const worker = workerWith([{ name: 'later', everyMs: 1_000, firstAfterMs: 2_000, run: async () => void ran++ }]);
    worker.start();
    await vi.advanceTimersByTimeAsync(1_000);
    await worker.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(ran).toBe(0);
  });
});

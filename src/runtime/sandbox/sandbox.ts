/**
 * The sandbox of definitions' expressions and templates: worker threads
 * that evaluate what the language's in-process tier
 * (src/domain/language/expressions.ts, templates.ts) gave up on, with the full budget, one job at a time each (and compile the
 * expressions too costly to compile in the caller's thread). Its deadline is
 * enforced from here: a job that overruns it (a built-in step that took
 * long, whatever it was) has the worker terminated and fails with the
 * deadline; one that runs out of the worker's memory fails too. So an
 * evaluation holds nothing but the worker, for at most its deadline (and a
 * short grace), and the rest of the process never waits for it.
 *
 * Jobs wait in a short queue; a full queue refuses at once, so a flood of
 * costly evaluations costs nothing but the refusals.
 *
 * Two lanes, each with a worker and a queue of its own: the live engine's
 * (the default) and the admin requests' (previews and the compile checks of
 * definitions being saved or imported, run in `inAdminLane`). However many
 * costly previews arrive at once, they wait and are refused in their own
 * lane: the engine's worker and queue never hold one.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { SandboxError, useSandbox, type SandboxJob } from '../../domain/language/isolation.js';
import { compiled, paths } from '../../paths.js';
import { languageTimeScale, scaledMs } from '../../domain/language/time-scale.js';

export { SandboxError, type SandboxJob };

/** Time past the deadline the worker gets to answer by itself before it is terminated. */
const GRACE_MS = 250;
/** Jobs waiting beside the running one. */
const QUEUE_MAX = 32;
/** Heap of the worker: a job that needs more fails (and the worker is replaced). */
const WORKER_HEAP_MB = 128;
/** An idle worker is stopped after this (its memory given back); the next job starts another. */
const IDLE_MS = 60_000;

/** Where tsx's ESM API is (its package's `./esm/api` export for `import`). */
function tsxEsmApi(): string {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  return path.join(path.dirname(manifest), exports['./esm/api']!.import.default);
}

/**
 * The worker's code: the sandbox-worker module, loaded through tsx's loader
 * registered in the worker (a worker thread does not inherit the loader the
 * process runs with) unless this file was compiled to JavaScript.
 */
function workerSource(): string {
  // Compiled, this code sits in a shared chunk of dist/; the worker is an entry point of the build.
  if (!import.meta.url.endsWith('.ts'))
    return `import(${JSON.stringify(compiled ? pathToFileURL(paths.sandboxWorker).href : new URL('./sandbox-worker.js', import.meta.url).href)})`;
  const tsx = pathToFileURL(tsxEsmApi()).href;
  const entry = new URL('./sandbox-worker.ts', import.meta.url).href;
  return `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
}

interface Pending {
  job: SandboxJob;
  timeoutMs: number;
  resolve(value: unknown): void;
  reject(err: Error): void;
}

type Reply = { ready: true } | { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };

class Lane {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private running: (Pending & { id: number; timer: NodeJS.Timeout | null }) | null = null;
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;

  /** Jobs handed to this lane, and how many of them its full queue refused. */
  readonly counts = { jobs: 0, refused: 0 };

  constructor(readonly name: LaneName) {}

  /** Queues a job; a full queue refuses at once. */
  run(job: SandboxJob, timeoutMs: number): Promise<unknown> {
    this.counts.jobs += 1;
    if (this.queue.length >= QUEUE_MAX) {
      this.counts.refused += 1;
      return Promise.reject(new SandboxError('too many costly evaluations at once; try again shortly'));
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ job, timeoutMs, resolve, reject });
      this.pump();
    });
  }

  private startWorker(): void {
    const w = new Worker(workerSource(), { eval: true, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB }, stdout: false, stderr: false });
    this.worker = w;
    w.unref();
    this.ready = new Promise<void>((resolve, reject) => {
      const onReady = (reply: Reply) => {
        if ('ready' in reply) {
          w.off('message', onReady);
          resolve();
        }
      };
      w.on('message', onReady);
      w.once('error', reject);
      w.once('exit', (code) => reject(new Error(`the sandbox worker exited (${code}) while starting`)));
    });
    this.ready.catch(() => {});
    w.on('message', (reply: Reply) => {
      if ('ready' in reply || !this.running || reply.id !== this.running.id) return;
      const done = this.running;
      this.settle();
      if (reply.ok) done.resolve(reply.value);
      else done.reject(new SandboxError(reply.message));
    });
    w.on('error', (err: Error & { code?: string }) => {
      if (this.worker !== w) return;
      const message =
        err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `used more than the sandbox's ${WORKER_HEAP_MB} MB of memory` : `the sandbox failed: ${err.message}`;
      this.discard(w, message);
    });
    w.on('exit', () => this.discard(w, 'the sandbox stopped'));
  }

  /** Drops a worker that failed, was terminated or exited, failing the job it ran. */
  private discard(w: Worker, message: string): void {
    if (this.worker !== w) return;
    this.worker = null;
    this.ready = null;
    if (this.running) {
      const done = this.running;
      this.settle();
      done.reject(new SandboxError(message));
    }
    void w.terminate();
    this.pump();
  }

  private settle(): void {
    if (this.running?.timer) clearTimeout(this.running.timer);
    this.running = null;
    this.pump();
  }

  private pump(): void {
    if (this.running) return;
    const next = this.queue.shift();
    if (!next) {
      if (this.worker && !this.idleTimer) {
        const idle = this.worker;
        this.idleTimer = setTimeout(() => {
          this.idleTimer = null;
          if (this.worker === idle && !this.running && !this.queue.length) {
            this.worker = null;
            this.ready = null;
            void idle.terminate();
          }
        }, IDLE_MS);
        this.idleTimer.unref();
      }
      return;
    }
    if (this.idleTimer) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
    if (!this.worker) this.startWorker();
    const w = this.worker!;
    const id = this.nextId++;
    // The deadline runs from when the job is handed over, not while the worker starts.
    const job: Pending & { id: number; timer: NodeJS.Timeout | null } = { ...next, id, timer: null };
    this.running = job;
    this.ready!.then(
      () => {
        if (this.running !== job || this.worker !== w) return;
        job.timer = setTimeout(
          () => {
            if (this.running === job) this.discard(w, `${JOB_NOUN[job.job.kind]} ran longer than ${job.timeoutMs} ms`);
          },
          scaledMs(job.timeoutMs + GRACE_MS),
        );
        w.postMessage({ id, job: { ...job.job, timeScale: languageTimeScale() } });
      },
      (err: Error) => {
        if (this.running === job) this.discard(w, `the sandbox could not start: ${err.message}`);
      },
    );
  }
}

const JOB_NOUN: Record<SandboxJob['kind'], string> = { expression: 'expression', template: 'template', compile: 'compiling the expression' };

/** The engine's lane (the default) and the admin requests' lane. */
export type LaneName = 'engine' | 'admin';
const lanes: Record<LaneName, Lane> = { engine: new Lane('engine'), admin: new Lane('admin') };
const currentLane = new AsyncLocalStorage<LaneName>();

/** Runs `fn` with every sandbox job it starts in the admin requests' lane (previews, definition checks). */
export function inAdminLane<T>(fn: () => Promise<T>): Promise<T> {
  return currentLane.run('admin', fn);
}

/**
 * Runs a job in the sandbox, in the lane of the caller (the engine's unless
 * within `inAdminLane`); resolves with its value, or rejects with a
 * SandboxError (the evaluation failed, overran `timeoutMs`, or the lane's
 * queue is full).
 */
export function isolate(job: SandboxJob, timeoutMs: number): Promise<unknown> {
  return lanes[currentLane.getStore() ?? 'engine'].run(job, timeoutMs);
}

/** Makes these worker threads the sandbox of the domain's language in this process (the port: src/domain/language/isolation.ts). */
export function installSandbox(): void {
  useSandbox(isolate);
}

/** Jobs each lane was handed and refused so far (tests, diagnostics). */
export function laneCounts(): Record<LaneName, { jobs: number; refused: number }> {
  return { engine: { ...lanes.engine.counts }, admin: { ...lanes.admin.counts } };
}

/**
 * The sandbox of definitions' expressions and templates: one worker thread
 * that evaluates what the in-process tier (expressions.ts, templates.ts)
 * gave up on, with the full budget, one job at a time. Its deadline is
 * enforced from here: a job that overruns it (a built-in step that took
 * long, whatever it was) has the worker terminated and fails with the
 * deadline; one that runs out of the worker's memory fails too. So an
 * evaluation holds nothing but the worker, for at most its deadline (and a
 * short grace), and the rest of the process never waits for it.
 *
 * Jobs wait in a short queue; a full queue refuses at once, so a flood of
 * costly evaluations costs nothing but the refusals.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { compiled, paths } from '../../paths.js';

export interface SandboxJob {
  kind: 'expression' | 'template';
  source: string;
  input: unknown;
  budget?: { maxSteps: number; maxDepth: number; timeoutMs: number };
}

/** An evaluation the sandbox refused or stopped; the message says why (the in-sandbox error, or the deadline). */
export class SandboxError extends Error {}

/** Time past the deadline the worker gets to answer by itself before it is terminated. */
const GRACE_MS = 250;
/** Jobs waiting beside the running one. */
const QUEUE_MAX = 32;
/** Heap of the worker: a job that needs more fails (and the worker is replaced). */
const WORKER_HEAP_MB = 128;
/** An idle worker is stopped after this (its memory given back); the next job starts another. */
const IDLE_MS = 60_000;

interface Pending {
  job: SandboxJob;
  timeoutMs: number;
  resolve(value: unknown): void;
  reject(err: Error): void;
}

type Reply = { ready: true } | { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };

let worker: Worker | null = null;
let ready: Promise<void> | null = null;
let running: (Pending & { id: number; timer: NodeJS.Timeout | null }) | null = null;
const queue: Pending[] = [];
let nextId = 1;
let idleTimer: NodeJS.Timeout | null = null;

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

function startWorker(): void {
  const w = new Worker(workerSource(), { eval: true, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB }, stdout: false, stderr: false });
  worker = w;
  w.unref();
  ready = new Promise<void>((resolve, reject) => {
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
  ready.catch(() => {});
  w.on('message', (reply: Reply) => {
    if ('ready' in reply || !running || reply.id !== running.id) return;
    const done = running;
    settle();
    if (reply.ok) done.resolve(reply.value);
    else done.reject(new SandboxError(reply.message));
  });
  w.on('error', (err: Error & { code?: string }) => {
    if (worker !== w) return;
    const message =
      err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `used more than the sandbox's ${WORKER_HEAP_MB} MB of memory` : `the sandbox failed: ${err.message}`;
    discard(w, message);
  });
  w.on('exit', () => discard(w, 'the sandbox stopped'));
}

/** Drops a worker that failed, was terminated or exited, failing the job it ran. */
function discard(w: Worker, message: string): void {
  if (worker !== w) return;
  worker = null;
  ready = null;
  if (running) {
    const done = running;
    settle();
    done.reject(new SandboxError(message));
  }
  void w.terminate();
  pump();
}

function settle(): void {
  if (running?.timer) clearTimeout(running.timer);
  running = null;
  pump();
}

function pump(): void {
  if (running) return;
  const next = queue.shift();
  if (!next) {
    if (worker && !idleTimer) {
      const idle = worker;
      idleTimer = setTimeout(() => {
        idleTimer = null;
        if (worker === idle && !running && !queue.length) {
          worker = null;
          ready = null;
          void idle.terminate();
        }
      }, IDLE_MS);
      idleTimer.unref();
    }
    return;
  }
  if (idleTimer) {
    clearTimeout(idleTimer);
    idleTimer = null;
  }
  if (!worker) startWorker();
  const w = worker!;
  const id = nextId++;
  // The deadline runs from when the job is handed over, not while the worker starts.
  running = { ...next, id, timer: null };
  const job = running;
  ready!.then(
    () => {
      if (running !== job || worker !== w) return;
      job.timer = setTimeout(() => {
        if (running === job) discard(w, `${job.job.kind === 'expression' ? 'expression' : 'template'} ran longer than ${job.timeoutMs} ms`);
      }, job.timeoutMs + GRACE_MS);
      w.postMessage({ id, job: job.job });
    },
    (err: Error) => {
      if (running === job) discard(w, `the sandbox could not start: ${err.message}`);
    },
  );
}

/**
 * Runs a job in the sandbox; resolves with its value, or rejects with a
 * SandboxError (the evaluation failed, overran `timeoutMs`, or the queue is
 * full).
 */
export function isolate(job: SandboxJob, timeoutMs: number): Promise<unknown> {
  if (queue.length >= QUEUE_MAX) return Promise.reject(new SandboxError('too many costly evaluations at once; try again shortly'));
  return new Promise((resolve, reject) => {
    queue.push({ job, timeoutMs, resolve, reject });
    pump();
  });
}

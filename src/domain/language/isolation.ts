/**
 * The sandbox as the language sees it: a port. What the in-process tier
 * (expressions.ts, templates.ts) gives up on is handed to `isolate`, which
 * runs it with the full budget somewhere it cannot hold this thread; the
 * worker threads that do so live outside the domain (src/runtime/sandbox/),
 * and the process installs them at start (createServices, the tests' setup).
 */

export interface SandboxJob {
  /** `compile`: only compile the expression `source` (its syntax check, for a source too costly to compile in the caller's thread). */
  kind: 'expression' | 'template' | 'compile';
  source: string;
  input: unknown;
  budget?: { maxSteps: number; maxDepth: number; timeoutMs: number };
  /** The caller's time scale (time-scale.ts), applied in the worker too; set by the lane. */
  timeScale?: number;
}

/** An evaluation the sandbox refused or stopped; the message says why (the in-sandbox error, or the deadline). */
export class SandboxError extends Error {}

/** Runs a job in the sandbox; resolves with its value, or rejects with a SandboxError (failed, overran `timeoutMs`, refused). */
export type Isolate = (job: SandboxJob, timeoutMs: number) => Promise<unknown>;

let installed: Isolate | null = null;

/** Makes `run` the sandbox of every evaluation in this process (src/runtime/sandbox/sandbox.ts: `installSandbox()`). */
export function useSandbox(run: Isolate): void {
  installed = run;
}

/** Hands a job to the installed sandbox; without one, the job fails as the sandbox's refusal would. */
export function isolate(job: SandboxJob, timeoutMs: number): Promise<unknown> {
  if (!installed) return Promise.reject(new SandboxError('no sandbox is installed in this process (src/runtime/sandbox/sandbox.ts: installSandbox)'));
  return installed(job, timeoutMs);
}

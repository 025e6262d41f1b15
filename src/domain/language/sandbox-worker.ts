/**
 * The sandbox's worker thread (sandbox.ts): evaluates expressions and
 * templates with the full budget. Loads only the evaluators, never the
 * database or the rest of the service.
 */
import { parentPort } from 'node:worker_threads';
import { evaluateIn, IN_SANDBOX } from './expressions.js';
import type { SandboxJob } from './sandbox.js';
import { renderIn, TEMPLATES_IN_SANDBOX } from './templates.js';

const port = parentPort!;

port.on('message', async ({ id, job }: { id: number; job: SandboxJob }) => {
  try {
    const value =
      job.kind === 'expression'
        ? await evaluateIn(job.budget ? { ...IN_SANDBOX, ...job.budget } : IN_SANDBOX, job.source, job.input)
        : await renderIn(TEMPLATES_IN_SANDBOX, job.source, job.input as Record<string, unknown>);
    port.postMessage({ id, ok: true, value });
  } catch (err) {
    port.postMessage({ id, ok: false, message: (err as Error).message ?? String(err) });
  }
});
port.postMessage({ ready: true });

/**
 * The sandbox's worker thread (sandbox.ts): evaluates expressions and
 * templates with the full budget, and compiles expressions too costly to
 * compile in the caller's thread. Loads only the evaluators, never the
 * database or the rest of the service.
 */
import { parentPort } from 'node:worker_threads';
import { compileIn, evaluateIn, IN_SANDBOX } from '../../domain/language/expressions.js';
import type { SandboxJob } from '../../domain/language/isolation.js';
import { renderIn, TEMPLATES_IN_SANDBOX } from '../../domain/language/templates.js';
import { setLanguageTimeScale } from '../../domain/language/time-scale.js';

const port = parentPort!;

port.on('message', async ({ id, job }: { id: number; job: SandboxJob }) => {
  try {
    setLanguageTimeScale(job.timeScale ?? 1);
    const value =
      job.kind === 'expression'
        ? await evaluateIn(job.budget ? { ...IN_SANDBOX, ...job.budget } : IN_SANDBOX, job.source, job.input)
        : job.kind === 'compile'
          ? compileIn(IN_SANDBOX, job.source)
          : await renderIn(TEMPLATES_IN_SANDBOX, job.source, job.input as Record<string, unknown>);
    port.postMessage({ id, ok: true, value });
  } catch (err) {
    port.postMessage({ id, ok: false, message: (err as Error).message ?? String(err) });
  }
});
port.postMessage({ ready: true });

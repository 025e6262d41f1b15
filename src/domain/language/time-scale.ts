/**
 * The scale of the language's wall-clock limits that end an evaluation (the sandbox's 250 ms and its grace): 1
 * everywhere but in test runs, where LANGUAGE_TIME_SCALE (refused unless APP_ENV=test, src/config.ts) stretches them so
 * that a test of what an expression or a template gives does not depend on how busy the machine is. The caller's
 * thread's 10 ms are not scaled: going past them hands the evaluation to the sandbox, the same answer, and they are
 * what keeps the event loop free. The limits by count (steps, depth, sizes) are never scaled, and messages name the
 * unscaled limit. A process-wide setting: the sandbox hands it to its worker thread with each job.
 */
let scale = 1;

export function setLanguageTimeScale(value: number): void {
  if (!(Number.isFinite(value) && value >= 1)) throw new Error(`the language's time scale must be a number >= 1, got ${value}`);
  scale = value;
}

export function languageTimeScale(): number {
  return scale;
}

/** A wall-clock limit of the language, in milliseconds, as this process applies it. */
export function scaledMs(ms: number): number {
  return ms * scale;
}

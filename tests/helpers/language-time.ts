/**
 * The language's wall-clock limits in tests (src/domain/language/time-scale.ts): stretched by TEST_LANGUAGE_TIME_SCALE
 * in every test process (set for this one by tests/helpers/setup.ts, for the apps and processes the tests start by
 * LANGUAGE_TIME_SCALE in their environment), so that what an expression or a template gives never depends on how busy
 * the machine is: 250 ms in the sandbox become 10 s (this thread's 10 ms stay: past them, the sandbox answers). A test of the deadline itself runs at the
 * real limits (`atLanguageTimeScale(1, ...)`): an overrun overruns on any machine.
 */
import { languageTimeScale, setLanguageTimeScale } from '../../src/domain/language/time-scale.js';

export const TEST_LANGUAGE_TIME_SCALE = 40;

/**
 * Runs `fn` with the language's limits times `scale` (1: the real limits) in this process, the app in it included: a
 * test of a deadline spends the deadline's time, not forty times it.
 */
export async function atLanguageTimeScale<T>(scale: number, fn: () => Promise<T>): Promise<T> {
  const before = languageTimeScale();
  setLanguageTimeScale(scale);
  try {
    return await fn();
  } finally {
    setLanguageTimeScale(before);
  }
}

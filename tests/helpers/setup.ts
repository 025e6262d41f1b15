/** Runs before each test file (vitest.config.ts `setupFiles`), in its worker process. */
import { setLanguageTimeScale } from '../../src/domain/language/time-scale.js';
import { TEST_LANGUAGE_TIME_SCALE } from './language-time.js';

// The language's wall-clock limits, stretched for tests (tests/helpers/language-time.ts).
setLanguageTimeScale(TEST_LANGUAGE_TIME_SCALE);

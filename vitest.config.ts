import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/helpers/global-setup.ts'],
    pool: 'forks',
    // Test files share their worker process (and its loaded modules) instead of each importing the service anew in a
    // fresh one: importing was ~110-130 s of a suite's summed time (~1.2 s a file), and a suite takes 15-25 % less
    // wall time (PostgreSQL 303 -> 260 s, PGlite 340 -> 253 s). So a test file must leave nothing process-wide behind
    // (environment variables, globals, timers, listeners): each one's app, database and ports are its own, and none
    // changes process.env (checked when this was turned on).
    isolate: false,
    // Test files spend much of their time waiting (on PostgreSQL, child processes, sockets, the browser), so even a
    // 2-core machine runs two at once (vitest's default there is one). Each file has its own database and ports.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    // Transformed modules are cached on disk (node_modules/.experimental-vitest-cache, keyed by content), so the
    // second and later runs (CI runs the suite once per Node.js line) skip the TypeScript transform.
    experimental: { fsModuleCache: true },
  },
});

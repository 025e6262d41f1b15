import os from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The slow tier (`npm run test:slow`; CI runs it once per supported Node.js line, docs/testing.md): tests that spawn
 * the service, its CLIs or other programs and kill them, drive a browser, stop and freeze a PostgreSQL cluster, or prove
 * a whole module against real data or exhaustively. Everything else is the fast tier (`npm test`), which covers every
 * module's behaviour in this process.
 */
export const SLOW_TESTS = [
  // A browser (Chromium) against the operator UI and the docs.
  'tests/browser/**/*.test.ts',
  // The compiled build and `npm start` as processes; the container file.
  'tests/demo/build.test.ts',
  'tests/demo/npm-start.test.ts',
  'tests/demo/container.test.ts',
  // Real-data proofs: whole recorded matches through the engine, killed and taken over mid-match.
  'tests/e2e/**/*.test.ts',
  'tests/engine/engine-proof.test.ts',
  'tests/engine/kill.test.ts',
  'tests/engine/takeover.test.ts',
  // The service as a process under faults: its PostgreSQL stopped and frozen, its Redis stopped, frozen and emptied,
  // SIGTERM under load, stray rejections.
  'tests/faults/database-outage.test.ts',
  'tests/faults/redis.test.ts',
  'tests/faults/outage-resolutions.test.ts',
  'tests/faults/shutdown.test.ts',
  'tests/faults/stray-rejection.test.ts',
  // The command-line tools as processes (their logic has in-process tests in the fast tier).
  'tests/http/cli.test.ts',
  'tests/http/config-check.test.ts',
  'tests/contract/mock.test.ts',
  // Exhaustive proofs: every operation of the contract fuzzed; every form of the leaderboard rule held to it on generated histories.
  'tests/http/contract-fuzz.test.ts',
  'tests/api/leaderboards-rule.test.ts',
];

export default defineConfig({
  test: {
    globalSetup: ['tests/helpers/global-setup.ts'],
    setupFiles: ['tests/helpers/sandbox-setup.ts', 'tests/helpers/setup.ts'],
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
    // Bounds, not budgets: a test that waits for an event fails after these only when the event never comes, so they
    // are far above what a busy machine needs: at a load of 20-30 on 2 cores a test takes 10-15 times what it takes on a
    // quiet machine (docs/testing.md). Tests do not set lower bounds of their own; a few that need more set more.
    testTimeout: 180_000,
    hookTimeout: 300_000,
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    // Transformed modules are cached on disk (keyed by content), so the second and later runs (CI runs the suite once
    // per Node.js line) skip the TypeScript transform. In the checkout, not in node_modules: vitest empties its cache
    // whenever the lockfile differs from the last run's, so checkouts sharing a node_modules (git worktrees with a
    // symlink) emptied it under each other's runs, which then failed file by file with ENOENT.
    experimental: { fsModuleCache: true, fsModuleCachePath: 'test-artifacts/vitest-module-cache' },
    projects: [
      { extends: true, test: { name: 'fast', include: ['tests/**/*.test.ts'], exclude: SLOW_TESTS } },
      { extends: true, test: { name: 'slow', include: SLOW_TESTS } },
    ],
  },
});

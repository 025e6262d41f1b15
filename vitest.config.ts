import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/helpers/global-setup.ts'],
    pool: 'forks',
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

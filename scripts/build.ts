/**
 * `npm run build`: compiles the service for production into dist/ with esbuild
 * (TypeScript stripped and bundled per entry point, shared code in chunks,
 * packages from node_modules left as imports), and prebuilds the operator UI
 * bundle, so a production start (`npm run start:prod`) runs plain JavaScript
 * with nothing to compile. `npm start` keeps running the sources through tsx.
 */
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { UI_BUILD_OPTIONS } from '../src/admin/ui-routes.js';
import { paths, projectRoot } from '../src/paths.js';

/** What production runs: the service, an engine-only worker, and the operator tools. */
export const ENTRY_POINTS = {
  main: 'src/main.ts',
  worker: 'scripts/worker.ts',
  'create-admin': 'scripts/create-admin.ts',
  'schedule-sync': 'scripts/schedule-sync.ts',
  'config-check': 'scripts/config-check.ts',
  // The sandbox's worker thread loads it by path (src/paths.ts), so it must be a file of its own.
  'sandbox-worker': 'src/domain/language/sandbox-worker.ts',
};

export async function buildDist(outdir = path.join(projectRoot, 'dist')): Promise<void> {
  fs.rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: Object.fromEntries(Object.entries(ENTRY_POINTS).map(([name, file]) => [name, path.join(projectRoot, file)])),
    outdir,
    bundle: true,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
  });
  await build({
    ...UI_BUILD_OPTIONS,
    outfile: path.join(outdir, path.relative(path.join(projectRoot, 'dist'), paths.adminUiBundle)),
    write: true,
    logLevel: 'warning',
  });
}

const invokedDirectly = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop()!);
if (invokedDirectly) {
  const started = performance.now();
  buildDist().then(
    () =>
      console.log(
        `built dist/ in ${Math.round(performance.now() - started)} ms: ${Object.keys(ENTRY_POINTS)
          .map((n) => `dist/${n}.js`)
          .join(', ')}, dist/admin/app.js`,
      ),
    (err: unknown) => {
      console.error(`build failed: ${(err as Error).message}`);
      process.exit(1);
    },
  );
}

/**
 * Where the project's files are at run time, whether the code runs from its
 * TypeScript sources (tsx) or from the compiled bundle in dist/: the project
 * root is the nearest folder upwards holding this package's package.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string }).name === 'question-play') return dir;
    if (path.dirname(dir) === dir) throw new Error(`cannot find the question-play project root above ${from}`);
  }
}

const here = path.dirname(fileURLToPath(import.meta.url));
export const projectRoot = findProjectRoot(here);

/** Whether this code runs from the compiled build in dist/ (`npm run start:prod`) rather than from its sources. */
export const compiled = path.relative(path.join(projectRoot, 'dist'), here).split(path.sep)[0] !== '..';

/** generated/ (the contract as JSON, validators), drizzle/ (migrations), the operator UI's sources and its prebuilt bundle. */
export const paths = {
  generated: path.join(projectRoot, 'generated'),
  migrations: path.join(projectRoot, 'drizzle'),
  adminUiSource: path.join(projectRoot, 'src/admin/ui'),
  /** Written by `npm run build`; the compiled service serves it (from sources, the UI is built at first request). */
  adminUiBundle: path.join(projectRoot, 'dist/admin/app.js'),
  adminUiCss: path.join(projectRoot, 'src/admin/ui/admin.css'),
  /** The compiled expression and template sandbox's worker thread (its own entry point of the build). */
  sandboxWorker: path.join(projectRoot, 'dist/sandbox-worker.js'),
};

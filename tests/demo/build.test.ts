/**
 * The production build: `npm run build` compiles the service into dist/, and
 * `npm run start:prod` (node dist/main.js) serves the API, the docs and the
 * operator UI's prebuilt bundle with nothing compiled at start.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDist, ENTRY_POINTS } from '../../scripts/build.js';
import { paths, projectRoot } from '../../src/paths.js';
import { waitFor } from '../helpers/engine.js';
import { freePort } from '../helpers/ports.js';

let child: ChildProcess | undefined;
let output = '';
let base: string;
let dataDir: string;

beforeAll(async () => {
  await buildDist();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'qp-prod-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir, DEMO_DATA: 'false', ENGINE_WORKER: 'false', LOG_LEVEL: 'info', LOG_FORMAT: 'json' };
  for (const key of ['DATABASE_URL', 'TEST_DATABASE_URL', 'APP_ENV']) delete env[key];
  // What `npm run start:prod` runs (package.json).
  const [command, ...args] = (JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['start:prod']!.split(' ');
  expect(command).toBe('node');
  child = spawn(process.execPath, args, { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  await waitFor(async () => output.includes('listening on'), { what: `node dist/main.js to listen:\n${output}`, timeoutMs: 60_000, intervalMs: 100 });
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((resolve) => child!.once('exit', resolve));
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run build, then npm run start:prod', () => {
  it('writes every entry point and the operator UI bundle', () => {
    for (const name of Object.keys(ENTRY_POINTS)) expect(fs.existsSync(path.join(projectRoot, 'dist', `${name}.js`)), name).toBe(true);
    expect(fs.statSync(paths.adminUiBundle).size).toBeGreaterThan(10_000);
  });

  it('serves the API, the docs and the prebuilt operator UI from compiled JavaScript', async () => {
    const leagues = await fetch(`${base}/api/leagues`);
    expect(leagues.status).toBe(200);
    expect(((await leagues.json()) as unknown[]).length).toBeGreaterThan(0);
    expect((await fetch(`${base}/docs`)).status).toBe(200);
    expect((await fetch(`${base}/openapi.json`)).status).toBe(200);
    const ui = await fetch(`${base}/admin/assets/app.js`);
    expect(ui.status).toBe(200);
    // The bundle built with the service, byte for byte (from sources it would be built anew, with a source map).
    expect(await ui.text()).toBe(fs.readFileSync(paths.adminUiBundle, 'utf8'));
    expect(output).not.toMatch(/tsx|\.ts:\d/);
  });

  it('stops cleanly on SIGTERM', async () => {
    child!.kill('SIGTERM');
    const code = await new Promise((resolve) => child!.once('exit', resolve));
    expect(code).toBe(0);
  }, 20_000);
});

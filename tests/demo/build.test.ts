/**
 * The production build: `npm run build` compiles the service into dist/, and
 * `npm run start:prod` (node dist/main.js) serves the API, the docs and the
 * operator UI's prebuilt bundle with nothing compiled at start.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Metafile } from 'esbuild';
import { buildDist, DEFERRED_PACKAGES, ENTRY_POINTS, LAZY_PACKAGES } from '../../scripts/build.js';
import { paths, projectRoot } from '../../src/paths.js';
import { waitFor } from '../helpers/engine.js';
import { freePort } from '../helpers/ports.js';
import { TEST_LANGUAGE_TIME_SCALE } from '../helpers/language-time.js';

let child: ChildProcess | undefined;
let output = '';
let base: string;
let dataDir: string;
let metafile: Metafile;

/** The packages (names) of the files in `files`, from their node_modules paths. */
const packagesOf = (files: string[]) =>
  new Set(
    files
      .filter((f) => f.includes('node_modules/'))
      .map((f) => {
        const parts = f.split('node_modules/').pop()!.split('/');
        return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
      }),
  );

/** The packages the process reported loading from node_modules, at its latest report (SIGUSR2). */
async function loadedPackages(): Promise<string[]> {
  const reports = () => [...output.matchAll(/^loaded-packages: (.*)$/gm)].length;
  const before = reports();
  child!.kill('SIGUSR2');
  await waitFor(async () => reports() > before, { what: 'the loaded-packages report', timeoutMs: 10_000, intervalMs: 20 });
  return JSON.parse([...output.matchAll(/^loaded-packages: (.*)$/gm)].pop()![1]!) as string[];
}

beforeAll(async () => {
  metafile = await buildDist();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'qp-prod-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    DEMO_DATA: 'false',
    ENGINE_WORKER: 'false',
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
    NODE_COMPILE_CACHE: path.join(dataDir, 'compile-cache'),
  };
  for (const key of ['DATABASE_URL', 'TEST_DATABASE_URL', 'APP_ENV']) delete env[key];
  // A test run (APP_ENV=test allows it): the language's wall-clock limits stretched, so the sandbox's answers below do not
  // depend on how busy the machine is (tests/helpers/language-time.ts).
  Object.assign(env, { APP_ENV: 'test', LANGUAGE_TIME_SCALE: String(TEST_LANGUAGE_TIME_SCALE) });
  // The compiled operator tool, on the same (not yet locked) data directory.
  execFileSync(process.execPath, ['dist/create-admin.js', '--username', 'admin', '--password', 'compiled-admin-1', '--email', 'admin@example.com'], {
    cwd: projectRoot,
    env,
    stdio: 'pipe',
  });
  // What `npm run start:prod` runs (package.json).
  const [command, ...args] = (JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts[
    'start:prod'
  ]!.split(' ');
  expect(command).toBe('node');
  // Preloaded: names every package the process loads (written when it exits).
  child = spawn(process.execPath, ['--import', path.join(projectRoot, 'tests/helpers/loaded-packages.mjs'), ...args], {
    cwd: projectRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  await waitFor(async () => output.includes('listening on'), { what: `node dist/main.js to listen:\n${output}`, timeoutMs: 60_000, intervalMs: 100 });
});

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

  it('bundles the packages every start loads, and leaves out the native ones, PGlite and those loaded on first use', () => {
    // What a start loads: dist/main.js turns Node's compile cache on and imports the service's entry chunk, and that
    // chunk's static imports, transitively (its dynamic imports are the lazy chunks).
    const eager = new Set<string>();
    const visit = (file: string) => {
      if (eager.has(file)) return;
      eager.add(file);
      for (const imported of metafile.outputs[file]!.imports) if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
    };
    const entry = metafile.outputs['dist/main.js']!.imports.filter((i) => i.kind === 'dynamic-import' && !i.external);
    expect(entry, 'dist/main.js imports the entry chunk, and nothing else of the build').toHaveLength(1);
    expect(fs.readFileSync(path.join(projectRoot, 'dist/main.js'), 'utf8')).toMatch(/enableCompileCache\?\.\(\)[^]*await import\(/);
    visit('dist/main.js');
    visit(entry[0]!.path);
    const eagerPackages = packagesOf([...eager].flatMap((file) => Object.keys(metafile.outputs[file]!.inputs)));
    for (const bundled of ['express', 'openapi-backend', 'ajv', 'drizzle-orm', 'pino', 'ws', 'helmet', 'prom-client']) {
      expect(eagerPackages, `${bundled} is loaded by every start: bundled`).toContain(bundled);
    }
    const everything = packagesOf(Object.keys(metafile.inputs));
    // The PostgreSQL client is imported when the database is opened (a chunk of its own: PGlite's processes skip it).
    expect(everything).toContain('postgres');
    for (const outside of ['@node-rs/argon2', '@electric-sql/pglite', ...LAZY_PACKAGES, ...DEFERRED_PACKAGES, 'mime-db']) {
      expect(everything, `${outside} stays outside the bundle`).not.toContain(outside);
    }
  });

  it('a start and an API GET load neither the deferred packages nor the bundled ones from node_modules', async () => {
    expect((await fetch(`${base}/api/leagues`)).status).toBe(200);
    const loaded = await loadedPackages();
    expect(loaded).toEqual(expect.arrayContaining(['@electric-sql/pglite', '@node-rs/argon2']));
    // Content types looked up through mime-types (and its mime-db) wait for a reply that sets one through express
    // (an error, a file), iconv-lite for the first request body (body-parser decodes through it).
    for (const notYet of [...DEFERRED_PACKAGES, 'mime-db', 'express', 'openapi-backend'])
      expect(loaded, `${notYet} loaded from node_modules`).not.toContain(notYet);
  });

  it("turns Node's compile cache on where Node has one (22.1 and later), and writes it once the process is ready", async () => {
    await waitFor(async () => (await fetch(`${base}/readyz`)).status === 200, { what: 'the compiled process to be ready', timeoutMs: 30_000, intervalMs: 50 });
    const cache = path.join(dataDir, 'compile-cache');
    const cached = fs.existsSync(cache) ? fs.readdirSync(cache, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()) : [];
    if (typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function') {
      expect(cached.length, `files in ${cache}`).toBeGreaterThan(5);
    } else {
      expect(cached, 'Node 20 has no compile cache: nothing written').toEqual([]);
    }
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

  it('loads the packages only some requests need (S3, Web Push, image sniffing, CSV, forms, templates, expressions) on first use, not at start-up', async () => {
    const loaded = await loadedPackages();
    // Loaded at all: the report sees packages (both kinds of loading: PGlite is imported, mime-types required for /docs' files).
    expect(loaded).toEqual(expect.arrayContaining(['@electric-sql/pglite', 'mime-types']));
    for (const optional of LAZY_PACKAGES) {
      expect(loaded, `${optional} was loaded by a start and a few GETs`).not.toContain(optional);
    }
  });

  it('runs costly expressions in the sandbox worker thread, compiled too (its own entry point)', async () => {
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'compiled-admin-1' }),
    });
    expect(login.status).toBe(200);
    const { api_key: key } = (await login.json()) as { api_key: string };
    const preview = (extract: Record<string, string>) =>
      fetch(`${base}/api/question-definitions/preview`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ league: 'wc', question_text_template: 'x', sample_event_type: 'score_change', issuance_state_extract: extract }),
      });
    // Regular expressions only run in the sandbox; so does what outgrows this thread's budget.
    const regex = await preview({ n: '$contains("goal!", /go+al/)' });
    expect(regex.status, await regex.clone().text()).toBe(200);
    expect(((await regex.json()) as { extract: unknown }).extract).toEqual({ n: true });
    // Past this thread's longest sequence (1,000), which escalates whatever the machine's speed, and a few milliseconds of
    // work in the sandbox (whose deadline is stretched here; tests/engine/expressions.test.ts takes the costly cases).
    const costly = await preview({ n: '$count($distinct([1..5000]))' });
    expect(costly.status, await costly.clone().text()).toBe(200);
    expect(((await costly.json()) as { extract: unknown }).extract).toEqual({ n: 5000 });
  });

  it('stops cleanly on SIGTERM', async () => {
    child!.kill('SIGTERM');
    const code = await new Promise((resolve) => child!.once('exit', resolve));
    expect(code).toBe(0);
  });
});

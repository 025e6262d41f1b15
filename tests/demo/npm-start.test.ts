/**
 * What a newcomer gets from `npm start` on an empty database: the service on
 * the embedded database with /docs, matches today, and within a minute a demo
 * match issuing questions. Runs the real entry point in its own process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/engine.js';
import { freePort } from '../helpers/ports.js';

const root = path.resolve(import.meta.dirname, '../..');
let child: ChildProcess;
let base: string;
let output = '';
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'qp-start-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  // The demo match kicks off 10 s after start here (by default three minutes: its Match questions' time).
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'info', DEMO_KICKOFF_SECONDS: '10' };
  for (const key of ['DATABASE_URL', 'TEST_DATABASE_URL', 'APP_ENV', 'DEMO_DATA', 'ENGINE_WORKER']) delete env[key];
  child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  await waitFor(async () => output.includes('listening on'), { what: `npm start to listen:\n${output}`, timeoutMs: 60_000, intervalMs: 200 });
});

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start on an empty database', () => {
  it('serves /docs at once', async () => {
    expect((await fetch(`${base}/docs`)).status).toBe(200);
    expect((await fetch(`${base}/openapi.json`)).status).toBe(200);
  });

  it('shows matches today, and within a minute a demo match issuing questions', async () => {
    // What a player (or anyone without a key) sees: the player view.
    const today = (await (await fetch(`${base}/api/matches`)).json()) as {
      view: string;
      id: string;
      status: string;
      question_issuance_count: number;
      pivotal_moment_issuance_count: number;
      sponsor_brand: { name: string } | null;
    }[];
    expect(today.length).toBeGreaterThanOrEqual(2);
    expect(new Set(today.map((m) => m.view))).toEqual(new Set(['player']));
    // Only the live demo match has a feed, hence questions.
    const live = await waitFor(
      async () => {
        const rows = (await (await fetch(`${base}/api/matches`)).json()) as typeof today;
        return rows.find((m) => m.question_issuance_count + m.pivotal_moment_issuance_count > 0);
      },
      { what: `a demo match with questions:\n${output.slice(-3000)}`, timeoutMs: 60_000, intervalMs: 500 },
    );
    expect(live.status).toMatch(/^(live|break)$/);
    // Sponsored, so a newcomer sees the brand fields filled (its question slots: tests/demo/live-demo.test.ts).
    expect(live.sponsor_brand?.name).toBe('Acme Sports Drinks');
    const one = (await (await fetch(`${base}/api/matches/${live.id}`)).json()) as typeof live;
    expect(one).toMatchObject({ id: live.id, view: 'player', sponsor_brand: { name: 'Acme Sports Drinks' } });
  });

  it('stops cleanly, handing its listener back', async () => {
    child.kill('SIGTERM');
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(output).toContain('shutting down');
  });
});

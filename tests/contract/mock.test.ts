/** `npm run mock` (Prism) answers contract-valid examples, so frontend teams can build against it. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertMatchesContract } from '../helpers/contract.js';
import { freePort } from '../helpers/ports.js';

const root = path.resolve(import.meta.dirname, '../..');
let prism: ChildProcess;
let base: string;
let output = '';

/** Starts `npm run mock` as package.json runs it (tsx scripts/mock.ts), in its own process group. */
function startMock(args: string[], env: NodeJS.ProcessEnv = {}): { child: ChildProcess; output: () => string } {
  let text = '';
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['scripts/mock.ts', ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout!.on('data', (d) => (text += d));
  child.stderr!.on('data', (d) => (text += d));
  return { child, output: () => text };
}

async function waitForMock(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 45_000;
  for (;;) {
    try {
      await fetch(`${url}/api/leagues`);
      return;
    } catch {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`prism did not start:\n${output()}`);
      await new Promise((r) => setTimeout(r, 300));
    }
  }
}

const stopMock = (child: ChildProcess | undefined) => {
  if (child?.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
};

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  // The port from the environment (MOCK_PORT), as a README reader would set it.
  const started = startMock([], { MOCK_PORT: String(port) });
  prism = started.child;
  await waitForMock(base, prism, () => (output = started.output()));
}, 60_000);

afterAll(() => {
  stopMock(prism);
});

async function call(method: string, p: string, init: RequestInit = {}) {
  const res = await fetch(`${base}${p}`, { method, ...init });
  const text = await res.text();
  const contentType = res.headers.get('content-type') ?? '';
  const body = contentType.includes('json') && text ? JSON.parse(text) : text;
  assertMatchesContract({ method, path: p, status: res.status, contentType, body, text });
  return { status: res.status, body };
}

describe('npm run mock (Prism)', () => {
  it('answers open operations with believable, contract-valid examples', async () => {
    const leagues = await call('GET', '/api/leagues');
    expect(leagues.status).toBe(200);
    expect(leagues.body[0]).toMatchObject({ slug: 'wc', sport: 'football' });
    const brands = await call('GET', '/api/brands');
    expect(brands.body[0].primary_color).toMatch(/^#[0-9a-f]{6}$/);
    const matches = await call('GET', '/api/matches');
    expect(matches.status).toBe(200);
    expect(matches.body[0].home_team).toBeTruthy();
    expect((await call('GET', '/api/user-feedback/form')).status).toBe(200);
  });

  it('answers secured operations with examples when a key is sent, 401 otherwise', async () => {
    const auth = { headers: { authorization: 'Bearer qp_example' } };
    const me = await call('GET', '/api/users/me', auth);
    expect(me.status).toBe(200);
    expect(me.body.email).toContain('@');
    expect((await call('GET', '/api/question-answers/open', auth)).status).toBe(200);
    expect((await call('GET', '/api/users/me')).status).toBe(401);
  });

  it('validates requests against the contract', async () => {
    const res = await call('POST', '/api/auth/register', { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'x' }) });
    expect(res.status).toBe(422);
  });

  it('takes Prism options after --, a --port among them winning over the default', async () => {
    const port = await freePort();
    // Prism refuses a second --port: it starts only if the default was left out.
    const started = startMock(['--port', String(port)], { MOCK_PORT: '1' });
    try {
      await waitForMock(`http://127.0.0.1:${port}`, started.child, started.output);
      expect((await fetch(`http://127.0.0.1:${port}/api/leagues`)).status).toBe(200);
    } finally {
      stopMock(started.child);
    }
  }, 60_000);
});

/**
 * The service as its own process (`src/main.ts`, what `npm start` runs), for
 * tests of what only a real process shows: signals, shutdown, a database
 * that goes away under it. Responses are checked against the contract like
 * those of the in-process harness.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { assertMatchesContract } from './contract.js';
import { waitFor } from './engine.js';
import { freePort } from './ports.js';
import { buildQuery, type ApiResponse, type RequestOptions } from './test-app.js';
import { TEST_LANGUAGE_TIME_SCALE } from './language-time.js';

const root = path.resolve(import.meta.dirname, '../..');

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote (JSON log lines). */
  output(): string;
  /** A request, its response checked against the contract. `init` adds fetch options (a dispatcher, a signal). */
  request<T = any>(method: string, path: string, opts?: RequestOptions & { init?: RequestInit }): Promise<ApiResponse<T>>;
  /** Resolves with the exit code once the process exited. */
  exited: Promise<number | null>;
  /** Sends SIGTERM (or the signal given) and waits for the exit (SIGKILL after timeoutMs). */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<number | null>;
}

/** Starts `src/main.ts` with env (over a clean test environment) on a free port; resolves once it listens. */
/**
 * `preload`: modules Node imports before the service (`--import`), for fault injection. `spawned`: called with the
 * service's URL as soon as the process is spawned, before it listens (a test watching the start).
 */
export async function startServiceProcess(
  env: NodeJS.ProcessEnv,
  { preload = [], spawned }: { preload?: string[]; spawned?: (url: string) => void } = {},
): Promise<ServiceProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ['DATABASE_URL', 'TEST_DATABASE_URL', 'DATA_DIR', 'DEMO_DATA', 'ENGINE_WORKER']) delete childEnv[key];
  Object.assign(
    childEnv,
    {
      APP_ENV: 'test',
      PASSWORD_HASH_COST: 'minimal',
      LANGUAGE_TIME_SCALE: String(TEST_LANGUAGE_TIME_SCALE),
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: String(port),
    },
    env,
  );
  const child = spawn(process.execPath, [...preload.flatMap((p) => ['--import', p]), '--import', 'tsx', 'src/main.ts'], {
    cwd: root,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  spawned?.(url);
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const running = () => child.exitCode === null && child.signalCode === null;
  try {
    await waitFor(async () => output.includes('listening on') || !running(), {
      what: `the service to listen:\n${output}`,
      timeoutMs: 240_000,
      intervalMs: 100,
    });
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  if (!running()) throw new Error(`the service exited at start (${child.exitCode}):\n${output}`);

  async function request<T>(method: string, p: string, opts: RequestOptions & { init?: RequestInit } = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(`${url}${p}${buildQuery(opts.query)}`, { method, headers, body, ...opts.init });
    const text = await res.text();
    const contentType = res.headers.get('content-type') ?? '';
    const parsed: unknown = contentType.startsWith('application/json') && text ? JSON.parse(text) : text;
    const operationId = assertMatchesContract({
      method,
      path: p,
      status: res.status,
      contentType,
      body: parsed,
      text,
      header: (name) => res.headers.get(name),
    });
    return { status: res.status, body: parsed as T, text, headers: res.headers, operationId };
  }

  return {
    url,
    child,
    output: () => output,
    request,
    exited,
    async stop(signal = 'SIGTERM', timeoutMs = 20_000) {
      if (!running()) return child.exitCode;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/**
 * One running app per test file, on a fresh database, with a client whose
 * every response is checked against the contract.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { eq } from 'drizzle-orm';
import type { Express } from 'express';
import { loadConfig, type Config } from '../../src/config.js';
import { openDatabase, type DatabaseLimits } from '../../src/db/client.js';
import { createApp } from '../../src/http/app.js';
import { createFrontDoorServer } from '../../src/http/front-door.js';
import { applyServerLimits } from '../../src/http/server-limits.js';
import type { Drain } from '../../src/http/drain.js';
import { busCheck, type Health } from '../../src/http/health.js';
import { createLogger } from '../../src/logger.js';
import { users } from '../../src/modules/users/users.table.js';
import { createServices, type Services } from '../../src/services.js';
import { attachLiveStream, type LiveStream, type LiveStreamOptions } from '../../src/live/stream.js';
import type { Handlers } from '../../src/http/handler-types.js';
import type { Api } from '../../src/http/api.js';
import { assertMatchesContract } from './contract.js';
import { createTestDatabase, TEST_DB_LIMITS, type TestDatabase } from './test-db.js';
import { TEST_LANGUAGE_TIME_SCALE } from './language-time.js';

export interface RequestOptions {
  token?: string | null;
  body?: unknown;
  query?: Record<string, string | number | boolean | (string | number | boolean)[] | undefined>;
  form?: FormData;
  headers?: Record<string, string>;
  /** Raw body text with its content type (malformed-input tests). */
  raw?: { body: string | Buffer; contentType: string };
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
  operationId: string | undefined;
}

export interface TestApp {
  url: string;
  services: Services;
  api: Api;
  db: TestDatabase;
  config: Config;
  /** WS /api/play/stream on this app's server (tests/helpers/live-client.ts opens clients). */
  live: LiveStream;
  /** Graceful shutdown's first step (new requests refused). */
  drain: Drain;
  /** /healthz and /readyz of this app. */
  health: Health;
  /** The express application alone (its server listens on the front door, src/http/front-door.ts). */
  express: Express;
  request<T = any>(method: string, path: string, opts?: RequestOptions): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  config?: Partial<Config>;
  handlers?: (services: Services) => Handlers;
  /** Options of the live stream (heartbeat, buffer limits). */
  live?: LiveStreamOptions;
  /**
   * PostgreSQL only: run on this existing database (another app's `db.url`)
   * instead of a fresh one, with its own connections, as a second process
   * would; close() leaves the database in place.
   */
  databaseUrl?: string;
  /** PostgreSQL only: budgets of the app's connections over the tests' generous ones (a test of the budgets themselves). */
  databaseLimits?: Partial<DatabaseLimits>;
}

export function buildQuery(query: RequestOptions['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v]) params.append(k, String(item));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const limits = options.databaseLimits ?? {};
  const db: TestDatabase = options.databaseUrl ? await shareTestDatabase(options.databaseUrl, limits) : await createTestDatabase({ limits });
  // The server runs in this process, so a stalled event loop (PGlite's statements run on it, a large comparison) stalls
  // client and server alike: a kept-alive connection idle past the server's timeout when the loop comes back is reset
  // by the server just as the client sends on it. Idle connections are kept a minute here, longer than any stall; tests
  // of the timeouts set their own.
  // Passwords are hashed at argon2id's minimal cost (a test setting): the suite registers thousands of players, at
  // ~30-70 ms of CPU each at the standard cost. tests/api/auth.test.ts checks the standard cost on an app of its own.
  const env = {
    APP_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: ':memory:',
    HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '60',
    PASSWORD_HASH_COST: 'minimal',
    // The language's wall-clock limits stretched (tests/helpers/language-time.ts): answers, not deadlines, on a busy machine.
    LANGUAGE_TIME_SCALE: String(TEST_LANGUAGE_TIME_SCALE),
    // Cached keys live ten minutes (the most allowed), not the default ten seconds: the cache is told of every change
    // (src/modules/auth/key-cache.ts), and a test that counts a request's statements must not see a key lookup come back
    // because the test before took more than ten seconds on a busy machine. Tests of the expiry use a cache of their own.
    AUTH_CACHE_TTL_MS: '600000',
  };
  const config: Config = { ...loadConfig(env), ...options.config };
  const logger = createLogger(config.logLevel);
  const services = createServices({ database: db.database, config, logger });
  const { app: express, frontDoor, api, drain, health } = await createApp({ services, ...(options.handlers ? { handlers: options.handlers(services) } : {}) });
  const server: Server = createFrontDoorServer(frontDoor).listen(0, '127.0.0.1');
  applyServerLimits(server, config.http);
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const live = await attachLiveStream({ server, services, ...(options.live ? { options: options.live } : {}) });
  // As src/main.ts: ready once the live bus listens too.
  health.add(busCheck(services.liveBus));

  async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: RequestInit['body'];
    if (opts.raw) {
      body = opts.raw.body as RequestInit['body'];
      headers['content-type'] = opts.raw.contentType;
    } else if (opts.form) {
      body = opts.form;
    } else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    const send = () => fetch(`${url}${path}${buildQuery(opts.query)}`, { method, headers, body });
    let res: Response;
    try {
      res = await send();
    } catch (err) {
      // A connection reset under a request that HTTP lets a client repeat (not a POST): sent once more, on a new
      // connection, as a client would (a test of a server's own reset sets its timeouts); any other failure stands.
      if ((err as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET' || method.toUpperCase() === 'POST') throw err;
      res = await send();
    }
    const text = await res.text();
    const contentType = res.headers.get('content-type') ?? '';
    let parsed: unknown = text;
    if (contentType.startsWith('application/json') && text) parsed = JSON.parse(text);
    const operationId = assertMatchesContract({ method, path, status: res.status, contentType, body: parsed, text, header: (name) => res.headers.get(name) });
    return { status: res.status, body: parsed as T, text, headers: res.headers, operationId };
  }

  return {
    url,
    services,
    api,
    db,
    config,
    live,
    drain,
    health,
    express,
    request,
    async close() {
      await live.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await services.leaderboards.close();
      await db.drop();
    },
  };
}

async function shareTestDatabase(url: string, limits: Partial<DatabaseLimits>): Promise<TestDatabase> {
  const database = await openDatabase({ url, migrate: false, limits: { ...TEST_DB_LIMITS, ...limits } });
  return { database, url, drop: () => database.close() };
}

let userCounter = 0;

export interface TestUser {
  id: string;
  token: string;
  username: string;
  email: string;
  password: string;
}

/**
 * Registers a player through the API. With `verified: true` their email is
 * then marked verified, as its mailed link would: unverified accounts cannot
 * create or join private groups. (Not by default: each mark is a write to
 * `users`, which every process hears as a change of the user.)
 */
export async function registerUser(
  app: TestApp,
  overrides: { username?: string; email?: string; password?: string; first_name?: string; verified?: boolean } = {},
): Promise<TestUser> {
  const n = `${process.pid}${Date.now().toString(36)}${userCounter++}`;
  const username = overrides.username ?? `player${n}`;
  const email = overrides.email ?? `${username}@example.com`;
  const password = overrides.password ?? 'correct horse battery';
  const res = await app.request('POST', '/api/auth/register', {
    body: { username, email, password, ...(overrides.first_name ? { first_name: overrides.first_name } : {}) },
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  if (overrides.verified) await app.services.database.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, res.body.user.id));
  return { id: res.body.user.id, token: res.body.api_key, username, email: email.toLowerCase(), password };
}

/** Registers a user and makes them an admin directly in the database. */
export async function createAdmin(app: TestApp, overrides: Parameters<typeof registerUser>[1] = {}): Promise<TestUser> {
  const user = await registerUser(app, overrides);
  await app.services.database.db.update(users).set({ isAdmin: true }).where(eq(users.id, user.id));
  return user;
}

/** Runs `fn`, recording every SQL statement the app issues meanwhile (for "no query per row" tests). */
export async function statementsDuring<T>(app: TestApp, fn: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  const stop = app.services.database.onQuery((q) => statements.push(q));
  try {
    return { result: await fn(), statements };
  } finally {
    stop();
  }
}

/**
 * npm run bench: the contract stack against plain express, in one process.
 *
 * Opens a database (PostgreSQL in a dedicated database qp_bench_<pid> when
 * DATABASE_URL is set, otherwise in-memory PGlite), seeds the leagues and 50
 * brands, builds the full app with createApp and mounts plain express routes
 * (GET /plain/leagues, GET /plain/brands) on the same app, right before its
 * catch-all 404: they go through the same express middleware but call the
 * services and mappers directly, with no openapi-backend in between. autocannon
 * then loads each endpoint from a worker thread (so the load generator does not
 * share the server's event loop), pairs in ABBA order so drift cancels out,
 * and a table of req/s, p50, p99 and the full-stack/plain ratios is printed
 * (the target: ratio >= 0.8).
 *
 * Beside req/s and latency, the CPU time of the server's main thread per
 * request is read from /proc (Linux): it is far less sensitive than req/s to
 * other processes competing for the cores, and its plain/full quotient is the
 * ratio the contract stack alone would cause on a saturated server thread.
 *
 * Environment: DATABASE_URL (PostgreSQL server; a database is created and
 * dropped on it), BENCH_DURATION (seconds per endpoint per round, default 5),
 * BENCH_ROUNDS (default 4, so 20 s per endpoint), BENCH_WARMUP (seconds per
 * endpoint, default 3), BENCH_CONNECTIONS (default 10), BENCH_PIPELINING
 * (default 1), BENCH_NO_DB=1 (serve the rows read once, to isolate the
 * framework overhead from the database).
 *
 * Then, unless BENCH_HOT=0, a second phase loads the hot paths (the target:
 * "Hot paths (PUT answer, GET open questions, GET matches) run a constant
 * number of queries whatever the number of rows; report req/s and p50/p99"):
 * players with API keys following live matches with open questions are
 * written straight into the tables (scripts/bench-hot.ts), the SQL statements
 * one request runs are counted (database.onQuery) for a player with few rows
 * and one with many, and PUT /api/question-answers, GET
 * /api/question-answers/open, GET /api/matches and GET
 * /api/matches?followed=true are loaded the same way (same settings, rounds
 * alternated), each request with the key of the next player in turn and, for
 * PUT, the next answer (created the first time, replaced after).
 *
 * BENCH_PHASES (contract, hot, anchor; default all) chooses the phases that
 * apply load, BENCH_ANCHOR_ENDPOINTS (parts of labels, e.g. leagues,points)
 * the raw anchor's endpoints.
 *
 * Exits non-zero on errors only (a non-2xx response, a connection error, a
 * plain route that answers differently from its contract route), never on a
 * missed target.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import express, { type Request, type Response, type NextFunction } from 'express';
import { loadConfig, type Config } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { createApp } from '../src/http/app.js';
import { createFrontDoorServer, type FrontDoor } from '../src/http/front-door.js';
import { createLogger } from '../src/logger.js';
import { brands } from '../src/modules/brands/brands.table.js';
import { toBrandDto } from '../src/modules/brands/brands.mapper.js';
import { seedLeagues } from '../src/modules/leagues/leagues.repository.js';
import { toLeagueDto } from '../src/modules/leagues/leagues.mapper.js';
import { createServices, type Services } from '../src/services.js';
import { openBenchDatabase, type BenchDatabase } from './bench-database.js';
import { countStatements, HOT, hotEndpoints, seedHotPaths, type HotData, type HotEndpoint, type HotRequest } from './bench-hot.js';
import { startRawAnchor } from './bench-raw.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function envNumber(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name} must be a number >= ${min}, got '${raw}'`);
  return n;
}

const settings = {
  duration: envNumber('BENCH_DURATION', 5, 1),
  warmup: envNumber('BENCH_WARMUP', 3, 0),
  rounds: Math.round(envNumber('BENCH_ROUNDS', 4, 1)),
  connections: Math.round(envNumber('BENCH_CONNECTIONS', 10, 1)),
  pipelining: Math.round(envNumber('BENCH_PIPELINING', 1, 1)),
  /** BENCH_NO_DB=1: both sides list rows read once at start, so only HTTP, the contract stack, mappers and JSON are measured. */
  noDb: /^(1|true|yes)$/i.test(process.env.BENCH_NO_DB ?? ''),
  /** BENCH_HOT=0: skip the hot-path phase (and the raw anchor, which loads its data). */
  hot: !/^(0|false|no|off)$/i.test(process.env.BENCH_HOT ?? ''),
  /** BENCH_PHASES: the phases that apply load (default all): contract, hot, anchor. */
  phases: phasesOf(process.env.BENCH_PHASES),
  /** BENCH_ANCHOR_ENDPOINTS: the raw anchor's endpoints to load, by label substring (default all five). */
  anchorEndpoints: (process.env.BENCH_ANCHOR_ENDPOINTS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
};

function phasesOf(raw: string | undefined): Set<'contract' | 'hot' | 'anchor'> {
  const all = ['contract', 'hot', 'anchor'] as const;
  if (raw === undefined || raw.trim() === '') return new Set(all);
  const names = raw.split(',').map((s) => s.trim());
  for (const name of names) if (!(all as readonly string[]).includes(name)) throw new Error(`BENCH_PHASES: unknown phase '${name}' (contract, hot, anchor)`);
  return new Set(names as (typeof all)[number][]);
}
const BRAND_COUNT = 50;

// ---------------------------------------------------------------- database

const HUES = ['#E11D48', '#2563EB', '#16A34A', '#F59E0B', '#7C3AED', '#0891B2', '#DB2777', '#65A30D', '#EA580C', '#0F172A'];

async function seedBrands(database: Database): Promise<void> {
  const words = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Stark', 'Wayne', 'Wonka', 'Tyrell', 'Cyberdyne', 'Soylent'];
  const kinds = ['Sports', 'Energy', 'Bank', 'Motors', 'Telecom'];
  await database.db.insert(brands).values(
    Array.from({ length: BRAND_COUNT }, (_, i) => {
      const withLogo = i % 3 === 0;
      const filename = `logo-${i}.png`;
      return {
        name: `${words[i % words.length]} ${kinds[Math.floor(i / words.length) % kinds.length]}`,
        primaryColor: HUES[i % HUES.length]!,
        secondaryColor: i % 2 ? HUES[(i + 3) % HUES.length]! : null,
        ...(withLogo ? { logoFilename: filename, logoKey: `brands/seed-${i}/${filename}`, logoContentType: 'image/png', logoSizeBytes: 2048 + i } : {}),
      };
    }),
  );
}

// ---------------------------------------------------------------- the app

/** The same service calls, mappers and JSON send as the contract handlers, without openapi-backend. */
function plainRouter(services: Services): express.Router {
  const router = express.Router();
  const sendJson = (res: Response, body: unknown) => res.status(200).type('application/json').send(JSON.stringify(body));
  router.get('/plain/leagues', async (_req: Request, res: Response, next: NextFunction) => {
    try {
      sendJson(res, (await services.leagues.list()).map(toLeagueDto));
    } catch (err) {
      next(err);
    }
  });
  router.get('/plain/brands', async (req: Request, res: Response, next: NextFunction) => {
    try {
      const q = typeof req.query.q === 'string' ? req.query.q : undefined;
      sendJson(
        res,
        (await services.brands.list(q)).map((row) => toBrandDto(row, services.brands.publicLogoUrl(row))),
      );
    } catch (err) {
      next(err);
    }
  });
  return router;
}

/** BENCH_NO_DB: the same services, but the two list calls answer rows read once instead of querying. */
function withoutDatabaseReads(
  services: Services,
  leagueRows: Awaited<ReturnType<Services['leagues']['list']>>,
  brandRows: Awaited<ReturnType<Services['brands']['list']>>,
): Services {
  return {
    ...services,
    leagues: { ...services.leagues, list: (async () => leagueRows) as unknown as Services['leagues']['list'] },
    brands: { ...services.brands, list: async () => brandRows },
  };
}

interface Layer {
  handle: { length: number };
}

/**
 * Mounts the plain routes on the full app just before its catch-all 404 (the
 * layer before the first error handler), so both kinds of route run the same
 * express middleware (timing, docs router, JSON body parser, API gate).
 */
function mountBefore404(app: express.Express, router: express.Router): void {
  const stack = (app as unknown as { router: { stack: Layer[] } }).router.stack;
  const errorHandler = stack.findIndex((layer) => layer.handle.length === 4);
  if (errorHandler < 1) throw new Error('cannot find the error handler of the app: mount the plain routes elsewhere');
  app.use(router);
  const layer = stack.pop()!;
  stack.splice(errorHandler - 1, 0, layer);
}

const listen = async (door: FrontDoor): Promise<{ server: Server; base: string }> => {
  const server = createFrontDoorServer(door).listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
};

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections?.();
  });

const benchConfig = (): Config => loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: ':memory:' });

/** Open (migrations already applied, so only checked), services, createApp, listen: a restart's path to ready. */
async function timeRestart(open: () => Promise<Database>): Promise<{ openMs: number; createAppMs: number; totalMs: number }> {
  const t0 = performance.now();
  const database = await open();
  const t1 = performance.now();
  const config = benchConfig();
  const services = createServices({ database, config, logger: createLogger('silent') });
  const t2 = performance.now();
  const { frontDoor } = await createApp({ services });
  const t3 = performance.now();
  const { server } = await listen(frontDoor);
  const t4 = performance.now();
  await closeServer(server);
  await database.close();
  return { openMs: t1 - t0, createAppMs: t3 - t2, totalMs: t4 - t0 };
}

async function measureRestart(bench: BenchDatabase): Promise<{ label: string; openMs: number; createAppMs: number; totalMs: number }> {
  if (bench.url) {
    const url = bench.url;
    return { label: 'PostgreSQL, migrated database', ...(await timeRestart(() => openDatabase({ url }))) };
  }
  // PGlite on disk, as with the default DATA_DIR: migrate once, then time a reopen.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'qp-bench-pglite-'));
  try {
    await (await openDatabase({ dataDir })).close();
    return { label: 'PGlite, migrated data directory', ...(await timeRestart(() => openDatabase({ dataDir }))) };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- load

/**
 * The load generator: autocannon in a worker thread; every latency is kept
 * (float ms, not autocannon's integer-ms histogram). A run may carry a
 * method, headers and the name of a rotation of requests ({ token, body },
 * posted once beforehand, so a run's main-thread CPU does not include copying
 * it): each request then takes the next one (shared by all connections,
 * wrapping around) as its Bearer key and JSON body, through autocannon's
 * setupRequest, which is built here because functions cannot be posted to a
 * worker.
 */
const CLIENT_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createRequire } = require('node:module');
const autocannon = createRequire(workerData.root + '/package.json')('autocannon');
const rotations = new Map();
// The OS thread of this worker (Linux): the bench leaves its CPU time out of the service process's.
let tid = null;
try { tid = require('node:fs').readlinkSync('/proc/thread-self').split('/').pop(); } catch {}
parentPort.postMessage({ tid });
parentPort.on('message', ({ id, url, connections, pipelining, duration, method, headers, rotation: name, store }) => {
  if (store) return void rotations.set(store.name, store.requests);
  const rotation = name === undefined ? undefined : rotations.get(name);
  if (name !== undefined && !rotation) return parentPort.postMessage({ id, error: 'unknown rotation ' + name });
  const latencies = [];
  const statuses = {};
  let non2xx = 0;
  const options = { url, connections, pipelining, duration };
  if (method) options.method = method;
  if (headers) options.headers = headers;
  if (rotation && rotation.length) {
    let next = 0;
    options.requests = [{
      setupRequest: (req) => {
        const r = rotation[next++ % rotation.length];
        const h = Object.assign({}, req.headers, { authorization: 'Bearer ' + r.token });
        if (r.body !== undefined) h['content-type'] = 'application/json';
        return Object.assign({}, req, { headers: h, body: r.body !== undefined ? r.body : '' });
      },
    }];
  }
  const started = process.hrtime.bigint();
  const instance = autocannon(options, (err, result) => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (err) return parentPort.postMessage({ id, error: String(err && err.stack || err) });
    const array = Float64Array.from(latencies);
    parentPort.postMessage(
      { id, seconds, count: latencies.length, latencies: array, non2xx, statuses, errors: result.errors, timeouts: result.timeouts },
      [array.buffer],
    );
  });
  instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
    latencies.push(responseTimeMs);
    statuses[statusCode] = (statuses[statusCode] || 0) + 1;
    if (statusCode < 200 || statusCode > 299) non2xx++;
  });
});
`;

interface RunResult {
  seconds: number;
  count: number;
  latencies: Float64Array;
  non2xx: number;
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
}

class LoadClient {
  private readonly worker = new Worker(CLIENT_CODE, { eval: true, workerData: { root } });
  private next = 0;
  private readonly pending = new Map<number, { resolve: (r: RunResult) => void; reject: (e: Error) => void }>();
  /** The load generator's OS thread (null off Linux). */
  readonly tid: Promise<string | null>;

  constructor() {
    let tidOf: (tid: string | null) => void;
    this.tid = new Promise((resolve) => (tidOf = resolve));
    this.worker.on('message', (msg: RunResult & { id: number; error?: string; tid?: string | null }) => {
      if ('tid' in msg) return tidOf(msg.tid ?? null);
      const p = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      if (msg.error) p?.reject(new Error(msg.error));
      else p?.resolve(msg);
    });
    this.worker.on('error', (err) => {
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    });
  }

  /** Hands the worker a rotation of requests once; runs then name it. */
  storeRotation(name: string, requests: HotRequest[]): void {
    this.worker.postMessage({ store: { name, requests } });
  }

  run(url: string, duration: number, load: { method?: string; headers?: Record<string, string>; rotation?: string } = {}): Promise<RunResult> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, url, duration, connections: settings.connections, pipelining: settings.pipelining, ...load });
    });
  }

  close = () => this.worker.terminate();
}

/** CPU time of this process's main thread, ms (Linux /proc; null elsewhere). utime + stime in clock ticks of 10 ms. */
function mainThreadCpuMs(): number | null {
  try {
    const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** Busy and total CPU time of the whole machine, ms (Linux /proc/stat; null elsewhere). */
function machineCpuMs(): { busy: number; total: number } | null {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
    const total = ticks.reduce((a, b) => a + b, 0);
    const idle = ticks[3]! + ticks[4]!;
    return { busy: (total - idle) * 10, total: total * 10 };
  } catch {
    return null;
  }
}

const percentile = (sorted: Float64Array, p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN);

interface Measured extends RunResult {
  /** Main-thread CPU time during the run, ms (null off Linux). */
  cpuMs: number | null;
  /** The server process's CPU time during the run, all its threads, ms (the raw anchor phase; null elsewhere). */
  cpuAllMs?: number | null;
}

interface Summary {
  rps: number;
  p50: number;
  p99: number;
  count: number;
  /** Main-thread CPU time per request, microseconds. */
  cpuUs: number | null;
  /** The server process's CPU time per request (all threads), microseconds. */
  cpuAllUs: number | null;
  perRound: number[];
  cpuPerRound: (number | null)[];
}

function summarise(runs: Measured[]): Summary {
  const all = new Float64Array(runs.reduce((n, r) => n + r.latencies.length, 0));
  let offset = 0;
  for (const r of runs) {
    all.set(r.latencies, offset);
    offset += r.latencies.length;
  }
  all.sort();
  const count = runs.reduce((n, r) => n + r.count, 0);
  const seconds = runs.reduce((n, r) => n + r.seconds, 0);
  const cpu = runs.every((r) => r.cpuMs !== null) ? runs.reduce((n, r) => n + r.cpuMs!, 0) : null;
  const cpuAll = runs.every((r) => r.cpuAllMs != null) ? runs.reduce((n, r) => n + r.cpuAllMs!, 0) : null;
  return {
    rps: count / seconds,
    p50: percentile(all, 50),
    p99: percentile(all, 99),
    count,
    cpuUs: cpu === null ? null : (cpu * 1000) / count,
    cpuAllUs: cpuAll === null ? null : (cpuAll * 1000) / count,
    perRound: runs.map((r) => r.count / r.seconds),
    cpuPerRound: runs.map((r) => (r.cpuMs === null ? null : (r.cpuMs * 1000) / r.count)),
  };
}

/** Logs a run's failed requests; returns how many there were. */
function failuresOf(name: string, r: RunResult, phase: string): number {
  const bad = r.non2xx + r.errors + r.timeouts;
  if (bad) console.error(`  ERROR ${phase} ${name}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts; statuses ${JSON.stringify(r.statuses)}`);
  return bad;
}

/** A run with the main thread's CPU time it took. */
async function withCpu(run: () => Promise<RunResult>): Promise<Measured> {
  const cpu0 = mainThreadCpuMs();
  const r = await run();
  const cpu1 = mainThreadCpuMs();
  return { ...r, cpuMs: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0 };
}

interface MachineWindow {
  machine0: ReturnType<typeof machineCpuMs>;
  machine1: ReturnType<typeof machineCpuMs>;
  /** This process's CPU time in the window, ms. */
  ownMs: number;
  wallMs: number;
}

/** The rounds of a phase: every endpoint once per round, the order reversed every other round (ABBA). */
async function roundsAbba<E>(endpoints: readonly E[], rounds: number, each: (ep: E, round: number) => Promise<void>): Promise<MachineWindow> {
  const machine0 = machineCpuMs();
  const process0 = process.cpuUsage();
  const started = performance.now();
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? endpoints : [...endpoints].reverse();
    for (const ep of order) await each(ep, round);
  }
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(process0);
  return { machine0, machine1: machineCpuMs(), ownMs: (cpu.user + cpu.system) / 1000, wallMs };
}

/** How busy the machine was during a phase's rounds, and how much of it was this process. */
function printMachine(database: Database, { machine0, machine1, ownMs, wallMs }: MachineWindow): void {
  if (!machine0 || !machine1) return;
  const cores = os.cpus().length;
  const busy = (machine1.busy - machine0.busy) / (machine1.total - machine0.total);
  const others = Math.max(0, machine1.busy - machine0.busy - ownMs) / (wallMs * cores);
  console.log(
    `machine during the rounds: ${fmt(busy * 100)}% of ${cores} cores busy; this process ${fmt((ownMs / (wallMs * cores)) * 100)}%, ` +
      `other processes ${fmt(others * 100)}%${database.kind === 'postgres' ? ' (including the PostgreSQL server)' : ''}`,
  );
}

// ---------------------------------------------------------------- hot paths

/**
 * The hot-path phase: seed, count the statements of one request for a light
 * and a heavy player, then load each endpoint (warm-up, then the rounds,
 * order reversed every other round). Returns the number of failed requests.
 */
async function hotPhase(database: Database, server: Server, base: string, client: LoadClient): Promise<{ failures: number; data: HotData }> {
  const { duration, warmup, rounds, connections } = settings;
  console.log('');
  console.log('hot paths (the target: a constant number of queries whatever the number of rows; req/s and p50/p99):');
  const t0 = performance.now();
  const data = await seedHotPaths(database);
  const r = data.rows;
  console.log(
    `  seeded in ${fmt((performance.now() - t0) / 1000, 1)} s: ${r.users} players with API keys, ${r.matches} matches (${data.matchesToday} today UTC, ${HOT.LIVE_MATCHES} of them live), ` +
      `${r.follows} follows, ${r.issuances} in-game questions (${r.openIssuances} open, ${HOT.OPEN_PER_MATCH} per live match); ` +
      `players follow 1 to ${HOT.FOLLOW_CYCLE} live matches, the heavy player ${data.heavy.follows} matches`,
  );
  if (!settings.phases.has('hot')) {
    console.log('  hot-path load: skipped (BENCH_PHASES)');
    return { failures: 0, data };
  }

  console.log('SQL statements per request (database.onQuery: statements issued through drizzle, key lookup included; BEGIN/COMMIT not seen):');
  const counts = await countStatements(database, base, data);
  console.log(`| endpoint                             | light player: statements (rows) | heavy player: statements (rows) | equal |`);
  console.log(`|--------------------------------------|--------------------------------:|--------------------------------:|-------|`);
  let unequal = 0;
  for (const c of counts) {
    const equal = c.light.statements === c.heavy.statements;
    if (!equal) unequal++;
    const cell = (x: { statements: number; rows: number }) => `${x.statements} (${x.rows})`.padStart(31);
    console.log(`| ${c.label.padEnd(36)} | ${cell(c.light)} | ${cell(c.heavy)} | ${(equal ? 'yes' : 'NO').padEnd(5)} |`);
  }
  console.log(
    `  rows: PUT, the player's open questions; GET open, open questions listed; GET matches, matches listed. ` +
      (unequal ? `${unequal} endpoint(s) do NOT run a constant number of statements` : 'constant: the same number of statements for few rows and many'),
  );

  const endpoints = hotEndpoints(data);
  for (const ep of endpoints) client.storeRotation(ep.label, ep.requests);
  const put = endpoints.find((ep) => ep.method === 'PUT')!;
  console.log(
    `load: same client and settings (${connections} connections, warm-up ${warmup} s, ${rounds} round(s) x ${duration} s per endpoint, order reversed every other round); ` +
      `each request with the next player's key (${data.players.length} players); PUT rotates ${fmt(put.requests.length / 2)} (player, open question) pairs twice with a different choice`,
  );
  let failures = 0;
  const run = (ep: HotEndpoint, seconds: number) => client.run(base + ep.path, seconds, { method: ep.method, rotation: ep.label });
  // SQL statements per request are counted over every request the server received in a round, once
  // it has answered them all and issued no statement for 100 ms: autocannon stops with some requests in
  // flight (their responses are not in its count) and closes their sockets, and a handler whose
  // socket closed still runs its statements after the response is gone.
  let received = 0;
  let inFlight = 0;
  let seen = 0;
  const stopSeeing = database.onQuery(() => seen++);
  server.on('request', (_req, res) => {
    received++;
    inFlight++;
    res.once('close', () => inFlight--);
  });
  const drained = async () => {
    for (let last = -1; inFlight > 0 || seen !== last;) {
      last = seen;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  if (warmup > 0) for (const ep of endpoints) failures += failuresOf(ep.label, await run(ep, warmup), 'warm-up');
  const runs = new Map<HotEndpoint, (Measured & { statements: number; served: number })[]>(endpoints.map((ep) => [ep, []]));
  const window = await roundsAbba(endpoints, rounds, async (ep, round) => {
    await drained();
    let statements = 0;
    const stop = database.onQuery(() => statements++);
    const received0 = received;
    const result = await withCpu(() => run(ep, duration));
    await drained();
    stop();
    const m = { ...result, statements, served: received - received0 };
    failures += failuresOf(ep.label, m, `round ${round + 1}`);
    runs.get(ep)!.push(m);
    const cpu = m.cpuMs === null ? '' : `, main thread ${fmt((m.cpuMs * 1000) / m.count)} us CPU/request`;
    console.log(`  round ${round + 1} ${ep.label.padEnd(30)} ${fmt(m.count / m.seconds).padStart(7)} req/s${cpu}; statuses ${JSON.stringify(m.statuses)}`);
  });
  stopSeeing();

  const cpus = os.cpus();
  console.log('');
  console.log(
    `hot-path results (${database.kind}, node ${process.version}, ${cpus[0]?.model ?? '?'} x ${cpus.length}, ${connections} connections, ${rounds} x ${duration} s per endpoint):`,
  );
  console.log(`| endpoint                       |   req/s | p50 ms | p99 ms | requests | main-thread CPU us/request | SQL statements/request |`);
  console.log(`|--------------------------------|--------:|-------:|-------:|---------:|---------------------------:|-----------------------:|`);
  for (const ep of endpoints) {
    const measured = runs.get(ep)!;
    const s = summarise(measured);
    const sql = measured.reduce((n, m) => n + m.statements, 0) / measured.reduce((n, m) => n + m.served, 0);
    console.log(
      `| ${ep.label.padEnd(30)} | ${fmt(s.rps).padStart(7)} | ${fmt(s.p50, 2).padStart(6)} | ${fmt(s.p99, 2).padStart(6)} | ${fmt(s.count).padStart(8)} | ${(s.cpuUs === null ? 'n/a' : fmt(s.cpuUs)).padStart(26)} | ${fmt(sql, 2).padStart(22)} |`,
    );
  }
  const statuses: Record<string, number> = {};
  for (const m of runs.get(put)!) for (const [k, v] of Object.entries(m.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
  console.log(
    'SQL statements/request: statements seen by database.onQuery in the rounds / requests the server received in them (counting stops once all are answered and no statement came for 100 ms).',
  );
  console.log(`PUT /api/question-answers in the rounds: ${fmt(statuses['201'] ?? 0)} answers created (201), ${fmt(statuses['200'] ?? 0)} replaced (200)`);
  printMachine(database, window);
  return { failures, data };
}

// ---------------------------------------------------------------- the raw anchor

/** utime + stime of a /proc stat file, ms (null when unreadable: not Linux). */
function statCpuMs(file: string): number | null {
  try {
    const stat = fs.readFileSync(file, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** CPU time of a process, ms: its main thread, and all its threads but `exceptTid` (the load generator's, in this one). */
function processCpu(pid: number | 'self', exceptTid: string | null = null): { main: number; all: number } | null {
  const main = statCpuMs(`/proc/${pid}/task/${pid === 'self' ? process.pid : pid}/stat`);
  const all = statCpuMs(`/proc/${pid}/stat`);
  const except = exceptTid === null ? 0 : statCpuMs(`/proc/${pid}/task/${exceptTid}/stat`);
  return main === null || all === null || except === null ? null : { main, all: all - except };
}

/**
 * The raw anchor (scripts/bench-raw.ts): the service against a node:http +
 * postgres.js server in another process sending the statements captured
 * from the service, on the same database and data, with the same client,
 * rotations and settings; service and raw alternate within each round and
 * the order flips every other round. The target: service/raw >= 0.5 in
 * req/s and in CPU per request (raw CPU / service CPU).
 */
async function anchorPhase(bench: BenchDatabase, services: Services, base: string, client: LoadClient, data: HotData): Promise<number> {
  const { duration, warmup, rounds, connections } = settings;
  console.log('');
  console.log('raw anchor (the target: service/raw >= 0.5 in req/s and in CPU per request, on PostgreSQL):');
  if (!settings.phases.has('anchor')) {
    console.log('  skipped (BENCH_PHASES)');
    return 0;
  }
  if (!bench.url) {
    console.log('  skipped: the raw anchor needs PostgreSQL (set DATABASE_URL)');
    return 0;
  }
  const raw = await startRawAnchor({
    database: bench.database,
    databaseUrl: bench.url,
    serviceBase: base,
    data,
    poolSize: 10,
    forgetCaches: () => {
      services.keyCache.flush();
      services.leagues.changed();
    },
    keyCacheMs: benchConfig().authCache.ttlMs,
  });
  let failures = 0;
  try {
    for (const plan of raw.plans) {
      const sources = plan.statements.map(
        (st) => st.params.map((p) => (p.kind === 'const' ? 'c' : p.kind === 'now' ? 'now' : p.kind === 'row' ? `r${p.statement}` : p.kind)).join(' ') || '-',
      );
      const kept = plan.statements.filter((st) => st.kept).length;
      console.log(
        `  ${plan.method} ${plan.path}: ${plan.statements.length} statement(s) captured${plan.transaction ? ' (after the key lookup, in one transaction)' : ''}; parameters: ${sources.join(' | ')}`,
      );
      console.log(
        `    warm, per request: ${plan.warm.length} statement(s)${plan.transaction ? ' + begin/commit' : ''}${
          kept
            ? `; kept in process by both (${plan.statements
                .map((st, i) => (st.kept ? `#${i}${st.kept.keepMs === null ? '' : ` for ${st.kept.keepMs / 1000} s`}` : ''))
                .filter(Boolean)
                .join(', ')})`
            : ''
        }`,
      );
    }
    console.log('  each endpoint answered once by both: same status, same shape');
    client.storeRotation(
      'points',
      data.players.map((p) => ({ token: p.key })),
    );
    const endpoints = hotEndpoints(data);
    // The hot-path phase stores them too; it may not have run (BENCH_PHASES=anchor).
    for (const ep of endpoints) client.storeRotation(ep.label, ep.requests);
    const rotation = (method: string, path: string) => endpoints.find((e) => e.method === method && e.path === path)!.label;
    const anchored = (
      [
        { label: 'GET /api/leagues', method: 'GET', path: '/api/leagues', rotation: undefined },
        { label: 'GET /api/matches', method: 'GET', path: '/api/matches', rotation: rotation('GET', '/api/matches') },
        { label: 'GET /api/question-answers/open', method: 'GET', path: '/api/question-answers/open', rotation: rotation('GET', '/api/question-answers/open') },
        { label: 'PUT /api/question-answers', method: 'PUT', path: '/api/question-answers', rotation: rotation('PUT', '/api/question-answers') },
        { label: 'GET /api/users/me/points', method: 'GET', path: '/api/users/me/points', rotation: 'points' },
      ] as const
    ).filter((ep) => !settings.anchorEndpoints.length || settings.anchorEndpoints.some((name) => ep.label.includes(name)));
    if (!anchored.length) throw new Error(`BENCH_ANCHOR_ENDPOINTS matches none of the anchored endpoints: ${settings.anchorEndpoints.join(', ')}`);
    const loadTid = await client.tid;
    const sides = [
      { name: 'service', base, cpu: () => processCpu('self', loadTid) },
      { name: 'raw', base: raw.base, cpu: () => processCpu(raw.pid) },
    ] as const;
    type Pair = { ep: (typeof anchored)[number]; side: (typeof sides)[number] };
    const pairs: Pair[] = anchored.flatMap((ep) => sides.map((side) => ({ ep, side })));
    const run = async ({ ep, side }: Pair, seconds: number): Promise<Measured> => {
      const cpu0 = side.cpu();
      const r = await client.run(side.base + ep.path, seconds, { method: ep.method, ...(ep.rotation ? { rotation: ep.rotation } : {}) });
      const cpu1 = side.cpu();
      return { ...r, cpuMs: cpu0 && cpu1 ? cpu1.main - cpu0.main : null, cpuAllMs: cpu0 && cpu1 ? cpu1.all - cpu0.all : null };
    };
    console.log(
      `  load: ${connections} connections, warm-up ${warmup} s, ${rounds} round(s) x ${duration} s per endpoint and side, ABBA; ` +
        `CPU: each server process, all its threads (the service's without the load generator's thread) and its main thread`,
    );
    if (warmup > 0) for (const pair of pairs) failures += failuresOf(`${pair.side.name} ${pair.ep.label}`, await run(pair, warmup), 'warm-up');
    const runs = new Map<Pair, Measured[]>(pairs.map((p) => [p, []]));
    const window = await roundsAbba(pairs, rounds, async (pair, round) => {
      const m = await run(pair, duration);
      failures += failuresOf(`${pair.side.name} ${pair.ep.label}`, m, `round ${round + 1}`);
      runs.get(pair)!.push(m);
      const cpu =
        m.cpuMs == null || m.cpuAllMs == null ? '' : `, ${fmt((m.cpuAllMs * 1000) / m.count)} us CPU/request (main thread ${fmt((m.cpuMs * 1000) / m.count)})`;
      console.log(`  round ${round + 1} ${pair.side.name.padEnd(7)} ${pair.ep.label.padEnd(30)} ${fmt(m.count / m.seconds).padStart(7)} req/s${cpu}`);
    });
    const cpus = os.cpus();
    console.log('');
    console.log(
      `service against the raw anchor (postgres, node ${process.version}, ${cpus[0]?.model ?? '?'} x ${cpus.length}, ${connections} connections, ${rounds} x ${duration} s per endpoint and side):`,
    );
    console.log('CPU: us per request, the whole process (all threads) / its main thread; ratios: service/raw in req/s, raw/service in CPU (all threads).');
    console.log(
      '| endpoint                       | service req/s | raw req/s | req/s ratio | service p50/p99 ms | raw p50/p99 ms | service CPU us/req | raw CPU us/req | CPU ratio | main-thread CPU ratio | target >= 0.5 |',
    );
    console.log(
      '|--------------------------------|--------------:|----------:|------------:|-------------------:|---------------:|-------------------:|---------------:|----------:|----------------------:|---------------|',
    );
    const cpuCell = (m: Summary) => (m.cpuUs === null || m.cpuAllUs === null ? 'n/a' : `${fmt(m.cpuAllUs)} / ${fmt(m.cpuUs)}`);
    for (const ep of anchored) {
      const s = summarise(runs.get(pairs.find((p) => p.ep === ep && p.side.name === 'service')!)!);
      const r = summarise(runs.get(pairs.find((p) => p.ep === ep && p.side.name === 'raw')!)!);
      const rps = s.rps / r.rps;
      const cpu = s.cpuAllUs !== null && r.cpuAllUs !== null ? r.cpuAllUs / s.cpuAllUs : null;
      const mainCpu = s.cpuUs !== null && r.cpuUs !== null ? r.cpuUs / s.cpuUs : null;
      const met = rps >= 0.5 && (cpu === null || cpu >= 0.5);
      console.log(
        `| ${ep.label.padEnd(30)} | ${fmt(s.rps).padStart(13)} | ${fmt(r.rps).padStart(9)} | ${fmt(rps, 2).padStart(11)} | ${`${fmt(s.p50, 2)} / ${fmt(s.p99, 2)}`.padStart(18)} | ${`${fmt(r.p50, 2)} / ${fmt(r.p99, 2)}`.padStart(14)} | ` +
          `${cpuCell(s).padStart(18)} | ${cpuCell(r).padStart(14)} | ${(cpu === null ? 'n/a' : fmt(cpu, 2)).padStart(9)} | ${(mainCpu === null ? 'n/a' : fmt(mainCpu, 2)).padStart(21)} | ${(met ? 'met' : 'MISSED').padEnd(13)} |`,
      );
    }
    printMachine(bench.database, window);
  } finally {
    await raw.stop();
  }
  return failures;
}

// ---------------------------------------------------------------- main

const ENDPOINTS = [
  { pair: 'leagues', kind: 'full', path: '/api/leagues' },
  { pair: 'leagues', kind: 'plain', path: '/plain/leagues' },
  { pair: 'brands', kind: 'full', path: '/api/brands' },
  { pair: 'brands', kind: 'plain', path: '/plain/brands' },
] as const;
type Endpoint = (typeof ENDPOINTS)[number];

async function checkSameAnswers(base: string): Promise<void> {
  for (const [full, plain] of [
    ['/api/leagues', '/plain/leagues'],
    ['/api/brands', '/plain/brands'],
  ] as const) {
    const [a, b] = await Promise.all([fetch(base + full), fetch(base + plain)]);
    const [ta, tb] = await Promise.all([a.text(), b.text()]);
    if (a.status !== 200 || b.status !== 200) throw new Error(`${full} answered ${a.status}, ${plain} answered ${b.status}`);
    if (ta !== tb) throw new Error(`${plain} does not answer the same body as ${full}`);
    const n = (JSON.parse(ta) as unknown[]).length;
    console.log(`  ${full.padEnd(13)} = ${plain.padEnd(15)} 200, ${n} items, ${ta.length} bytes`);
  }
}

/** The first phase: the contract stack against plain express (ABBA rounds). Returns the number of failed requests. */
async function contractPhase(database: Database, base: string, load: LoadClient): Promise<number> {
  let failures = 0;
  const cpus = os.cpus();
  const { duration, warmup, rounds, connections, pipelining } = settings;
  console.log(
    `load: autocannon in a worker thread, ${connections} connections, pipelining ${pipelining}, warm-up ${warmup} s per endpoint, ${rounds} round(s) x ${duration} s per endpoint, ABBA order`,
  );
  if (warmup > 0) {
    for (const ep of ENDPOINTS) failures += failuresOf(ep.path, await load.run(base + ep.path, warmup), 'warm-up');
  }
  const runs = new Map<Endpoint, Measured[]>(ENDPOINTS.map((ep) => [ep, []]));
  const window = await roundsAbba(ENDPOINTS, rounds, async (ep, round) => {
    const r = await withCpu(() => load.run(base + ep.path, duration));
    failures += failuresOf(ep.path, r, `round ${round + 1}`);
    runs.get(ep)!.push(r);
    const cpu = r.cpuMs === null ? '' : `, main thread ${fmt((r.cpuMs * 1000) / r.count)} us CPU/request`;
    console.log(`  round ${round + 1} ${ep.path.padEnd(15)} ${fmt(r.count / r.seconds).padStart(7)} req/s${cpu}`);
  });

  const summaries = new Map(ENDPOINTS.map((ep) => [ep, summarise(runs.get(ep)!)]));
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  };
  console.log('');
  console.log(
    `results (${database.kind}${settings.noDb ? ', BENCH_NO_DB' : ''}, node ${process.version}, ${cpus[0]?.model ?? '?'} x ${cpus.length}, ${connections} connections, ${rounds} x ${duration} s per endpoint):`,
  );
  console.log(`| endpoint           |   req/s | p50 ms | p99 ms | requests | main-thread CPU us/request |`);
  console.log(`|--------------------|--------:|-------:|-------:|---------:|---------------------------:|`);
  for (const ep of ENDPOINTS) {
    const s = summaries.get(ep)!;
    console.log(
      `| ${`GET ${ep.path}`.padEnd(18)} | ${fmt(s.rps).padStart(7)} | ${fmt(s.p50, 2).padStart(6)} | ${fmt(s.p99, 2).padStart(6)} | ${fmt(s.count).padStart(8)} | ${(s.cpuUs === null ? 'n/a' : fmt(s.cpuUs)).padStart(26)} |`,
    );
  }
  console.log('');
  for (const pair of ['leagues', 'brands'] as const) {
    const full = summaries.get(ENDPOINTS.find((e) => e.pair === pair && e.kind === 'full')!)!;
    const plain = summaries.get(ENDPOINTS.find((e) => e.pair === pair && e.kind === 'plain')!)!;
    const ratio = full.rps / plain.rps;
    const perRound = full.perRound.map((f, i) => f / plain.perRound[i]!);
    const cpu =
      full.cpuUs !== null && plain.cpuUs !== null
        ? `; CPU: ${fmt(full.cpuUs - plain.cpuUs)} us more per request, plain/full CPU per request ${fmt(plain.cpuUs / full.cpuUs, 3)}`
        : '';
    console.log(
      `ratio full-stack/plain req/s, ${pair.padEnd(7)}: ${fmt(ratio, 3)} (per round ${perRound.map((x) => fmt(x, 3)).join(', ')}; median ${fmt(median(perRound), 3)}); ` +
        `target >= 0.8: ${ratio >= 0.8 ? 'met' : 'MISSED'}${cpu}`,
    );
  }
  printMachine(database, window);
  return failures;
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

async function main(): Promise<number> {
  const cpus = os.cpus();
  console.log('question-play benchmark: contract stack (express + openapi-backend + validation) vs plain express');
  console.log(
    `node ${process.version}, ${cpus[0]?.model ?? 'unknown CPU'} x ${cpus.length} (${os.availableParallelism()} available), ${fmt(os.totalmem() / 2 ** 30, 1)} GiB RAM, ${os.platform()} ${os.release()}`,
  );

  const bench = await openBenchDatabase('qp_bench');
  // Ctrl-C: still drop the dedicated PostgreSQL database.
  process.once('SIGINT', () => {
    console.error('interrupted: cleaning up');
    void bench.drop().finally(() => process.exit(130));
  });
  let server: Server | undefined;
  let client: LoadClient | undefined;
  let services: Services | undefined;
  let failures = 0;
  try {
    const { database } = bench;
    console.log(`database: ${database.kind} (${bench.where}); open + migrations ${fmt(bench.openMs)} ms`);
    if (settings.noDb) console.log('BENCH_NO_DB: the list calls answer rows read once, no query per request (framework overhead only)');
    await seedLeagues({ db: database.db });
    await seedBrands(database);

    services = createServices({ database, config: benchConfig(), logger: createLogger('silent') });
    // As in a serving process (src/main.ts attaches the live stream): the bus listens, so the key cache and the league list are in use.
    await services.liveBus.start();
    if (settings.noDb) services = withoutDatabaseReads(services, await services.leagues.list(), await services.brands.list());
    const t0 = performance.now();
    const { app, frontDoor } = await createApp({ services });
    const createAppMs = performance.now() - t0;
    mountBefore404(app, plainRouter(services));
    ({ server } = await listen(frontDoor));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const readyMs = performance.now();

    const restart = await measureRestart(bench);
    console.log(
      `start-up: createApp ${fmt(createAppMs, 1)} ms (first, cold); process start to listening ${fmt(readyMs)} ms (includes tsx, DB creation, migrations, seeding)`,
    );
    console.log(
      `restart to ready (${restart.label}): ${fmt(restart.totalMs)} ms = open + migration check ${fmt(restart.openMs)} ms, createApp ${fmt(restart.createAppMs, 1)} ms, listen (modules already loaded)`,
    );

    console.log('answers:');
    await checkSameAnswers(base);

    client = new LoadClient();
    if (settings.phases.has('contract')) failures += await contractPhase(database, base, client);
    else console.log('contract stack against plain express: skipped (BENCH_PHASES)');
    if (settings.hot) {
      const hot = await hotPhase(database, server, base, client);
      failures += hot.failures;
      failures += await anchorPhase(bench, services, base, client, hot.data);
    } else console.log('\nhot paths and the raw anchor: skipped (BENCH_HOT=0)');
    if (failures) console.error(`\n${failures} failed requests: the figures above are not valid`);
    return failures ? 1 : 0;
  } finally {
    await client?.close();
    if (server) await closeServer(server);
    await services?.liveBus.close();
    await bench.drop();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);

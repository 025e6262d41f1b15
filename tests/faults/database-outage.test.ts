/**
 * A database outage under load, against the real service process on a
 * private PostgreSQL cluster: stopped (fast shutdown), then frozen (SIGSTOP,
 * connections stay open and nothing answers). Every request answers, and
 * during the outage with 503 and Retry-After, never 401 (which would make
 * clients drop their keys) nor 500; keys stay valid; the service comes back
 * by itself; live sockets stay open and are told to catch up; a socket
 * opened during the outage closes with 1013 (try again later), not 4401;
 * the operator UI answers 503 rather than sending its admin to sign in.
 *
 * Needs the PostgreSQL server binaries: runs in the PostgreSQL pass.
 */
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import { isCommitOutcomeUnknown, isDatabaseBusy, isDatabaseUnavailable } from '../../src/db/availability.js';
import { httpErrors } from '../../src/http/http.errors.js';
import { openDatabase, type Database } from '../../src/db/client.js';
import { createLiveBus, type BusEvent } from '../../src/live/bus.js';
import { seedLeagues } from '../../src/modules/leagues/leagues.repository.js';
import { createLogger } from '../../src/logger.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/engine.js';
import { insertIssuance } from '../helpers/engine-rows.js';
import { expectError } from '../helpers/errors.js';
import { createMatch, follow } from '../helpers/factories.js';
import { openStream, type StreamClient } from '../helpers/live-client.js';
import { testDatabaseUrl } from '../helpers/pg-url.js';
import { pgClusterAvailable, startPgCluster, type PgCluster } from '../helpers/pg-cluster.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';
import { registerUser, startTestApp, type ApiResponse } from '../helpers/test-app.js';

const enabled = Boolean(testDatabaseUrl()) && pgClusterAvailable();

interface Outcome {
  op: string;
  started: number;
  ms: number;
  status: number | 'error';
  retryAfter: string | null;
  detail?: unknown;
  error?: string;
}

interface Player {
  id: string;
  token: string;
}

let cluster: PgCluster;
let service: ServiceProcess;
const players: Player[] = [];
let adminCookie = '';
let adminCsrf = '';

/** Requests players and anonymous clients make all the time; each op is one request. */
function operations(): { name: string; run: (p: Player) => Promise<{ status: number; headers: Headers; body: unknown }> }[] {
  return [
    { name: 'me', run: (p) => service.request('GET', '/api/users/me', { token: p.token }) },
    { name: 'open questions', run: (p) => service.request('GET', '/api/question-answers/open', { token: p.token }) },
    { name: 'points', run: (p) => service.request('GET', '/api/users/me/points', { token: p.token }) },
    { name: 'followed matches', run: (p) => service.request('GET', '/api/matches', { token: p.token, query: { followed: true } }) },
    { name: 'leagues (open)', run: () => service.request('GET', '/api/leagues') },
    { name: 'matches (open)', run: () => service.request('GET', '/api/matches') },
    { name: 'logout of an unknown key', run: () => service.request('POST', '/api/auth/logout', { token: 'qp_not-a-key-at-all-0000000000000000000000' }) },
  ];
}

/** Concurrent clients sending requests back to back until stopped; every outcome is recorded. */
function startLoad(concurrency: number) {
  const outcomes: Outcome[] = [];
  const ops = operations();
  let running = true;
  const loops = Array.from({ length: concurrency }, async (_, i) => {
    for (let n = i; running; n++) {
      const op = ops[n % ops.length]!;
      const player = players[n % players.length]!;
      const started = Date.now();
      try {
        const res = await op.run(player);
        outcomes.push({
          op: op.name,
          started,
          ms: Date.now() - started,
          status: res.status,
          retryAfter: res.headers.get('retry-after'),
          detail: (res.body as { detail?: unknown })?.detail,
        });
      } catch (err) {
        outcomes.push({ op: op.name, started, ms: Date.now() - started, status: 'error', retryAfter: null, error: (err as Error).message });
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  });
  return {
    outcomes,
    async stop() {
      running = false;
      await Promise.all(loops);
      return outcomes;
    },
  };
}

/** Counts of outcomes by status (and error message), for failure messages. */
function summarize(outcomes: Outcome[]): string {
  const counts = new Map<string, number>();
  for (const o of outcomes) {
    const key = o.status === 'error' ? `error ${o.error}` : String(o.status);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return JSON.stringify(Object.fromEntries(counts));
}

/** What every outcome of an outage must look like: an answer (no hang, no reset), 200 or 503 with Retry-After; never 401 or 500. */
function expectOutageAnswers(outcomes: Outcome[]) {
  const wrong = outcomes.filter((o) => {
    if (o.op.startsWith('logout')) return o.status !== 401 && o.status !== 503;
    return o.status !== 200 && o.status !== 503;
  });
  expect(wrong, JSON.stringify(wrong.slice(0, 5))).toEqual([]);
  // An unknown key is 401 only while the database can say so.
  for (const o of outcomes.filter((x) => x.status === 503)) {
    expect(Number(o.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(o.detail).toMatch(/temporarily unavailable/);
  }
}

async function expectKeysValid() {
  for (const p of players) {
    const res = await service.request('GET', '/api/users/me', { token: p.token });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(p.id);
  }
}

/** Waits until every player's key works again: the service came back by itself. */
async function waitForRecovery() {
  await waitFor(
    async () => {
      for (const p of players) if ((await service.request('GET', '/api/users/me', { token: p.token })).status !== 200) return false;
      return true;
    },
    { what: `the service to serve again:\n${service.output().slice(-3000)}`, timeoutMs: 30_000, intervalMs: 200 },
  );
}

const cookieOf = (res: Response, name: string) =>
  res.headers
    .getSetCookie()
    .find((c) => c.startsWith(`${name}=`))
    ?.split(';')[0];

async function signInAdmin(login: string, password: string) {
  const form = await fetch(`${service.url}/admin/login`);
  const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())![1]!;
  const res = await fetch(`${service.url}/admin/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieOf(form, 'qp_admin_login_csrf')! },
    body: new URLSearchParams({ csrf, login, password }).toString(),
  });
  expect(res.status).toBe(303);
  adminCookie = cookieOf(res, 'qp_admin_session')!;
  const shell = await fetch(`${service.url}/admin/`, { headers: { cookie: adminCookie }, redirect: 'manual' });
  expect(shell.status).toBe(200);
  adminCsrf = /name="csrf-token" content="([^"]+)"/.exec(await shell.text())![1]!;
}

const streamOf = (token: string) =>
  openStream({} as never, token, { url: `${service.url.replace(/^http/, 'ws')}/api/play/stream?api_key=${encodeURIComponent(token)}` });

describe.skipIf(!enabled)('a database outage under load', () => {
  beforeAll(async () => {
    cluster = await startPgCluster();
    await cluster.createDatabase('qp');
    service = await startServiceProcess({
      DATABASE_URL: cluster.url('qp'),
      // The engine runs too: it must ride the outage out without taking the process down.
      ENGINE_WORKER: 'true',
      ENGINE_POLL_MS: '200',
      DB_CONNECT_TIMEOUT_MS: '2000',
      DB_STATEMENT_TIMEOUT_MS: '2000',
    });
    for (let i = 0; i < 4; i++) {
      const username = `outage${i}`;
      const res = await service.request('POST', '/api/auth/register', {
        body: { username, email: `${username}@example.com`, password: 'correct horse battery' },
      });
      expect(res.status).toBe(201);
      players.push({ id: res.body.user.id, token: res.body.api_key });
    }
    const sql = postgres(cluster.url('qp'), { max: 1, onnotice: () => {} });
    await sql`update users set is_admin = true where id = ${players[0]!.id}`;
    await sql.end();
    await signInAdmin('outage0', 'correct horse battery');
  });

  afterAll(async () => {
    await service?.stop();
    await cluster?.destroy();
  });

  it('stopped: requests answer 503 with Retry-After (never 401), sockets stay open, and service resumes by itself with the same keys', async () => {
    const socket = await streamOf(players[1]!.token);
    await socket.ready();
    const load = startLoad(8);
    await waitFor(async () => load.outcomes.filter((o) => o.status === 200).length >= 20, { what: 'traffic before the outage' });

    const stoppedAt = Date.now();
    await cluster.stop('fast');
    await waitFor(async () => load.outcomes.filter((o) => o.started > stoppedAt && o.status === 503).length >= 30, {
      what: () =>
        `503s during the outage; outcomes since the stop: ${summarize(load.outcomes.filter((o) => o.started > stoppedAt))}\nservice output:\n${service.output().slice(-3000)}`,
      timeoutMs: 20_000,
    });

    // Sockets: a new one closes with 1013 (try again later), never 4401 (bad key).
    const during = await streamOf(players[2]!.token);
    expect(await during.closed).toEqual({ code: 1013, reason: expect.stringMatching(/unavailable/) });
    // The operator UI: its admin is not sent to sign in again, and its key exchange is not a 401.
    const shell = await fetch(`${service.url}/admin/`, { headers: { cookie: adminCookie }, redirect: 'manual' });
    expect(shell.status).toBe(503);
    expect(shell.headers.get('retry-after')).toBeTruthy();
    const exchange = await service.request('POST', '/admin/api-session', { headers: { cookie: adminCookie, 'x-csrf-token': adminCsrf } });
    expect(exchange.status).toBe(503);

    await cluster.start();
    await waitForRecovery();
    const outcomes = await load.stop();
    expectOutageAnswers(outcomes);
    const during503 = outcomes.filter((o) => o.started > stoppedAt && o.status === 503);
    // Fail fast: well under the 10-37 s that requests used to wait (a generous bound on a loaded machine).
    expect(Math.max(...during503.map((o) => o.ms))).toBeLessThan(8000);
    await expectKeysValid();

    // The socket opened before the outage stayed open and is told to catch up.
    await socket.take('resync', 15_000);
    expect(socket.ws.readyState).toBe(socket.ws.OPEN);
    await socket.close();
  });

  it('frozen: requests answer 503 within the statement budget instead of hanging, and everything resumes on SIGCONT', async () => {
    const socket: StreamClient = await streamOf(players[3]!.token);
    await socket.ready();
    const load = startLoad(8);
    await waitFor(async () => load.outcomes.filter((o) => o.status === 200).length >= 20, { what: 'traffic before the freeze' });

    const frozenAt = Date.now();
    cluster.freeze();
    try {
      await waitFor(async () => load.outcomes.filter((o) => o.started > frozenAt + 100 && o.status === 503).length >= 16, {
        what: '503s while frozen',
        timeoutMs: 30_000,
      });
      const during = await streamOf(players[2]!.token);
      expect((await during.closed).code).toBe(1013);
      const exchange = await service.request('POST', '/admin/api-session', { headers: { cookie: adminCookie, 'x-csrf-token': adminCsrf } });
      expect(exchange.status).toBe(503);
    } finally {
      cluster.thaw();
    }
    await waitForRecovery();
    const outcomes = await load.stop();
    expectOutageAnswers(outcomes);
    // Requests sent while frozen: none waited for the thaw.
    const whileFrozen = outcomes.filter((o) => o.started > frozenAt + 100 && o.status === 503);
    expect(whileFrozen.length).toBeGreaterThanOrEqual(16);
    expect(Math.max(...whileFrozen.map((o) => o.ms))).toBeLessThan(8000);
    await expectKeysValid();
    expect(socket.ws.readyState).toBe(socket.ws.OPEN);
    await socket.close();
    expect(service.child.exitCode).toBeNull();
  });
});

describe.skipIf(!enabled)("the live bus and the engine's connections through an outage", () => {
  const logger = createLogger('silent');
  const limits = { connectTimeoutMs: 1000, statementTimeoutMs: 1000, idleInTransactionTimeoutMs: 5000 };
  let busCluster: PgCluster;
  let a: Database;
  let b: Database;
  /**
   * A guard for a freeze the test makes: it thaws the cluster after
   * `guardMs` (a test that would otherwise wait for the thaw fails instead
   * of hanging). The returned function thaws it and says whether it was
   * still frozen by the test's own hand, not thawed by the guard.
   */
  const thawGuard = (guardMs: number) => {
    let guarded = false;
    const guard = setTimeout(() => {
      guarded = true;
      busCluster.thaw();
    }, guardMs);
    return () => {
      clearTimeout(guard);
      busCluster.thaw();
      return !guarded;
    };
  };
  beforeAll(async () => {
    busCluster = await startPgCluster();
    a = await openDatabase({ url: busCluster.url(), limits });
    b = await openDatabase({ url: busCluster.url(), limits, migrate: false });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await busCluster?.destroy();
  });

  it('listens again as soon as the database is back and tells subscribers to resync then, not at the next probe', async () => {
    // Probes an hour apart: only the reconnection can notice.
    const bus = createLiveBus({ database: a, logger, probeMs: 3_600_000 });
    const seen: BusEvent[] = [];
    let resyncs = 0;
    bus.subscribe({ onEvent: (e) => seen.push(e), onResync: () => resyncs++ });
    try {
      await bus.start();
      await busCluster.stop('fast');
      await waitFor(async () => !bus.listening, { what: 'the bus to notice', timeoutMs: 10_000 });
      // Down for a while: several attempts fail before it is back.
      await new Promise((r) => setTimeout(r, 1500));
      expect(resyncs).toBe(0);
      await busCluster.start();
      await waitFor(async () => resyncs === 1, { what: 'a resync after the restart', timeoutMs: 15_000 });
      expect(bus.listening).toBe(true);
      const event: BusEvent = { k: 'keys', u: '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b' };
      await waitFor(
        async () => {
          await bus.publish(event);
          return seen.length > 0;
        },
        { what: 'events after the restart', timeoutMs: 10_000, intervalMs: 200 },
      );
      expect(seen[0]).toEqual(event);
    } finally {
      await bus.close();
    }
  });

  it('an event lost because its NOTIFY failed (frozen database) makes every process resync once NOTIFY works again', async () => {
    const publisher = createLiveBus({ database: a, logger, probeMs: 3_600_000 });
    const listener = createLiveBus({ database: b, logger, probeMs: 3_600_000 });
    let resyncs = 0;
    listener.subscribe({ onEvent: () => {}, onResync: () => resyncs++ });
    try {
      await listener.start();
      busCluster.freeze();
      try {
        // Fails after the statement budget; its LISTEN connections never closed.
        await publisher.publish({ k: 'keys', u: '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b' });
      } finally {
        busCluster.thaw();
      }
      await waitFor(async () => resyncs === 1, { what: "the listener's resync", timeoutMs: 15_000 });
    } finally {
      await publisher.close();
      await listener.close();
    }
  });

  it('a COMMIT on its way when the database froze: its caller hears, while it is still frozen, that the outcome is unknown (and the change is there after the thaw)', async () => {
    const c = await openDatabase({ url: busCluster.url(), migrate: false, limits: { ...limits, commitTimeoutMs: 1000 } });
    try {
      await c.rows(sql`create table if not exists commit_probe (n int not null)`);
      const thaw = thawGuard(15_000);
      const outcome = await c.db
        .transaction(async (tx) => {
          await tx.execute(sql`insert into commit_probe values (1)`);
          // What goes out next is COMMIT, to a server that does not answer.
          busCluster.freeze();
        })
        .then(
          () => 'reported committed',
          (err: unknown) => err,
        );
      const heardWhileFrozen = thaw();
      expect(heardWhileFrozen, 'the caller heard only when the database was back').toBe(true);
      // Never "failed, nothing done": it may have committed.
      expect(isCommitOutcomeUnknown(outcome), String(outcome)).toBe(true);
      // It had: once the server resumes, the row is there.
      await waitFor(async () => (await c.rows<{ n: number }>(sql`select count(*)::int as n from commit_probe`))[0]!.n === 1, {
        what: 'the commit to land',
        timeoutMs: 10_000,
      });
    } finally {
      busCluster.thaw();
      await c.close();
    }
  });

  it('a request whose COMMIT goes unanswered answers 503 database.outcome_unknown with Retry-After while the database is frozen, and its answer is stored after the thaw', async () => {
    const app = await startTestApp({
      databaseUrl: busCluster.url(),
      databaseLimits: { connectTimeoutMs: 1000, statementTimeoutMs: 1000, poolWaitMs: 1000, commitTimeoutMs: 1000, idleInTransactionTimeoutMs: 5000 },
    });
    const db = app.services.database.db;
    try {
      await seedLeagues({ db });
      const player = await registerUser(app);
      const match = await createMatch(app, { status: 'live' });
      await follow(app, player.id, match.id);
      const issuance = await insertIssuance(app, { matchId: match.id });
      // The answer's transaction ends with the database frozen: what goes out next is its COMMIT.
      let answering = false;
      const stop = app.services.database.onQuery((query) => {
        if (/^insert into "question_answers"/.test(query)) answering = true;
      });
      const transaction = db.transaction.bind(db);
      db.transaction = ((fn, config) =>
        transaction(async (tx) => {
          const result = await fn(tx);
          if (answering) {
            answering = false;
            busCluster.freeze();
          }
          return result;
        }, config)) as typeof db.transaction;
      const thaw = thawGuard(15_000);
      let res: ApiResponse;
      try {
        res = await app.request('PUT', '/api/question-answers', {
          token: player.token,
          body: { question_issuance_id: issuance.id, selected_answer_identifier: 'home' },
        });
      } finally {
        stop();
      }
      expect(thaw(), 'the request was answered only when the database was back').toBe(true);
      expectError(res, httpErrors.outcomeUnknown);
      expect(res.headers.get('retry-after')).toBe('2');
      expect(res.body.detail).toMatch(/may have been stored/);
      // It was: read back, the answer is there.
      await waitFor(
        async () => {
          const history = await app.request('GET', '/api/question-answers', { token: player.token, query: { match_id: match.id } });
          return history.status === 200 && history.body.some((a: { selected_answer_identifier: string }) => a.selected_answer_identifier === 'home');
        },
        { what: 'the answer to be stored', timeoutMs: 10_000, intervalMs: 200 },
      );
    } finally {
      busCluster.thaw();
      delete (db as Partial<typeof db>).transaction;
      await app.close();
    }
  });

  it('a wait for a connection while the server does not answer ends as an outage after the statement budget, not after the (longer) wait for a connection', async () => {
    const c = await openDatabase({ url: busCluster.url(), migrate: false, maxConnections: 1, limits: { ...limits, poolWaitMs: 120_000 } });
    try {
      await c.rows(sql`select 1`);
      const thaw = thawGuard(15_000);
      busCluster.freeze();
      const holder = c.rows(sql`select 1`).catch((e: unknown) => e);
      const waiter = await c.rows(sql`select 2`).catch((e: unknown) => e);
      expect(thaw(), 'the waiter gave up only when the database was back').toBe(true);
      expect(isDatabaseUnavailable(waiter)).toBe(true);
      expect(isDatabaseBusy(waiter), String(waiter)).toBe(false);
      expect(isDatabaseUnavailable(await holder)).toBe(true);
    } finally {
      busCluster.thaw();
      await c.close();
    }
  });

  it("the engine's budget waits a restart out (its statements and transactions complete once the database is back); the API's fails at once", async () => {
    const engine = await openDatabase({
      url: busCluster.url(),
      migrate: false,
      maxConnections: 2,
      limits: { connectTimeoutMs: 2000, statementTimeoutMs: 20_000, idleInTransactionTimeoutMs: 20_000, retryConnectFailures: true },
    });
    try {
      await busCluster.stop('fast');
      const api = await a.rows(sql`select 1 as one`).catch((err: unknown) => err);
      expect(isDatabaseUnavailable(api)).toBe(true);
      const statement = engine.rows<{ one: number }>(sql`select 1 as one`);
      const transaction = engine.db.transaction(async (tx) => (await tx.execute(sql`select 2 as two`)) as unknown);
      await new Promise((r) => setTimeout(r, 1000));
      await busCluster.start();
      expect(await statement).toEqual([{ one: 1 }]);
      expect(await transaction).toEqual([{ two: 2 }]);
    } finally {
      await engine.close();
    }
  });
});

/**
 * npm run bench:ws: WebSocket fan-out (the target: one issuance reaches
 * 10,000 connected followers, p99 under 1 s).
 *
 * The server (this process) is the real one: createServices + createApp +
 * attachLiveStream on loopback, on an in-memory PGlite or, with DATABASE_URL,
 * on a dedicated PostgreSQL database qp_benchws_<pid> (created and dropped).
 * It seeds one match and BENCH_WS_SOCKETS users (default 10,000) following
 * it, each with an API key. Client processes (BENCH_WS_CLIENTS, default 4;
 * one event loop should not hold 10,000 sockets next to the server's
 * 10,000, and the open-file limit is per process) open one socket per user
 * and wait for hello and open_questions, BENCH_WS_CONNECT_CONCURRENCY (default
 * 100) handshakes at a time per client process.
 *
 * Then, BENCH_WS_ROUNDS times (default 5): an issuance is inserted and handed
 * to the engine hooks exactly as a listener does (NOTIFY on the live bus,
 * LISTEN, one lookup, one serialization, 10,000 sends), and every socket
 * records when its `question` arrived; then half of the users answer and the
 * issuance is settled with scoring in the settling transaction, and every
 * socket records its `resolution` (its own answer, outcome and points, from
 * one statement for all receivers). Latency of a socket = its receive time
 * minus the time just before the hook was called (wall clock with sub-ms
 * resolution, shared by the processes of one machine).
 *
 * With BENCH_WS_PROCESSES=N (N > 1; PostgreSQL only, DATABASE_URL), the
 * sockets are served by N API processes on the one database, as several
 * replicas behind a load balancer would serve them: each process is the
 * real service (its own pool, its own LISTEN connection, its own hub), the
 * clients spread their sockets evenly over them, and the issuance is
 * published from this process, so it reaches every API process only through
 * NOTIFY. Besides the latency to the last socket across all processes, each
 * process reports per round its CPU time and the SQL statements it ran
 * (the lookup behind the NOTIFY): the cost that repeats per process.
 *
 * With BENCH_WS_APART=1 the API processes run apart from the publisher even
 * when BENCH_WS_PROCESSES is 1 (the statements it reports are then the API
 * side's alone). With REDIS_URL set, every process (publisher and API) runs
 * live delivery on Redis (src/live/redis-bus.ts) under a key prefix of this
 * run's own (deleted at the end): the publisher reads each message once and
 * the API processes read none; the table then also shows the publisher's
 * statements per event. `npm run bench:ws` on PostgreSQL without REDIS_URL
 * against the same with it, for 1, 2, 4 and 8 processes, is the comparison
 * of docs/performance.md (database statements per live event).
 *
 * Prints per round and overall p50 / p90 / p99 / max and the total (last
 * socket), the connect phase, server memory and CPU, and the machine.
 * Exits non-zero when a socket misses a message or gets a wrong one, never
 * on a missed target.
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { WebSocket } from 'ws';

const self = fileURLToPath(import.meta.url);

function envInt(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got '${raw}'`);
  return n;
}

const now = () => performance.timeOrigin + performance.now();

/** The environment every process of the run loads its configuration from: Redis (when REDIS_URL is set) under the run's own prefix. */
const benchEnv = () => ({
  APP_ENV: 'test',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  DATA_DIR: ':memory:',
  ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL, REDIS_KEY_PREFIX: process.env.BENCH_WS_REDIS_PREFIX ?? `qp-benchws-${process.pid}:` } : {}),
});

// ---------------------------------------------------------------- client process

type ToClient = { kind: 'connect'; url: string; keys: string[] } | { kind: 'arm'; type: 'question' | 'resolution'; id: string } | { kind: 'exit' };
type FromClient =
  | { kind: 'up' }
  | { kind: 'ready'; connected: number; failed: number; ms: number }
  | { kind: 'armed' }
  | { kind: 'done'; times: number[]; answered: number; wrong: number };

async function clientMain() {
  const sockets: WebSocket[] = [];
  let armed: { type: string; id: string; times: number[]; got: number; answered: number; wrong: number; timer: NodeJS.Timeout } | null = null;
  const send = (m: FromClient) => process.send!(m);
  const finish = () => {
    if (!armed) return;
    clearTimeout(armed.timer);
    const { times, answered, wrong } = armed;
    armed = null;
    send({ kind: 'done', times, answered, wrong });
  };

  const onMessage = (i: number) => (data: WebSocket.RawData) => {
    const at = now();
    if (!armed) return;
    const m = JSON.parse(data.toString()) as { type: string; question?: { question_issuance_id: string }; question_issuance_id?: string; answer?: unknown };
    if (m.type !== armed.type) return;
    const id = m.type === 'question' ? m.question!.question_issuance_id : m.question_issuance_id;
    if (id !== armed.id) return;
    if (!Number.isNaN(armed.times[i])) {
      armed.wrong++;
      return;
    }
    armed.times[i] = at;
    armed.got++;
    if (m.answer) armed.answered++;
    if (armed.got === sockets.length) finish();
  };

  send({ kind: 'up' });
  process.on('message', async (msg: ToClient) => {
    if (msg.kind === 'exit') {
      for (const ws of sockets) ws.terminate();
      process.exit(0);
    }
    if (msg.kind === 'arm') {
      armed = { type: msg.type, id: msg.id, times: new Array(sockets.length).fill(NaN), got: 0, answered: 0, wrong: 0, timer: setTimeout(finish, 30_000) };
      send({ kind: 'armed' });
      return;
    }
    const t0 = performance.now();
    let failed = 0;
    let next = 0;
    // A bounded number of handshakes at a time, as real reconnect storms are spread.
    const worker = async () => {
      while (next < msg.keys.length) {
        const i = next++;
        const ok = await new Promise<boolean>((resolve) => {
          const ws = new WebSocket(`${msg.url}?api_key=${encodeURIComponent(msg.keys[i]!)}`, { perMessageDeflate: false });
          let seen = 0;
          const fail = () => resolve(false);
          ws.once('error', fail);
          ws.once('close', fail);
          ws.on('message', (data) => {
            // hello, then open_questions: the socket is set up.
            if (++seen < 2) return;
            ws.removeAllListeners('message');
            ws.removeListener('close', fail);
            ws.on('message', onMessage(i));
            sockets[i] = ws;
            void data;
            resolve(true);
          });
        });
        if (!ok) failed++;
      }
    };
    await Promise.all(Array.from({ length: envInt('BENCH_WS_CONNECT_CONCURRENCY', 100, 1) }, worker));
    send({ kind: 'ready', connected: sockets.filter(Boolean).length, failed, ms: performance.now() - t0 });
  });
}

// ---------------------------------------------------------------- API process (BENCH_WS_PROCESSES > 1)

type ToApi = { kind: 'round' } | { kind: 'report' } | { kind: 'exit' };
type FromApi = { kind: 'listening'; url: string } | { kind: 'report'; cpuMs: number; statements: number; rssMiB: number; heapMiB: number; sockets: number };

/** One API process of several: the real service on the shared database, serving the stream; reports its CPU and statements per round. */
async function apiMain() {
  const send = (m: FromApi) => process.send!(m);
  const { loadConfig } = await import('../src/config.js');
  const { openDatabase } = await import('../src/db/client.js');
  const { createApp } = await import('../src/http/app.js');
  const { attachLiveStream } = await import('../src/live/stream.js');
  const { createLogger } = await import('../src/logger.js');
  const { createServices } = await import('../src/services.js');
  const config = loadConfig(benchEnv());
  const database = await openDatabase({ url: process.env.BENCH_WS_DATABASE_URL!, limits: config.database.api });
  const services = createServices({ database, config, logger: createLogger(config.logLevel) });
  const { app } = await createApp({ services });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const live = await attachLiveStream({ server, services });
  let statements = 0;
  database.onQuery(() => void statements++);
  let cpu0 = process.cpuUsage();
  process.on('message', async (m: ToApi) => {
    if (m.kind === 'round') {
      cpu0 = process.cpuUsage();
      statements = 0;
    } else if (m.kind === 'report') {
      const cpu = process.cpuUsage(cpu0);
      const mem = process.memoryUsage();
      send({
        kind: 'report',
        cpuMs: (cpu.user + cpu.system) / 1000,
        statements,
        rssMiB: mem.rss / 2 ** 20,
        heapMiB: mem.heapUsed / 2 ** 20,
        sockets: live.hub.stats().sockets,
      });
    } else if (m.kind === 'exit') {
      await live.close();
      server.closeAllConnections();
      server.close();
      await database.close().catch(() => {});
      process.exit(0);
    }
  });
  send({ kind: 'listening', url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/api/play/stream` });
}

// ---------------------------------------------------------------- server process

function openFileLimit(): { soft: number; hard: number } | null {
  try {
    const line = fs
      .readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const [soft, hard] = line!
      .trim()
      .split(/\s+/)
      .slice(3, 5)
      .map((v) => (v === 'unlimited' ? Infinity : Number(v)));
    return { soft: soft!, hard: hard! };
  } catch {
    return null;
  }
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '-');

async function serverMain() {
  const total = envInt('BENCH_WS_SOCKETS', 10_000, 1);
  const clientCount = Math.min(envInt('BENCH_WS_CLIENTS', 4, 1), total);
  const rounds = envInt('BENCH_WS_ROUNDS', 5, 1);
  const processes = envInt('BENCH_WS_PROCESSES', 1, 1);
  const apart = processes > 1 || process.env.BENCH_WS_APART === '1';
  const perClient = Math.ceil(total / clientCount);
  // One prefix for the run's processes (the API processes inherit it).
  process.env.BENCH_WS_REDIS_PREFIX ??= `qp-benchws-${process.pid}:`;
  if (apart && !process.env.DATABASE_URL) {
    console.error(
      'bench:ws: BENCH_WS_PROCESSES > 1 needs PostgreSQL (set DATABASE_URL): the API processes share one database, which an in-memory PGlite cannot be.',
    );
    process.exit(2);
  }

  const limit = openFileLimit();
  const need = Math.ceil(total / processes) + 512;
  if (limit && limit.soft < need) {
    console.error(
      `bench:ws: this process may open ${limit.soft} files, and the server needs about ${need} (one per socket).` +
        ` Raise the limit first (hard limit ${limit.hard}): ulimit -n ${Math.min(limit.hard, Math.max(need, 2 * need))}  then run npm run bench:ws again, or set BENCH_WS_SOCKETS lower.`,
    );
    process.exit(2);
  }
  if (limit && limit.soft < perClient + 512) {
    console.error(`bench:ws: each client process opens ${perClient} sockets but may open ${limit.soft} files; raise ulimit -n or BENCH_WS_CLIENTS.`);
    process.exit(2);
  }

  const { loadConfig } = await import('../src/config.js');
  const { createApp } = await import('../src/http/app.js');
  const { attachLiveStream } = await import('../src/live/stream.js');
  const { createLogger } = await import('../src/logger.js');
  const { generateApiKey } = await import('../src/modules/auth/credentials.js');
  const { questionAnswers } = await import('../src/modules/answers/answers.table.js');
  const { questionIssuances } = await import('../src/modules/issuances/issuances.table.js');
  const { seedLeagues } = await import('../src/modules/leagues/leagues.repository.js');
  const { leagues } = await import('../src/modules/leagues/leagues.table.js');
  const { matches, matchFollows } = await import('../src/modules/matches/matches.table.js');
  const { users } = await import('../src/modules/users/users.table.js');
  const { apiKeys } = await import('../src/modules/auth/auth.table.js');
  const { createServices } = await import('../src/services.js');

  const { openBenchDatabase } = await import('./bench-database.js');
  const { database, where, drop, url: databaseUrl } = await openBenchDatabase('qp_benchws');
  const children: ChildProcess[] = [];
  const apis: ChildProcess[] = [];
  const cleanup = async () => {
    for (const c of [...children, ...apis]) c.kill('SIGKILL');
    await drop().catch(() => {});
    if (process.env.REDIS_URL) {
      const { Redis } = await import('ioredis');
      const redis = new Redis(process.env.REDIS_URL);
      let cursor = '0';
      do {
        const [next, found] = await redis.scan(cursor, 'MATCH', `${process.env.BENCH_WS_REDIS_PREFIX}*`, 'COUNT', 1000);
        cursor = next;
        if (found.length) await redis.unlink(...found);
      } while (cursor !== '0');
      redis.disconnect();
    }
  };
  process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));

  try {
    await seedLeagues({ db: database.db });
    const config = loadConfig(benchEnv());
    const services = createServices({ database, config, logger: createLogger(config.logLevel) });
    const { app } = await createApp({ services });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const live = await attachLiveStream({ server, services });
    const localUrl = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/api/play/stream`;
    const { db } = database;

    // Several API processes: each serves its share of the sockets; this one only publishes.
    const apiUrls: string[] = [];
    let published = 0;
    database.onQuery(() => void published++);
    if (apart) {
      for (let i = 0; i < processes; i++) {
        const child = fork(self, ['--api'], { stdio: 'inherit', env: { ...process.env, BENCH_WS_DATABASE_URL: databaseUrl! } });
        apis.push(child);
        apiUrls.push(
          await new Promise<string>((resolve, reject) => {
            child.once('exit', (code) => reject(new Error(`API process ${i + 1} exited (${code}) before listening`)));
            child.on('message', (m: FromApi) => m.kind === 'listening' && resolve(m.url));
          }),
        );
      }
      console.log(
        `${processes} API processes listening (${process.env.REDIS_URL ? 'Redis streams: one reader each' : 'one LISTEN connection each'}); this process publishes`,
      );
    }
    const urlOf = (clientIndex: number) => (apart ? apiUrls[clientIndex % processes]! : localUrl);
    const askApis = () =>
      Promise.all(
        apis.map(
          (c) =>
            new Promise<Extract<FromApi, { kind: 'report' }>>((resolve) => {
              const on = (m: FromApi) => {
                if (m.kind !== 'report') return;
                c.off('message', on);
                resolve(m);
              };
              c.on('message', on);
              c.send({ kind: 'report' } satisfies ToApi);
            }),
        ),
      );

    // Seed: one match, its followers with keys, one open question already there.
    const t0 = performance.now();
    const [league] = await db
      .select()
      .from(leagues)
      .where(sql`${leagues.slug} = 'wc'`);
    const [match] = await db
      .insert(matches)
      .values({
        srId: `bench:${randomUUID()}`,
        leagueId: league!.id,
        homeTeam: 'Lions',
        awayTeam: 'Tigers',
        scheduled: new Date(Date.now() + 3600_000),
        status: 'live',
      })
      .returning();
    const keys: string[] = [];
    const userIds: string[] = [];
    for (let start = 0; start < total; start += 1000) {
      const n = Math.min(1000, total - start);
      const rows = await db
        .insert(users)
        .values(Array.from({ length: n }, (_, j) => ({ username: `bench${start + j}`, email: `bench${start + j}@example.com`, matchDailyFollowCount: null })))
        .returning({ id: users.id });
      const issued = rows.map(() => generateApiKey());
      await db.insert(apiKeys).values(rows.map((r, j) => ({ userId: r.id, keyDigest: issued[j]!.digest, keyPrefix: issued[j]!.prefix })));
      await db.insert(matchFollows).values(rows.map((r) => ({ userId: r.id, matchId: match!.id })));
      keys.push(...issued.map((k) => k.key));
      userIds.push(...rows.map((r) => r.id));
    }
    const question = (n: number) => ({
      matchId: match!.id,
      kind: 'in_game' as const,
      definitionName: 'Next goal',
      questionText: `Lions 1-0 Tigers. Who scores next? (#${n})`,
      choices: [
        { identifier: 'home', label: 'Lions' },
        { identifier: 'away', label: 'Tigers' },
        { identifier: 'none', label: 'No one' },
      ],
      resolution: { rules: [] },
      triggerEventId: `bench-${n}`,
      closesAt: new Date(Date.now() + 120_000),
      points: 10,
    });
    await db.insert(questionIssuances).values(question(0));
    console.log(`seeded ${total} followers with keys in ${fmt((performance.now() - t0) / 1000)} s (${where})`);

    // Clients.
    const send = (c: ChildProcess, m: ToClient) => c.send(m);
    const waitAll = <K extends FromClient['kind']>(kind: K) =>
      Promise.all(
        children.map(
          (c) =>
            new Promise<Extract<FromClient, { kind: K }>>((resolve) => {
              const on = (m: FromClient) => {
                if (m.kind !== kind) return;
                c.off('message', on);
                resolve(m as Extract<FromClient, { kind: K }>);
              };
              c.on('message', on);
            }),
        ),
      );
    if (apart && clientCount % processes !== 0)
      console.warn(
        `bench:ws: ${clientCount} client processes over ${processes} API processes: the sockets are not spread evenly; use a multiple of ${processes}`,
      );
    for (let i = 0; i < clientCount; i++) children.push(fork(self, ['--client'], { stdio: 'inherit' }));
    await waitAll('up');
    const tc = performance.now();
    const ready = waitAll('ready');
    children.forEach((c, i) => send(c, { kind: 'connect', url: urlOf(i), keys: keys.slice(i * perClient, (i + 1) * perClient) }));
    const readies = await ready;
    const connectMs = performance.now() - tc;
    const connected = readies.reduce((s, r) => s + r.connected, 0);
    const failed = readies.reduce((s, r) => s + r.failed, 0);
    const stats = live.hub.stats();
    console.log(
      `connected ${connected}/${total} sockets (hello + open_questions each) in ${fmt(connectMs / 1000)} s, ${fmt((connected / connectMs) * 1000, 0)} sockets/s; ${failed} failed; hub: ${JSON.stringify(stats)}`,
    );
    if (apart) {
      for (const [i, r] of (await askApis()).entries())
        console.log(`API process ${i + 1}: ${r.sockets} sockets, RSS ${fmt(r.rssMiB, 0)} MiB, JS heap ${fmt(r.heapMiB, 0)} MiB`);
    } else {
      const mem = process.memoryUsage();
      console.log(`server with the sockets: RSS ${fmt(mem.rss / 2 ** 20, 0)} MiB, JS heap ${fmt(mem.heapUsed / 2 ** 20, 0)} MiB`);
    }
    if (connected !== total) throw new Error(`${total - connected} sockets did not connect`);

    // Rounds.
    /** lat: from the hook call (publish); for resolutions `prepMs` is the settling transaction (scoring) before it. */
    type Result = {
      round: number;
      type: string;
      lat: number[];
      total: number;
      cpuMs: number;
      answered: number;
      wrong: number;
      prepMs: number;
      perProcess: { cpuMs: number; statements: number }[];
      /** Statements of the publishing process from the hook call until every socket had the message. */
      published: number;
    };
    const results: Result[] = [];
    const measure = async (type: 'question' | 'resolution', id: string, prepare: () => Promise<() => Promise<void>>, round: number): Promise<Result> => {
      const armed = waitAll('armed');
      children.forEach((c) => send(c, { kind: 'arm', type, id }));
      await armed;
      const done = waitAll('done');
      apis.forEach((c) => c.send({ kind: 'round' } satisfies ToApi));
      const cpu0 = process.cpuUsage();
      const t = now();
      const fire = await prepare();
      const start = now();
      const published0 = published;
      await fire();
      const reports = await done;
      const publishedNow = published - published0;
      const cpu = process.cpuUsage(cpu0);
      const perProcess = apart ? (await askApis()).map((r) => ({ cpuMs: r.cpuMs, statements: r.statements })) : [];
      const lat = reports.flatMap((r) => r.times).map((t) => t - start);
      const missing = lat.filter((l) => Number.isNaN(l)).length;
      if (missing) throw new Error(`${missing} sockets missed the ${type} of round ${round}`);
      lat.sort((a, b) => a - b);
      return {
        round,
        type,
        lat,
        total: lat[lat.length - 1]!,
        prepMs: start - t,
        cpuMs: (cpu.user + cpu.system) / 1000,
        perProcess,
        published: publishedNow,
        answered: reports.reduce((s, r) => s + r.answered, 0),
        wrong: reports.reduce((s, r) => s + r.wrong, 0),
      };
    };
    const { hooks, store } = services.engine;
    for (let round = 1; round <= rounds; round++) {
      const [row] = await db.insert(questionIssuances).values(question(round)).returning();
      results.push(await measure('question', row!.id, async () => async () => void (await hooks.onIssued!(row!)), round));
      // Half of the followers answer (alternating right and wrong), then the question resolves.
      const answering = userIds.filter((_, i) => i % 2 === 0);
      for (let s = 0; s < answering.length; s += 1000) {
        await db
          .insert(questionAnswers)
          .values(
            answering
              .slice(s, s + 1000)
              .map((userId, j) => ({ userId, questionIssuanceId: row!.id, matchId: match!.id, selectedAnswerIdentifier: (s + j) % 2 ? 'away' : 'home' })),
          );
      }
      const r = await measure(
        'resolution',
        row!.id,
        async () => {
          const settled = await store.settleIssuance({ id: row!.id, status: 'resolved', correct: 'home', resolvedSeq: null, resolutionEventId: null });
          return async () => void (await hooks.onSettled!(settled!));
        },
        round,
      );
      if (r.answered !== answering.length) throw new Error(`round ${round}: ${r.answered} resolutions carried an answer, expected ${answering.length}`);
      results.push(r);
      for (const x of results.slice(-2)) if (x.wrong) throw new Error(`round ${round}: ${x.wrong} duplicate ${x.type} messages`);
    }

    // Report.
    const cpus = os.cpus();
    const version = (await database.rows<{ v: string }>(sql`select version() as v`))[0]?.v ?? '';
    console.log(
      `\nnode ${process.version}, ${cpus[0]?.model ?? 'unknown CPU'} x ${cpus.length}, ${fmt(os.totalmem() / 2 ** 30)} GiB RAM, ${os.platform()} ${os.release()}; load average ${os
        .loadavg()
        .map((l) => fmt(l, 2))
        .join(' ')}`,
    );
    console.log(
      `database: ${where}${version ? ` (${version.split(' on ')[0]})` : ''}; ${clientCount} client processes; ${total} sockets` +
        (process.env.REDIS_URL ? '; live delivery on Redis streams' : '; live delivery on LISTEN/NOTIFY') +
        (apart ? ` over ${processes} API processes (${Math.ceil(total / processes)} each), published from a separate process` : ''),
    );
    console.log('\nLatency from the engine hook (publish) to each socket; resolutions are preceded by their scoring transaction (own column).');
    const cpuHead = apart ? 'CPU ms per API process | statements per API process | publisher statements' : 'server CPU ms';
    console.log(`\n| round | message | p50 ms | p90 ms | p99 ms | max (all received) ms | scoring tx ms | ${cpuHead} |`);
    console.log(`|--:|---|--:|--:|--:|--:|--:|--:|${apart ? '--:|--:|' : ''}`);
    for (const r of results) {
      const cpuCells = apart
        ? `${r.perProcess.map((p) => fmt(p.cpuMs, 0)).join(' / ')} | ${r.perProcess.map((p) => p.statements).join(' / ')} | ${r.published}`
        : fmt(r.cpuMs, 0);
      console.log(
        `| ${r.round} | ${r.type} | ${fmt(percentile(r.lat, 50))} | ${fmt(percentile(r.lat, 90))} | ${fmt(percentile(r.lat, 99))} | ${fmt(r.total)} | ${r.type === 'resolution' ? fmt(r.prepMs) : ''} | ${cpuCells} |`,
      );
    }
    for (const type of ['question', 'resolution']) {
      const all = results
        .filter((r) => r.type === type)
        .flatMap((r) => r.lat)
        .sort((a, b) => a - b);
      const worst = Math.max(...results.filter((r) => r.type === type).map((r) => r.total));
      console.log(
        `${type}: all rounds p50 ${fmt(percentile(all, 50))} ms, p99 ${fmt(percentile(all, 99))} ms, worst total ${fmt(worst)} ms -> target p99 < 1000 ms ${percentile(all, 99) < 1000 ? 'met' : 'MISSED'}`,
      );
    }

    children.forEach((c) => send(c, { kind: 'exit' }));
    apis.forEach((c) => c.send({ kind: 'exit' } satisfies ToApi));
    await Promise.all(apis.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
    await live.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  } finally {
    await cleanup();
  }
}

if (process.argv.includes('--client')) {
  void clientMain();
} else if (process.argv.includes('--api')) {
  apiMain().catch((err) => {
    console.error(err);
    process.exit(1);
  });
} else {
  serverMain().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}

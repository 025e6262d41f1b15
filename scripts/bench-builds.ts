/**
 * npm run bench:builds: two compiled builds of the service against each
 * other, one lever at a time (docs/performance.md, "Levers, each measured
 * on its own").
 *
 * Creates a database `qp_builds_<pid>` on the DATABASE_URL server (dropped
 * at the end), seeds the leagues and the hot-path data set
 * (scripts/bench-hot.ts), starts `node <build>/main.js` for each build as a
 * serving process (`APP_ENV=main`, no engine worker, no demo data) on that
 * database, then loads each endpoint on both in turn, in ABBA rounds, with
 * autocannon in this process (the builds run in processes of their own).
 * For each run it reads each build's CPU time from /proc (all its threads,
 * and its main thread) and prints req/s, CPU per request and the B/A ratios.
 *
 * Environment: DATABASE_URL (required), BENCH_BUILD_A (default distA),
 * BENCH_BUILD_B (default dist): build directories of this checkout or
 * another (`npm run build` there, then copy dist/); BENCH_BUILDS_ENDPOINTS
 * (parts of labels, default all: leagues, matches, open, PUT, points),
 * BENCH_DURATION (4 s), BENCH_ROUNDS (4), BENCH_WARMUP (2 s),
 * BENCH_CONNECTIONS (10). Exits non-zero on failed requests only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { seedLeagues } from '../src/modules/leagues/leagues.repository.js';
import { openBenchDatabase } from './bench-database.js';
import { hotEndpoints, seedHotPaths, type HotRequest } from './bench-hot.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const num = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const settings = {
  a: path.resolve(root, process.env.BENCH_BUILD_A ?? 'distA'),
  b: path.resolve(root, process.env.BENCH_BUILD_B ?? 'dist'),
  duration: num('BENCH_DURATION', 4),
  rounds: num('BENCH_ROUNDS', 4),
  warmup: num('BENCH_WARMUP', 2),
  connections: num('BENCH_CONNECTIONS', 10),
  endpoints: (process.env.BENCH_BUILDS_ENDPOINTS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
};

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });

/** utime + stime of a /proc stat file, ms. */
function statMs(file: string): number {
  const stat = fs.readFileSync(file, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
const cpuOf = (pid: number) => ({ all: statMs(`/proc/${pid}/stat`), main: statMs(`/proc/${pid}/task/${pid}/stat`) });

interface Build {
  name: 'A' | 'B';
  dir: string;
  base: string;
  child: ChildProcess;
}

async function startBuild(name: Build['name'], dir: string, databaseUrl: string): Promise<Build> {
  if (!fs.existsSync(path.join(dir, 'main.js'))) throw new Error(`${dir}/main.js does not exist: build it (npm run build) and copy dist/ there`);
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(dir, 'main.js')], {
    cwd: root,
    env: {
      ...process.env,
      APP_ENV: 'main',
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ENGINE_WORKER: 'false',
      DEMO_DATA: 'false',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`build ${name} (${dir}) exited at start`);
    try {
      if ((await fetch(`${base}/readyz`)).status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (i > 600) throw new Error(`build ${name} (${dir}) not ready after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { name, dir, base, child };
}

function load(url: string, method: string, rotation: HotRequest[] | undefined, seconds: number): Promise<{ count: number; bad: number }> {
  let next = 0;
  const requests = rotation?.length
    ? [
        {
          setupRequest: (req: autocannon.Request) => {
            const r = rotation[next++ % rotation.length]!;
            const headers: Record<string, string | string[]> = { ...req.headers, authorization: `Bearer ${r.token}` };
            if (r.body !== undefined) headers['content-type'] = 'application/json';
            return { ...req, headers, body: r.body ?? '' };
          },
        },
      ]
    : undefined;
  return new Promise((resolve, reject) => {
    autocannon(
      { url, method: method as autocannon.Request['method'], connections: settings.connections, duration: seconds, ...(requests ? { requests } : {}) },
      (err, result) => (err ? reject(err) : resolve({ count: result.requests.total, bad: result.non2xx + result.errors + result.timeouts })),
    );
  });
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

async function main(): Promise<number> {
  if (!process.env.DATABASE_URL) throw new Error('bench:builds needs DATABASE_URL (a PostgreSQL server)');
  const bench = await openBenchDatabase('qp_builds');
  const builds: Build[] = [];
  let failures = 0;
  try {
    await seedLeagues({ db: bench.database.db });
    const data = await seedHotPaths(bench.database);
    const hot = hotEndpoints(data);
    const rotation = (label: string) => hot.find((e) => e.label === label)!.requests;
    const endpoints = [
      { label: 'GET /api/leagues', method: 'GET', path: '/api/leagues', rotation: undefined },
      { label: 'GET /api/matches', method: 'GET', path: '/api/matches', rotation: rotation('GET /api/matches') },
      { label: 'GET /api/question-answers/open', method: 'GET', path: '/api/question-answers/open', rotation: rotation('GET /api/question-answers/open') },
      { label: 'PUT /api/question-answers', method: 'PUT', path: '/api/question-answers', rotation: rotation('PUT /api/question-answers') },
      { label: 'GET /api/users/me/points', method: 'GET', path: '/api/users/me/points', rotation: data.players.map((p) => ({ token: p.key })) },
    ].filter((ep) => !settings.endpoints.length || settings.endpoints.some((name) => ep.label.includes(name)));
    builds.push(await startBuild('A', settings.a, bench.url!), await startBuild('B', settings.b, bench.url!));
    console.log(`A: ${settings.a}\nB: ${settings.b}`);
    console.log(
      `${settings.connections} connections, warm-up ${settings.warmup} s, ${settings.rounds} ABBA rounds of ${settings.duration} s per endpoint and build`,
    );
    console.log('| endpoint | A req/s | B req/s | B/A req/s | A CPU us/req (all / main) | B CPU us/req (all / main) | B/A CPU (all / main) |');
    console.log('|---|--:|--:|--:|--:|--:|--:|');
    for (const ep of endpoints) {
      const sums = new Map(builds.map((b) => [b.name, { count: 0, seconds: 0, all: 0, main: 0 }]));
      const run = async (build: Build, seconds: number, counted: boolean) => {
        const before = cpuOf(build.child.pid!);
        const r = await load(build.base + ep.path, ep.method, ep.rotation, seconds);
        const after = cpuOf(build.child.pid!);
        failures += r.bad;
        if (!counted) return;
        const s = sums.get(build.name)!;
        s.count += r.count;
        s.seconds += seconds;
        s.all += after.all - before.all;
        s.main += after.main - before.main;
      };
      if (settings.warmup > 0) for (const build of builds) await run(build, settings.warmup, false);
      for (let round = 0; round < settings.rounds; round++) {
        for (const build of round % 2 ? [...builds].reverse() : builds) await run(build, settings.duration, true);
      }
      const [a, b] = [sums.get('A')!, sums.get('B')!];
      const us = (s: typeof a, k: 'all' | 'main') => (s[k] * 1000) / s.count;
      console.log(
        `| ${ep.label} | ${fmt(a.count / a.seconds)} | ${fmt(b.count / b.seconds)} | ${fmt(b.count / b.seconds / (a.count / a.seconds), 2)} | ` +
          `${fmt(us(a, 'all'))} / ${fmt(us(a, 'main'))} | ${fmt(us(b, 'all'))} / ${fmt(us(b, 'main'))} | ${fmt(us(b, 'all') / us(a, 'all'), 2)} / ${fmt(us(b, 'main') / us(a, 'main'), 2)} |`,
      );
    }
    if (failures) console.error(`${failures} failed requests: the figures above are not valid`);
    return failures ? 1 : 0;
  } finally {
    for (const build of builds) {
      const exited = new Promise((resolve) => build.child.once('exit', resolve));
      build.child.kill('SIGINT');
      await exited;
    }
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

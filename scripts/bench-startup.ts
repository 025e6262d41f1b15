/**
 * `npm run bench:startup`: how long the compiled service takes from spawn to
 * serving. Spawns the build in dist/ (`npm run build` first) N times on an
 * already-migrated database and reports, per build, the median and p90 of
 * spawn to the "listening" log line and of spawn to the first 200 from
 * /readyz, and the process's CPU time at listening.
 *
 * With BENCH_STARTUP_REF=<dir> (another checkout of the project, its dist/
 * built) the two builds are spawned alternately in ABBA order on the same
 * database, so a drift of the machine's load favours neither; compare the
 * ratio, not absolute times across runs.
 *
 * DATABASE_URL: a dedicated PostgreSQL database `qp_startup_<pid>` is created
 * on that server and dropped at the end; unset, an embedded PGlite data
 * directory in a temporary folder. Each spawn runs as production does:
 * APP_ENV=main, no demo data, the engine worker on, JSON logs.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 9);
const REF = process.env.BENCH_STARTUP_REF ? path.resolve(process.env.BENCH_STARTUP_REF) : undefined;
/** `plain`: node dist/main.js; `start:prod`: the checkout's own `npm run start:prod` command line (node and its flags). */
const COMMAND = process.env.BENCH_STARTUP_COMMAND ?? 'plain';
const TARGET_MS = 500;
const TIMEOUT_MS = 60_000;

interface Build {
  label: string;
  dir: string;
  args: string[];
}

interface Spawned {
  listeningMs: number;
  readyMs: number;
  /** User + system CPU time of the process when it logged "listening", ms (Linux /proc; null elsewhere). */
  cpuMs: number | null;
  /** /readyz answered 200 before the process logged "listening" (the live bus not yet listening). */
  earlyReady: boolean;
}

function buildOf(label: string, dir: string): Build {
  if (!fs.existsSync(path.join(dir, 'dist/main.js'))) throw new Error(`${dir}/dist/main.js is missing: run npm run build there`);
  if (COMMAND === 'plain') return { label, dir, args: ['dist/main.js'] };
  if (COMMAND !== 'start:prod') throw new Error(`BENCH_STARTUP_COMMAND must be plain or start:prod, not ${COMMAND}`);
  const script = (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['start:prod']!;
  const [command, ...args] = script.split(' ');
  if (command !== 'node') throw new Error(`start:prod of ${dir} does not run node: ${script}`);
  return { label, dir, args };
}

function cpuOf(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * (1000 / 100);
  } catch {
    return null;
  }
}

/** Busy and total CPU time of the whole machine, in clock ticks (Linux /proc/stat; null elsewhere). */
function machineTicks(): { busy: number; total: number } | null {
  try {
    const ticks = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    const total = ticks.reduce((a, b) => a + b, 0);
    return { busy: total - ticks[3]! - ticks[4]!, total };
  } catch {
    return null;
  }
}

const readyz = (port: number) =>
  new Promise<number>((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/readyz', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.setTimeout(1_000, () => req.destroy());
  });

async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function spawnOnce(build: Build, env: NodeJS.ProcessEnv): Promise<Spawned> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, build.args, { cwd: build.dir, env: { ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let listeningMs: number | undefined;
  let cpuMs: number | null = null;
  // Exit code, or the signal's name (SIGTERM before the service installed its handler ends it at once).
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  child.stdout.on('data', (d: Buffer) => {
    output += d.toString();
    if (listeningMs === undefined && output.includes('listening on')) {
      listeningMs = performance.now() - started;
      cpuMs = cpuOf(child.pid!);
    }
  });
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  let readyMs: number | undefined;
  let earlyReady = false;
  let dead = false;
  void exited.then(() => (dead = true));
  try {
    while (readyMs === undefined) {
      if (dead) throw new Error(`${build.label} exited before it was ready:\n${output}`);
      if (performance.now() - started > TIMEOUT_MS) throw new Error(`${build.label} was not ready within ${TIMEOUT_MS} ms:\n${output}`);
      if ((await readyz(port)) !== 200) await new Promise((resolve) => setTimeout(resolve, 5));
      // A 200 before the "listening" line is a readiness reported too early (the bus was not listening yet): not counted.
      else if (listeningMs === undefined) earlyReady = true;
      else readyMs = performance.now() - started;
    }
  } finally {
    if (!dead) child.kill('SIGTERM');
    await exited;
  }
  const code = await exited;
  if (code !== 0 && code !== 'SIGTERM') throw new Error(`${build.label} exited with ${code} on SIGTERM:\n${output}`);
  return { listeningMs: listeningMs!, readyMs, cpuMs, earlyReady };
}

const median = (xs: number[]) => quantile(xs, 0.5);
function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  const i = (s.length - 1) * q;
  const lo = Math.floor(i);
  return s[lo]! + (s[Math.ceil(i)]! - s[lo]!) * (i - lo);
}
const ms = (x: number) => `${Math.round(x)} ms`;

async function main() {
  const builds = [buildOf('this checkout', root), ...(REF ? [buildOf(`reference (${REF})`, REF)] : [])];
  const env: NodeJS.ProcessEnv = { ...process.env, APP_ENV: 'main', DEMO_DATA: 'false', LOG_FORMAT: 'json', LOG_LEVEL: 'info' };
  for (const key of ['TEST_DATABASE_URL', 'OPS_PORT', 'NODE_OPTIONS']) delete env[key];
  let cleanup: () => Promise<void>;
  let where: string;
  const serverUrl = process.env.DATABASE_URL || undefined;
  if (serverUrl) {
    const { default: postgres } = await import('postgres');
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    const name = `qp_startup_${process.pid}`;
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.unsafe(`create database "${name}"`);
    const u = new URL(serverUrl);
    u.pathname = `/${name}`;
    env.DATABASE_URL = u.toString();
    where = `PostgreSQL, database ${name}`;
    cleanup = async () => {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end({ timeout: 1 });
    };
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qp-startup-'));
    delete env.DATABASE_URL;
    env.DATA_DIR = dir;
    where = `PGlite, ${dir}`;
    cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
  }
  const onSignal = () => void cleanup().finally(() => process.exit(130));
  process.once('SIGINT', onSignal);
  try {
    console.log(`bench:startup: ${RUNS} spawns per build, ${builds.length > 1 ? 'ABBA' : 'one build'}, ${where}, node ${process.version}`);
    console.log(`command: node ${builds[0]!.args.join(' ')} (BENCH_STARTUP_COMMAND=${COMMAND})`);
    // The first spawn migrates the empty database; one more per build warms the file cache. Not counted.
    for (const build of builds) {
      await spawnOnce(build, env);
      await spawnOnce(build, env);
    }
    const results = new Map<Build, Spawned[]>(builds.map((b) => [b, []]));
    const load0 = os.loadavg()[0]!;
    const ticks0 = machineTicks();
    for (let i = 0; i < RUNS; i++) {
      const order = i % 4 === 0 || i % 4 === 3 ? builds : [...builds].reverse();
      for (const build of order) {
        const r = await spawnOnce(build, env);
        results.get(build)!.push(r);
        process.stdout.write(
          `  ${build === builds[0] ? 'this' : 'ref '}: listening ${ms(r.listeningMs)}, ready ${ms(r.readyMs)}${r.cpuMs === null ? '' : `, CPU ${ms(r.cpuMs)}`}\n`,
        );
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    const ticks1 = machineTicks();
    const busy = ticks0 && ticks1 ? (ticks1.busy - ticks0.busy) / (ticks1.total - ticks0.total) : null;
    console.log(
      `\nmachine: ${os.cpus()[0]?.model ?? '?'} x ${os.cpus().length}; load average ${load0.toFixed(2)} at the start, ${os.loadavg()[0]!.toFixed(2)} at the end` +
        (busy === null ? '' : `; cores ${Math.round(busy * 100)} % busy during the spawns (these included)`),
    );
    const medians = new Map<Build, { listening: number; ready: number }>();
    for (const build of builds) {
      const rs = results.get(build)!;
      const listening = rs.map((r) => r.listeningMs);
      const ready = rs.map((r) => r.readyMs);
      const cpu = rs.map((r) => r.cpuMs).filter((c): c is number => c !== null);
      medians.set(build, { listening: median(listening), ready: median(ready) });
      const under = ready.filter((x) => x < TARGET_MS).length;
      console.log(
        `${build.label}: spawn to listening median ${ms(median(listening))}, p90 ${ms(quantile(listening, 0.9))} (${ms(Math.min(...listening))}-${ms(Math.max(...listening))}); ` +
          `spawn to ready median ${ms(median(ready))}, p90 ${ms(quantile(ready, 0.9))} (${ms(Math.min(...ready))}-${ms(Math.max(...ready))}); ` +
          `${under}/${ready.length} ready under ${TARGET_MS} ms` +
          (cpu.length ? `; CPU at listening median ${ms(median(cpu))}` : '') +
          (rs.some((r) => r.earlyReady) ? `; /readyz said 200 before "listening" in ${rs.filter((r) => r.earlyReady).length} spawn(s)` : ''),
      );
    }
    if (builds.length > 1) {
      const a = medians.get(builds[0]!)!;
      const b = medians.get(builds[1]!)!;
      console.log(`this / reference, medians: listening ${(a.listening / b.listening).toFixed(2)}, ready ${(a.ready / b.ready).toFixed(2)}`);
    }
  } finally {
    await cleanup();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

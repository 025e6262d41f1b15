/**
 * A private PostgreSQL cluster for fault-injection tests: a fresh data
 * directory in a temp dir, a free loopback port, its unix socket in a
 * directory of its own. Tests stop it (fast or immediate shutdown), start it
 * again, and freeze it (SIGSTOP on the postmaster and every backend, then
 * SIGCONT), which the shared test server cannot allow.
 *
 * Needs the PostgreSQL server binaries (PG_BIN, else the newest under
 * /usr/lib/postgresql/<version>/bin, else on PATH); `pgClusterAvailable()`
 * says whether they are there. Run as root (CI), the server runs as the
 * `postgres` OS user, since PostgreSQL refuses to run as root.
 *
 * Cleanup is always done: `destroy()` (call it in afterAll), a process 'exit'
 * hook that kills a cluster still running, and, on every start, the clusters
 * that an earlier test process left behind when it died.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isAlive } from '../../src/db/client.js';
import { freePort } from './ports.js';
import { waitBound } from './bounds.js';

const DIR_PREFIX = 'qp-pgc-';

export interface PgCluster {
  port: number;
  /** postgres:// URL of a database on the cluster (TCP, trust authentication, user postgres). */
  url(database?: string): string;
  /** Creates a database (through psql-free SQL on the maintenance database). */
  createDatabase(name: string): Promise<void>;
  /** pid of the running postmaster (undefined while stopped). */
  readonly pid: number | undefined;
  /** Starts the server on its data directory (again, after a stop); resolves when it accepts connections. */
  start(): Promise<void>;
  /** Stops it: 'fast' (SIGINT: backends are terminated, clients see their connections closed) or 'immediate' (SIGQUIT). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** SIGSTOP on the postmaster and all its processes: connections stay open, nothing answers. */
  freeze(): void;
  /** SIGCONT on every process freeze() stopped. */
  thaw(): void;
  /** Stops the server (whatever its state) and removes its directory. Idempotent. */
  destroy(): Promise<void>;
}

function findBinDir(): string | undefined {
  const candidates: string[] = [];
  if (process.env.PG_BIN) candidates.push(process.env.PG_BIN);
  try {
    const versions = fs
      .readdirSync('/usr/lib/postgresql')
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => `/usr/lib/postgresql/${v}/bin`));
  } catch {
    // not a Debian layout
  }
  for (const dir of candidates) if (fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'postgres'))) return dir;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter))
    if (dir && fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'postgres'))) return dir;
  return undefined;
}

/** Whether the PostgreSQL server binaries are installed (and, as root, the `postgres` OS user exists to run them). */
export function pgClusterAvailable(): boolean {
  return Boolean(findBinDir()) && (process.getuid?.() !== 0 || Boolean(postgresUser()));
}

function postgresUser(): { uid: number; gid: number } | undefined {
  try {
    const line = fs
      .readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('postgres:'));
    if (!line) return undefined;
    const [, , uid, gid] = line.split(':');
    return { uid: Number(uid), gid: Number(gid) };
  } catch {
    return undefined;
  }
}

/** Pids of the processes whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name (2nd field) is in parentheses and may hold spaces: fields after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

function postmasterPidOf(dataDir: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Kills a postmaster (and its processes) for good, stopped or not, and waits until it is gone. */
async function kill(pid: number): Promise<void> {
  const all = [pid, ...childrenOf(pid)];
  for (const p of all) signal(p, 'SIGCONT');
  signal(pid, 'SIGQUIT');
  for (let i = 0; i < 50 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
  for (const p of [pid, ...childrenOf(pid), ...all]) signal(p, 'SIGKILL');
  for (let i = 0; i < 50 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
}

/** Removes the clusters of test processes that are gone (their dir names carry the pid). */
async function removeOrphans(): Promise<void> {
  const tmp = os.tmpdir();
  for (const name of fs.readdirSync(tmp)) {
    if (!name.startsWith(DIR_PREFIX)) continue;
    const owner = Number(name.slice(DIR_PREFIX.length).split('-')[0]);
    if (!owner || isAlive(owner)) continue;
    const dir = path.join(tmp, name);
    const pid = postmasterPidOf(path.join(dir, 'data'));
    if (pid && isAlive(pid)) await kill(pid);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const running = new Set<PgCluster>();
let exitHookInstalled = false;

function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Last resort when a test process ends without afterAll (an uncaught error): no server outlives it.
  process.once('exit', () => {
    for (const cluster of running) {
      const pid = cluster.pid;
      if (!pid) continue;
      for (const p of [pid, ...childrenOf(pid)]) signal(p, 'SIGKILL');
    }
  });
}

async function waitUntil(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const until = Date.now() + waitBound(timeoutMs);
  for (;;) {
    if (await check()) return;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Initializes and starts a cluster. Settings favour speed over durability
 * (fsync off): it lives for one test file.
 */
export async function startPgCluster(): Promise<PgCluster> {
  const bin = findBinDir();
  if (!bin) throw new Error('PostgreSQL server binaries not found: set PG_BIN or install postgresql');
  await removeOrphans();
  installExitHook();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `${DIR_PREFIX}${process.pid}-`));
  const dataDir = path.join(root, 'data');
  const socketDir = path.join(root, 'socket');
  fs.mkdirSync(socketDir);
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? postgresUser() : undefined;
  if (asRoot && !owner) throw new Error('running as root, but there is no postgres OS user to run the server');
  if (owner) {
    fs.chownSync(root, owner.uid, owner.gid);
    fs.chownSync(socketDir, owner.uid, owner.gid);
  }
  const ids = owner ? { uid: owner.uid, gid: owner.gid } : {};
  let child: ChildProcess | undefined;
  let port = 0;
  let output = '';
  let frozen: number[] = [];
  let destroyed = false;

  try {
    execFileSync(path.join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions'], {
      ...ids,
      cwd: root,
      stdio: 'pipe',
      env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
    });
  } catch (err) {
    fs.rmSync(root, { recursive: true, force: true });
    throw new Error(`initdb failed: ${(err as { stderr?: Buffer }).stderr?.toString() ?? (err as Error).message}`, { cause: err });
  }

  const connectable = async () => {
    const { default: postgres } = await import('postgres');
    const sql = postgres(cluster.url('postgres'), { max: 1, connect_timeout: 1, onnotice: () => {} });
    try {
      await sql`select 1`;
      return true;
    } catch {
      return false;
    } finally {
      await sql.end({ timeout: 0 });
    }
  };

  const cluster: PgCluster = {
    get port() {
      return port;
    },
    get pid() {
      return child && child.exitCode === null && child.signalCode === null ? child.pid : undefined;
    },
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async createDatabase(name) {
      const { default: postgres } = await import('postgres');
      const sql = postgres(cluster.url('postgres'), { max: 1, onnotice: () => {} });
      try {
        await sql.unsafe(`create database "${name.replace(/"/g, '""')}"`);
      } finally {
        await sql.end({ timeout: 1 });
      }
    },
    async start() {
      if (destroyed) throw new Error('the cluster was destroyed');
      if (cluster.pid) return;
      port ||= await freePort();
      output = '';
      child = spawn(
        path.join(bin, 'postgres'),
        [
          '-D',
          dataDir,
          '-p',
          String(port),
          '-k',
          socketDir,
          '-c',
          'listen_addresses=127.0.0.1',
          '-c',
          'fsync=off',
          '-c',
          'synchronous_commit=off',
          '-c',
          'full_page_writes=off',
          '-c',
          'max_connections=60',
          '-c',
          'shared_buffers=16MB',
        ],
        { ...ids, cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C', LANG: 'C' } },
      );
      running.add(cluster);
      const started = child;
      started.stdout!.on('data', (d) => (output += d));
      started.stderr!.on('data', (d) => (output += d));
      await waitUntil(
        `PostgreSQL to accept connections on port ${port}:\n${output}`,
        async () => {
          if (started.exitCode !== null) throw new Error(`PostgreSQL exited at start (${started.exitCode}):\n${output}`);
          return connectable();
        },
        30_000,
      );
    },
    async stop(mode = 'fast') {
      const pid = cluster.pid;
      if (!pid) return;
      cluster.thaw();
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      signal(pid, mode === 'fast' ? 'SIGINT' : 'SIGQUIT');
      await exited;
    },
    freeze() {
      const pid = cluster.pid;
      if (!pid) throw new Error('the cluster is not running');
      // The postmaster first, so it forks no new backend meanwhile; then everything it started.
      signal(pid, 'SIGSTOP');
      frozen = [pid, ...childrenOf(pid)];
      for (const p of frozen.slice(1)) signal(p, 'SIGSTOP');
    },
    thaw() {
      for (const p of frozen) signal(p, 'SIGCONT');
      frozen = [];
    },
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      const pid = cluster.pid ?? postmasterPidOf(dataDir);
      if (pid && isAlive(pid)) await kill(pid);
      running.delete(cluster);
      fs.rmSync(root, { recursive: true, force: true });
    },
  };

  try {
    await cluster.start();
  } catch (err) {
    await cluster.destroy();
    throw err;
  }
  return cluster;
}

/**
 * Database connection: PostgreSQL through postgres.js when a URL is given,
 * otherwise embedded PGlite (a data directory, or memory for tests). The same
 * drizzle/ migrations run on both.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PGlite } from '@electric-sql/pglite';
import { paths } from '../paths.js';
import * as schema from './schema.js';
import { SpanKind, traced, tracingEnabled } from '../observability/tracing.js';
import { boundedClient } from './bounded-client.js';
import { assertDriverPatched } from './driver-patch.js';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** A connection or a transaction: repositories accept either. */
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'postgres' | 'pglite';
  /** Rows of a raw SQL statement, whichever driver runs it. */
  rows<T = Record<string, unknown>>(query: ReturnType<typeof sql>): Promise<T[]>;
  close(): Promise<void>;
  /** The underlying driver client (postgres.js Sql or PGlite), for LISTEN/NOTIFY and tooling. */
  client: unknown;
  /** PostgreSQL only: the connection URL (for dedicated connections such as LISTEN or locks). */
  url?: string;
  /**
   * Calls `listener` with the SQL text of every statement issued through `db`
   * (and its transactions) until the returned function is called. Tests
   * count queries with it.
   */
  onQuery(listener: (query: string, params: unknown[]) => void): () => void;
}

/** Drizzle's logger hook, fanning each statement out to the current listeners (none: a no-op). */
function queryObserver() {
  const listeners = new Set<(query: string, params: unknown[]) => void>();
  return {
    logger: {
      logQuery(query: string, params: unknown[]) {
        for (const listener of listeners) listener(query, params);
      },
    },
    onQuery(listener: (query: string, params: unknown[]) => void) {
      const entry = (query: string, params: unknown[]) => listener(query, params);
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
  };
}

export const migrationsFolder = paths.migrations;

export interface OpenOptions {
  /** postgres:// URL; when absent PGlite is used. */
  url?: string | undefined;
  /** PGlite data directory; null or absent means in memory. */
  dataDir?: string | null | undefined;
  /** PGlite only: start from this data-directory dump (a migrated template) instead of an empty database. */
  loadDataDir?: Blob | undefined;
  /** postgres.js pool size. */
  maxConnections?: number;
  /** Run migrations (default true). */
  migrate?: boolean;
  /** PostgreSQL only: how long its statements and connections may take (unset: postgres.js's defaults, no bound). */
  limits?: DatabaseLimits;
  /** PostgreSQL only: `application_name` of the connections (who holds them, in pg_stat_activity). */
  applicationName?: string;
}

/**
 * How long the database may keep a process waiting. Statements and
 * connections past these fail with a DatabaseUnavailableError (or the
 * server's own timeout error): see src/db/availability.ts.
 */
export interface DatabaseLimits {
  /** A connection attempt that has not completed by then fails (a stopped server refuses at once; a frozen one never answers). */
  connectTimeoutMs: number;
  /**
   * The server's `statement_timeout`, and the longest the process waits for
   * one statement, or for a transaction to start, once it has a connection.
   */
  statementTimeoutMs: number;
  /**
   * The longest a statement or transaction waits for a free connection while
   * the database answers (default `statementTimeoutMs`); past it, it fails
   * with DatabaseBusyError. While the database does not answer, the wait
   * ends after `statementTimeoutMs` as an outage.
   */
  poolWaitMs?: number;
  /**
   * The longest COMMIT's answer is awaited; past it the transaction fails
   * with CommitOutcomeUnknownError (it may have committed). Unset: awaited
   * however long the database takes.
   */
  commitTimeoutMs?: number;
  /** The server's `idle_in_transaction_session_timeout`: a session idle inside a transaction that long is ended, its locks released. */
  idleInTransactionTimeoutMs: number;
  /** Named prepared statements for every statement (default true); off behind a pooler that cannot keep them (PgBouncer in transaction mode before 1.21). */
  preparedStatements?: boolean;
  /**
   * Wait out a database that refuses connections (stopped, restarting)
   * within the statement timeout, instead of failing at once: for work
   * nobody is waiting on (the engine), never for requests.
   */
  retryConnectFailures?: boolean;
}

/**
 * Reconnect back-off of a pool (seconds): postgres.js's default grows to 20 s
 * after a few failed attempts, which kept requests waiting long after the
 * database was back. Capped at half a second, a restarted server is in use
 * again within a second.
 */
export const reconnectBackoff = (retries: number) => Math.min(0.05 * 2 ** retries, 0.5);

export class DatabaseError extends Error {}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  const database = opts.url
    ? await openPostgres(opts.url, opts.maxConnections ?? 10, opts.limits, opts.applicationName ?? 'question-play')
    : await openPglite(opts.dataDir ?? null, opts.loadDataDir);
  if (opts.migrate !== false) {
    try {
      await runMigrations(database);
    } catch (err) {
      await database.close();
      throw err;
    }
  }
  return database;
}

async function openPostgres(url: string, max: number, limits: DatabaseLimits | undefined, applicationName: string): Promise<Database> {
  const { default: postgres } = await import('postgres');
  assertDriverPatched(postgres);
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const raw = postgres(url, {
    max,
    onnotice: () => {},
    // timestamptz and friends come back as Date; bigint counts as numbers.
    types: { bigint: postgres.BigInt },
    connection: {
      application_name: applicationName,
      ...(limits ? { statement_timeout: limits.statementTimeoutMs, idle_in_transaction_session_timeout: limits.idleInTransactionTimeoutMs } : {}),
    },
    ...(limits ? { connect_timeout: limits.connectTimeoutMs / 1000, backoff: reconnectBackoff } : {}),
  });
  try {
    await raw`select 1`;
  } catch (err) {
    await raw.end({ timeout: 1 });
    throw new DatabaseError(`cannot connect to PostgreSQL at ${redactUrl(url)}: ${(err as Error).message}. Check DATABASE_URL and that the server is running.`);
  }
  const client = limits
    ? boundedClient(raw, {
        statementMs: limits.statementTimeoutMs,
        ...(limits.poolWaitMs !== undefined ? { poolWaitMs: limits.poolWaitMs } : {}),
        ...(limits.commitTimeoutMs !== undefined ? { commitMs: limits.commitTimeoutMs } : {}),
        slots: max,
        retryConnectFailures: limits.retryConnectFailures ?? false,
        pool: applicationName.endsWith('-engine') ? 'engine' : 'api',
        prepare: limits.preparedStatements ?? true,
      })
    : raw;
  const observer = queryObserver();
  const db = drizzle(client, { schema, logger: observer.logger }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    onQuery: observer.onQuery,
    client,
    url,
    rows: async <T>(query: ReturnType<typeof sql>) => (await db.execute(query)) as unknown as T[],
    close: () => raw.end({ timeout: 5 }),
  };
}

async function openPglite(dataDir: string | null, loadDataDir?: Blob): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  let releaseLock = () => {};
  if (dataDir) {
    fs.mkdirSync(dataDir, { recursive: true });
    releaseLock = lockDataDir(dataDir);
  }
  let client: InstanceType<typeof PGlite>;
  try {
    client = new PGlite({ ...(dataDir ? { dataDir } : {}), ...(loadDataDir ? { loadDataDir } : {}) });
    await client.waitReady;
  } catch (err) {
    releaseLock();
    throw new DatabaseError(`cannot open the embedded database in ${dataDir ?? 'memory'}: ${(err as Error).message}`);
  }
  return pgliteDatabase(client, async () => {
    try {
      await client.close();
    } finally {
      releaseLock();
    }
  });
}

/**
 * The Database over an open PGlite `client`; `close` is what its close() does. openDatabase closes the client; the
 * tests keep one client per worker and hand it to file after file, emptied between (tests/helpers/test-db.ts).
 */
export async function pgliteDatabase(client: PGlite, close: () => Promise<void>): Promise<Database> {
  const { drizzle } = await import('drizzle-orm/pglite');
  const observer = queryObserver();
  const db = drizzle(tracingEnabled() ? (tracedPglite(client as never) as PGlite) : client, { schema, logger: observer.logger }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    onQuery: observer.onQuery,
    client,
    rows: async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows,
    close,
  };
}

type Queryable = { query: (text: string, ...rest: unknown[]) => Promise<unknown> };

/** The embedded database with each statement in a client span (only when tracing runs: drizzle sees the bare client otherwise). */
function tracedPglite<C extends Queryable & { transaction: (fn: (tx: Queryable) => Promise<unknown>) => Promise<unknown> }>(client: C): C {
  const spanned =
    (target: Queryable) =>
    (text: string, ...rest: unknown[]) =>
      traced(
        'db.query',
        { 'db.system': 'postgresql', 'db.query.text': text.slice(0, 2000), 'qp.pool': 'embedded' },
        () => target.query(text, ...rest),
        SpanKind.CLIENT,
      );
  const withQuery = <T extends Queryable>(target: T): T =>
    new Proxy(target, {
      get(obj, prop) {
        if (prop === 'query') return spanned(obj);
        if (prop === 'transaction' && 'transaction' in obj)
          return (fn: (tx: Queryable) => Promise<unknown>) => (obj as unknown as C).transaction((tx) => fn(withQuery(tx)));
        const value = Reflect.get(obj, prop, obj) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(obj) : value;
      },
    });
  return withQuery(client);
}

/**
 * PGlite takes no lock on its directory, and two processes writing it corrupt
 * it: hold a lock file with our pid, and refuse when a live process holds it.
 */
function lockDataDir(dataDir: string): () => void {
  const lockPath = path.join(dataDir, 'question-play.lock');
  const tryCreate = () => {
    const fd = fs.openSync(lockPath, 'wx');
    fs.writeSync(fd, String(process.pid));
    fs.closeSync(fd);
  };
  try {
    tryCreate();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const pid = Number(fs.readFileSync(lockPath, 'utf8').trim());
    if (pid && pid !== process.pid && isAlive(pid)) {
      throw new DatabaseError(
        `the embedded database in ${dataDir} is in use by process ${pid}. Stop that process, or set DATA_DIR to another directory (or DATABASE_URL to use PostgreSQL).`,
      );
    }
    fs.rmSync(lockPath, { force: true });
    tryCreate();
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    try {
      if (fs.readFileSync(lockPath, 'utf8').trim() === String(process.pid)) fs.rmSync(lockPath, { force: true });
    } catch {
      // already gone
    }
  };
  process.once('exit', release);
  return release;
}

/** Whether a process with this pid exists (one of another user counts: EPERM). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable URL)';
  }
}

/**
 * Runs drizzle/ migrations; on PostgreSQL on a connection of their own (no
 * statement timeout: a migration may take long), under an advisory lock so
 * concurrent starts do not race.
 */
export async function runMigrations(database: Database): Promise<void> {
  if (database.kind === 'pglite') {
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(database.db as never, { migrationsFolder });
    return;
  }
  const { migrate } = await import('drizzle-orm/postgres-js/migrator');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const { default: postgres } = await import('postgres');
  // One connection: the session that holds the lock is the one that migrates.
  const client = postgres(database.url!, { max: 1, onnotice: () => {}, connection: { application_name: 'question-play-migrate' } });
  try {
    await client`select pg_advisory_lock(4242001)`;
    await migrate(drizzle(client), { migrationsFolder });
  } finally {
    await client`select pg_advisory_unlock(4242001)`.catch(() => {});
    await client.end({ timeout: 1 });
  }
}

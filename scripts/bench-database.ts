/**
 * The database of a benchmark (npm run bench, npm run bench:ws): an in-memory
 * PGlite, or with DATABASE_URL a dedicated PostgreSQL database
 * `<prefix>_<pid>` on that server, created here and dropped by `drop()`.
 */
import { loadConfig } from '../src/config.js';
import { openDatabase, redactUrl, type Database } from '../src/db/client.js';

export interface BenchDatabase {
  database: Database;
  /** Where it lives, for the report (password redacted). */
  where: string;
  /** postgres:// URL of the dedicated database (PostgreSQL only). */
  url: string | undefined;
  /** Open + migrations, ms. */
  openMs: number;
  /** Closes it; on PostgreSQL also drops the dedicated database (once, whoever calls). */
  drop(): Promise<void>;
}

export async function openBenchDatabase(prefix: string): Promise<BenchDatabase> {
  const serverUrl = process.env.DATABASE_URL || undefined;
  if (!serverUrl) {
    const t0 = performance.now();
    const database = await openDatabase({ dataDir: null });
    return { database, where: 'PGlite, in memory', url: undefined, openMs: performance.now() - t0, drop: () => database.close() };
  }
  const { default: postgres } = await import('postgres');
  // The server's own database is only used to create and drop ours.
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  const name = `${prefix}_${process.pid}`;
  await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.unsafe(`create database "${name}"`);
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  let dropped = false;
  const drop = async (database?: Database) => {
    if (dropped) return;
    dropped = true;
    await database?.close().catch(() => {});
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end({ timeout: 1 });
  };
  try {
    const t0 = performance.now();
    // The service's own limits (src/db/bounded-client.ts): the bench measures what production runs.
    const database = await openDatabase({ url, limits: loadConfig().database.api });
    const openMs = performance.now() - t0;
    return { database, where: redactUrl(url), url, openMs, drop: () => drop(database) };
  } catch (err) {
    await drop().catch(() => {});
    throw err;
  }
}

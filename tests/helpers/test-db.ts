/** A fresh database per test file, copied from the run's template. */
import fs from 'node:fs';
import { inject } from 'vitest';
import { openDatabase, type Database, type DatabaseLimits } from '../../src/db/client.js';
import { adminUrl, testDatabaseUrl, withDatabase } from './pg-url.js';

export interface TestDatabase {
  database: Database;
  /** postgres:// URL of this database (PostgreSQL runs only), for a second process. */
  url: string | null;
  drop(): Promise<void>;
}

let counter = 0;

/**
 * Tests run through the same bounded client as the service (src/db/bounded-client.ts),
 * with budgets generous enough for a loaded machine; fault tests set the service's own.
 */
export const TEST_DB_LIMITS: DatabaseLimits = { connectTimeoutMs: 10_000, statementTimeoutMs: 30_000, idleInTransactionTimeoutMs: 60_000 };

/** `limits` (PostgreSQL): budgets over TEST_DB_LIMITS, for tests of the budgets themselves. */
export async function createTestDatabase({
  maxConnections = 10,
  limits = {},
}: { maxConnections?: number; limits?: Partial<DatabaseLimits> } = {}): Promise<TestDatabase> {
  const template = inject('pgTemplate');
  const url = testDatabaseUrl();
  if (template && url) {
    const { default: postgres } = await import('postgres');
    const admin = postgres(adminUrl(url), { max: 1, onnotice: () => {} });
    const name = `qp_t_${process.pid}_${Date.now().toString(36)}_${counter++}`;
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.unsafe(`create database "${name}" template "${template}"`);
        break;
      } catch (err) {
        // Two files copying the template at the same moment: try again.
        if (attempt > 20 || !/being accessed by other users/.test((err as Error).message)) throw err;
        await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
      }
    }
    const dbUrl = withDatabase(url, name);
    const database = await openDatabase({ url: dbUrl, maxConnections, migrate: false, limits: { ...TEST_DB_LIMITS, ...limits } });
    return {
      database,
      url: dbUrl,
      async drop() {
        await database.close();
        await admin.unsafe(`drop database if exists "${name}" with (force)`);
        await admin.end();
      },
    };
  }
  const dump = inject('pgliteDump');
  if (!dump) throw new Error('no test database template: run the tests through vitest (tests/helpers/global-setup.ts)');
  const database = await openDatabase({ dataDir: null, loadDataDir: new Blob([fs.readFileSync(dump)]), migrate: false });
  return { database, url: null, drop: () => database.close() };
}

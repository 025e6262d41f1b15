/**
 * Prepares one migrated, seeded template database per test run, so each test
 * file starts from a fresh copy in a fraction of the time migrations take:
 * a PostgreSQL template database when TEST_DATABASE_URL (or DATABASE_URL) is
 * set, otherwise a PGlite data-directory dump.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import type { Sql } from 'postgres';
import { isAlive, openDatabase } from '../../src/db/client.js';
import { seedLeagues } from '../../src/modules/leagues/leagues.repository.js';
import { adminUrl, testDatabaseUrl, withDatabase } from './pg-url.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgTemplate: string | null;
    pgliteDump: string | null;
  }
}

/** Drops the test databases (templates and per-file copies) whose process is gone: an interrupted run's, a crashed worker's. Concurrent runs keep theirs. */
async function dropOrphans(admin: Sql): Promise<void> {
  const rows = await admin<{ datname: string }[]>`select datname from pg_database where datname like 'qp_tpl_%' or datname like 'qp_t_%'`;
  for (const { datname } of rows) {
    const pid = Number(datname.split('_')[2]);
    if (pid && !isAlive(pid)) await admin.unsafe(`drop database if exists "${datname}" with (force)`).catch(() => {});
  }
}

export default async function setup(project: TestProject) {
  const url = testDatabaseUrl();
  if (url) {
    const { default: postgres } = await import('postgres');
    const admin = postgres(adminUrl(url), { max: 1, onnotice: () => {} });
    const template = `qp_tpl_${process.pid}_${Date.now().toString(36)}`;
    await dropOrphans(admin);
    await admin.unsafe(`create database "${template}"`);
    const database = await openDatabase({ url: withDatabase(url, template), maxConnections: 1 });
    await seedLeagues({ db: database.db });
    await database.close();
    project.provide('pgTemplate', template);
    project.provide('pgliteDump', null);
    return async () => {
      await admin.unsafe(`drop database if exists "${template}" with (force)`).catch(() => {});
      // Test files drop their own databases; a crashed worker's are dropped here.
      await dropOrphans(admin);
      await admin.end();
    };
  }
  const database = await openDatabase({ dataDir: null });
  await seedLeagues({ db: database.db });
  const client = database.client as { dumpDataDir(compression: 'none'): Promise<Blob> };
  const dump = await client.dumpDataDir('none');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qp-test-'));
  const file = path.join(dir, 'template.tar');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide('pgTemplate', null);
  project.provide('pgliteDump', file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

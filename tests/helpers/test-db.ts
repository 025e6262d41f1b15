/**
 * A database per test file in the state of the run's template: on PostgreSQL a fresh copy of the template database; on
 * PGlite the worker's spare database, emptied back to the template's state after the file before (a fresh copy when
 * there is none, or when that file changed the schema).
 */
import fs from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import { openDatabase, pgliteDatabase, type Database, type DatabaseLimits } from '../../src/db/client.js';
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
    let dropped: Promise<void> | null = null;
    return {
      database,
      url: dbUrl,
      drop: () =>
        (dropped ??= (async () => {
          await database.close();
          await admin.unsafe(`drop database if exists "${name}" with (force)`);
          await admin.end();
        })()),
    };
  }
  const dump = inject('pgliteDump');
  if (!dump) throw new Error('no test database template: run the tests through vitest (tests/helpers/global-setup.ts)');
  return lendPglite(dump);
}

// ------------------------------------------------------------ PGlite: one database per worker, reused

/**
 * Loading the template into a new PGlite costs 0.6-1.6 s of CPU; emptying a used one back to the template's state costs
 * a few tens of milliseconds. So a worker keeps the database of the file before (files run one at a time in a worker)
 * and lends it to the next one once it is back in the template's state: same schema (else it is closed, and the next
 * file gets a fresh copy), every table's rows and every sequence as in the template, no session state (`discard all`:
 * settings, prepared statements, advisory locks, LISTEN), no notification listener of the file before, and the file
 * before's Database refusing every call from then on (a late timer of its app writes nothing into the next file's).
 */
let spare: { dump: string; client: PGlite } | null = null;
/** TEST_PGLITE_REUSE=0: a fresh copy for every file, as before (to compare, or to rule the reuse out). */
const REUSE = process.env.TEST_PGLITE_REUSE !== '0';
let template: Promise<TemplateState> | null = null;

/** What the template holds, read once per worker from a fresh copy. */
interface TemplateState {
  dump: string;
  /** Digest of the schema (pg_catalog): a used database whose digest differs is not lent again. */
  schema: string;
  /** Every table outside the system schemas, quoted ("schema"."table"). */
  tables: string[];
  /** One statement answering which of them have rows. */
  nonEmpty: string;
  /** The template's rows of the tables that have any (JSON), restored after every file. */
  rows: Map<string, string>;
  /** One statement setting every sequence as in the template. */
  sequences: string;
}

const SCHEMA_DIGEST = `select md5(string_agg(x, E'\\n' order by x)) as digest from (
  select 'n ' || nspname from pg_namespace where nspname not like 'pg\\_%'
  union all select 'c ' || c.oid::regclass || ' ' || c.relkind::text from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname not like 'pg\\_%' and n.nspname <> 'information_schema'
  union all select 'a ' || a.attrelid::regclass || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' ' || a.attnotnull
      || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
    from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
    left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where n.nspname not like 'pg\\_%' and n.nspname <> 'information_schema' and a.attnum > 0 and not a.attisdropped
  union all select 't ' || tgrelid::regclass || '.' || tgname || ' ' || tgenabled::text || ' ' || tgfoid::regprocedure from pg_trigger
  union all select 'k ' || conrelid::regclass || '.' || conname || ' ' || convalidated || ' ' || pg_get_constraintdef(oid) from pg_constraint
    where connamespace not in ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
  union all select 'p ' || p.oid::regprocedure || ' ' || md5(p.prosrc) from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname not like 'pg\\_%' and n.nspname <> 'information_schema'
  union all select 'e ' || enumtypid::regtype || ' ' || enumlabel || ' ' || enumsortorder from pg_enum
  union all select 'x ' || extname || ' ' || extversion from pg_extension
  union all select 'r ' || rolname || ' ' || rolsuper from pg_roles
  union all select 's ' || coalesce(array_to_string(setconfig, ','), '') from pg_db_role_setting
) as catalog(x)`;

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

async function readTemplate(client: PGlite, dump: string): Promise<TemplateState> {
  const tables = (
    await client.query<{ name: string }>(
      `select quote_ident(n.nspname) || '.' || quote_ident(c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind in ('r', 'p') and n.nspname not like 'pg\\_%' and n.nspname <> 'information_schema' order by 1`,
    )
  ).rows.map((r) => r.name);
  const nonEmpty = `select array_remove(array[${tables.map((t) => `case when exists (select from ${t}) then ${literal(t)} end`).join(', ')}], null) as tables`;
  const rows = new Map<string, string>();
  const [withRows] = (await client.query<{ tables: string[] }>(nonEmpty)).rows;
  for (const table of withRows!.tables) {
    const [json] = (await client.query<{ rows: string }>(`select json_agg(t)::text as rows from ${table} as t`)).rows;
    rows.set(table, json!.rows);
  }
  const seqs = (
    await client.query<{ name: string }>(
      `select quote_ident(schemaname) || '.' || quote_ident(sequencename) as name from pg_sequences where schemaname not like 'pg\\_%' order by 1`,
    )
  ).rows.map((r) => r.name);
  const states = seqs.length
    ? (
        await client.query<{ name: string; value: string; called: boolean }>(
          seqs.map((s) => `select ${literal(s)} as name, last_value::text as value, is_called as called from ${s}`).join(' union all '),
        )
      ).rows
    : [];
  const sequences = states.length ? `select ${states.map((s) => `setval(${literal(s.name)}, ${s.value}, ${s.called})`).join(', ')}` : '';
  const [digest] = (await client.query<{ digest: string }>(SCHEMA_DIGEST)).rows;
  return { dump, schema: digest!.digest, tables, nonEmpty, rows, sequences };
}

/** Back to the template's state, or false when the schema is not the template's (then the database is not lent again). */
async function reset(client: PGlite, state: TemplateState): Promise<boolean> {
  await client.exec('discard all');
  const [digest] = (await client.query<{ digest: string }>(SCHEMA_DIGEST)).rows;
  if (digest!.digest !== state.schema) return false;
  const [withRows] = (await client.query<{ tables: string[] }>(state.nonEmpty)).rows;
  const emptied = [...new Set([...withRows!.tables, ...state.rows.keys()])];
  await client.transaction(async (tx) => {
    await tx.exec(`truncate ${emptied.join(', ')} cascade`);
    // The template's rows as they were, no trigger run for them (replica: user triggers and foreign-key checks off).
    await tx.exec(`set local session_replication_role = replica`);
    for (const [table, json] of state.rows) {
      await tx.query(`insert into ${table} overriding system value select * from json_populate_recordset(null::${table}, $1)`, [json]);
    }
    if (state.sequences) await tx.exec(state.sequences);
  });
  return true;
}

async function lendPglite(dump: string): Promise<TestDatabase> {
  let client: PGlite;
  if (spare && spare.dump === dump) {
    client = spare.client;
    spare = null;
  } else {
    const { PGlite } = await import('@electric-sql/pglite');
    client = new PGlite({ loadDataDir: new Blob([fs.readFileSync(dump)]) });
    await client.waitReady;
    if (!template) template = readTemplate(client, dump);
    await template;
  }
  const lent = lendable(client);
  let returned: Promise<void> | null = null;
  const giveBack = () =>
    (returned ??= (async () => {
      await lent.revoke();
      const state = await template!;
      let kept: boolean;
      try {
        kept = REUSE && !spare && !client.closed && state.dump === dump && (await reset(client, state));
      } catch {
        kept = false;
      }
      if (kept) spare = { dump, client };
      else if (!client.closed) await client.close().catch(() => {});
    })());
  const database = await pgliteDatabase(lent.client, giveBack);
  return { database, url: null, drop: giveBack };
}

/**
 * The client as one file sees it: its notification listeners are tracked (revoke() removes those left), and after
 * revoke() every call throws, as calls on a closed database do.
 */
function lendable(client: PGlite): { client: PGlite; revoke(): Promise<void> } {
  const stops = new Set<() => Promise<void>>();
  let revoked = false;
  const proxy = new Proxy(client, {
    get(target, key) {
      if (key === 'closed') return revoked || target.closed;
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      if (key === 'listen')
        return async (...args: Parameters<PGlite['listen']>) => {
          if (revoked) throw new Error('PGlite is closed');
          const unlisten = await target.listen(...args);
          const stop = async () => {
            stops.delete(stop);
            await unlisten();
          };
          stops.add(stop);
          return stop;
        };
      if (key === 'onNotification')
        return (callback: Parameters<PGlite['onNotification']>[0]) => {
          if (revoked) throw new Error('PGlite is closed');
          const off = target.onNotification(callback);
          const stop = async () => {
            stops.delete(stop);
            off();
          };
          stops.add(stop);
          return stop;
        };
      return (...args: unknown[]) => {
        if (revoked) throw new Error('PGlite is closed');
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return {
    client: proxy,
    async revoke() {
      revoked = true;
      for (const stop of [...stops]) await stop().catch(() => {});
    },
  };
}

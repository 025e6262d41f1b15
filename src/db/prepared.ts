/**
 * Queries built once per database handle. drizzle builds a query's SQL text
 * from its builder on every call (the entity checks, the selection, the
 * parameter list): for the wide selects of the hot paths that is most of
 * their CPU time. A query prepared here is built the first time with
 * `sql.placeholder(...)` for the values that change, kept per `Db`, and
 * executed with the values; its SQL text is the same every time, so the
 * driver also keeps it as a named server-side statement.
 *
 * Only on the root handle: a transaction's prepared query would be bound to
 * that transaction, so inside one the query is built and run as usual
 * (`prepared` returns undefined and the caller builds it).
 */
import { is } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx } from './client.js';

const byDb = new WeakMap<object, Map<string, unknown>>();

/** The query named `name`, built by `build` once for this `db`; undefined inside a transaction. */
export function prepared<Q>(db: DbOrTx, name: string, build: (db: Db) => Q): Q | undefined {
  if (is(db, PgTransaction)) return undefined;
  let queries = byDb.get(db);
  if (!queries) byDb.set(db, (queries = new Map()));
  let query = queries.get(name) as Q | undefined;
  if (query === undefined) {
    query = build(db as Db);
    queries.set(name, query);
  }
  return query;
}

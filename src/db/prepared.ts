/**
 * Queries built once per database handle. drizzle builds a query's SQL text
 * from its builder on every call (the entity checks, the selection, the
 * parameter list): for the wide selects of the hot paths that is most of
 * their CPU time. A query prepared here is built the first time with
 * `sql.placeholder(...)` for the values that change, kept per `Db`, and
 * executed with the values; its SQL text is the same every time, so the
 * driver also keeps it as a named server-side statement. Its rows are mapped
 * by a mapper compiled once for the query (compileRowMapper).
 *
 * `prepared` keeps the query on the root handle: a prepared query is bound
 * to its handle, so inside a transaction it returns undefined and the caller
 * builds the query as usual. `preparedInTransaction` is for statements that
 * run inside transactions: their SQL text, parameter list and row mapper are
 * built once, and each transaction gets a prepared query of its own from
 * them (drizzle's `session.prepareQuery`, what a builder's `.prepare()`
 * calls), with nothing rebuilt.
 */
import { Column, getTableName, is, SQL, Subquery, type Query } from 'drizzle-orm';
import { PgTransaction, type PgPreparedQuery, type PreparedQueryConfig } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx, Tx } from './client.js';

interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

interface SelectedField {
  path: string[];
  field: unknown;
}

/** The parts of drizzle's prepared query (pg-core, postgres-js and PGlite sessions) the mapper below reads and sets. */
interface PreparedInternals {
  fields?: SelectedField[];
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: (rows: unknown[][]) => unknown;
  queryMetadata?: { type: 'select' | 'update' | 'delete' | 'insert'; tables: string[] };
  cacheConfig?: unknown;
}

/**
 * drizzle's row mapping (utils.js mapResultRow) with its per-cell decisions
 * taken once per query: which decoder each column has, which left-joined
 * table it belongs to. mapResultRow asks `is(field, Column)` (a prototype
 * walk for SQL fields) up to four times per cell, per row; on a list of wide
 * rows that was a fifth of a request's CPU. Same output, same rule for a
 * left join that found nothing (the table's object is null when its first
 * column is, and the join may be null).
 */
export function compileRowMapper(
  fields: SelectedField[],
  joinsNotNullableMap: Record<string, boolean> | undefined,
): (rows: unknown[][]) => Record<string, unknown>[] {
  const plan: PlannedField[] = fields.map(({ path, field }) => {
    const column = is(field, Column);
    // An SQL fragment's `decoder` is internal to drizzle (mapWith sets it).
    type WithDecoder = { decoder: Decoder };
    const decoder: Decoder = column
      ? (field as Decoder)
      : is(field, SQL)
        ? (field as unknown as WithDecoder).decoder
        : is(field, Subquery)
          ? (field as unknown as { _: { sql: WithDecoder } })._.sql.decoder
          : (field as { sql: WithDecoder }).sql.decoder;
    const table = joinsNotNullableMap && column && path.length === 2 ? getTableName((field as Column).table) : null;
    return { parents: path.slice(0, -1), key: path[path.length - 1]!, decoder, table, object: path[0]! };
  });
  return generatedMapper(plan, joinsNotNullableMap) ?? interpretedMapper(plan, joinsNotNullableMap);
}

interface PlannedField {
  parents: string[];
  key: string;
  decoder: Decoder;
  /** The table of a left-joinable column (`object.column`), when the query has joins; else null. */
  table: string | null;
  object: string;
}

/**
 * The same mapping as source code compiled once per query: each row becomes one object literal (one
 * shape, built in one go) from the row's cells decoded in field order. Null when the fields do not make
 * a tree of plain keys (a key both a value and an object, or `__proto__`): the interpreted mapper
 * handles those as drizzle does.
 */
function generatedMapper(
  plan: PlannedField[],
  joinsNotNullableMap: Record<string, boolean> | undefined,
): ((rows: unknown[][]) => Record<string, unknown>[]) | null {
  type Tree = Map<string, Tree | number>;
  const root: Tree = new Map();
  for (let i = 0; i < plan.length; i++) {
    const { parents, key } = plan[i]!;
    if (key === '__proto__' || parents.includes('__proto__')) return null;
    let node = root;
    for (const chunk of parents) {
      let next = node.get(chunk);
      if (next === undefined) node.set(chunk, (next = new Map()));
      else if (typeof next === 'number') return null;
      node = next;
    }
    // A key seen twice keeps its first place and takes the later value, as an assignment does.
    if (node.get(key) instanceof Map) return null;
    node.set(key, i);
  }
  const literal = (node: Tree): string => `{${[...node].map(([k, v]) => `${JSON.stringify(k)}: ${typeof v === 'number' ? `v${v}` : literal(v)}`).join(', ')}}`;
  const lines: string[] = [];
  plan.forEach((_, i) => lines.push(`const r${i} = row[${i}];`, `const v${i} = r${i} === null ? null : d${i}.mapFromDriverValue(r${i});`));
  lines.push(`const o = ${literal(root)};`);
  if (joinsNotNullableMap) {
    // drizzle's rule: a joined table's object is null when its first column is and all its columns are that
    // table's (and the join may be null).
    const objects = new Map<string, { first: number; tables: Set<string> }>();
    plan.forEach(({ table, object }, i) => {
      if (table === null) return;
      const seen = objects.get(object);
      if (seen) seen.tables.add(table);
      else objects.set(object, { first: i, tables: new Set([table]) });
    });
    for (const [object, { first, tables }] of objects) {
      if (tables.size !== 1) continue;
      lines.push(`if (v${first} === null && !jm[${JSON.stringify([...tables][0])}]) o[${JSON.stringify(object)}] = null;`);
    }
  }
  lines.push('return o;');
  const decoders = plan.map((_, i) => `const d${i} = d[${i}];`).join('\n');
  const source = `${decoders}\nconst mapRow = (row) => {\n${lines.join('\n')}\n};\nreturn (rows) => rows.map(mapRow);`;
  // Source generated from the query's own selection (keys quoted by JSON.stringify, values read by index).
  const factory = new Function('d', 'jm', source) as (
    d: Decoder[],
    jm: Record<string, boolean> | undefined,
  ) => (rows: unknown[][]) => Record<string, unknown>[];
  return factory(
    plan.map((p) => p.decoder),
    joinsNotNullableMap,
  );
}

/** The mapping step by step (fields that do not make a plain tree). */
function interpretedMapper(plan: PlannedField[], joinsNotNullableMap: Record<string, boolean> | undefined): (rows: unknown[][]) => Record<string, unknown>[] {
  return (rows) =>
    rows.map((row) => {
      const result: Record<string, unknown> = {};
      const nullify: Record<string, string | false> = {};
      for (let i = 0; i < plan.length; i++) {
        const { parents, key, decoder, table, object } = plan[i]!;
        let node = result;
        for (const chunk of parents) {
          if (!(chunk in node)) node[chunk] = {};
          node = node[chunk] as Record<string, unknown>;
        }
        const raw = row[i];
        const value = (node[key] = raw === null ? null : decoder.mapFromDriverValue(raw));
        if (table !== null) {
          if (!(object in nullify)) nullify[object] = value === null ? table : false;
          else if (typeof nullify[object] === 'string' && nullify[object] !== table) nullify[object] = false;
        }
      }
      if (joinsNotNullableMap) {
        for (const object in nullify) {
          const table = nullify[object];
          if (typeof table === 'string' && !joinsNotNullableMap[table]) result[object] = null;
        }
      }
      return result;
    });
}

/** Gives a prepared select its compiled row mapper (anything else is left as drizzle made it). */
function withCompiledMapper<Q>(query: Q): Q {
  const q = query as PreparedInternals;
  if (q && typeof q === 'object' && Array.isArray(q.fields) && !q.customResultMapper) q.customResultMapper = compileRowMapper(q.fields, q.joinsNotNullableMap);
  return query;
}

const byDb = new WeakMap<object, Map<string, unknown>>();

/** The query named `name`, built by `build` once for this `db`; undefined inside a transaction. */
export function prepared<Q>(db: DbOrTx, name: string, build: (db: Db) => Q): Q | undefined {
  if (is(db, PgTransaction)) return undefined;
  let queries = byDb.get(db);
  if (!queries) byDb.set(db, (queries = new Map()));
  let query = queries.get(name) as Q | undefined;
  if (query === undefined) {
    query = withCompiledMapper(build(db as Db));
    queries.set(name, query);
  }
  return query;
}

/** What a transaction's prepared query is made from: the statement as drizzle built it once. */
interface Template {
  query: Query;
  fields: SelectedField[] | undefined;
  joinsNotNullableMap: Record<string, boolean> | undefined;
  customResultMapper: ((rows: unknown[][]) => unknown) | undefined;
  queryMetadata: PreparedInternals['queryMetadata'];
  cacheConfig: unknown;
}

const templates = new Map<string, Template>();

/**
 * The statement named `name` for the transaction `tx`: `build` (a builder's `.prepare(name)`, with
 * `sql.placeholder(...)` for the values that change) runs the first time only; later transactions get a
 * prepared query made from what it built, with the same name, executed with the values. The SQL text and
 * parameters sent are the ones `build` gives. A template depends on the builder and drizzle's dialect alone,
 * not on the database (every handle is made alike, src/db/client.ts), so it is kept by name: one name, one
 * builder.
 */
export function preparedInTransaction<Q extends PgPreparedQuery<PreparedQueryConfig>>(tx: Tx, name: string, build: (tx: Tx) => Q): Q {
  const template = templates.get(name);
  if (template) {
    const { query, fields, joinsNotNullableMap, customResultMapper, queryMetadata, cacheConfig } = template;
    const made = tx._.session.prepareQuery(query, fields as never, name, true, customResultMapper as never, queryMetadata, cacheConfig as never);
    (made as unknown as PreparedInternals).joinsNotNullableMap = joinsNotNullableMap;
    return made as unknown as Q;
  }
  const built = withCompiledMapper(build(tx));
  const internals = built as unknown as PreparedInternals;
  templates.set(name, {
    query: built.getQuery(),
    fields: internals.fields,
    joinsNotNullableMap: internals.joinsNotNullableMap,
    customResultMapper: internals.customResultMapper,
    queryMetadata: internals.queryMetadata,
    cacheConfig: internals.cacheConfig,
  });
  return built;
}

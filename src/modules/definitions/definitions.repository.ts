/**
 * SQL of the definitions of both kinds: each function takes the kind, whose
 * table it reads and writes (drizzle cannot check a query on a table chosen
 * at run time, so the rows come back as the kind's row type by assertion).
 */
import { and, asc, count, eq, getTableColumns, gte, ilike, inArray, lt, or, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { containsPattern } from '../../db/sql-helpers.js';
import { leagues } from '../leagues/leagues.table.js';
import { questionDefinitions, type QuestionDefinitionRow } from './definitions.table.js';
import { upsertById } from '../shared/upsert-by-id.js';
import type { DefinitionListFilter } from './definition-rules.js';
import type { AnyDefinitionKind, DefinitionKind, DefinitionOperations, StoredDefinition, WithLeague } from './definition-kind.js';

/** A kind whose stored rows are `Row`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type KindOf<Row extends StoredDefinition> = DefinitionKind<Row, any, unknown, unknown, DefinitionOperations>;

type Columns = Record<string, PgColumn>;
const columnsOf = (kind: AnyDefinitionKind) => getTableColumns(kind.table) as Columns;
const tableOf = (kind: AnyDefinitionKind) => kind.table as PgTable;

/**
 * A league's definitions of the kind, ordered by name without regard to case,
 * then id; out of issuance (archived) ones only with `includeInactive`. Only
 * the list's columns are read.
 */
export async function listDefinitions<Row extends StoredDefinition>({
  db,
  kind,
  filter,
}: {
  db: DbOrTx;
  kind: KindOf<Row>;
  filter: DefinitionListFilter & { isPivotalMoment?: boolean | undefined };
}): Promise<Row[]> {
  const { table } = kind;
  const all = columnsOf(kind);
  const columns = kind.list.columns ? Object.fromEntries(kind.list.columns.map((c: string) => [c, all[c]!])) : all;
  const p = filter.q ? containsPattern(filter.q) : undefined;
  return (await db
    .select(columns)
    .from(tableOf(kind))
    .where(
      and(
        eq(table.leagueId, filter.leagueId),
        filter.includeInactive ? undefined : eq(all[kind.archive.column]!, !kind.archive.archived),
        filter.isPivotalMoment === undefined ? undefined : eq(table.isPivotalMoment, filter.isPivotalMoment),
        p ? or(ilike(table.name, p), ilike(sql`${table.id}::text`, p)) : undefined,
        filter.created ? and(gte(table.createdAt, filter.created.from), lt(table.createdAt, filter.created.to)) : undefined,
        filter.updated ? and(gte(table.updatedAt, filter.updated.from), lt(table.updatedAt, filter.updated.to)) : undefined,
      ),
    )
    .orderBy(asc(sql`lower(${table.name})`), asc(table.id))) as Row[];
}

/** A definition with the slug and sport of its league; locked for update when asked. */
export async function findDefinition<Row extends StoredDefinition>({
  db,
  kind,
  id,
  forUpdate = false,
}: {
  db: DbOrTx;
  kind: KindOf<Row>;
  id: string;
  forUpdate?: boolean;
}): Promise<WithLeague<Row> | undefined> {
  const [row] = await definitionsByIds({ db, kind, ids: [id], forUpdate });
  return row;
}

/** The definitions with these ids (with their league's slug and sport), by id; locked for update when asked. */
export async function definitionsByIds<Row extends StoredDefinition>({
  db,
  kind,
  ids,
  forUpdate = false,
}: {
  db: DbOrTx;
  kind: KindOf<Row>;
  ids: string[];
  forUpdate?: boolean;
}): Promise<WithLeague<Row>[]> {
  if (!ids.length) return [];
  const { table } = kind;
  const query = db
    .select({ definition: table, leagueSlug: leagues.slug, leagueSport: leagues.sport })
    .from(tableOf(kind))
    .innerJoin(leagues, eq(leagues.id, table.leagueId))
    .where(inArray(table.id, ids))
    .orderBy(asc(table.id));
  const rows = (forUpdate ? await query.for('update', { of: tableOf(kind) }) : await query) as { definition: Row; leagueSlug: string; leagueSport: string }[];
  return rows.map((r) => ({ ...r.definition, leagueSlug: r.leagueSlug, leagueSport: r.leagueSport }));
}

export async function insertDefinition<Row extends StoredDefinition>({
  db,
  kind,
  values,
}: {
  db: DbOrTx;
  kind: KindOf<Row>;
  values: Record<string, unknown>;
}): Promise<Row> {
  const [row] = (await db.insert(tableOf(kind)).values(values).returning()) as unknown as Row[];
  return row!;
}

export async function updateDefinition<Row extends StoredDefinition>({
  db,
  kind,
  id,
  values,
}: {
  db: DbOrTx;
  kind: KindOf<Row>;
  id: string;
  values: Record<string, unknown>;
}): Promise<Row | undefined> {
  const [row] = (await db
    .update(tableOf(kind))
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(kind.table.id, id))
    .returning()) as Row[];
  return row;
}

/**
 * Takes a definition out of issuance or back (the kind's archive column);
 * `updated_at` moves only when the column changes (so repeating it changes nothing).
 */
export async function setArchived<Row extends StoredDefinition>({
  db,
  kind,
  id,
  archived,
}: {
  db: DbOrTx;
  kind: KindOf<Row>;
  id: string;
  archived: boolean;
}): Promise<Row | undefined> {
  const { column, archived: whenArchived } = kind.archive;
  const flag = columnsOf(kind)[column]!;
  const value = archived === whenArchived;
  const [row] = (await db
    .update(tableOf(kind))
    .set({ [column]: value, updatedAt: sql`case when ${flag} = ${value} then ${kind.table.updatedAt} else now() end` })
    .where(eq(kind.table.id, id))
    .returning()) as Row[];
  return row;
}

export async function deleteDefinition({ db, kind, id }: { db: DbOrTx; kind: AnyDefinitionKind; id: string }): Promise<void> {
  await db.delete(tableOf(kind)).where(eq(kind.table.id, id));
}

/** How many rows of each of the kind's references refer to the definition, in the kind's order. */
export async function countReferences({ db, kind, id }: { db: DbOrTx; kind: AnyDefinitionKind; id: string }): Promise<number[]> {
  const counts: number[] = [];
  // One after the other: inside a transaction they share one connection.
  for (const ref of kind.references) {
    const [row] = await db.select({ n: count() }).from(ref.table).where(eq(ref.column, id));
    counts.push(Number(row?.n ?? 0));
  }
  return counts;
}

/**
 * Every definition of the kind, of every league, with its league's slug,
 * ordered by league slug, then name without regard to case, then id; read in
 * pages (keyset on that order) so an export never holds the whole table.
 */
export async function* definitionsForExport<Row extends StoredDefinition>({
  db,
  kind,
  pageSize = 500,
}: {
  db: DbOrTx;
  kind: KindOf<Row>;
  pageSize?: number;
}): AsyncGenerator<Row & { leagueSlug: string }> {
  const { table } = kind;
  // League slugs are ASCII; names compare as the unique index does (lower), in byte order ("C") on every server.
  const byLeagueSlug = sql`${leagues.slug} collate "C"`;
  const byLowerName = sql`lower(${table.name}) collate "C"`;
  let after: { leagueSlug: string; lowerName: string; id: string } | undefined;
  for (;;) {
    const page = (await db
      .select({ definition: table, leagueSlug: leagues.slug, lowerName: sql<string>`lower(${table.name})` })
      .from(tableOf(kind))
      .innerJoin(leagues, eq(leagues.id, table.leagueId))
      .where(
        after
          ? sql`(${byLeagueSlug}, ${byLowerName}, ${table.id}) > (${after.leagueSlug} collate "C", ${after.lowerName} collate "C", ${after.id}::uuid)`
          : undefined,
      )
      .orderBy(asc(byLeagueSlug), asc(byLowerName), asc(table.id))
      .limit(pageSize)) as { definition: Row; leagueSlug: string; lowerName: string }[];
    for (const row of page) yield { ...row.definition, leagueSlug: row.leagueSlug };
    if (page.length < pageSize) return;
    const last = page[page.length - 1]!;
    after = { leagueSlug: last.leagueSlug, lowerName: last.lowerName, id: last.definition.id };
  }
}

/** Ids and names (lowercased as the unique index compares them) of a league's definitions of the kind. */
export async function definitionNamesOfLeague({
  db,
  kind,
  leagueId,
}: {
  db: DbOrTx;
  kind: AnyDefinitionKind;
  leagueId: string;
}): Promise<{ id: string; lowerName: string }[]> {
  const { table } = kind;
  return db
    .select({ id: table.id, lowerName: sql<string>`lower(${table.name})` })
    .from(tableOf(kind))
    .where(eq(table.leagueId, leagueId)) as Promise<{ id: string; lowerName: string }[]>;
}

/** `lower()` of each name as the database computes it (the unique name indexes use it), in the order given. */
export async function lowerCaseNames({ db, names }: { db: DbOrTx; names: string[] }): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < names.length; i += 1000) {
    const chunk = names.slice(i, i + 1000);
    const values = sql.join(
      chunk.map((n, j) => sql`(${j}::int, ${n}::text)`),
      sql`, `,
    );
    const result = (await db.execute(sql`select lower(v.n) as lower from (values ${values}) as v(i, n) order by v.i`)) as unknown;
    // postgres.js answers an array of rows, PGlite `{ rows }`.
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { lower: string }[];
    out.push(...rows.map((r) => r.lower));
  }
  return out;
}

/** Writes whole definitions by id in bulk (new ones with the ids given, replacements of stored ones): the CSV import's write. */
export const upsertDefinitions = ({ db, kind, rows }: { db: DbOrTx; kind: AnyDefinitionKind; rows: ({ id: string } & Record<string, unknown>)[] }) =>
  upsertById({ db, table: tableOf(kind), rows });

/** A league's in-game definitions not archived, oldest first (the catalog a listener runs its matches with). */
export async function activeInGameDefinitionsOfLeague({ db, leagueId }: { db: DbOrTx; leagueId: string }): Promise<QuestionDefinitionRow[]> {
  return db
    .select()
    .from(questionDefinitions)
    .where(and(eq(questionDefinitions.leagueId, leagueId), eq(questionDefinitions.isArchived, false)))
    .orderBy(asc(questionDefinitions.createdAt), asc(questionDefinitions.id));
}

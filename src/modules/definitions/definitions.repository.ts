import { and, asc, count, eq, gte, ilike, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { containsPattern } from '../../db/sql-helpers.js';
import { questionIssuances } from '../issuances/issuances.table.js';
import { leagues } from '../leagues/leagues.table.js';
import { questionSponsorships } from '../sponsorships/sponsorships.table.js';
import type { DefinitionListFilter } from './definition-rules.js';
import { questionDefinitions, type QuestionDefinitionRow } from './definitions.table.js';

export type NewQuestionDefinition = typeof questionDefinitions.$inferInsert;

/** Conditions of the `q` and date-range filters, for either definition table. */
export function commonListConditions(
  table: { id: PgColumn; name: PgColumn; createdAt: PgColumn; updatedAt: PgColumn },
  filter: Pick<DefinitionListFilter, 'q' | 'created' | 'updated'>,
): (SQL | undefined)[] {
  const p = filter.q ? containsPattern(filter.q) : undefined;
  return [
    p ? or(ilike(table.name, p), ilike(sql`${table.id}::text`, p)) : undefined,
    filter.created ? and(gte(table.createdAt, filter.created.from), lt(table.createdAt, filter.created.to)) : undefined,
    filter.updated ? and(gte(table.updatedAt, filter.updated.from), lt(table.updatedAt, filter.updated.to)) : undefined,
  ];
}

const summaryColumns = {
  id: questionDefinitions.id,
  leagueId: questionDefinitions.leagueId,
  name: questionDefinitions.name,
  description: questionDefinitions.description,
  isPivotalMoment: questionDefinitions.isPivotalMoment,
  isActive: questionDefinitions.isActive,
  isArchived: questionDefinitions.isArchived,
  groupId: questionDefinitions.groupId,
  triggerEventType: questionDefinitions.triggerEventType,
  createdAt: questionDefinitions.createdAt,
  updatedAt: questionDefinitions.updatedAt,
};
export type QuestionDefinitionSummaryRow = Pick<QuestionDefinitionRow, keyof typeof summaryColumns>;

export async function listDefinitions({
  db,
  filter,
}: {
  db: DbOrTx;
  filter: DefinitionListFilter & { isPivotalMoment?: boolean | undefined };
}): Promise<QuestionDefinitionSummaryRow[]> {
  return db
    .select(summaryColumns)
    .from(questionDefinitions)
    .where(
      and(
        eq(questionDefinitions.leagueId, filter.leagueId),
        filter.includeInactive ? undefined : eq(questionDefinitions.isArchived, false),
        filter.isPivotalMoment === undefined ? undefined : eq(questionDefinitions.isPivotalMoment, filter.isPivotalMoment),
        ...commonListConditions(questionDefinitions, filter),
      ),
    )
    .orderBy(asc(sql`lower(${questionDefinitions.name})`), asc(questionDefinitions.id));
}

/** A definition with the slug and sport of its league. */
export async function findDefinition({ db, id, forUpdate = false }: { db: DbOrTx; id: string; forUpdate?: boolean }): Promise<(QuestionDefinitionRow & { leagueSlug: string; leagueSport: string }) | undefined> {
  const query = db
    .select({ definition: questionDefinitions, leagueSlug: leagues.slug, leagueSport: leagues.sport })
    .from(questionDefinitions)
    .innerJoin(leagues, eq(leagues.id, questionDefinitions.leagueId))
    .where(eq(questionDefinitions.id, id))
    .limit(1);
  const [row] = forUpdate ? await query.for('update', { of: questionDefinitions }) : await query;
  return row && { ...row.definition, leagueSlug: row.leagueSlug, leagueSport: row.leagueSport };
}

export async function insertDefinition({ db, values }: { db: DbOrTx; values: NewQuestionDefinition }): Promise<QuestionDefinitionRow> {
  const [row] = await db.insert(questionDefinitions).values(values).returning();
  return row!;
}

export async function updateDefinition({ db, id, values }: { db: DbOrTx; id: string; values: Partial<NewQuestionDefinition> }): Promise<QuestionDefinitionRow | undefined> {
  const [row] = await db
    .update(questionDefinitions)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(questionDefinitions.id, id))
    .returning();
  return row;
}

/** Sets the archive flag; `updated_at` moves only when the flag changes (so repeating it changes nothing). */
export async function setArchived({ db, id, archived }: { db: DbOrTx; id: string; archived: boolean }): Promise<QuestionDefinitionRow | undefined> {
  const [row] = await db
    .update(questionDefinitions)
    .set({
      isArchived: archived,
      updatedAt: sql`case when ${questionDefinitions.isArchived} = ${archived} then ${questionDefinitions.updatedAt} else now() end`,
    })
    .where(eq(questionDefinitions.id, id))
    .returning();
  return row;
}

export async function deleteDefinition({ db, id }: { db: DbOrTx; id: string }): Promise<void> {
  await db.delete(questionDefinitions).where(eq(questionDefinitions.id, id));
}

/** How many issuances and sponsorship slots reference the definition. */
export async function countDefinitionReferences({ db, id }: { db: DbOrTx; id: string }): Promise<{ issuances: number; sponsorships: number }> {
  // One after the other: inside a transaction both share one connection.
  const [i] = await db.select({ n: count() }).from(questionIssuances).where(eq(questionIssuances.definitionId, id));
  const [s] = await db.select({ n: count() }).from(questionSponsorships).where(eq(questionSponsorships.targetDefinitionId, id));
  return { issuances: Number(i?.n ?? 0), sponsorships: Number(s?.n ?? 0) };
}

/** Either definition table (in-game or Match), as the queries both kinds share see it (`from` takes it cast: drizzle cannot check a generic table). */
type DefinitionTable = PgTable & { id: PgColumn; leagueId: PgColumn; name: PgColumn };

/** A row of `T` with the slug and sport of its league. */
type WithLeague<T extends DefinitionTable> = T['$inferSelect'] & { leagueSlug: string; leagueSport: string };

/**
 * Every definition of a definition table, of every league, with its league's
 * slug, ordered by league slug, then name without regard to case, then id;
 * read in pages (keyset on that order) so an export never holds the whole table.
 */
export async function* definitionsForExport<T extends DefinitionTable>({
  db,
  table,
  pageSize = 500,
}: {
  db: DbOrTx;
  table: T;
  pageSize?: number;
}): AsyncGenerator<T['$inferSelect'] & { leagueSlug: string }> {
  // League slugs are ASCII; names compare as the unique index does (lower), in byte order ("C") on every server.
  const byLeagueSlug = sql`${leagues.slug} collate "C"`;
  const byLowerName = sql`lower(${table.name}) collate "C"`;
  let after: { leagueSlug: string; lowerName: string; id: string } | undefined;
  for (;;) {
    const page = (await db
      .select({ definition: table, leagueSlug: leagues.slug, lowerName: sql<string>`lower(${table.name})` })
      .from(table as PgTable)
      .innerJoin(leagues, eq(leagues.id, table.leagueId))
      .where(after ? sql`(${byLeagueSlug}, ${byLowerName}, ${table.id}) > (${after.leagueSlug} collate "C", ${after.lowerName} collate "C", ${after.id}::uuid)` : undefined)
      .orderBy(asc(byLeagueSlug), asc(byLowerName), asc(table.id))
      .limit(pageSize)) as { definition: T['$inferSelect'] & { id: string }; leagueSlug: string; lowerName: string }[];
    for (const row of page) yield { ...row.definition, leagueSlug: row.leagueSlug };
    if (page.length < pageSize) return;
    const last = page[page.length - 1]!;
    after = { leagueSlug: last.leagueSlug, lowerName: last.lowerName, id: last.definition.id };
  }
}

/** The definitions of a definition table with these ids (with their league's slug and sport), by id; locked for update when asked. */
export async function definitionsByIds<T extends DefinitionTable>({ db, table, ids, forUpdate = false }: { db: DbOrTx; table: T; ids: string[]; forUpdate?: boolean }): Promise<WithLeague<T>[]> {
  if (!ids.length) return [];
  const query = db
    .select({ definition: table, leagueSlug: leagues.slug, leagueSport: leagues.sport })
    .from(table as PgTable)
    .innerJoin(leagues, eq(leagues.id, table.leagueId))
    .where(inArray(table.id, ids))
    .orderBy(asc(table.id));
  const rows = (forUpdate ? await query.for('update', { of: table }) : await query) as { definition: T['$inferSelect']; leagueSlug: string; leagueSport: string }[];
  return rows.map((r) => ({ ...r.definition, leagueSlug: r.leagueSlug, leagueSport: r.leagueSport }));
}

/** Ids and names (lowercased as the unique index compares them) of a league's definitions in a definition table. */
export async function definitionNamesIn({ db, table, leagueId }: { db: DbOrTx; table: DefinitionTable; leagueId: string }): Promise<{ id: string; lowerName: string }[]> {
  return db
    .select({ id: table.id, lowerName: sql<string>`lower(${table.name})` })
    .from(table)
    .where(eq(table.leagueId, leagueId)) as Promise<{ id: string; lowerName: string }[]>;
}

/** Every in-game definition of every league with its league's slug, in export order (see `definitionsForExport`). */
export const allDefinitionsForExport = ({ db }: { db: DbOrTx }) => definitionsForExport({ db, table: questionDefinitions });

/** The in-game definitions with these ids (with their league's slug and sport); locked for update when asked. */
export const findDefinitionsByIds = (args: { db: DbOrTx; ids: string[]; forUpdate?: boolean }) => definitionsByIds({ ...args, table: questionDefinitions });

/** Ids and lowercased names of a league's in-game definitions. */
export const definitionNamesOfLeague = (args: { db: DbOrTx; leagueId: string }) => definitionNamesIn({ ...args, table: questionDefinitions });

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

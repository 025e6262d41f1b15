import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import type { DefinitionListFilter } from '../definitions/definition-rules.js';
import { commonListConditions } from '../definitions/definitions.repository.js';
import { questionIssuances } from '../issuances/issuances.table.js';
import { leagues } from '../leagues/leagues.table.js';
import { matchQuestionDefinitions, type MatchQuestionDefinitionRow } from './match-definitions.table.js';

export type NewMatchQuestionDefinition = typeof matchQuestionDefinitions.$inferInsert;

export async function listMatchDefinitions({ db, filter }: { db: DbOrTx; filter: DefinitionListFilter }): Promise<MatchQuestionDefinitionRow[]> {
  return db
    .select()
    .from(matchQuestionDefinitions)
    .where(
      and(
        eq(matchQuestionDefinitions.leagueId, filter.leagueId),
        filter.includeInactive ? undefined : eq(matchQuestionDefinitions.isActive, true),
        ...commonListConditions(matchQuestionDefinitions, filter),
      ),
    )
    .orderBy(asc(sql`lower(${matchQuestionDefinitions.name})`), asc(matchQuestionDefinitions.id));
}

/** A definition with the slug of its league. */
export async function findMatchDefinition({ db, id, forUpdate = false }: { db: DbOrTx; id: string; forUpdate?: boolean }): Promise<(MatchQuestionDefinitionRow & { leagueSlug: string }) | undefined> {
  const query = db
    .select({ definition: matchQuestionDefinitions, leagueSlug: leagues.slug })
    .from(matchQuestionDefinitions)
    .innerJoin(leagues, eq(leagues.id, matchQuestionDefinitions.leagueId))
    .where(eq(matchQuestionDefinitions.id, id))
    .limit(1);
  const [row] = forUpdate ? await query.for('update', { of: matchQuestionDefinitions }) : await query;
  return row && { ...row.definition, leagueSlug: row.leagueSlug };
}

export async function insertMatchDefinition({ db, values }: { db: DbOrTx; values: NewMatchQuestionDefinition }): Promise<MatchQuestionDefinitionRow> {
  const [row] = await db.insert(matchQuestionDefinitions).values(values).returning();
  return row!;
}

export async function updateMatchDefinition({ db, id, values }: { db: DbOrTx; id: string; values: Partial<NewMatchQuestionDefinition> }): Promise<MatchQuestionDefinitionRow | undefined> {
  const [row] = await db
    .update(matchQuestionDefinitions)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(matchQuestionDefinitions.id, id))
    .returning();
  return row;
}

/** Sets `is_active`; `updated_at` moves only when the flag changes (so repeating it changes nothing). */
export async function setActive({ db, id, active }: { db: DbOrTx; id: string; active: boolean }): Promise<MatchQuestionDefinitionRow | undefined> {
  const [row] = await db
    .update(matchQuestionDefinitions)
    .set({
      isActive: active,
      updatedAt: sql`case when ${matchQuestionDefinitions.isActive} = ${active} then ${matchQuestionDefinitions.updatedAt} else now() end`,
    })
    .where(eq(matchQuestionDefinitions.id, id))
    .returning();
  return row;
}

export async function deleteMatchDefinition({ db, id }: { db: DbOrTx; id: string }): Promise<void> {
  await db.delete(matchQuestionDefinitions).where(eq(matchQuestionDefinitions.id, id));
}

export async function countMatchDefinitionIssuances({ db, id }: { db: DbOrTx; id: string }): Promise<number> {
  const [row] = await db.select({ n: count() }).from(questionIssuances).where(eq(questionIssuances.matchQuestionDefinitionId, id));
  return Number(row?.n ?? 0);
}

// League slugs are ASCII; names compare as the unique index does (lower), in byte order ("C") on every server.
const byLeagueSlug = sql`${leagues.slug} collate "C"`;
const byLowerName = sql`lower(${matchQuestionDefinitions.name}) collate "C"`;

/**
 * Every Match question definition with its league's slug, ordered by league
 * slug, then name without regard to case, then id; read in pages (keyset on
 * that order) so an export never holds the whole table.
 */
export async function* allMatchDefinitionsForExport({ db, pageSize = 500 }: { db: DbOrTx; pageSize?: number }): AsyncGenerator<MatchQuestionDefinitionRow & { leagueSlug: string }> {
  let after: { leagueSlug: string; lowerName: string; id: string } | undefined;
  for (;;) {
    const page = await db
      .select({ definition: matchQuestionDefinitions, leagueSlug: leagues.slug, lowerName: sql<string>`lower(${matchQuestionDefinitions.name})` })
      .from(matchQuestionDefinitions)
      .innerJoin(leagues, eq(leagues.id, matchQuestionDefinitions.leagueId))
      .where(after ? sql`(${byLeagueSlug}, ${byLowerName}, ${matchQuestionDefinitions.id}) > (${after.leagueSlug} collate "C", ${after.lowerName} collate "C", ${after.id}::uuid)` : undefined)
      .orderBy(asc(byLeagueSlug), asc(byLowerName), asc(matchQuestionDefinitions.id))
      .limit(pageSize);
    for (const row of page) yield { ...row.definition, leagueSlug: row.leagueSlug };
    if (page.length < pageSize) return;
    const last = page[page.length - 1]!;
    after = { leagueSlug: last.leagueSlug, lowerName: last.lowerName, id: last.definition.id };
  }
}

/** The definitions with these ids (with their league's slug and sport); locked for update when asked. */
export async function findMatchDefinitionsByIds({ db, ids, forUpdate = false }: { db: DbOrTx; ids: string[]; forUpdate?: boolean }): Promise<(MatchQuestionDefinitionRow & { leagueSlug: string; leagueSport: string })[]> {
  if (!ids.length) return [];
  const query = db
    .select({ definition: matchQuestionDefinitions, leagueSlug: leagues.slug, leagueSport: leagues.sport })
    .from(matchQuestionDefinitions)
    .innerJoin(leagues, eq(leagues.id, matchQuestionDefinitions.leagueId))
    .where(inArray(matchQuestionDefinitions.id, ids))
    .orderBy(asc(matchQuestionDefinitions.id));
  const rows = forUpdate ? await query.for('update', { of: matchQuestionDefinitions }) : await query;
  return rows.map((r) => ({ ...r.definition, leagueSlug: r.leagueSlug, leagueSport: r.leagueSport }));
}

/** Ids and names (lowercased as the unique index compares them) of a league's Match question definitions. */
export async function matchDefinitionNamesOfLeague({ db, leagueId }: { db: DbOrTx; leagueId: string }): Promise<{ id: string; lowerName: string }[]> {
  return db
    .select({ id: matchQuestionDefinitions.id, lowerName: sql<string>`lower(${matchQuestionDefinitions.name})` })
    .from(matchQuestionDefinitions)
    .where(eq(matchQuestionDefinitions.leagueId, leagueId));
}

import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import type { DefinitionListFilter } from '../definitions/definition-rules.js';
import { commonListConditions, definitionNamesIn, definitionsByIds, definitionsForExport } from '../definitions/definitions.repository.js';
import { questionIssuances } from '../issuances/issuances.table.js';
import { leagues } from '../leagues/leagues.table.js';
import { matchQuestionDefinitions, type MatchQuestionDefinitionRow } from './match-definitions.table.js';

export type NewMatchQuestionDefinition = typeof matchQuestionDefinitions.$inferInsert;

export async function listMatchDefinitions({ db, filter }: { db: DbOrTx; filter: DefinitionListFilter & { isPivotalMoment?: boolean | undefined } }): Promise<MatchQuestionDefinitionRow[]> {
  return db
    .select()
    .from(matchQuestionDefinitions)
    .where(
      and(
        eq(matchQuestionDefinitions.leagueId, filter.leagueId),
        filter.includeInactive ? undefined : eq(matchQuestionDefinitions.isActive, true),
        filter.isPivotalMoment === undefined ? undefined : eq(matchQuestionDefinitions.isPivotalMoment, filter.isPivotalMoment),
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

/** Every Match question definition of every league with its league's slug, in export order (see `definitionsForExport`). */
export const allMatchDefinitionsForExport = ({ db }: { db: DbOrTx }) => definitionsForExport({ db, table: matchQuestionDefinitions });

/** The Match question definitions with these ids (with their league's slug and sport); locked for update when asked. */
export const findMatchDefinitionsByIds = (args: { db: DbOrTx; ids: string[]; forUpdate?: boolean }) => definitionsByIds({ ...args, table: matchQuestionDefinitions });

/** Ids and lowercased names of a league's Match question definitions. */
export const matchDefinitionNamesOfLeague = (args: { db: DbOrTx; leagueId: string }) => definitionNamesIn({ ...args, table: matchQuestionDefinitions });

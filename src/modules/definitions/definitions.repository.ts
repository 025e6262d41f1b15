import { and, asc, count, eq, gte, ilike, lt, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
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

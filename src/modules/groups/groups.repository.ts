import { and, asc, count, eq, getTableColumns, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { questionDefinitions } from '../definitions/definitions.table.js';
import { leagues } from '../leagues/leagues.table.js';
import { matchQuestionDefinitions } from '../definitions/match-definitions.table.js';
import { questionGroups, type QuestionGroupRow } from './groups.table.js';

export type NewQuestionGroup = typeof questionGroups.$inferInsert;

/** A group with the slug and sport of its league. */
export type QuestionGroupWithLeague = QuestionGroupRow & { leagueSlug: string; leagueSport: string };

const withLeague = { ...getTableColumns(questionGroups), leagueSlug: leagues.slug, leagueSport: leagues.sport };

// Slugs are ASCII identifiers: byte order ("C") is the same on every server, whatever its default collation.
const bySlug = sql`${questionGroups.slug} collate "C"`;
const byLeagueSlug = sql`${leagues.slug} collate "C"`;

export const listGroups = ({ db, leagueId }: { db: DbOrTx; leagueId: string }): Promise<QuestionGroupRow[]> =>
  db.select().from(questionGroups).where(eq(questionGroups.leagueId, leagueId)).orderBy(asc(bySlug));

export async function findGroup({ db, id, forUpdate = false }: { db: DbOrTx; id: string; forUpdate?: boolean }): Promise<QuestionGroupWithLeague | undefined> {
  const query = db
    .select(withLeague)
    .from(questionGroups)
    .innerJoin(leagues, eq(leagues.id, questionGroups.leagueId))
    .where(eq(questionGroups.id, id))
    .limit(1);
  const [row] = forUpdate ? await query.for('update', { of: questionGroups }) : await query;
  return row;
}

/** The group when it belongs to the league (definitions may only use their own league's groups). */
export async function findGroupInLeague({ db, id, leagueId }: { db: DbOrTx; id: string; leagueId: string }): Promise<QuestionGroupRow | undefined> {
  const [row] = await db
    .select()
    .from(questionGroups)
    .where(and(eq(questionGroups.id, id), eq(questionGroups.leagueId, leagueId)))
    .limit(1);
  return row;
}

export async function insertGroup({ db, values }: { db: DbOrTx; values: NewQuestionGroup }): Promise<QuestionGroupRow> {
  const [row] = await db.insert(questionGroups).values(values).returning();
  return row!;
}

export async function updateGroup({ db, id, values }: { db: DbOrTx; id: string; values: Partial<NewQuestionGroup> }): Promise<QuestionGroupRow | undefined> {
  const [row] = await db
    .update(questionGroups)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(questionGroups.id, id))
    .returning();
  return row;
}

export async function deleteGroup({ db, id }: { db: DbOrTx; id: string }): Promise<void> {
  await db.delete(questionGroups).where(eq(questionGroups.id, id));
}

/** Definitions of either kind (in-game and Match) in the group. */
export async function countDefinitionsOfGroup({ db, id }: { db: DbOrTx; id: string }): Promise<number> {
  const [inGame] = await db.select({ n: count() }).from(questionDefinitions).where(eq(questionDefinitions.groupId, id));
  const [match] = await db.select({ n: count() }).from(matchQuestionDefinitions).where(eq(matchQuestionDefinitions.groupId, id));
  return Number(inGame?.n ?? 0) + Number(match?.n ?? 0);
}

/**
 * Every group of every league, ordered by league slug and group slug, read in
 * pages (keyset on that order) so an export never holds the whole table.
 */
export async function* allGroupsForExport({ db, pageSize = 500 }: { db: DbOrTx; pageSize?: number }): AsyncGenerator<QuestionGroupWithLeague> {
  let after: { leagueSlug: string; slug: string } | undefined;
  for (;;) {
    const page = await db
      .select(withLeague)
      .from(questionGroups)
      .innerJoin(leagues, eq(leagues.id, questionGroups.leagueId))
      .where(after ? sql`(${byLeagueSlug}, ${bySlug}) > (${after.leagueSlug} collate "C", ${after.slug} collate "C")` : undefined)
      .orderBy(asc(byLeagueSlug), asc(bySlug))
      .limit(pageSize);
    yield* page;
    if (page.length < pageSize) return;
    const last = page[page.length - 1]!;
    after = { leagueSlug: last.leagueSlug, slug: last.slug };
  }
}

import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { prepared } from '../../db/prepared.js';
import type { DbOrTx } from '../../db/client.js';
import { isOver } from '../../domain/vocabulary.js';
import { matches } from '../matches/matches.table.js';
import { questionSponsorships } from '../sponsorships/sponsorships.table.js';
import { SUPPORTED_LEAGUES } from '../../domain/sports/league-registry.js';
import { leagues, type LeagueRow } from './leagues.table.js';

/** Inserts every supported league that is missing, in one statement; existing rows keep their settings. */
export async function seedLeagues({ db }: { db: DbOrTx }): Promise<void> {
  await db
    .insert(leagues)
    .values(
      SUPPORTED_LEAGUES.map((l) => ({
        slug: l.slug,
        name: l.name,
        sport: l.sport,
        defaultQuestionMaxCount: l.defaults.questionMaxCount,
        defaultQuestionMinIntervalSeconds: l.defaults.questionMinIntervalSeconds,
        defaultQuestionPeriodDistribution: l.defaults.questionPeriodDistribution,
        defaultQuestionPoints: l.defaults.questionPoints,
        defaultAnswerWindowSeconds: l.defaults.answerWindowSeconds,
        defaultMinAnswerSeconds: l.defaults.minAnswerSeconds,
        defaultQuestionProbability: l.defaults.questionProbability,
      })),
    )
    .onConflictDoNothing({ target: leagues.slug });
}

const leaguesBySlug = (db: DbOrTx) => db.select().from(leagues).orderBy(asc(leagues.slug));

/** Every league, by slug (built once per database: an open endpoint every client calls). */
export const listLeagues = ({ db }: { db: DbOrTx }) =>
  prepared(db, 'leagues_by_slug', (root) => leaguesBySlug(root).prepare('leagues_by_slug'))?.execute() ?? leaguesBySlug(db);

export async function findLeague({ db, idOrSlug, lock }: { db: DbOrTx; idOrSlug: string; lock?: 'no key update' }): Promise<LeagueRow | undefined> {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrSlug);
  const query = db
    .select()
    .from(leagues)
    .where(isUuid ? eq(leagues.id, idOrSlug) : eq(leagues.slug, idOrSlug))
    .limit(1);
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

/**
 * Matches of the league that use its default cap (no question_max_count of
 * their own), are not over, and hold more slots than `cap` or a slot on a
 * question number above it: how many, and the one with the most slots. One
 * statement.
 */
export async function matchesOverDefaultCap({
  db,
  leagueId,
  cap,
}: {
  db: DbOrTx;
  leagueId: string;
  cap: number;
}): Promise<{ count: number; example: { id: string; slots: number; highestNumber: number | null } | null }> {
  const slots = sql<number>`count(*)::int`;
  const highest = sql<number | null>`max(${questionSponsorships.targetNumber})`;
  const over = db
    .select({ id: matches.id, slots: slots.as('slots'), highestNumber: highest.as('highest_number') })
    .from(matches)
    .innerJoin(questionSponsorships, eq(questionSponsorships.matchId, matches.id))
    .where(and(eq(matches.leagueId, leagueId), isNull(matches.questionMaxCount), isOver.notSql(matches.status)))
    .groupBy(matches.id)
    .having(sql`count(*) > ${cap} or max(${questionSponsorships.targetNumber}) > ${cap}`)
    .as('over');
  const rows = await db
    .select({ id: over.id, slots: over.slots, highestNumber: over.highestNumber, count: sql<number>`(count(*) over ())::int` })
    .from(over)
    .orderBy(sql`${over.slots} desc`, over.id)
    .limit(1);
  const [row] = rows;
  if (!row) return { count: 0, example: null };
  return {
    count: Number(row.count),
    example: { id: row.id, slots: Number(row.slots), highestNumber: row.highestNumber === null ? null : Number(row.highestNumber) },
  };
}

export async function updateLeague({ db, id, values }: { db: DbOrTx; id: string; values: Partial<typeof leagues.$inferInsert> }) {
  const [row] = await db
    .update(leagues)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(leagues.id, id))
    .returning();
  return row;
}

/** Removes a definition from every league's allowlist of its kind (`in_game` or `match`): one statement. */
export async function removeFromLeagueAllowlists({ db, kind, id }: { db: DbOrTx; kind: 'in_game' | 'match'; id: string }): Promise<void> {
  const column = kind === 'in_game' ? leagues.questionDefinitionAllowlist : leagues.matchQuestionDefinitionAllowlist;
  const key = kind === 'in_game' ? 'questionDefinitionAllowlist' : 'matchQuestionDefinitionAllowlist';
  await db
    .update(leagues)
    .set({ [key]: sql`array_remove(${column}, ${id}::uuid)`, updatedAt: sql`now()` })
    .where(sql`${id}::uuid = any(${column})`);
}

/** Every league's id by its slug. */
export async function leagueIdsBySlug({ db }: { db: DbOrTx }): Promise<Map<string, string>> {
  return new Map((await db.select({ id: leagues.id, slug: leagues.slug }).from(leagues)).map((l) => [l.slug, l.id]));
}

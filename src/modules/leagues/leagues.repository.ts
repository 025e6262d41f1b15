import { asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { SUPPORTED_LEAGUES } from './league-registry.js';
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
        defaultQuestionProbability: l.defaults.questionProbability,
      })),
    )
    .onConflictDoNothing({ target: leagues.slug });
}

export const listLeagues = ({ db }: { db: DbOrTx }) => db.select().from(leagues).orderBy(asc(leagues.slug));

export async function findLeague({ db, idOrSlug }: { db: DbOrTx; idOrSlug: string }): Promise<LeagueRow | undefined> {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrSlug);
  const [row] = await db
    .select()
    .from(leagues)
    .where(isUuid ? eq(leagues.id, idOrSlug) : eq(leagues.slug, idOrSlug))
    .limit(1);
  return row;
}

export async function updateLeague({ db, id, values }: { db: DbOrTx; id: string; values: Partial<typeof leagues.$inferInsert> }) {
  const [row] = await db
    .update(leagues)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(leagues.id, id))
    .returning();
  return row;
}

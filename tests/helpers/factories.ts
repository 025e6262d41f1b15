/** Rows created directly in the database for tests (leagues are seeded; matches come from here). */
import { randomUUID } from 'node:crypto';
import { leagues, type LeagueRow } from '../../src/modules/leagues/leagues.table.js';
import { matches, matchFollows, type MatchRow } from '../../src/modules/matches/matches.table.js';
import { eq } from 'drizzle-orm';
import type { TestApp } from './test-app.js';

/** A well-formed id that no row has (for 404s and dangling references). */
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

export async function leagueBySlug(app: TestApp, slug = 'wc'): Promise<LeagueRow> {
  const [row] = await app.services.database.db.select().from(leagues).where(eq(leagues.slug, slug));
  if (!row) throw new Error(`league ${slug} is not seeded`);
  return row;
}

export async function createMatch(app: TestApp, values: Partial<typeof matches.$inferInsert> & { league?: string } = {}): Promise<MatchRow> {
  const { league = 'wc', ...rest } = values;
  const leagueRow = await leagueBySlug(app, league);
  const [row] = await app.services.database.db
    .insert(matches)
    .values({
      srId: `test:${randomUUID()}`,
      leagueId: leagueRow.id,
      homeTeam: 'Team A',
      awayTeam: 'Team B',
      scheduled: new Date(Date.now() + 3600_000),
      ...rest,
    })
    .returning();
  return row!;
}

/** Follows directly in the database (no daily quota in the way). */
export async function follow(app: TestApp, userId: string, matchId: string, following = true): Promise<void> {
  await app.services.database.db
    .insert(matchFollows)
    .values({ userId, matchId, following })
    .onConflictDoUpdate({ target: [matchFollows.userId, matchFollows.matchId], set: { following } });
}

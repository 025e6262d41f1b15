/** Rows created directly in the database for tests (leagues are seeded; matches come from here). */
import { randomUUID } from 'node:crypto';
import { leagues, type LeagueRow } from '../../src/modules/leagues/leagues.table.js';
import { matches, type MatchRow } from '../../src/modules/matches/matches.table.js';
import { eq } from 'drizzle-orm';
import type { TestApp } from './test-app.js';

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

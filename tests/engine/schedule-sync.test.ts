import path from 'node:path';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openfootballProvider } from '../../src/engine/schedule/openfootball-provider.js';
import { syncSchedule } from '../../src/engine/schedule/schedule-sync.js';
import { matches } from '../../src/modules/matches/matches.table.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { describeWithFixtures, FIXTURES_DIR } from './feed/helpers.js';

describeWithFixtures('schedule sync from openfootball files', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  const provider = (season: string, now = () => new Date('2026-11-20T12:00:00Z')) =>
    openfootballProvider({ file: path.join(FIXTURES_DIR, `feeds/openfootball/worldcup-${season}.json`), season, league: 'wc', now });

  it('brings every match in, finished ones closed with their result, and is idempotent', async () => {
    const db = app.services.database.db;
    const first = await syncSchedule({ db, provider: provider('2022') });
    expect(first).toMatchObject({ received: 64, written: 64, unknownLeagues: [] });
    const again = await syncSchedule({ db, provider: provider('2022') });
    expect(again.written).toBe(64);
    const rows = await db.select().from(matches).where(like(matches.srId, 'openfootball:2022:%'));
    expect(rows).toHaveLength(64);
    expect(rows.every((r) => r.status === 'closed' && r.result)).toBe(true);
    const final = rows.find((r) => r.homeTeam === 'Argentina' && r.awayTeam === 'France')!;
    expect(final).toMatchObject({ homeScore: 3, awayScore: 3 });
    expect(final.result).toMatchObject({ home_score: 3, away_score: 3, winner: 'home', penalties: { home: 4, away: 2 } });
    expect(final.scheduled.toISOString()).toBe('2022-12-18T15:00:00.000Z');
  });

  it('keeps future matches scheduled, and never overrides a match that has started', async () => {
    const db = app.services.database.db;
    await syncSchedule({ db, provider: provider('2026', () => new Date('2026-06-01T00:00:00Z')) });
    const [opener] = await db.select().from(matches).where(eq(matches.srId, 'openfootball:2026:1'));
    expect(opener).toMatchObject({ status: 'scheduled', homeTeam: 'Mexico', result: null });
    await db.update(matches).set({ status: 'live', homeTeam: 'Mexico (live)' }).where(eq(matches.id, opener!.id));
    await syncSchedule({ db, provider: provider('2026', () => new Date('2026-06-01T00:00:00Z')) });
    const [after] = await db.select().from(matches).where(eq(matches.id, opener!.id));
    expect(after).toMatchObject({ status: 'live', homeTeam: 'Mexico (live)' });
  });

  it('reports leagues it does not know instead of writing them', async () => {
    const report = await syncSchedule({ db: app.services.database.db, provider: { name: 'x', fetch: async () => [{ srId: 'x:1', league: 'xfl', homeTeam: 'A', awayTeam: 'B', scheduled: new Date() }] } });
    expect(report).toMatchObject({ received: 1, written: 0, unknownLeagues: ['xfl'] });
  });
});

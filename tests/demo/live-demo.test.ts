/**
 * The live demo of `npm start` serves the feeds of its latest matches only (a
 * long-running demo holds no growing set of feed servers) and keeps the day's
 * schedule current while it runs.
 */
import { and, asc, eq, like } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { LiveDemo } from '../../src/demo/live-demo.js';
import { seedDemoCatalog } from '../../src/demo/catalog.js';
import { DEMO_SPONSORS, seedDemoData } from '../../src/demo/seed.js';
import { createMatchQuestions } from '../../src/engine/match-questions.js';
import { questionIssuances } from '../../src/modules/issuances/issuances.table.js';
import { matches } from '../../src/modules/matches/matches.table.js';
import { freePort } from '../helpers/ports.js';
import { useTestApp } from '../helpers/use-test-app.js';

/** 200 when the feed is served, else the connection error's code. */
async function feedAnswer(url: string): Promise<number | string> {
  const controller = new AbortController();
  try {
    const res = await fetch(url, { signal: controller.signal });
    return res.status;
  } catch (err) {
    return (err as Error & { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
  } finally {
    controller.abort();
  }
}

describe('the live demo', () => {
  const { app, admin } = useTestApp();
  let demo: LiveDemo | undefined;
  afterAll(() => demo?.stop());

  it('serves every feed on the port set (DEMO_FEED_PORT), and stops serving those of matches older than the one before the latest', async () => {
    const port = await freePort();
    demo = new LiveDemo(app.services, { kickoffInSeconds: 3600, durationScale: 0.09, feedPort: port });
    const feedUrls: string[] = [];
    for (let i = 0; i < 3; i++) {
      const id = await demo.scheduleLiveMatch();
      const [row] = await app.services.database.db.select({ feedUrl: matches.feedUrl }).from(matches).where(eq(matches.id, id));
      feedUrls.push(row!.feedUrl!);
    }
    expect(new Set(feedUrls).size).toBe(3);
    for (const url of feedUrls) expect(new URL(url).port).toBe(String(port));
    expect(await feedAnswer(feedUrls[0]!)).toBe(404);
    expect(await feedAnswer(feedUrls[1]!)).toBe(200);
    expect(await feedAnswer(feedUrls[2]!)).toBe(200);
  });

  it('takes its feed port from DEMO_FEED_PORT, any free port by default', () => {
    expect(loadConfig({ APP_ENV: 'test' }).demoFeedPort).toBe(0);
    expect(loadConfig({ APP_ENV: 'test', DEMO_FEED_PORT: '8100' }).demoFeedPort).toBe(8100);
    expect(() => loadConfig({ APP_ENV: 'test', DEMO_FEED_PORT: 'http' })).toThrow(/DEMO_FEED_PORT must be an integer from 0 to 65535/);
  });

  it('gives the Match questions of its live match minutes before kick-off (DEMO_KICKOFF_SECONDS, 180 by default), not seconds', async () => {
    expect(loadConfig({ APP_ENV: 'test' }).demoKickoffSeconds).toBe(180);
    expect(loadConfig({ APP_ENV: 'test', DEMO_KICKOFF_SECONDS: '600' }).demoKickoffSeconds).toBe(600);
    expect(() => loadConfig({ APP_ENV: 'test', DEMO_KICKOFF_SECONDS: 'soon' })).toThrow(/DEMO_KICKOFF_SECONDS must be an integer/);
    await seedDemoCatalog(app.services);
    const defaults = new LiveDemo(app.services);
    try {
      const id = await defaults.scheduleLiveMatch();
      const { engine, logger, database } = app.services;
      await createMatchQuestions({ db: database.db, store: engine.store, hooks: engine.hooks, logger, brandSnapshot: engine.brandSnapshot }).issueDue();
      const asked = await database.db
        .select()
        .from(questionIssuances)
        .where(and(eq(questionIssuances.matchId, id), eq(questionIssuances.kind, 'match')));
      expect(asked.length).toBeGreaterThan(0);
      for (const q of asked) expect((q.closesAt.getTime() - q.issuedAt.getTime()) / 1000).toBeGreaterThan(170);
    } finally {
      await defaults.stop();
    }
  });

  it('sponsors each live demo match: a whole-match sponsor and question slots of another brand', async () => {
    await seedDemoData(app.services);
    demo ??= new LiveDemo(app.services, { kickoffInSeconds: 3600, durationScale: 0.09 });
    const id = await demo.scheduleLiveMatch();
    // Players see the sponsor; the slot count is in the operator view.
    const res = await app.request('GET', '/api/matches', {
      query: { scheduled_from: new Date(Date.now() - 60_000).toISOString(), scheduled_to: new Date(Date.now() + 2 * 3600_000).toISOString() },
    });
    const row = (res.body as { id: string; sponsor_brand: { name: string } | null }[]).find((m) => m.id === id)!;
    expect(row.sponsor_brand?.name).toBe(DEMO_SPONSORS.match);
    const operator = await app.request('GET', `/api/matches/${id}`, { token: admin.token });
    expect(operator.body.sponsored_question_count).toBe(DEMO_SPONSORS.questionNumbers.length);
    const brands = (await app.request('GET', '/api/brands', { query: { q: DEMO_SPONSORS.questions } })).body as { id: string }[];
    const slots = await app.request('GET', `/api/brands/${brands[0]!.id}/question-sponsorships`, { query: { match_ids: id } });
    expect((slots.body as { strategy: string; target: unknown }[]).map((s) => [s.strategy, s.target])).toEqual(
      DEMO_SPONSORS.questionNumbers.map((n) => ['question_number', n]),
    );
  });

  it('keeps the schedule current while it runs: played matches close with a result, a new UTC day brings its matches', async () => {
    const db = app.services.database.db;
    let clock = new Date('2031-03-04T20:58:00Z');
    const running = new LiveDemo(app.services, { kickoffInSeconds: 3600, durationScale: 0.09, now: () => clock });
    const day = async (date: string) =>
      db
        .select({ scheduled: matches.scheduled, status: matches.status, result: matches.result })
        .from(matches)
        .where(like(matches.srId, `demo:${date}:%`))
        .orderBy(asc(matches.scheduled));
    const statuses = async (date: string) => (await day(date)).map((m) => `${m.scheduled.toISOString().slice(11, 16)} ${m.status}`);
    try {
      await running.syncDaySchedule();
      expect(await statuses('2031-03-04')).toEqual(['10:00 closed', '13:00 closed', '16:00 closed', '19:00 scheduled', '22:00 scheduled']);
      const task = running.task();
      // Within five minutes of the last sync: not synced again (the 19:00 match would have closed at 21:00).
      clock = new Date('2031-03-04T21:02:00Z');
      await task.run();
      expect(await statuses('2031-03-04')).toContain('19:00 scheduled');
      // Five minutes on: synced, and the 19:00 match has been played.
      clock = new Date('2031-03-04T21:03:00Z');
      await task.run();
      expect(await statuses('2031-03-04')).toEqual(['10:00 closed', '13:00 closed', '16:00 closed', '19:00 closed', '22:00 scheduled']);
      expect((await day('2031-03-04'))[3]!.result).toMatchObject({ home_score: expect.any(Number), away_score: expect.any(Number) });
      // Past midnight: the late match of the day before closes, and the new day's matches come in.
      clock = new Date('2031-03-05T11:00:00Z');
      await task.run();
      expect(await statuses('2031-03-04')).toEqual(['10:00 closed', '13:00 closed', '16:00 closed', '19:00 closed', '22:00 closed']);
      expect(await statuses('2031-03-05')).toEqual(['10:00 scheduled', '13:00 scheduled', '16:00 scheduled', '19:00 scheduled', '22:00 scheduled']);
    } finally {
      await running.stop();
    }
  });
});

import path from 'node:path';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openfootballProvider } from '../../src/engine/schedule/openfootball-provider.js';
import { feedUrlOf, feedUrlTemplateProblem, withFeedUrlTemplate } from '../../src/engine/schedule/feed-url-template.js';
import { syncSchedule } from '../../src/engine/schedule/schedule-sync.js';
import { matchErrors } from '../../src/modules/matches/matches.errors.js';
import { matches } from '../../src/modules/matches/matches.table.js';
import { testDatabaseUrl } from '../helpers/pg-url.js';
import { createAdmin, startTestApp, type TestApp } from '../helpers/test-app.js';
import { FIXTURES_DIR } from './feed/helpers.js';

describe('schedule sync from openfootball files', () => {
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

  it("brings in a file in openfootball's rounds layout (euro.json), as the other", async () => {
    const db = app.services.database.db;
    const euro = openfootballProvider({
      file: path.join(FIXTURES_DIR, 'feeds/openfootball/euro-2024-sample.json'),
      season: 'euro2024',
      league: 'wc',
      utcOffset: '+02:00',
      now: () => new Date('2024-07-02T00:00:00Z'),
    });
    expect(await syncSchedule({ db, provider: euro })).toMatchObject({ received: 6, written: 6, unknownLeagues: [] });
    const rows = await db.select().from(matches).where(like(matches.srId, 'openfootball:euro2024:%'));
    expect(rows.map((r) => [r.srId, r.homeTeam, r.status]).sort()).toEqual([
      ['openfootball:euro2024:1', 'Germany', 'closed'],
      ['openfootball:euro2024:2', 'Hungary', 'closed'],
      ['openfootball:euro2024:37', 'Germany', 'closed'],
      ['openfootball:euro2024:38', 'Switzerland', 'closed'],
      ['openfootball:euro2024:41', 'Portugal', 'closed'],
      ['openfootball:euro2024:45', 'Spain', 'scheduled'],
    ]);
    expect(rows.find((r) => r.srId === 'openfootball:euro2024:41')!.result).toMatchObject({ winner: 'home', penalties: { home: 3, away: 0 } });
    // Goals in stoppage time keep their offset: 45+1' and 90+3'.
    const opener = rows.find((r) => r.srId === 'openfootball:euro2024:1')!.result as { goals: { minute: number; offset: number }[] };
    expect(opener.goals.map((g) => `${g.minute}+${g.offset}`)).toEqual(['10+0', '19+0', '45+1', '68+0', '87+0', '90+3']);
  });

  it('reports leagues it does not know instead of writing them', async () => {
    const report = await syncSchedule({
      db: app.services.database.db,
      provider: { name: 'x', fetch: async () => [{ srId: 'x:1', league: 'xfl', homeTeam: 'A', awayTeam: 'B', scheduled: new Date() }] },
    });
    expect(report).toMatchObject({ received: 1, written: 0, unknownLeagues: ['xfl'] });
  });
});

describe('status changes told to live delivery', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  const one = (srId: string, status?: 'scheduled' | 'cancelled' | 'postponed') => ({
    name: 'one',
    fetch: async () => [{ srId, league: 'nfl', homeTeam: 'A', awayTeam: 'B', scheduled: new Date('2030-01-01T18:00:00Z'), status }],
  });
  const told = () => {
    const calls: Array<[string, string]> = [];
    return { calls, onStatusChanged: async (id: string, status: string) => void calls.push([id, status]) };
  };

  it('tells each change once: not a new match, not an unchanged one', async () => {
    const db = app.services.database.db;
    const srId = `sync-status:${Date.now()}`;
    const created = told();
    await syncSchedule({ db, provider: one(srId), ...created });
    expect(created.calls).toEqual([]);
    const [row] = await db.select().from(matches).where(eq(matches.srId, srId));
    const cancelled = told();
    await syncSchedule({ db, provider: one(srId, 'cancelled'), ...cancelled });
    expect(cancelled.calls).toEqual([[row!.id, 'cancelled']]);
    const again = told();
    await syncSchedule({ db, provider: one(srId, 'cancelled'), ...again });
    expect(again.calls).toEqual([]);
  });

  it.skipIf(!testDatabaseUrl())('does not tell a change the engine made while the sync was waiting for the row (PostgreSQL)', async () => {
    const db = app.services.database.db;
    const srId = `sync-race:${Date.now()}`;
    await syncSchedule({ db, provider: one(srId) });
    const { default: postgres } = await import('postgres');
    const engine = postgres(app.db.url!, { max: 1, onnotice: () => {} });
    const watcher = postgres(app.db.url!, { max: 1, onnotice: () => {} });
    const calls = told();
    let pending: Promise<unknown> | undefined;
    try {
      await engine.begin(async (sql) => {
        // The engine starts the match and, before it commits, a sync begins.
        await sql`update matches set status = 'live' where sr_id = ${srId}`;
        pending = syncSchedule({ db, provider: one(srId), ...calls });
        for (let waited = 0; ; waited += 20) {
          const [row] =
            await watcher`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike '%"matches"%'`;
          if (row!.n > 0) break;
          if (waited > 15_000) throw new Error('the sync never waited on the locked match');
          await new Promise((r) => setTimeout(r, 20));
        }
      });
      await pending;
    } finally {
      await engine.end({ timeout: 1 });
      await watcher.end({ timeout: 1 });
    }
    // The sync saw 'live' before its upsert (which keeps 'live'): nothing changed by the sync, nothing told.
    expect(calls.calls).toEqual([]);
    const [row] = await db.select().from(matches).where(eq(matches.srId, srId));
    expect(row!.status).toBe('live');
  });
});

describe('feed URLs a schedule provider carries', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  let n = 0;
  const fixture = (srId: string, feedUrl?: string) => ({
    srId,
    league: 'wc',
    homeTeam: 'Feed Home',
    awayTeam: 'Feed Away',
    scheduled: new Date(Date.now() + 86_400_000),
    ...(feedUrl ? { feedUrl } : {}),
  });
  const provider = (...ms: ReturnType<typeof fixture>[]) => ({ name: 'test-feeds', fetch: async () => ms });
  const feedOf = async (srId: string) =>
    (await app.services.database.db.select({ feedUrl: matches.feedUrl }).from(matches).where(eq(matches.srId, srId)))[0]?.feedUrl;

  it("builds one per match from a template ({sr_id} encoded), filling only matches without one: an operator's feed, or their detaching it, is kept", async () => {
    const db = app.services.database.db;
    const [a, b] = [`feeds:${Date.now()}:${n++}`, `feeds:${Date.now()}:${n++}`];
    const template = 'https://feeds.example.com/wc/{sr_id}/stream';
    await syncSchedule({ db, provider: withFeedUrlTemplate(provider(fixture(a), fixture(b, 'https://other.example.com/own')), template) });
    expect(await feedOf(a)).toBe(`https://feeds.example.com/wc/${encodeURIComponent(a)}/stream`);
    expect(await feedOf(b)).toBe('https://other.example.com/own');
    expect(feedUrlOf(template, 'openfootball:2022:1')).toBe('https://feeds.example.com/wc/openfootball%3A2022%3A1/stream');

    // An operator moves match a to another feed: the next sync leaves it; detached, it stays detached.
    const [row] = await db.select().from(matches).where(eq(matches.srId, a));
    const admin = await createAdmin(app);
    const patch = (feed_url: string | null) => app.request('PATCH', `/api/matches/${row!.id}`, { token: admin.token, body: { feed_url } });
    expect((await patch('https://backup.example.com/wc/a')).status).toBe(200);
    await syncSchedule({ db, provider: withFeedUrlTemplate(provider(fixture(a)), template) });
    expect(await feedOf(a)).toBe('https://backup.example.com/wc/a');
    expect((await patch(null)).status).toBe(200);
    await syncSchedule({ db, provider: withFeedUrlTemplate(provider(fixture(a)), template) });
    expect(await feedOf(a)).toBeNull();
    // Nor does FEED_URL_TEMPLATE at dispatch: a match without a feed gets one, the detached one does not.
    const c = `feeds:${Date.now()}:${n++}`;
    await syncSchedule({ db, provider: provider(fixture(c)) });
    const dispatched = (await app.services.engine.store.matchesToDispatch({ horizonMinutes: 3 * 24 * 60, anyFeed: true })).map((m) => m.srId);
    expect(dispatched).toContain(c);
    expect(dispatched).not.toContain(a);
    // The operator attaches one again: theirs is used.
    expect((await patch('https://backup.example.com/wc/a2')).status).toBe(200);
    await syncSchedule({ db, provider: withFeedUrlTemplate(provider(fixture(a)), template) });
    expect(await feedOf(a)).toBe('https://backup.example.com/wc/a2');
  });

  it('refuses a provider whose feed URLs break the rules before writing anything; private hosts only when allowed', async () => {
    const db = app.services.database.db;
    for (const bad of [
      'https://user:pw@feeds.example.com/x',
      'ftp://feeds.example.com/x',
      'http://127.0.0.1:9/feed',
      'https://feeds.example.com/x?token=abc',
    ]) {
      const [good, refused] = [`feeds:${Date.now()}:${n++}`, `feeds:${Date.now()}:${n++}`];
      const err: unknown = await syncSchedule({ db, provider: provider(fixture(good, 'https://feeds.example.com/ok'), fixture(refused, bad)) }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(matchErrors.invalidFeedUrl.is(err), String(err)).toBe(true);
      // The message names the provider and the match.
      expect((err as Error).message).toMatch(new RegExp(`^test-feeds: the feed URL of match ${refused} `));
      expect(await feedOf(good)).toBeUndefined();
    }
    const local = `feeds:${Date.now()}:${n++}`;
    await syncSchedule({ db, provider: provider(fixture(local, 'http://127.0.0.1:9/feed')), feedUrlPolicy: { allowPrivateAddresses: true } });
    expect(await feedOf(local)).toBe('http://127.0.0.1:9/feed');
  });

  it('checks a template once: it needs {sr_id} and must build acceptable URLs', () => {
    const strict = { allowPrivateAddresses: false };
    expect(feedUrlTemplateProblem('https://feeds.example.com/{sr_id}', strict)).toBeNull();
    expect(feedUrlTemplateProblem('https://feeds.example.com/all', strict)).toMatch(/must contain \{sr_id\}/);
    expect(feedUrlTemplateProblem('ftp://feeds.example.com/{sr_id}', strict)).toMatch(/http or https/);
    expect(feedUrlTemplateProblem('https://u:p@feeds.example.com/{sr_id}', strict)).toMatch(/user name or password/);
    expect(feedUrlTemplateProblem('http://localhost:8000/{sr_id}', strict)).toMatch(/public host/);
    expect(feedUrlTemplateProblem('http://localhost:8000/{sr_id}', { allowPrivateAddresses: true })).toBeNull();
  });
});

/**
 * The league list kept in the process (src/modules/leagues/league-cache.ts):
 * GET /api/leagues after the first costs no statement and answers the same
 * bytes; every change to the leagues table reaches every process's list (the
 * database announces it on the live bus), this process's own at once; a list
 * that cannot hear changes is not used.
 */
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLeagueListCache } from '../../src/modules/leagues/league-cache.js';
import type { LeagueRow } from '../../src/modules/leagues/leagues.table.js';
import { waitFor } from '../helpers/engine.js';
import { createAdmin, startTestApp, statementsDuring, type TestApp, type TestUser } from '../helpers/test-app.js';
import { testDatabaseUrl } from '../helpers/pg-url.js';

const rows = (...slugs: string[]) => slugs.map((slug) => ({ slug }) as LeagueRow);
const leagueReads = (statements: string[]) => statements.filter((s) => s.includes('from "leagues"')).length;

describe('the league list cache', () => {
  it('keeps a read (frozen) until a change, and does not keep a read that raced one', () => {
    const cache = createLeagueListCache({ trusted: () => true });
    expect(cache.get()).toBeUndefined();
    const kept = cache.set(rows('nba', 'wc'), cache.version());
    expect(cache.get()).toBe(kept);
    expect(Object.isFrozen(kept) && Object.isFrozen(kept[0])).toBe(true);
    cache.invalidate();
    expect(cache.get()).toBeUndefined();
    const before = cache.version();
    cache.invalidate();
    const raced = rows('wc');
    // Served to its own request, not kept.
    expect(cache.set(raced, before)).toBe(raced);
    expect(cache.get()).toBeUndefined();
  });

  it('is neither read nor written while it cannot hear changes', () => {
    let trusted = true;
    const cache = createLeagueListCache({ trusted: () => trusted });
    cache.set(rows('wc'), cache.version());
    trusted = false;
    expect(cache.get()).toBeUndefined();
    cache.invalidate();
    cache.set(rows('nba'), cache.version());
    trusted = true;
    expect(cache.get()).toBeUndefined();
  });
});

describe('GET /api/leagues with the league list kept', () => {
  let app: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    app = await startTestApp();
    admin = await createAdmin(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('reads the leagues once, then answers the same bytes without a statement', async () => {
    app.services.leagues.changed();
    const first = await statementsDuring(app, () => app.request('GET', '/api/leagues'));
    expect(first.result.status).toBe(200);
    expect(leagueReads(first.statements)).toBe(1);
    const second = await statementsDuring(app, () => app.request('GET', '/api/leagues'));
    expect(second.statements).toEqual([]);
    expect(second.result.text).toBe(first.result.text);
    expect(second.result.headers.get('content-length')).toBe(first.result.headers.get('content-length'));
    // HEAD answers as the GET, without the body (outside the contract: plain fetch).
    const head = await fetch(`${app.url}/api/leagues`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(first.result.headers.get('content-length'));
  });

  it("sees this process's own change on the very next request", async () => {
    expect((await app.request('GET', '/api/leagues')).status).toBe(200);
    const patched = await app.request('PATCH', '/api/leagues/nba', { token: admin.token, body: { default_question_points: 17 } });
    expect(patched.status).toBe(200);
    const list = await app.request('GET', '/api/leagues');
    expect(list.body.find((l: { slug: string }) => l.slug === 'nba')).toEqual(patched.body);
  });
});

describe.skipIf(!testDatabaseUrl())('the league list across processes (PostgreSQL)', () => {
  let a: TestApp;
  let b: TestApp;
  let admin: TestUser;
  let sql: postgres.Sql;
  beforeAll(async () => {
    a = await startTestApp();
    b = await startTestApp({ databaseUrl: a.db.url! });
    admin = await createAdmin(a);
    sql = postgres(a.db.url!, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await sql?.end({ timeout: 1 });
    await b?.close();
    await a?.close();
  });

  const nhlIn = async (app: TestApp) => (await app.request('GET', '/api/leagues')).body.find((l: { slug: string }) => l.slug === 'nhl');

  it('a change made in another process reaches the list here as soon as the database says so, and both answer the same bytes', async () => {
    const before = await nhlIn(b);
    expect(leagueReads((await statementsDuring(b, () => b.request('GET', '/api/leagues'))).statements)).toBe(0);
    const patched = await a.request('PATCH', '/api/leagues/nhl', {
      token: admin.token,
      body: { default_answer_window_seconds: before.default_answer_window_seconds + 1 },
    });
    expect(patched.status).toBe(200);
    await waitFor(async () => (await nhlIn(b)).default_answer_window_seconds === patched.body.default_answer_window_seconds, {
      what: "the other process's change to reach this process's league list",
      timeoutMs: 3000,
    });
    expect((await b.request('GET', '/api/leagues')).text).toBe((await a.request('GET', '/api/leagues')).text);
  });

  it('a change made outside the service (plain SQL) reaches every process too', async () => {
    await nhlIn(a);
    await nhlIn(b);
    await sql`update leagues set default_question_points = default_question_points + 1 where slug = 'nhl'`;
    const [row] = await sql<{ points: number }[]>`select default_question_points as points from leagues where slug = 'nhl'`;
    for (const app of [a, b]) {
      await waitFor(async () => (await nhlIn(app)).default_question_points === row!.points, {
        what: 'the plain SQL change to reach the list',
        timeoutMs: 3000,
      });
    }
  });
});

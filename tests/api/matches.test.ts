/**
 * Matches over HTTP: the list (every filter, the UTC-today default, the
 * followed filter and its key, ordering, the row limit, per-row totals in a
 * constant number of queries), admin updates (overrides, null clears, period
 * distribution, allowlists, sponsor, cap against placed slots) and deletes
 * (test matches only, with everything hanging off them).
 */
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { brandErrors } from '../../src/modules/brands/brands.errors.js';
import { brands } from '../../src/modules/brands/brands.table.js';
import { questionIssuanceDenials } from '../../src/modules/denials/denials.table.js';
import { questionIssuances } from '../../src/modules/issuances/issuances.table.js';
import { listenerEvents, listenerLogLines, matchListeners } from '../../src/modules/listeners/listeners.table.js';
import { leagueErrors } from '../../src/modules/leagues/leagues.errors.js';
import { matchErrors } from '../../src/modules/matches/matches.errors.js';
import { followQuotaDays, matches, matchFollows, type MatchRow } from '../../src/modules/matches/matches.table.js';
import { questionSponsorships } from '../../src/modules/sponsorships/sponsorships.table.js';
import { users } from '../../src/modules/users/users.table.js';
import { domainErrors } from '../../src/modules/shared/domain.errors.js';
import { expectError } from '../helpers/errors.js';
import { inGameDefinitionInput, matchDefinitionInput } from '../helpers/definitions.js';
import { createMatch, leagueBySlug, UNKNOWN_ID } from '../helpers/factories.js';
import { registerUser, statementsDuring, type ApiResponse, type TestUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import type { FeedEvent } from '../../src/domain/sports/events.js';

const DAY = 86_400_000;

interface MatchBody {
  id: string;
  league: string;
  scheduled: string;
  status: string;
  is_test: boolean;
  question_max_count: number;
  overrides: Record<string, unknown>;
  question_definition_allowlist: string[] | null;
  match_question_definition_allowlist: string[] | null;
  auto_dispatch_listener: boolean;
  sponsor_brand_id: string | null;
  sponsor_brand: { id: string; name: string; primary_color: string; secondary_color: string | null; logo_url: string | null } | null;
  sponsored_question_count: number;
  question_issuance_count: number;
  pivotal_moment_issuance_count: number;
  is_followed: boolean | null;
  question_sponsorships?: { id: string; brand_id: string; match_id: string; brand: { id: string } }[];
  detail?: string;
}

const { app, admin, player } = useTestApp({ player: true });

const expectStatus = (res: ApiResponse, status: number) => expect(res.status, res.text).toBe(status);
const db = () => app.services.database.db;

type Query = Record<string, string | boolean | string[] | undefined>;
const list = (query: Query = {}, token: string | null = null) => app.request<MatchBody[]>('GET', '/api/matches', { query, token });
async function listOk(query: Query = {}, token: string | null = null): Promise<MatchBody[]> {
  const res = await list(query, token);
  expectStatus(res, 200);
  return res.body;
}
const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

/** [00:00 today, 00:00 tomorrow) in UTC; waits out the last seconds of a day so a test never straddles midnight. */
async function utcToday(): Promise<{ start: number; end: number }> {
  let now = Date.now();
  const msLeft = DAY - (now % DAY);
  if (msLeft < 10_000) {
    await new Promise((r) => setTimeout(r, msLeft + 50));
    now = Date.now();
  }
  const start = now - (now % DAY);
  return { start, end: start + DAY };
}

/** A wide range in a distant year of its own, so a test sees only its own matches. */
let yearCounter = 0;
function ownRange(): { from: string; to: string; at: (offsetMs: number) => Date } {
  const year = 2200 + yearCounter++;
  const start = Date.UTC(year, 0, 1);
  return { from: new Date(start).toISOString(), to: new Date(Date.UTC(year + 1, 0, 1)).toISOString(), at: (ms) => new Date(start + ms) };
}

let counter = 0;
async function newBrand(): Promise<string> {
  const [row] = await db()
    .insert(brands)
    .values({ name: `Brand ${Date.now().toString(36)}${counter++}`, primaryColor: '#112233' })
    .returning();
  return row!.id;
}

async function addSlots(matchId: string, brandId: string, n: number, numbered = false) {
  if (!n) return;
  await db()
    .insert(questionSponsorships)
    .values(
      Array.from({ length: n }, (_, i) => ({
        brandId,
        matchId,
        strategy: numbered ? 'question_number' : 'next_available',
        targetNumber: numbered ? i + 1 : null,
      })),
    );
}

async function addIssuances(matchId: string, { regular = 0, pivotal = 0, matchKind = 0 }: { regular?: number; pivotal?: number; matchKind?: number }) {
  const base = {
    matchId,
    definitionName: 'Test question',
    questionText: 'Who scores next?',
    choices: [{ identifier: 'home', label: 'Home' }],
    resolution: { rules: [] },
    closesAt: new Date(Date.now() + 60_000),
    points: 10,
  };
  const values = [
    ...Array.from({ length: regular }, (_, i) => ({
      ...base,
      kind: 'in_game' as const,
      isPivotalMoment: false,
      status: i % 2 ? ('resolved' as const) : ('open' as const),
    })),
    ...Array.from({ length: pivotal }, () => ({ ...base, kind: 'in_game' as const, isPivotalMoment: true })),
    ...Array.from({ length: matchKind }, () => ({ ...base, kind: 'match' as const, isPivotalMoment: false })),
  ];
  if (values.length) await db().insert(questionIssuances).values(values);
}

/** A player without the daily follow quota, so tests can follow any number of real matches. */
async function unrestrictedPlayer(): Promise<TestUser> {
  const user = await registerUser(app);
  await db().update(users).set({ matchDailyFollowCount: null }).where(eq(users.id, user.id));
  return user;
}

async function follow(user: TestUser, matchId: string) {
  const res = await app.request('POST', `/api/matches/${matchId}/follow`, { token: user.token });
  expectStatus(res, 200);
}

async function createDefinition(kind: 'in_game' | 'match', league = 'wc'): Promise<string> {
  const path = kind === 'in_game' ? '/api/question-definitions' : '/api/match-question-definitions';
  const body = kind === 'in_game' ? inGameDefinitionInput() : matchDefinitionInput();
  const res = await app.request('POST', path, { token: admin.token, query: { league }, body });
  expectStatus(res, 201);
  return res.body.id;
}

describe('GET /api/matches: the scheduled range', () => {
  it('defaults to the current UTC calendar day: 00:00 today included, 00:00 tomorrow and yesterday excluded', async () => {
    const { start, end } = await utcToday();
    const atMidnight = await createMatch(app, { scheduled: new Date(start) });
    const lastMs = await createMatch(app, { scheduled: new Date(end - 1) });
    const tomorrow = await createMatch(app, { scheduled: new Date(end) });
    const yesterday = await createMatch(app, { scheduled: new Date(start - 1) });
    const got = ids(await listOk());
    expect(got).toContain(atMidnight.id);
    expect(got).toContain(lastMs.id);
    expect(got).not.toContain(tomorrow.id);
    expect(got).not.toContain(yesterday.id);
    // A key changes nothing about the default.
    const withKey = ids(await listOk({}, player.token));
    expect(withKey).toContain(atMidnight.id);
    expect(withKey).not.toContain(tomorrow.id);
  });

  it('takes scheduled_from inclusive and scheduled_to exclusive', async () => {
    const r = ownRange();
    const a = await createMatch(app, { scheduled: r.at(0) });
    const b = await createMatch(app, { scheduled: r.at(DAY) });
    const c = await createMatch(app, { scheduled: r.at(2 * DAY) });
    const got = ids(await listOk({ scheduled_from: r.at(0).toISOString(), scheduled_to: r.at(2 * DAY).toISOString() }));
    expect(got).toEqual([a.id, b.id]);
    expect(got).not.toContain(c.id);
    // An offset is the same instant.
    const offset = ids(await listOk({ scheduled_from: r.at(DAY).toISOString().replace('Z', '+00:00'), scheduled_to: r.at(DAY + 1).toISOString() }));
    expect(offset).toEqual([b.id]);
  });

  it('answers 400 when only one bound is given, 422 for a bound that is not a date-time', async () => {
    const r = ownRange();
    for (const query of [{ scheduled_from: r.from }, { scheduled_to: r.to }]) {
      const res = await list(query);
      expectError(res, matchErrors.invalidRange);
      // The message names the pair of parameters.
      expect(res.body as unknown as { detail: string }).toMatchObject({ detail: expect.stringMatching(/scheduled_from and scheduled_to/) });
    }
    expectStatus(await list({ scheduled_from: 'yesterday', scheduled_to: r.to }), 422);
  });

  it('orders by scheduled, then id', async () => {
    const r = ownRange();
    const late = await createMatch(app, { scheduled: r.at(5 * DAY) });
    const tied = await Promise.all([0, 1, 2].map(() => createMatch(app, { scheduled: r.at(DAY) })));
    const early = await createMatch(app, { scheduled: r.at(0) });
    const got = ids(await listOk({ scheduled_from: r.from, scheduled_to: r.to }));
    expect(got).toEqual([early.id, ...tied.map((m) => m.id).sort(), late.id]);
  });

  it('answers at most 1,000 rows, the earliest ones', async () => {
    const r = ownRange();
    const league = await leagueBySlug(app, 'mlb');
    await db()
      .insert(matches)
      .values(
        Array.from({ length: 1001 }, (_, i) => ({
          srId: `bulk:${randomUUID()}`,
          leagueId: league.id,
          homeTeam: 'A',
          awayTeam: 'B',
          scheduled: r.at(i * 60_000),
        })),
      );
    const got = await listOk({ scheduled_from: r.from, scheduled_to: r.to });
    expect(got).toHaveLength(1000);
    expect(got[999]!.scheduled).toBe(r.at(999 * 60_000).toISOString());
  });
});

describe('GET /api/matches: filters', () => {
  it('league: only that league; an unsupported slug answers 400 naming it', async () => {
    const r = ownRange();
    const wc = await createMatch(app, { scheduled: r.at(0) });
    const nba = await createMatch(app, { scheduled: r.at(DAY), league: 'nba' });
    const range = { scheduled_from: r.from, scheduled_to: r.to };
    expect(ids(await listOk({ ...range, league: 'nba' }))).toEqual([nba.id]);
    expect((await listOk({ ...range, league: 'nba' }))[0]!.league).toBe('nba');
    expect(ids(await listOk({ ...range, league: 'wc' }))).toEqual([wc.id]);
    expect(ids(await listOk(range))).toEqual([wc.id, nba.id]);
    const res = await list({ ...range, league: 'xfl' });
    expectError(res, domainErrors.unsupportedLeague);
    expect((res.body as unknown as { detail: string }).detail).toContain("'xfl'");
  });

  it('status: one or several (repeated), 422 for an unknown status', async () => {
    const r = ownRange();
    const range = { scheduled_from: r.from, scheduled_to: r.to };
    const made: Record<string, MatchRow> = {};
    for (const [i, status] of (['scheduled', 'live', 'break', 'closed', 'cancelled'] as const).entries())
      made[status] = await createMatch(app, { scheduled: r.at(i * DAY), status });
    expect(ids(await listOk({ ...range, status: 'closed' }))).toEqual([made.closed!.id]);
    expect(ids(await listOk({ ...range, status: ['live', 'break'] }))).toEqual([made.live!.id, made.break!.id]);
    expect(ids(await listOk({ ...range, status: ['cancelled', 'scheduled'] }))).toEqual([made.scheduled!.id, made.cancelled!.id]);
    expect(await listOk({ ...range, status: 'ended' })).toEqual([]);
    expectStatus(await list({ ...range, status: 'finished' }), 422);
  });

  it('is_test: only test matches, or only real ones (an admin sees every test match: tests/api/test-matches.test.ts)', async () => {
    const r = ownRange();
    const range = { scheduled_from: r.from, scheduled_to: r.to };
    const real = await createMatch(app, { scheduled: r.at(0) });
    const test = await createMatch(app, { scheduled: r.at(DAY), isTest: true });
    expect(ids(await listOk({ ...range, is_test: true }, admin.token))).toEqual([test.id]);
    expect(ids(await listOk({ ...range, is_test: false }, admin.token))).toEqual([real.id]);
  });

  it('listener_events_archived: true or false', async () => {
    const r = ownRange();
    const range = { scheduled_from: r.from, scheduled_to: r.to };
    const archived = await createMatch(app, { scheduled: r.at(0), listenerEventsArchived: true });
    const not = await createMatch(app, { scheduled: r.at(DAY) });
    expect(ids(await listOk({ ...range, listener_events_archived: true }))).toEqual([archived.id]);
    expect(ids(await listOk({ ...range, listener_events_archived: false }))).toEqual([not.id]);
  });

  it('combines filters with AND', async () => {
    const r = ownRange();
    const range = { scheduled_from: r.from, scheduled_to: r.to };
    await createMatch(app, { scheduled: r.at(0), status: 'live', league: 'nhl' });
    const hit = await createMatch(app, { scheduled: r.at(DAY), status: 'live', league: 'nhl', isTest: true });
    await createMatch(app, { scheduled: r.at(2 * DAY), status: 'closed', league: 'nhl', isTest: true });
    await createMatch(app, { scheduled: r.at(3 * DAY), status: 'live', isTest: true });
    expect(ids(await listOk({ ...range, league: 'nhl', status: 'live', is_test: true }, admin.token))).toEqual([hit.id]);
  });
});

describe('GET /api/matches: followed and is_followed', () => {
  it('answers 401 for followed (true or false) without a key or with an invalid one', async () => {
    for (const followed of [true, false]) {
      expectError(await list({ followed }), matchErrors.followedNeedsKey);
      expectStatus(await list({ followed }, 'qp_not-a-real-key'), 401);
    }
  });

  it('an invalid key without followed is an anonymous caller: is_followed null', async () => {
    const { start } = await utcToday();
    const m = await createMatch(app, { scheduled: new Date(start + 1000) });
    const row = (await listOk({}, 'qp_not-a-real-key')).find((x) => x.id === m.id);
    expect(row!.is_followed).toBeNull();
  });

  it('followed=true lists every followed match whatever its date (spent rows excluded); a range still applies', async () => {
    const user = await registerUser(app);
    const { start, end } = await utcToday();
    const today = await createMatch(app, { scheduled: new Date(start + 3600_000), isTest: true });
    const farFuture = await createMatch(app, { scheduled: new Date(end + 30 * DAY), isTest: true });
    const farPast = await createMatch(app, { scheduled: new Date(start - 30 * DAY), isTest: true });
    const spent = await createMatch(app, { scheduled: new Date(start - 2 * DAY), status: 'closed' });
    const notFollowed = await createMatch(app, { scheduled: new Date(start + 7200_000) });
    for (const m of [today, farFuture, farPast]) await follow(user, m.id);
    // A spent row: followed, then unfollowed after start (kept with following=false).
    await db().insert(matchFollows).values({ userId: user.id, matchId: spent.id, following: false, unfollowedAt: new Date() });

    const followed = await listOk({ followed: true }, user.token);
    expect(ids(followed)).toEqual([farPast.id, today.id, farFuture.id]);
    expect(followed.every((m) => m.is_followed === true)).toBe(true);

    const inRange = await listOk({ followed: true, scheduled_from: new Date(start).toISOString(), scheduled_to: new Date(end).toISOString() }, user.token);
    expect(ids(inRange)).toEqual([today.id]);

    // followed=false keeps the default day, and the spent row counts as not followed.
    const others = await listOk({ followed: false }, user.token);
    expect(ids(others)).toContain(notFollowed.id);
    expect(ids(others)).not.toContain(today.id);
    expect(others.every((m) => m.is_followed === false)).toBe(true);
    const spentRange = { scheduled_from: new Date(start - 3 * DAY).toISOString(), scheduled_to: new Date(start - DAY).toISOString() };
    expect(ids(await listOk({ followed: false, ...spentRange }, user.token))).toEqual([spent.id]);

    // Another user's follows are not this user's.
    expect(await listOk({ followed: true }, (await registerUser(app)).token)).toEqual([]);
  });

  it('is_followed: null without a key, true or false with one', async () => {
    const user = await unrestrictedPlayer();
    const r = ownRange();
    const range = { scheduled_from: r.from, scheduled_to: r.to };
    const a = await createMatch(app, { scheduled: r.at(0) });
    const b = await createMatch(app, { scheduled: r.at(DAY) });
    await follow(user, a.id);
    const followed = async (token: string | null) => (await listOk(range, token)).map((m) => [m.id, m.is_followed]);
    expect(await followed(null)).toEqual([
      [a.id, null],
      [b.id, null],
    ]);
    expect(await followed(user.token)).toEqual([
      [a.id, true],
      [b.id, false],
    ]);
    expect(await followed(admin.token)).toEqual([
      [a.id, false],
      [b.id, false],
    ]);
  });
});

describe('GET /api/matches: row fields and totals', () => {
  it('counts slots (all brands), regular in-game issuances and pivotal ones; shows the sponsor and the effective cap', async () => {
    const r = ownRange();
    const range = { scheduled_from: r.from, scheduled_to: r.to };
    const [b1, b2, sponsor] = [await newBrand(), await newBrand(), await newBrand()];
    const m1 = await createMatch(app, { scheduled: r.at(0), sponsorBrandId: sponsor });
    const m2 = await createMatch(app, { scheduled: r.at(DAY), questionMaxCount: 4, questionPoints: 25, league: 'nfl' });
    const m3 = await createMatch(app, { scheduled: r.at(2 * DAY) });
    await addSlots(m1.id, b1, 2);
    await addSlots(m1.id, b2, 1, true);
    await addSlots(m2.id, b2, 4);
    await addIssuances(m1.id, { regular: 3, pivotal: 2, matchKind: 4 });
    await addIssuances(m2.id, { pivotal: 1 });

    // The operator view (what admins get) carries every total; the player view is in tests/api/match-views.test.ts.
    const [r1, r2, r3] = await listOk(range, admin.token);
    expect([r1!.id, r2!.id, r3!.id]).toEqual([m1.id, m2.id, m3.id]);
    expect(r1).toMatchObject({
      sponsored_question_count: 3,
      question_issuance_count: 3,
      pivotal_moment_issuance_count: 2,
      question_max_count: 10,
      sponsor_brand_id: sponsor,
    });
    expect(r1!.sponsor_brand).toMatchObject({ id: sponsor, primary_color: '#112233', logo_url: null });
    expect(r1!.overrides).toEqual({
      question_max_count: null,
      question_min_interval_seconds: null,
      question_period_distribution: null,
      question_points: null,
      answer_window_seconds: null,
      min_answer_seconds: null,
      question_probability: null,
    });
    expect(r2).toMatchObject({
      league: 'nfl',
      sponsored_question_count: 4,
      question_issuance_count: 0,
      pivotal_moment_issuance_count: 1,
      question_max_count: 4,
      sponsor_brand: null,
    });
    expect(r2!.overrides).toMatchObject({ question_max_count: 4, question_points: 25 });
    expect(r3).toMatchObject({ sponsored_question_count: 0, question_issuance_count: 0, pivotal_moment_issuance_count: 0 });
  });

  it('runs the same number of SQL statements for 1 match as for 30 (no query per row)', async () => {
    const user = await unrestrictedPlayer();
    const brand = await newBrand();
    async function seed(n: number) {
      const r = ownRange();
      for (let i = 0; i < n; i++) {
        const m = await createMatch(app, { scheduled: r.at(i * 60_000), sponsorBrandId: brand });
        await addSlots(m.id, brand, 2);
        await addIssuances(m.id, { regular: 1, pivotal: 1 });
        if (i % 2 === 0) await follow(user, m.id);
      }
      return { scheduled_from: r.from, scheduled_to: r.to };
    }
    const one = await seed(1);
    const thirty = await seed(30);

    async function countStatements(query: Query, token: string | null, rows: number): Promise<number> {
      const { result: res, statements } = await statementsDuring(app, () => list(query, token));
      expectStatus(res, 200);
      expect(res.body).toHaveLength(rows);
      return statements.length;
    }
    for (const token of [null, user.token]) {
      const a = await countStatements(one, token, 1);
      const b = await countStatements(thirty, token, 30);
      expect(a).toBeGreaterThan(0);
      expect(b).toBe(a);
    }
    const filters = { league: 'wc', status: ['scheduled', 'live'] };
    expect(await countStatements({ ...thirty, ...filters }, user.token, 30)).toBe(await countStatements({ ...one, ...filters }, user.token, 1));
    const followedOnly = { ...thirty, followed: true };
    expect(await countStatements(followedOnly, user.token, 15)).toBe(await countStatements({ ...one, followed: true }, user.token, 1));
  });
});

describe('PATCH /api/matches/{match_id}', () => {
  const patch = (id: string, body: unknown, token: string | null = admin.token) => app.request<MatchBody>('PATCH', `/api/matches/${id}`, { token, body });
  async function patchOk(id: string, body: unknown): Promise<MatchBody> {
    const res = await patch(id, body);
    expectStatus(res, 200);
    return res.body;
  }
  const row = async (id: string) => (await db().select().from(matches).where(eq(matches.id, id)))[0]!;

  it('needs an admin key (401, 403); 404 for an unknown match; 422 for an empty or unknown body', async () => {
    const m = await createMatch(app);
    expectStatus(await patch(m.id, { question_points: 5 }, null), 401);
    expectStatus(await patch(m.id, { question_points: 5 }, player.token), 403);
    expectError(await patch(UNKNOWN_ID, { question_points: 5 }), matchErrors.notFound);
    expectStatus(await patch(m.id, {}), 422);
    expectStatus(await patch(m.id, { status: 'live' }), 422);
    expectStatus(await patch(m.id, { question_max_count: -1 }), 422);
    expect((await row(m.id)).questionPoints).toBeNull();
  });

  it('sets overrides, leaves omitted fields alone, and null clears an override (the league default applies again)', async () => {
    const m = await createMatch(app);
    const a = await patchOk(m.id, {
      question_max_count: 6,
      question_points: 20,
      answer_window_seconds: 45,
      min_answer_seconds: 0,
      question_min_interval_seconds: 90,
      question_probability: 0.5,
    });
    expect(a.question_max_count).toBe(6);
    expect(a.overrides).toEqual({
      question_max_count: 6,
      question_min_interval_seconds: 90,
      question_period_distribution: null,
      question_points: 20,
      answer_window_seconds: 45,
      min_answer_seconds: 0,
      question_probability: 0.5,
    });
    expectStatus(await patch(m.id, { min_answer_seconds: -1 }), 422);
    expectStatus(await patch(m.id, { min_answer_seconds: 3601 }), 422);
    const b = await patchOk(m.id, { question_max_count: null, min_answer_seconds: null, auto_dispatch_listener: false });
    expect(b.question_max_count).toBe(10);
    expect(b.overrides).toMatchObject({ question_max_count: null, question_points: 20, answer_window_seconds: 45, min_answer_seconds: null });
    expect(b.auto_dispatch_listener).toBe(false);
    expect(b.question_sponsorships).toEqual([]);
    const stored = await row(m.id);
    expect(stored).toMatchObject({ questionMaxCount: null, questionPoints: 20, autoDispatchListener: false });
    expect(stored.updatedAt.getTime()).toBeGreaterThanOrEqual(m.updatedAt.getTime());
  });

  it("question_period_distribution: checked against the league's sport (400), null clears", async () => {
    const m = await createMatch(app, { league: 'nhl' });
    expect((await patchOk(m.id, { question_period_distribution: { '1': 3, '3': 2, ot: 1 } })).overrides.question_period_distribution).toEqual({
      '1': 3,
      '3': 2,
      ot: 1,
    });
    for (const bad of [{ '4': 1 }, { '1': -1 }, { '1': 1.5 }, [1, 2], 'even', 3]) {
      const res = await patch(m.id, { question_period_distribution: bad });
      expectError(res, leagueErrors.periodDistributionInvalid);
      expect(res.body.detail).toMatch(/question_period_distribution/);
    }
    expect((await row(m.id)).questionPeriodDistribution).toEqual({ '1': 3, '3': 2, ot: 1 });
    expect((await patchOk(m.id, { question_period_distribution: null })).overrides.question_period_distribution).toBeNull();
  });

  it("allowlists: ids must be definitions of the match's league and kind (400 naming the unknown ones); null clears", async () => {
    const m = await createMatch(app);
    const inGame = await createDefinition('in_game');
    const matchDef = await createDefinition('match');
    const otherLeague = await createDefinition('in_game', 'nba');
    const ok = await patchOk(m.id, { question_definition_allowlist: [inGame], match_question_definition_allowlist: [matchDef] });
    expect(ok.question_definition_allowlist).toEqual([inGame]);
    expect(ok.match_question_definition_allowlist).toEqual([matchDef]);

    const refused: [Record<string, string[]>, string][] = [
      [{ question_definition_allowlist: [inGame, otherLeague] }, otherLeague],
      [{ question_definition_allowlist: [matchDef] }, matchDef],
      [{ match_question_definition_allowlist: [inGame] }, inGame],
      [{ question_definition_allowlist: [UNKNOWN_ID] }, UNKNOWN_ID],
    ];
    for (const [body, unknown] of refused) {
      const res = await patch(m.id, { ...body, question_points: 99 });
      expectStatus(res, 400);
      expect(res.body.detail).toContain(unknown);
    }
    // Nothing half-written.
    expect(await row(m.id)).toMatchObject({ questionDefinitionAllowlist: [inGame], questionPoints: null });

    const cleared = await patchOk(m.id, { question_definition_allowlist: null, match_question_definition_allowlist: [] });
    expect(cleared.question_definition_allowlist).toBeNull();
    expect(cleared.match_question_definition_allowlist).toEqual([]);
  });

  it('allowlists take ids in either case and store each once, in lowercase (as the engine and deletions compare them)', async () => {
    const m = await createMatch(app);
    const inGame = await createDefinition('in_game');
    const matchDef = await createDefinition('match');
    const ok = await patchOk(m.id, {
      question_definition_allowlist: [inGame.toUpperCase(), inGame],
      match_question_definition_allowlist: [matchDef.toUpperCase()],
    });
    expect(ok.question_definition_allowlist).toEqual([inGame]);
    expect(ok.match_question_definition_allowlist).toEqual([matchDef]);
    const league = await app.request('PATCH', '/api/leagues/wc', {
      token: admin.token,
      body: { question_definition_allowlist: [inGame.toUpperCase()], match_question_definition_allowlist: [matchDef.toUpperCase(), matchDef] },
    });
    expectStatus(league, 200);
    expect(league.body).toMatchObject({ question_definition_allowlist: [inGame], match_question_definition_allowlist: [matchDef] });
    await app.request('PATCH', '/api/leagues/wc', {
      token: admin.token,
      body: { question_definition_allowlist: null, match_question_definition_allowlist: null },
    });
  });

  it('sponsor_brand_id: sets the whole-match sponsor, 404 for an unknown brand, null removes it', async () => {
    const m = await createMatch(app);
    const brand = await newBrand();
    const set = await patchOk(m.id, { sponsor_brand_id: brand });
    expect(set.sponsor_brand_id).toBe(brand);
    expect(set.sponsor_brand).toMatchObject({ id: brand, primary_color: '#112233' });
    const unknown = await patch(m.id, { sponsor_brand_id: UNKNOWN_ID, question_points: 7 });
    expectError(unknown, brandErrors.notFound);
    expect(unknown.body.detail).toContain(UNKNOWN_ID);
    expect(await row(m.id)).toMatchObject({ sponsorBrandId: brand, questionPoints: null });
    const removed = await patchOk(m.id, { sponsor_brand_id: null });
    expect(removed).toMatchObject({ sponsor_brand_id: null, sponsor_brand: null });
  });

  it('question_max_count below the slots already placed answers 409 (also when clearing to a lower league default)', async () => {
    const [b1, b2] = [await newBrand(), await newBrand()];
    const m = await createMatch(app, { questionMaxCount: 12 });
    await addSlots(m.id, b1, 6);
    await addSlots(m.id, b2, 5);
    const res = await patch(m.id, { question_max_count: 10 });
    expectError(res, matchErrors.capBelowSlots);
    // The message counts the slots.
    expect(res.body.detail).toMatch(/11/);
    // Clearing falls back to the wc default of 10: still below 11.
    expectError(await patch(m.id, { question_max_count: null }), matchErrors.capBelowSlots);
    expect((await row(m.id)).questionMaxCount).toBe(12);
    const ok = await patchOk(m.id, { question_max_count: 11 });
    expect(ok.question_max_count).toBe(11);
    // The detail view lists every brand's slots on the match.
    expect(ok.question_sponsorships).toHaveLength(11);
    expect(new Set(ok.question_sponsorships!.map((s) => s.brand_id))).toEqual(new Set([b1, b2]));
    expect(ok.question_sponsorships!.every((s) => s.match_id === m.id && s.brand.id === s.brand_id)).toBe(true);
    expect(ok.sponsored_question_count).toBe(11);
  });

  it('question_max_count below a question number a slot targets answers 409', async () => {
    const brand = await newBrand();
    const m = await createMatch(app);
    await db().insert(questionSponsorships).values({ brandId: brand, matchId: m.id, strategy: 'question_number', targetNumber: 8 });
    const res = await patch(m.id, { question_max_count: 7 });
    expectError(res, matchErrors.capBelowSlots);
    // The message names the question number the slot targets.
    expect(res.body.detail).toMatch(/question number 8/);
    expect((await patchOk(m.id, { question_max_count: 8 })).question_max_count).toBe(8);
  });

  it('is_test and auto_dispatch_listener are patchable', async () => {
    const m = await createMatch(app);
    expect(await patchOk(m.id, { is_test: true, auto_dispatch_listener: false })).toMatchObject({ is_test: true, auto_dispatch_listener: false });
    expect(await row(m.id)).toMatchObject({ isTest: true, autoDispatchListener: false });
    expect((await patchOk(m.id, { is_test: false })).is_test).toBe(false);
  });
});

describe('DELETE /api/matches/{match_id}', () => {
  const del = (id: string, token: string | null = admin.token) => app.request('DELETE', `/api/matches/${id}`, { token });

  it('needs an admin key (401, 403); 404 for an unknown match', async () => {
    const m = await createMatch(app, { isTest: true });
    expectStatus(await del(m.id, null), 401);
    expectStatus(await del(m.id, player.token), 403);
    expectError(await del(UNKNOWN_ID), matchErrors.notFound);
    expect(await db().select().from(matches).where(eq(matches.id, m.id))).toHaveLength(1);
  });

  it('refuses a real match with 409 saying only test matches can be deleted', async () => {
    const m = await createMatch(app);
    const res = await del(m.id);
    expectError(res, matchErrors.notTest);
    expect(res.body.detail).toMatch(/only test matches can be deleted/);
    expect(await db().select().from(matches).where(eq(matches.id, m.id))).toHaveLength(1);
  });

  it('deletes a test match with everything hanging off it; brands, definitions and other matches stay', async () => {
    const brand = await newBrand();
    const definitionId = await createDefinition('in_game');
    const m = await createMatch(app, { isTest: true, sponsorBrandId: brand });
    const other = await createMatch(app, { isTest: true });
    await addSlots(m.id, brand, 2);
    await addSlots(other.id, brand, 1);
    await addIssuances(m.id, { regular: 2, pivotal: 1, matchKind: 1 });
    await db()
      .insert(questionIssuances)
      .values({
        matchId: m.id,
        kind: 'in_game',
        definitionId,
        definitionName: 'Next goal',
        questionText: 'Who scores next?',
        choices: [{ identifier: 'home', label: 'Home' }],
        resolution: { rules: [] },
        closesAt: new Date(),
        points: 10,
      });
    const [issuance] = await db().select().from(questionIssuances).where(eq(questionIssuances.matchId, m.id)).limit(1);
    const [slot] = await db().select().from(questionSponsorships).where(eq(questionSponsorships.matchId, m.id)).limit(1);
    await db().update(questionSponsorships).set({ questionIssuanceId: issuance!.id, stampedAt: new Date() }).where(eq(questionSponsorships.id, slot!.id));
    await follow(player, m.id);
    await db().insert(questionIssuanceDenials).values({
      matchId: m.id,
      definitionId,
      definitionName: 'Next goal',
      failedStep: 'probability',
      detail: 'no',
      triggerEventId: 'e1',
      triggerEventType: 'shot',
    });
    const [listener] = await db().insert(matchListeners).values({ matchId: m.id, source: 'replay', status: 'completed' }).returning();
    await db()
      .insert(listenerEvents)
      .values({
        listenerId: listener!.id,
        matchId: m.id,
        seq: 1,
        providerEventId: 'p1',
        operation: 'create',
        eventKey: 'p1:create:x',
        event: { type: 'shot' } as FeedEvent,
      });
    await db().insert(listenerLogLines).values({ listenerId: listener!.id, lineNo: 1, level: 'info', message: 'started' });

    const res = await del(m.id);
    expectStatus(res, 204);
    expect(res.text).toBe('');
    /** Rows of the table still pointing at the match. */
    const left = async (table: string) =>
      (await app.services.database.rows<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(table)} where match_id = ${m.id}`))[0]!.n;
    expect(await db().select().from(matches).where(eq(matches.id, m.id))).toHaveLength(0);
    for (const table of ['question_sponsorships', 'question_issuances', 'match_follows', 'question_issuance_denials', 'match_listeners', 'listener_events']) {
      expect(await left(table), table).toBe(0);
    }
    expect(await db().select().from(listenerLogLines).where(eq(listenerLogLines.listenerId, listener!.id))).toHaveLength(0);
    expect(await db().select().from(brands).where(eq(brands.id, brand))).toHaveLength(1);
    expect(await db().select().from(questionSponsorships).where(eq(questionSponsorships.matchId, other.id))).toHaveLength(1);
    expectStatus(await app.request('GET', `/api/question-definitions/${definitionId}`), 200);
    expectError(await del(m.id), matchErrors.notFound);
  });

  it('gives back the quota slots of active follows taken while the match was real', async () => {
    const user = await registerUser(app);
    const m = await createMatch(app);
    const followed = await app.request('POST', `/api/matches/${m.id}/follow`, { token: user.token });
    expectStatus(followed, 200);
    expect(followed.body).toMatchObject({ counts_toward_quota: true, follows_remaining_today: 2 });
    const day = followed.body.quota_day as string;
    expectStatus(await app.request('PATCH', `/api/matches/${m.id}`, { token: admin.token, body: { is_test: true } }), 200);
    expectStatus(await del(m.id), 204);
    const [counter] = await db()
      .select()
      .from(followQuotaDays)
      .where(and(eq(followQuotaDays.userId, user.id), eq(followQuotaDays.day, day)));
    expect(counter!.used).toBe(0);
    expect(
      await db()
        .select()
        .from(matchFollows)
        .where(inArray(matchFollows.userId, [user.id])),
    ).toHaveLength(0);
  });
});

import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { leaderboardPointCounts, leaderboards, leaderboardScores } from '../../src/modules/leaderboards/leaderboards.table.js';
import { rebuildAll } from '../../src/modules/leaderboards/leaderboards.applier.repository.js';
import { leaderboardErrors } from '../../src/modules/leaderboards/leaderboards.errors.js';
import { leagueErrors } from '../../src/modules/leagues/leagues.errors.js';
import { matchErrors } from '../../src/modules/matches/matches.errors.js';
import { userErrors } from '../../src/modules/users/users.errors.js';
import { authErrors } from '../../src/modules/auth/auth.errors.js';
import { users } from '../../src/modules/users/users.table.js';
import { insertIssuance } from '../helpers/engine-rows.js';
import { expectError } from '../helpers/errors.js';
import { playQuestion } from '../helpers/leaderboards.js';
import { createMatch, follow, leagueBySlug, UNKNOWN_ID } from '../helpers/factories.js';
import { registerUser, type TestUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const { app, admin } = useTestApp();
const db = () => app.services.database.db;
const inMinutes = (m: number) => new Date(Date.now() + m * 60_000);

interface Entry {
  rank: number;
  user_id: string;
  display_name: string;
  points: number;
  correct_count: number;
  answered_count: number;
  current_streak: number;
  best_streak: number;
  reached_at: string;
}

const play = (matchId: string, answers: [TestUser, 'home' | 'away'][], outcome: 'home' | 'away' | 'voided', points = 10, drain = true) =>
  playQuestion(app, matchId, answers, outcome, { points, drain });

async function liveMatch(values: Parameters<typeof createMatch>[1] = {}) {
  return createMatch(app, { status: 'live', scheduled: inMinutes(-30), ...values });
}

async function players(n: number, matchId?: string): Promise<TestUser[]> {
  const out: TestUser[] = [];
  for (let i = 0; i < n; i++) {
    const u = await registerUser(app);
    if (matchId) await follow(app, u.id, matchId);
    out.push(u);
  }
  return out;
}

const matchBoard = (matchId: string, token?: string, query: Record<string, string | number> = {}) =>
  app.request('GET', `/api/leaderboards/matches/${matchId}`, { ...(token ? { token } : {}), query });

describe('ranking and tie-breaks', () => {
  it('orders by points, then correct answers, then who reached them first, then user id; ranks are positions', async () => {
    const match = await liveMatch();
    const [a, b, c, d, e, f] = await players(6, match.id);
    // b scores 20 with one correct answer; a scores 20 with two.
    await play(
      match.id,
      [
        [b!, 'home'],
        [a!, 'away'],
      ],
      'home',
      20,
    );
    await play(
      match.id,
      [
        [a!, 'home'],
        [c!, 'home'],
        [e!, 'home'],
        [f!, 'home'],
      ],
      'home',
      10,
    );
    await play(
      match.id,
      [
        [a!, 'home'],
        [d!, 'home'],
        [c!, 'away'],
      ],
      'home',
      10,
    );
    // c and d: 10 points, 1 correct each; c reached it one question earlier. e and f reached 10 in the same settlement as c: the user id decides.
    const res = await matchBoard(match.id, a!.token);
    expect(res.status).toBe(200);
    const rows = res.body.rows as Entry[];
    const [ef1, ef2] = [e!, f!].sort((x, y) => (x.id < y.id ? -1 : 1));
    const sameInstant = [c!, ef1!, ef2!].sort((x, y) => (x.id < y.id ? -1 : 1));
    expect(rows.map((r) => r.user_id)).toEqual([a!.id, b!.id, ...sameInstant.map((u) => u.id), d!.id]);
    expect(rows.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(rows[0]).toMatchObject({ points: 20, correct_count: 2, answered_count: 3, current_streak: 2, best_streak: 2 });
    expect(rows[1]).toMatchObject({ points: 20, correct_count: 1, answered_count: 1 });
    expect(res.body).toMatchObject({
      scope: 'match',
      match_id: match.id,
      period: 'all_time',
      period_start: null,
      player_count: 6,
      me: { rank: 1, user_id: a!.id },
    });
    // Everyone's own rank is their position, wherever the page ends.
    for (const [i, u] of [a!, b!, ...sameInstant, d!].entries()) {
      const mine = await matchBoard(match.id, u.token, { limit: 1, offset: 0 });
      expect(mine.body.me).toMatchObject({ rank: i + 1, user_id: u.id });
      expect(mine.body.me).toEqual(rows[i]);
    }
    // Paging: ranks continue from the offset.
    const page = await matchBoard(match.id, undefined, { offset: 2, limit: 2 });
    expect((page.body.rows as Entry[]).map((r) => [r.rank, r.user_id])).toEqual([
      [3, rows[2]!.user_id],
      [4, rows[3]!.user_id],
    ]);
    expect(page.body.me).toBeNull();
  });

  it('counts streaks of correct answers: an incorrect answer ends one, a voided question neither ends nor extends it', async () => {
    const match = await liveMatch();
    const [p, q] = await players(2, match.id);
    const sequence: ('home' | 'away' | 'voided')[] = ['home', 'home', 'away', 'home', 'voided', 'home', 'home'];
    for (const outcome of sequence)
      await play(
        match.id,
        [
          [p!, 'home'],
          [q!, 'away'],
        ],
        outcome,
      );
    const rows = (await matchBoard(match.id)).body.rows as Entry[];
    const byId = new Map(rows.map((r) => [r.user_id, r]));
    expect(byId.get(p!.id)).toMatchObject({ points: 50, correct_count: 5, answered_count: 7, current_streak: 3, best_streak: 3 });
    expect(byId.get(q!.id)).toMatchObject({ points: 10, correct_count: 1, answered_count: 7, current_streak: 0, best_streak: 1 });
  });

  it('names players by display name, else username, never by email', async () => {
    const match = await liveMatch();
    const [named, plain] = await players(2, match.id);
    await app.request('PATCH', '/api/users/me', { token: named!.token, body: { display_name: 'Golden Boot' } });
    await play(
      match.id,
      [
        [named!, 'home'],
        [plain!, 'home'],
      ],
      'home',
    );
    const res = await matchBoard(match.id);
    const names = (res.body.rows as Entry[]).map((r) => r.display_name).sort();
    expect(names).toEqual(['Golden Boot', plain!.username].sort());
    expect(res.text).not.toContain(plain!.email);
  });
});

describe('what counts', () => {
  it('an operator stopping a match counts its revoked questions as any settlement does (answered, no points)', async () => {
    const m = await liveMatch();
    const [u] = await players(1, m.id);
    await play(m.id, [[u!, 'home']], 'home');
    const open = await insertIssuance(app, { matchId: m.id, status: 'open', closesAt: inMinutes(2), points: 10 });
    expect(
      (await app.request('PUT', '/api/question-answers', { token: u!.token, body: { question_issuance_id: open.id, selected_answer_identifier: 'away' } }))
        .status,
    ).toBe(201);
    const stop = await app.request('POST', `/api/matches/${m.id}/stop-listener`, { token: admin.token });
    expect(stop.body.revoked_issuance_count).toBe(1);
    await app.services.leaderboards.drain();
    const board = (await matchBoard(m.id, u!.token)).body;
    expect(board.me).toMatchObject({ points: 10, correct_count: 1, answered_count: 2 });
  });

  it("test matches never count: their board is empty and the whole game's is untouched", async () => {
    const test = await liveMatch({ isTest: true });
    const [p] = await players(1, test.id);
    await play(test.id, [[p!, 'home']], 'home', 50);
    const board = await matchBoard(test.id, p!.token);
    expect(board.body).toMatchObject({ rows: [], player_count: 0, me: null });
    expect((await app.request('GET', '/api/leaderboards/overall', { token: p!.token })).body.me).toBeNull();
    // The player's points say the same (test matches count in none of them).
    expect((await app.request('GET', '/api/users/me/points', { token: p!.token })).body.all_time.points).toBe(0);
  });

  it('hidden and deactivated users are on no board and take no rank; back, with everything they scored meanwhile', async () => {
    const match = await liveMatch();
    const [cheat, honest] = await players(2, match.id);
    await play(
      match.id,
      [
        [cheat!, 'home'],
        [honest!, 'home'],
      ],
      'home',
      30,
    );
    await play(match.id, [[cheat!, 'home']], 'home', 30);
    expect((await matchBoard(match.id, honest!.token)).body.me.rank).toBe(2);
    const overallBefore = (await app.request('GET', '/api/leaderboards/overall', { token: honest!.token })).body;

    await app.request('PATCH', `/api/users/${cheat!.id}`, { token: admin.token, body: { hidden_from_leaderboards: true } });
    const hidden = await matchBoard(match.id, cheat!.token);
    expect(hidden.body).toMatchObject({ player_count: 1, me: null, rows: [{ rank: 1, user_id: honest!.id }] });
    const overall = (await app.request('GET', '/api/leaderboards/overall', { token: honest!.token })).body;
    expect(overall.me.rank).toBe(overallBefore.me.rank - 1);
    expect(overall.player_count).toBe(overallBefore.player_count - 1);
    // What they score while hidden counts nowhere now, and everywhere once they are back.
    await play(match.id, [[cheat!, 'home']], 'home', 30);
    expect((await matchBoard(match.id)).body.player_count).toBe(1);
    // Their history and points stay.
    expect((await app.request('GET', `/api/users/${cheat!.id}/points`, { token: admin.token })).body.all_time.points).toBe(90);

    await app.request('PATCH', `/api/users/${cheat!.id}`, { token: admin.token, body: { hidden_from_leaderboards: false } });
    expect((await matchBoard(match.id, cheat!.token)).body.me).toMatchObject({ rank: 1, points: 90, correct_count: 3, current_streak: 3 });

    await app.request('DELETE', `/api/users/${cheat!.id}`, { token: admin.token });
    expect((await matchBoard(match.id)).body.rows.map((r: Entry) => r.user_id)).toEqual([honest!.id]);
    await app.request('PATCH', `/api/users/${cheat!.id}`, { token: admin.token, body: { is_active: true } });
    expect((await matchBoard(match.id)).body.rows.map((r: Entry) => r.user_id)).toEqual([cheat!.id, honest!.id]);
  });
});

describe('periods across time zones', () => {
  const periodsOf = async (u: TestUser) =>
    (await app.request('GET', '/api/users/me/points', { token: u.token })).body as {
      all_time: { points: number; correct_count: number };
      periods: { period: string; starts_at: string; ends_at: string; points: number; correct_count: number }[];
    };

  it("each player counts in their own zone's day, week and month: their row is what GET /api/users/me/points says", async () => {
    const match = await liveMatch({ league: 'mls' });
    // UTC+14 and UTC-11: 25 hours apart, never on the same calendar day at noon UTC, often not at all.
    const [east, west, utc] = await players(3, match.id);
    await app.request('PATCH', '/api/users/me', { token: east!.token, body: { match_follow_timezone: 'Pacific/Kiritimati' } });
    await app.request('PATCH', '/api/users/me', { token: west!.token, body: { match_follow_timezone: 'Pacific/Pago_Pago' } });
    await play(
      match.id,
      [
        [east!, 'home'],
        [west!, 'home'],
        [utc!, 'away'],
      ],
      'home',
      10,
    );
    await play(
      match.id,
      [
        [east!, 'home'],
        [west!, 'away'],
        [utc!, 'home'],
      ],
      'home',
      5,
    );

    for (const u of [east!, west!, utc!]) {
      const points = await periodsOf(u);
      for (const [period, name] of [
        ['day', 'today'],
        ['week', 'this_week'],
        ['month', 'this_month'],
      ] as const) {
        const mine = points.periods.find((p) => p.period === name)!;
        for (const path of ['/api/leaderboards/overall', '/api/leaderboards/leagues/mls']) {
          const board = await app.request('GET', path, { token: u.token, query: { period } });
          expect(board.status).toBe(200);
          // The caller's current period, in their zone, with the points endpoint's bounds.
          expect(board.body).toMatchObject({ period, starts_at: new Date(mine.starts_at).toISOString(), ends_at: new Date(mine.ends_at).toISOString() });
          expect(board.body.me, `${path} ${period}`).toMatchObject({ points: mine.points, correct_count: mine.correct_count });
        }
      }
      const allTime = await app.request('GET', '/api/leaderboards/leagues/mls', { token: u.token });
      expect(allTime.body.me).toMatchObject({ points: points.all_time.points, correct_count: points.all_time.correct_count });
    }

    // The day board named by the east player's date holds them; the west player is on it only when their own date is the same.
    const eastDay = (await app.request('GET', '/api/leaderboards/leagues/mls', { token: east!.token, query: { period: 'day' } })).body;
    const westDay = (await app.request('GET', '/api/leaderboards/leagues/mls', { token: west!.token, query: { period: 'day' } })).body;
    expect(eastDay.period_start).not.toBe(westDay.period_start);
    expect(eastDay.timezone).toBe('Pacific/Kiritimati');
    const anonymousEastDay = await app.request('GET', '/api/leaderboards/leagues/mls', { query: { period: 'day', date: eastDay.period_start } });
    const ids = (anonymousEastDay.body.rows as Entry[]).map((r) => r.user_id);
    expect(ids).toContain(east!.id);
    expect(ids).not.toContain(west!.id);
    expect(anonymousEastDay.body).toMatchObject({ timezone: 'UTC', period_start: eastDay.period_start, me: null });
  });

  it("a new time zone counts the player's periods again, as the points endpoint does", async () => {
    const match = await liveMatch({ league: 'nfl' });
    const [p] = await players(1, match.id);
    await app.request('PATCH', '/api/users/me', { token: p!.token, body: { match_follow_timezone: 'Pacific/Kiritimati' } });
    await play(match.id, [[p!, 'home']], 'home', 10);
    const before = (await app.request('GET', '/api/leaderboards/leagues/nfl', { token: p!.token, query: { period: 'day' } })).body;
    await app.request('PATCH', '/api/users/me', { token: p!.token, body: { match_follow_timezone: 'Pacific/Pago_Pago' } });
    const after = (await app.request('GET', '/api/leaderboards/leagues/nfl', { token: p!.token, query: { period: 'day' } })).body;
    expect(after.period_start).not.toBe(before.period_start);
    expect(after.me).toMatchObject({ points: 10 });
    // The old zone's day no longer holds the answer.
    const old = (await app.request('GET', '/api/leaderboards/leagues/nfl', { token: p!.token, query: { period: 'day', date: before.period_start } })).body;
    expect(old.me).toBeNull();
    const today = (await periodsOf(p!)).periods.find((x) => x.period === 'today')!;
    expect(after.me.points).toBe(today.points);
  });
});

describe('the operations', () => {
  it('are open to read and answer 404 for unknown leagues and matches', async () => {
    expect((await app.request('GET', '/api/leaderboards/overall')).status).toBe(200);
    expect((await app.request('GET', '/api/leaderboards/leagues/wc')).status).toBe(200);
    const league = await leagueBySlug(app, 'wc');
    expect((await app.request('GET', `/api/leaderboards/leagues/${league.id}`)).body.league_id).toBe(league.id);
    // As on the other open operations, a key that is no key reads as anonymous.
    expect((await app.request('GET', '/api/leaderboards/overall', { token: 'qp_nope' })).body.me).toBeNull();
    expectError(await app.request('GET', '/api/leaderboards/leagues/nope'), leagueErrors.notFound);
    expectError(await matchBoard(UNKNOWN_ID), matchErrors.notFound);
  });

  it('answer 400 for a date with all_time and 422 past the paging bounds', async () => {
    const res = await app.request('GET', '/api/leaderboards/overall', { query: { date: '2026-11-20' } });
    expectError(res, leaderboardErrors.dateWithoutPeriod);
    for (const query of [{ limit: 101 }, { limit: 0 }, { offset: 100001 }, { period: 'year' }, { date: '2026-13-01' }]) {
      expect((await app.request('GET', '/api/leaderboards/overall', { query })).status, JSON.stringify(query)).toBe(422);
    }
    expect((await app.request('GET', `/api/leaderboards/matches/${UNKNOWN_ID}`, { query: { period: 'day' } })).status).toBe(422);
  });

  it('answer 400 for a period reaching outside the years 0001 to 9999 (its bounds cannot be written), and read the last and first whole ones', async () => {
    for (const query of [
      { period: 'month', date: '9999-12-31' },
      { period: 'day', date: '9999-12-31' },
      { period: 'week', date: '9999-12-31' },
    ]) {
      const res = await app.request('GET', '/api/leaderboards/overall', { query });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.headers.get('x-error-code')).toBe('leaderboard.date_out_of_range');
      expect(res.body.detail).toMatch(/outside the years 0001 to 9999/);
    }
    const last = await app.request('GET', '/api/leaderboards/overall', { query: { period: 'month', date: '9999-11-15' } });
    expect(last.status).toBe(200);
    expect(last.body).toMatchObject({ starts_at: '9999-11-01T00:00:00.000Z', ends_at: '9999-12-01T00:00:00.000Z' });
    // 0001-01-01 was a Monday: its day, week and month are whole.
    for (const period of ['day', 'week', 'month'])
      expect((await app.request('GET', '/api/leaderboards/overall', { query: { period, date: '0001-01-01' } })).status, period).toBe(200);
  });

  it('an empty or future period is an empty board', async () => {
    const res = await app.request('GET', '/api/leaderboards/overall', { query: { period: 'month', date: '2099-02-14' } });
    expect(res.body).toMatchObject({
      period_start: '2099-02-01',
      starts_at: '2099-02-01T00:00:00.000Z',
      ends_at: '2099-03-01T00:00:00.000Z',
      rows: [],
      player_count: 0,
    });
  });
});

describe("a user's positions (operators)", () => {
  it('lists the whole game, each league and the latest matches, with ranks and counts as the boards say', async () => {
    const [m1, m2] = [await liveMatch({ league: 'mls' }), await liveMatch({ league: 'mls' })];
    const [p, rival] = await players(2);
    for (const m of [m1, m2]) for (const u of [p!, rival!]) await follow(app, u.id, m.id);
    await app.request('PATCH', '/api/users/me', { token: p!.token, body: { match_follow_timezone: 'Asia/Tokyo' } });
    await play(
      m1.id,
      [
        [p!, 'home'],
        [rival!, 'home'],
      ],
      'home',
      10,
    );
    await play(
      m2.id,
      [
        [p!, 'away'],
        [rival!, 'home'],
      ],
      'home',
      10,
    );
    const res = await app.request('GET', `/api/users/${p!.id}/leaderboard-positions`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user_id: p!.id, hidden_from_leaderboards: false, is_active: true, timezone: 'Asia/Tokyo' });
    const positions = res.body.positions as {
      scope: string;
      league_id: string | null;
      match_id: string | null;
      period: string;
      period_start: string | null;
      player_count: number;
      entry: Entry;
    }[];
    expect(positions.map((x) => `${x.scope}:${x.period}`)).toEqual([
      'overall:all_time',
      'overall:day',
      'overall:week',
      'overall:month',
      'league:all_time',
      'league:day',
      'league:week',
      'league:month',
      'match:all_time',
      'match:all_time',
    ]);
    expect(positions.filter((x) => x.scope === 'match').map((x) => x.match_id)).toEqual([m2.id, m1.id]);
    // Each as the public board tells the user themself.
    const overall = (await app.request('GET', '/api/leaderboards/overall', { token: p!.token, query: { period: 'week' } })).body;
    expect(positions[2]).toMatchObject({ period_start: overall.period_start, player_count: overall.player_count, entry: overall.me });
    const second = (await matchBoard(m2.id, p!.token)).body;
    expect(positions[8]).toMatchObject({ player_count: 2, entry: second.me });
    expect(second.me.rank).toBe(2);

    await app.request('PATCH', `/api/users/${p!.id}`, { token: admin.token, body: { hidden_from_leaderboards: true } });
    expect((await app.request('GET', `/api/users/${p!.id}/leaderboard-positions`, { token: admin.token })).body).toMatchObject({
      hidden_from_leaderboards: true,
      positions: [],
    });
    expectError(await app.request('GET', `/api/users/${UNKNOWN_ID}/leaderboard-positions`, { token: admin.token }), userErrors.notFound);
    expect((await app.request('GET', `/api/users/${p!.id}/leaderboard-positions`, { token: rival!.token })).status).toBe(403);
    await app.request('PATCH', `/api/users/${p!.id}`, { token: admin.token, body: { hidden_from_leaderboards: false } });
  });
});

describe("a player's own positions", () => {
  it('answers the caller their own positions in one call, as an operator reads them, and 401 without a key', async () => {
    const match = await liveMatch();
    const [p, rival] = await players(2, match.id);
    await play(
      match.id,
      [
        [p!, 'away'],
        [rival!, 'home'],
      ],
      'home',
      10,
    );
    const mine = await app.request('GET', '/api/users/me/leaderboard-positions', { token: p!.token });
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual((await app.request('GET', `/api/users/${p!.id}/leaderboard-positions`, { token: admin.token })).body);
    expect(mine.body.positions.find((x: { scope: string }) => x.scope === 'match')).toMatchObject({ match_id: match.id, player_count: 2, entry: { rank: 2 } });
    expect((await app.request('GET', '/api/users/me/leaderboard-positions', { token: rival!.token })).body.user_id).toBe(rival!.id);
    expectError(await app.request('GET', '/api/users/me/leaderboard-positions'), authErrors.unauthorized);
  });
});

describe('retention', () => {
  it('deletes the boards of days, weeks and months past their retention, in chunks, and leaves the others', async () => {
    const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
    const [p, q, r] = await players(3);
    const boardOf = async (period: string, start: string) => {
      const [b] = await db()
        .insert(leaderboards)
        .values({ scope: 'overall', scopeId: '00000000-0000-0000-0000-000000000000', period, periodStart: start })
        .onConflictDoNothing()
        .returning();
      for (const u of [p!, q!, r!])
        await db()
          .insert(leaderboardScores)
          .values({ leaderboardId: b!.id, userId: u.id, points: 10, correct: 1, answered: 1, currentStreak: 1, bestStreak: 1, reachedAt: new Date() });
      await db().insert(leaderboardPointCounts).values({ leaderboardId: b!.id, points: 10, players: 3 });
      return b!.id;
    };
    const expired = [await boardOf('day', ago(60)), await boardOf('week', ago(200)), await boardOf('month', ago(900))];
    const kept = [await boardOf('day', ago(20)), await boardOf('week', ago(100)), await boardOf('month', ago(400))];
    expect((await app.request('GET', '/api/leaderboards/overall', { query: { period: 'day', date: ago(60) } })).body.player_count).toBe(3);
    await app.services.leaderboards.pruneExpired({ chunk: 2 });
    const left = new Set((await db().select({ id: leaderboards.id }).from(leaderboards)).map((b) => b.id));
    for (const id of expired) expect(left.has(id)).toBe(false);
    for (const id of kept) expect(left.has(id)).toBe(true);
    const orphans = await db()
      .select()
      .from(leaderboardScores)
      .where(
        sql`${leaderboardScores.leaderboardId} in (${sql.join(
          expired.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      );
    expect(orphans).toEqual([]);
    expect((await app.request('GET', '/api/leaderboards/overall', { query: { period: 'day', date: ago(60) } })).body).toMatchObject({
      player_count: 0,
      rows: [],
    });
    // The kept ones are test data of this test only: gone again, so the rebuild comparison below sees the settled boards alone.
    await db()
      .delete(leaderboardScores)
      .where(
        sql`${leaderboardScores.leaderboardId} in (${sql.join(
          kept.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      );
    await db()
      .delete(leaderboards)
      .where(
        sql`${leaderboards.id} in (${sql.join(
          kept.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      );
  });
});

describe('the maintained tables', () => {
  const snapshot = async () => ({
    scores: (await db().select().from(leaderboardScores))
      .map((r) => ({ ...r, reachedAt: r.reachedAt.toISOString() }))
      .sort((x, y) => `${x.leaderboardId}${x.userId}`.localeCompare(`${y.leaderboardId}${y.userId}`)),
    // The versions are the read caches' keys (a rebuild moves them on); the counts are what must agree.
    counts: (
      await db()
        .select({ leaderboardId: leaderboardPointCounts.leaderboardId, points: leaderboardPointCounts.points, players: leaderboardPointCounts.players })
        .from(leaderboardPointCounts)
        .where(sql`${leaderboardPointCounts.players} <> 0`)
    ).sort((x, y) => x.leaderboardId - y.leaderboardId || x.points - y.points),
  });

  it("equal a rebuild from the scored answers (the migration's backfill), point counts included", async () => {
    const maintained = await snapshot();
    expect(maintained.scores.length).toBeGreaterThan(20);
    await db().transaction((tx) => rebuildAll({ tx }));
    expect(await snapshot()).toEqual(maintained);
    // The counts are the rows' own.
    const [{ n }] = (await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(leaderboardScores)) as [{ n: number }];
    const [{ total }] = (await db()
      .select({ total: sql<number>`sum(${leaderboardPointCounts.players})::int` })
      .from(leaderboardPointCounts)) as [{ total: number }];
    expect(total).toBe(n);
    // Nobody hidden or deactivated has a row.
    const off = await db()
      .select({ id: users.id })
      .from(users)
      .where(sql`not ${users.isActive} or ${users.hiddenFromLeaderboards}`);
    for (const u of off) expect(maintained.scores.filter((s) => s.userId === u.id)).toEqual([]);
  });
  it('take concurrent settlements of several matches with the same players, applied by concurrent appliers (one writer at a time, no deadlock, nothing lost, streaks exact)', async () => {
    const ms = [await liveMatch(), await liveMatch(), await liveMatch()];
    const crowd = await players(8);
    for (const m of ms) for (const u of crowd) await follow(app, u.id, m.id);
    const questions = [];
    for (const m of ms) {
      for (let i = 0; i < 3; i++) {
        const issuance = await insertIssuance(app, { matchId: m.id, status: 'open', closesAt: inMinutes(2), points: 10 + i });
        for (const [j, u] of crowd.entries()) {
          await app.request('PUT', '/api/question-answers', {
            token: u.token,
            body: { question_issuance_id: issuance.id, selected_answer_identifier: (i + j) % 2 ? 'home' : 'away' },
          });
        }
        questions.push(issuance);
      }
    }
    // Three appliers race the settlements (as the workers of several processes would), in chunks of 3 rows, until they are all
    // committed; then one more drains what is left.
    let settling = true;
    const applier = async () => {
      while (settling) {
        await app.services.leaderboards.applyQueued({ chunkRows: 3 });
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const appliers = [applier(), applier(), applier()];
    await Promise.all(
      questions.map((q) =>
        app.services.engine.store.settleIssuance({ id: q.id, status: 'resolved', correct: 'home', resolvedSeq: null, resolutionEventId: null }),
      ),
    );
    settling = false;
    await Promise.all(appliers);
    await app.services.leaderboards.drain();
    for (const u of crowd) {
      const points = (await app.request('GET', `/api/users/${u.id}/points`, { token: admin.token })).body.all_time.points;
      expect((await app.request('GET', '/api/leaderboards/overall', { token: u.token })).body.me.points).toBe(points);
    }
    // A rebuild agrees on everything, streaks included: both take the settlements in the order the applier recorded (parallel ones may commit out of their time order).
    const maintained = await snapshot();
    await db().transaction((tx) => rebuildAll({ tx }));
    expect(await snapshot()).toEqual(maintained);
  });
});

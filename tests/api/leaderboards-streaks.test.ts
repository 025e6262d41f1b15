/**
 * The streak boards (`rank_by` current_streak or best_streak on the boards'
 * reads): the same rows ranked by the streak, ties broken by the points
 * ranking; each board's streak its own (a league's answers, a period's); hidden
 * players on none; the caller's own rank; a group's board; and the contract's
 * errors for what it refuses. Read from PostgreSQL here (the streak indexes);
 * leaderboards-redis.test.ts holds the boards in Redis to these reads.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { leaderboardErrors } from '../../src/modules/leaderboards/leaderboards.errors.js';
import { expectError } from '../helpers/errors.js';
import { playQuestion } from '../helpers/leaderboards.js';
import { createMatch, follow } from '../helpers/factories.js';
import { registerUser, type TestUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const { app, admin } = useTestApp();
const inMinutes = (m: number) => new Date(Date.now() + m * 60_000);

interface Entry {
  rank: number;
  user_id: string;
  points: number;
  correct_count: number;
  current_streak: number;
  best_streak: number;
}
type RankBy = 'points' | 'current_streak' | 'best_streak';

async function players(n: number, matchIds: string[], verified = false): Promise<TestUser[]> {
  const out: TestUser[] = [];
  for (let i = 0; i < n; i++) {
    const u = await registerUser(app, { verified });
    for (const m of matchIds) await follow(app, u.id, m);
    out.push(u);
  }
  return out;
}

const liveMatch = (league = 'wc') => createMatch(app, { status: 'live', scheduled: inMinutes(-30), league });

/** One question on a match: `right` answer it correctly, `wrong` incorrectly; it resolves and the boards take it. */
const question = (matchId: string, right: TestUser[], wrong: TestUser[], points = 10, drain = true) =>
  playQuestion(app, matchId, [...right.map((u) => [u, 'home'] as [TestUser, 'home']), ...wrong.map((u) => [u, 'away'] as [TestUser, 'away'])], 'home', {
    points,
    drain,
  });

const read = async (path: string, query: Record<string, string | number> = {}, token?: string) => {
  // A group's board has no paging (every member is listed).
  const paging = path.startsWith('/api/player-groups/') ? {} : { limit: 100 };
  const res = await app.request('GET', path, { ...(token ? { token } : {}), query: { ...paging, ...query } });
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
  return res.body as { rank_by: RankBy; player_count: number; rows: Entry[]; me: Entry | null };
};

/** The rows of these players only, in the board's order. */
const only = (rows: Entry[], crowd: TestUser[]) => rows.filter((r) => crowd.some((u) => u.id === r.user_id)).map((r) => r.user_id);

/** The contract's streak order, from the points board's: by the streak (more first), ties in the points ranking (a stable sort). */
const streakOrder = (pointsRows: Entry[], by: 'current_streak' | 'best_streak') => [...pointsRows].sort((a, b) => b[by] - a[by]).map((r) => r.user_id);

describe('streak boards', () => {
  it('rank by current and by best streak, ties broken by the points ranking; ranks, pages and the caller’s own row follow', async () => {
    const m = await liveMatch();
    const [a, b, c, d, e] = (await players(5, [m.id])) as [TestUser, TestUser, TestUser, TestUser, TestUser];
    await question(m.id, [a, b, c, e], [d]);
    await question(m.id, [a, b, d, e], [c]);
    await question(m.id, [a, c, d], [b]); // e does not answer
    await question(m.id, [b, c, d, e], [a], 5);
    // a: 30 points, streaks 0 / 3. b: 25, 1 / 2. c: 25, 2 / 2. d: 25, 3 / 3. e: 25, 3 / 3 (b to e: 3 correct, reached with the last).
    const path = `/api/leaderboards/matches/${m.id}`;
    const byPoints = await read(path);
    expect(byPoints.rank_by).toBe('points');
    expect(byPoints.rows[0]!.user_id).toBe(a.id);
    const ids = (...us: TestUser[]) => us.map((u) => u.id);
    const byId = (...us: TestUser[]) => ids(...us).sort();
    const [firstDE, secondDE] = byId(d, e);
    const [firstBC, secondBC] = byId(b, c);

    const current = await read(path, { rank_by: 'current_streak' });
    expect(current).toMatchObject({ rank_by: 'current_streak', player_count: 5 });
    expect(current.rows.map((r) => r.user_id)).toEqual([firstDE, secondDE, c.id, b.id, a.id]);
    expect(current.rows.map((r) => r.current_streak)).toEqual([3, 3, 2, 1, 0]);
    expect(current.rows.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5]);
    expect(current.rows.map((r) => r.user_id)).toEqual(streakOrder(byPoints.rows, 'current_streak'));

    const best = await read(path, { rank_by: 'best_streak' });
    expect(best.rank_by).toBe('best_streak');
    // a's 3 ranks ahead of d's and e's 3 on points; b's and c's 2 tie all the way to the user id.
    expect(best.rows.map((r) => r.user_id)).toEqual([a.id, firstDE, secondDE, firstBC, secondBC]);
    expect(best.rows.map((r) => r.best_streak)).toEqual([3, 3, 3, 2, 2]);
    expect(best.rows.map((r) => r.user_id)).toEqual(streakOrder(byPoints.rows, 'best_streak'));

    // A page further down, and each player's own row where the board ranks it.
    const page = await read(path, { rank_by: 'current_streak', offset: 1, limit: 2 });
    expect(page.rows.map((r) => [r.rank, r.user_id])).toEqual([
      [2, secondDE],
      [3, c.id],
    ]);
    for (const by of ['current_streak', 'best_streak'] as const) {
      const board = by === 'current_streak' ? current : best;
      for (const u of [a, b, c, d, e]) {
        const mine = await read(path, { rank_by: by, limit: 1 }, u.token);
        expect(mine.me, `${by} ${u.id}`).toEqual(board.rows.find((r) => r.user_id === u.id));
      }
    }
    // The whole game's board ranks these players alike (their only answers), among everyone else's.
    const overall = await read('/api/leaderboards/overall', { rank_by: 'current_streak' });
    expect(only(overall.rows, [a, b, c, d, e])).toEqual([firstDE, secondDE, c.id, b.id, a.id]);
    expect(overall.rows.map((r) => r.rank)).toEqual(overall.rows.map((_r, i) => i + 1));
  });

  it("count each board's own answers: a league's board its league's, a period's board that period's", async () => {
    const wc = await liveMatch('wc');
    const mls = await liveMatch('mls');
    const [p, r] = (await players(2, [wc.id, mls.id])) as [TestUser, TestUser];
    // Two days ago (UTC, the players' zone): p right twice on wc, r wrong twice.
    const past = new Date(Date.now() - 2 * 86_400_000);
    for (let i = 0; i < 2; i++) {
      const q = await question(wc.id, [p], [r], 10, false);
      const db = app.services.database.db;
      await db.execute(sql`update question_answers set scored_at = ${past.toISOString()}::timestamptz where question_issuance_id = ${q.id}::uuid`);
      await db.execute(sql`update leaderboard_settlements set scored_at = ${past.toISOString()}::timestamptz where question_issuance_id = ${q.id}::uuid`);
      await app.services.leaderboards.drain();
    }
    // Today: p wrong on mls, right on wc; r right on both.
    await question(mls.id, [r], [p]);
    await question(wc.id, [p, r], []);
    const mine = async (path: string, u: TestUser, query: Record<string, string> = {}) => (await read(path, { ...query, limit: 1 }, u.token)).me!;
    const streaks = async (path: string, u: TestUser, query: Record<string, string> = {}) => {
      const me = await mine(path, u, query);
      return [me.current_streak, me.best_streak];
    };
    const overall = '/api/leaderboards/overall';
    const wcBoard = '/api/leaderboards/leagues/wc';
    const mlsBoard = '/api/leaderboards/leagues/mls';
    // The whole game, all time: p ✓ ✓ ✗ ✓ (best 2, now 1), r ✗ ✗ ✓ ✓.
    expect(await streaks(overall, p)).toEqual([1, 2]);
    expect(await streaks(overall, r)).toEqual([2, 2]);
    // wc alone: p never wrong there; mls alone: p wrong, r right.
    expect(await streaks(wcBoard, p)).toEqual([3, 3]);
    expect(await streaks(wcBoard, r)).toEqual([1, 1]);
    expect(await streaks(mlsBoard, p)).toEqual([0, 0]);
    expect(await streaks(mlsBoard, r)).toEqual([1, 1]);
    // Today's board: today's answers only. Two days ago: that day's only.
    expect(await streaks(overall, p, { period: 'day' })).toEqual([1, 1]);
    expect(await streaks(overall, r, { period: 'day' })).toEqual([2, 2]);
    const thatDay = past.toISOString().slice(0, 10);
    expect(await streaks(overall, p, { period: 'day', date: thatDay })).toEqual([2, 2]);
    expect(await streaks(overall, r, { period: 'day', date: thatDay })).toEqual([0, 0]);

    // And each board ranks by its own: p ahead on wc, r ahead on mls and on today's whole game.
    const order = async (path: string, by: RankBy, query: Record<string, string> = {}) => only((await read(path, { ...query, rank_by: by })).rows, [p, r]);
    expect(await order(wcBoard, 'current_streak')).toEqual([p.id, r.id]);
    expect(await order(mlsBoard, 'current_streak')).toEqual([r.id, p.id]);
    expect(await order(overall, 'current_streak')).toEqual([r.id, p.id]);
    expect(await order(overall, 'current_streak', { period: 'day' })).toEqual([r.id, p.id]);
    expect(await order(overall, 'best_streak', { period: 'day', date: thatDay })).toEqual([p.id, r.id]);
    for (const [path, query] of [
      [wcBoard, {}],
      [overall, { period: 'day' }],
      [overall, { period: 'week' }],
      [overall, { period: 'month' }],
    ] as const) {
      for (const by of ['current_streak', 'best_streak'] as const) {
        const board = await read(path, { ...query, rank_by: by });
        expect(
          board.rows.map((x) => x.user_id),
          `${path} ${JSON.stringify(query)} ${by}`,
        ).toEqual(streakOrder((await read(path, query)).rows, by));
        expect((await mine(path, p, { ...query, rank_by: by })).rank).toBe(board.rows.findIndex((x) => x.user_id === p.id) + 1);
      }
    }
  });

  it('leave hidden players off, as the points boards do, and rank the others without them', async () => {
    const m = await liveMatch();
    const [cheat, honest, other] = (await players(3, [m.id])) as [TestUser, TestUser, TestUser];
    await question(m.id, [cheat, honest], [other]);
    await question(m.id, [cheat], [honest, other]);
    await question(m.id, [cheat, other], [honest]);
    const path = `/api/leaderboards/matches/${m.id}`;
    expect((await read(path, { rank_by: 'current_streak' }, honest.token)).rows.map((r) => r.user_id)).toEqual([cheat.id, other.id, honest.id]);
    // Best: honest's 1 and other's 1 tie on points and correct answers; honest reached them first.
    expect((await read(path, { rank_by: 'best_streak' }, honest.token)).me!.rank).toBe(2);

    await app.request('PATCH', `/api/users/${cheat.id}`, { token: admin.token, body: { hidden_from_leaderboards: true } });
    for (const by of ['current_streak', 'best_streak'] as const) {
      const board = await read(path, { rank_by: by }, cheat.token);
      expect(board).toMatchObject({ player_count: 2, me: null });
      expect(board.rows.map((r) => r.user_id)).not.toContain(cheat.id);
      expect((await read('/api/leaderboards/overall', { rank_by: by })).rows.map((r) => r.user_id)).not.toContain(cheat.id);
    }
    // honest: best 1 (first question) vs other's 1 (the last); honest has 10 points and reached them first.
    expect((await read(path, { rank_by: 'best_streak' })).rows.map((r) => r.user_id)).toEqual([honest.id, other.id]);
    expect((await read(path, { rank_by: 'current_streak' }, honest.token)).me!.rank).toBe(2);
  });

  it("rank a private group's board by streak among its members", async () => {
    const m = await liveMatch();
    const [owner, x, y] = (await players(3, [m.id], true)) as [TestUser, TestUser, TestUser];
    const group = (await app.request('POST', '/api/player-groups', { token: owner.token, body: { name: 'Streakers' } })).body as {
      id: string;
      invite_code: string;
    };
    for (const u of [x, y])
      expect((await app.request('POST', '/api/player-groups/join', { token: u.token, body: { invite_code: group.invite_code } })).status).toBe(200);
    await question(m.id, [owner, x], [y], 30);
    await question(m.id, [y, x], [owner]);
    await question(m.id, [y], [owner, x]);
    // owner 30 points, streaks 0 / 1; x 40, 0 / 2; y 20, 2 / 2.
    const path = `/api/player-groups/${group.id}/leaderboard`;
    const byPoints = await read(path, {}, owner.token);
    expect(byPoints.rows.map((r) => r.user_id)).toEqual([x.id, owner.id, y.id]);
    const current = await read(path, { rank_by: 'current_streak' }, owner.token);
    expect(current.rank_by).toBe('current_streak');
    expect(current.rows.map((r) => [r.rank, r.user_id])).toEqual([
      [1, y.id],
      [2, x.id],
      [3, owner.id],
    ]);
    expect(current.me).toMatchObject({ rank: 3, user_id: owner.id });
    const best = await read(path, { rank_by: 'best_streak', scope: 'match', match_id: m.id }, owner.token);
    expect(best.rows.map((r) => r.user_id)).toEqual([x.id, y.id, owner.id]);
  });

  it('refuse an unknown ranking (422, the contract’s validation body) and keep the boards’ other rules', async () => {
    const m = await liveMatch();
    for (const path of ['/api/leaderboards/overall', '/api/leaderboards/leagues/wc', `/api/leaderboards/matches/${m.id}`]) {
      for (const rankBy of ['streak', 'POINTS', '']) {
        const res = await app.request('GET', path, { query: { rank_by: rankBy } });
        expect(res.status, `${path} ${rankBy}`).toBe(422);
        expect(res.headers.get('x-error-code')).toBe('request.invalid');
        expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['query', 'rank_by'] })]);
      }
    }
    const [u] = await players(1, [], true);
    const group = (await app.request('POST', '/api/player-groups', { token: u!.token, body: { name: 'Lone streak' } })).body as { id: string };
    const bad = await app.request('GET', `/api/player-groups/${group.id}/leaderboard`, { token: u!.token, query: { rank_by: 'longest' } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual([expect.objectContaining({ loc: ['query', 'rank_by'] })]);
    expectError(
      await app.request('GET', '/api/leaderboards/overall', { query: { rank_by: 'best_streak', date: '2026-11-20' } }),
      leaderboardErrors.dateWithoutPeriod,
    );
    // A board nobody scored on is empty whatever it is ranked by.
    const empty = await read(`/api/leaderboards/matches/${m.id}`, { rank_by: 'best_streak' }, u!.token);
    expect(empty).toMatchObject({ rank_by: 'best_streak', player_count: 0, rows: [], me: null });
  });
});

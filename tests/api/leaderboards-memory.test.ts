/**
 * The in-process match boards (leaderboards.memory.ts): a match board a
 * process reads is kept in memory and takes each settlement as soon as it is
 * committed, before the applier writes its rows. Whatever a read is served
 * from, its reply must be the one the SQL read gives once the applier has
 * caught up, byte for byte: through right, wrong, voided and revoked answers,
 * ties, a hidden and a deactivated player, a rename; in two processes (two
 * services); and for a board loaded while a settlement is half applied.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { applyAnswer, consistentOrder, idKeyOf, rankOrder } from '../../src/modules/leaderboards/leaderboards.memory.js';
import { createLeaderboardsService, type LeaderboardsService } from '../../src/modules/leaderboards/leaderboards.service.js';
import { leaderboardSettlements } from '../../src/modules/leaderboards/leaderboards.table.js';
import { users, type UserRow } from '../../src/modules/users/users.table.js';
import { liveMatchWithCrowd, playQuestion } from '../helpers/leaderboards.js';
import type { TestUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const { app, admin } = useTestApp();
const db = () => app.services.database.db;

/** A service of its own (another process's), with match boards in memory, trusted as if its bus listened. */
const memoryService = (trusted = () => true) => createLeaderboardsService({ db: db(), leagues: app.services.leagues, matchBoards: { trusted } });
/** The SQL read, nothing in memory. */
const sqlService = () => createLeaderboardsService({ db: db(), leagues: app.services.leagues });

const viewers = async (ids: string[]): Promise<(UserRow | null)[]> => [null, ...(await db().select().from(users)).filter((u) => ids.includes(u.id))];

/** Every viewer's reply (the page of 100, and one of 3 from the second row), as JSON text. */
async function replies(svc: LeaderboardsService, matchId: string, ids: string[]): Promise<string[]> {
  // The SQL read's own page cache holds names up to a second (the bus empties it in a process; these services hear no bus).
  if (!svc.matchBoards) svc.forgetPages();
  const out: string[] = [];
  for (const viewer of await viewers(ids)) {
    out.push(JSON.stringify(await svc.match(matchId, { offset: 0, limit: 100 }, viewer)));
    out.push(JSON.stringify(await svc.match(matchId, { offset: 1, limit: 3 }, viewer)));
  }
  const live = await svc.matchForDelivery({ matchId, userIds: ids, top: 5 });
  out.push(JSON.stringify(live ? { ...live, mine: [...live.mine.entries()].sort() } : null));
  return out;
}

/** The replies of a memory service, after its board is loaded: served from memory (checked), not the SQL fallback. */
async function fromMemory(svc: LeaderboardsService, matchId: string, ids: string[]): Promise<string[]> {
  await svc.match(matchId, { offset: 0, limit: 1 }, null);
  await svc.matchBoards!.loaded();
  const before = svc.matchBoards!.state();
  const out = await replies(svc, matchId, ids);
  const after = svc.matchBoards!.state();
  expect(after.memoryMisses).toBe(before.memoryMisses);
  expect(after.memoryReads).toBeGreaterThan(before.memoryReads);
  return out;
}

describe('match boards in memory', () => {
  it('serve, before the applier has written a settlement, the replies the SQL read gives once it has, in two processes', async () => {
    const { match, crowd, ids } = await liveMatchWithCrowd(app, 9);
    const one = memoryService();
    const two = memoryService();
    const ref = sqlService();

    /** A question settled and not applied: both memory services have it at once; the SQL read, once drained, agrees. */
    const step = async (answers: [TestUser, 'home' | 'away'][], outcome: 'home' | 'away' | 'voided', points = 10) => {
      await playQuestion(app, match.id, answers, outcome, { points, drain: false });
      const a = await fromMemory(one, match.id, ids);
      const b = await fromMemory(two, match.id, ids);
      await app.services.leaderboards.drain();
      const expected = await replies(ref, match.id, ids);
      expect(a).toEqual(expected);
      expect(b).toEqual(expected);
      // And after the drain, from memory still (nothing counted twice).
      expect(await fromMemory(one, match.id, ids)).toEqual(expected);
    };

    // Ties everywhere: one settlement, every right answer at the same time (ranked by user id).
    await step(
      crowd.map((u, i) => [u, i % 3 ? 'home' : 'away']),
      'home',
    );
    await step(
      crowd.slice(0, 6).map((u, i) => [u, i % 2 ? 'home' : 'away']),
      'away',
      20,
    );
    // Voided: answered moves, nothing else (streaks neither).
    await step(
      crowd.slice(2).map((u) => [u, 'home']),
      'voided',
    );
    // A right answer worth nothing: more correct answers, the same points.
    await step([[crowd[4]!, 'home']], 'home', 0);

    // A rename shows at once (names are read with each reply).
    const renamed = await app.request('PATCH', '/api/users/me', { token: crowd[1]!.token, body: { display_name: 'Renamed In Memory' } });
    expect(renamed.status).toBe(200);
    expect(await fromMemory(one, match.id, ids)).toEqual(await replies(ref, match.id, ids));

    // Hidden and deactivated players (the operator's change rebuilds their rows in its transaction; the bus announces it).
    for (const [who, body] of [
      [crowd[0]!, { hidden_from_leaderboards: true }],
      [crowd[3]!, { is_active: false }],
    ] as const) {
      expect((await app.request('PATCH', `/api/users/${who.id}`, { token: admin.token, body })).status).toBe(200);
      await Promise.all([one.matchBoards!.userChanged(who.id), two.matchBoards!.userChanged(who.id)]);
    }
    const expected = await replies(ref, match.id, ids);
    expect(await fromMemory(one, match.id, ids)).toEqual(expected);
    expect(await fromMemory(two, match.id, ids)).toEqual(expected);
    // What the hidden one answers meanwhile counts nowhere (the deactivated one's keys are revoked); the others' counts.
    await step(
      crowd.filter((_, i) => i !== 3).map((u) => [u, 'home']),
      'home',
    );
    // Back: everything they scored meanwhile counts again.
    await app.request('PATCH', `/api/users/${crowd[0]!.id}`, { token: admin.token, body: { hidden_from_leaderboards: false } });
    await app.request('PATCH', `/api/users/${crowd[3]!.id}`, { token: admin.token, body: { is_active: true } });
    for (const u of [crowd[0]!, crowd[3]!]) await Promise.all([one.matchBoards!.userChanged(u.id), two.matchBoards!.userChanged(u.id)]);
    const back = await replies(ref, match.id, ids);
    expect(JSON.parse(back[0]!).player_count).toBe(9);
    expect(await fromMemory(one, match.id, ids)).toEqual(back);
    expect(await fromMemory(two, match.id, ids)).toEqual(back);

    // A player hidden whose announcement has not arrived yet: a read showing them falls back to SQL (never a wrong rank).
    await app.request('PATCH', `/api/users/${crowd[5]!.id}`, { token: admin.token, body: { hidden_from_leaderboards: true } });
    const misses = one.matchBoards!.state().memoryMisses;
    expect(await replies(one, match.id, ids)).toEqual(await replies(ref, match.id, ids));
    expect(one.matchBoards!.state().memoryMisses).toBeGreaterThan(misses);
    await one.matchBoards!.userChanged(crowd[5]!.id);
    expect(await fromMemory(one, match.id, ids)).toEqual(await replies(ref, match.id, ids));

    // Not trusted (the bus not listening): every read is the SQL read, and the boards are dropped.
    let trusted = true;
    const three = memoryService(() => trusted);
    await fromMemory(three, match.id, ids);
    trusted = false;
    expect(await replies(three, match.id, ids)).toEqual(await replies(ref, match.id, ids));
    expect(three.matchBoards!.state().boards).toBe(0);
  });

  it('a board loaded while a settlement is half applied counts every answer once', async () => {
    const { match, crowd, ids } = await liveMatchWithCrowd(app, 10);
    const ref = sqlService();
    await playQuestion(
      app,
      match.id,
      crowd.map((u, i) => [u, i % 2 ? 'home' : 'away']),
      'home',
    );
    // The next two settle; the applier takes three answers of the first (its match phase stops at a cursor).
    await playQuestion(
      app,
      match.id,
      crowd.map((u, i) => [u, i % 3 ? 'home' : 'away']),
      'home',
      { drain: false, points: 20 },
    );
    await playQuestion(
      app,
      match.id,
      crowd.slice(3).map((u) => [u, 'away']),
      'home',
      { drain: false, points: 5 },
    );
    const chunk = await app.services.leaderboards.applyNext({ wait: true, chunkRows: 3 });
    expect(chunk).toMatchObject({ phase: 1, answers: 3, phaseDone: false });
    const [queued] = await db()
      .select()
      .from(leaderboardSettlements)
      .where(eq(leaderboardSettlements.questionIssuanceId, chunk && chunk !== 'busy' ? chunk.issuanceId : ''));
    expect(queued!.phase).toBe(1);
    expect(queued!.cursor).not.toBeNull();

    const mid = memoryService();
    const early = await fromMemory(mid, match.id, ids);
    // Another chunk meanwhile, then a process loading after it: the same.
    await app.services.leaderboards.applyNext({ wait: true, chunkRows: 3 });
    const later = memoryService();
    const late = await fromMemory(later, match.id, ids);
    await app.services.leaderboards.drain();
    const expected = await replies(ref, match.id, ids);
    expect(early).toEqual(expected);
    expect(late).toEqual(expected);
    expect(await fromMemory(mid, match.id, ids)).toEqual(expected);
  });

  it('boards loaded and read while the applier writes chunk after chunk end equal to the SQL read', async () => {
    const { match, crowd, ids } = await liveMatchWithCrowd(app, 12);
    for (const [points, outcome] of [
      [10, 'home'],
      [20, 'away'],
      [5, 'voided'],
    ] as const)
      await playQuestion(
        app,
        match.id,
        crowd.map((u, i) => [u, (i + points) % 3 ? 'home' : 'away']),
        outcome,
        { points, drain: false },
      );
    // Chunks of two answers; meanwhile, new processes load the board one after another and read it.
    const readers: LeaderboardsService[] = [];
    let applying = true;
    const drained = app.services.leaderboards.drain({ chunkRows: 2 }).finally(() => {
      applying = false;
    });
    while (applying) {
      const svc = memoryService();
      await svc.match(match.id, { offset: 0, limit: 100 }, null);
      await svc.matchBoards!.loaded();
      await replies(svc, match.id, ids);
      readers.push(svc);
    }
    await drained;
    expect(readers.length).toBeGreaterThan(1);
    const expected = await replies(sqlService(), match.id, ids);
    for (const svc of readers) expect(await fromMemory(svc, match.id, ids)).toEqual(expected);
  });

  it("in the application, its bus listening: settlements and users' changes reach the kept board through the bus", async () => {
    const lb = app.services.leaderboards;
    expect(app.services.liveBus.listening).toBe(true);
    const { match, crowd, ids } = await liveMatchWithCrowd(app, 5);
    const ref = sqlService();
    await playQuestion(
      app,
      match.id,
      crowd.map((u, i) => [u, i % 2 ? 'home' : 'away']),
      'home',
    );
    expect(await fromMemory(lb, match.id, ids)).toEqual(await replies(ref, match.id, ids));
    // Hidden through the API: the trigger announces it on the bus, and the kept board drops the row with no read at all.
    const kept = lb.matchBoards!.state().rows;
    await app.request('PATCH', `/api/users/${crowd[1]!.id}`, { token: admin.token, body: { hidden_from_leaderboards: true } });
    for (let i = 0; i < 300 && lb.matchBoards!.state().rows !== kept - 1; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(lb.matchBoards!.state().rows).toBe(kept - 1);
    const expected = await replies(ref, match.id, ids);
    expect(JSON.parse(expected[0]!).player_count).toBe(4);
    expect(await fromMemory(lb, match.id, ids)).toEqual(expected);
    // A settlement the applier has not taken: on the kept board at once, and the same once it has.
    await playQuestion(
      app,
      match.id,
      crowd.map((u) => [u, 'home']),
      'home',
      { drain: false },
    );
    const early = await fromMemory(lb, match.id, ids);
    await lb.drain();
    expect(early).toEqual(await replies(ref, match.id, ids));
  });

  it("settlements applied in an order the applier's positions contradict are found (the board is loaded again)", () => {
    const p = (seq: number, position: number | null) => ({ seq, position });
    // The applier's order: by position, then those without one by queue number.
    expect(consistentOrder([p(1, 1), p(3, 2), p(2, null), p(4, null)])).toBe(true);
    // Applied before one the applier positioned without it (it committed after the applier's look), or out of queue order.
    expect(consistentOrder([p(1, 1), p(2, null), p(3, 2)])).toBe(false);
    expect(consistentOrder([p(1, 1), p(4, null), p(3, null)])).toBe(false);
    expect(consistentOrder([p(1, 2), p(2, 1)])).toBe(false);
  });

  it('the rules of the SQL applier: streaks, reached_at, the ranking order', () => {
    const t = (s: number) => s * 1_000_000;
    let row = applyAnswer(undefined, { userId: 'a', points: 0, correct: 0 }, true, t(10));
    expect(row).toMatchObject({ answered: 1, currentStreak: 0, bestStreak: 0, reachedUs: t(10) });
    // Wrong answers while none is right: the earliest answer's time.
    row = applyAnswer(row, { userId: 'a', points: 0, correct: 0 }, true, t(5));
    expect(row.reachedUs).toBe(t(5));
    // The first right answer: its time, then the latest right one's.
    row = applyAnswer(row, { userId: 'a', points: 10, correct: 1 }, true, t(20));
    row = applyAnswer(row, { userId: 'a', points: 10, correct: 1 }, true, t(15));
    expect(row).toMatchObject({ points: 20, correct: 2, answered: 4, currentStreak: 2, bestStreak: 2, reachedUs: t(20) });
    // Voided: no streak moves; wrong (resolved): the current one ends, the best stays.
    row = applyAnswer(row, { userId: 'a', points: 0, correct: 0 }, false, t(30));
    expect(row).toMatchObject({ currentStreak: 2, bestStreak: 2, answered: 5, reachedUs: t(20) });
    row = applyAnswer(row, { userId: 'a', points: 0, correct: 0 }, true, t(31));
    expect(row).toMatchObject({ currentStreak: 0, bestStreak: 2 });
    // Ids: the first 48 bits compared as a number, the rest as text (b and a share their first 48 bits).
    const id = (c: string, head = '00000000-0000') => `${head}-4000-8000-00000000000${c}`;
    const mk = (c: string, points: number, correct: number, reachedUs: number, head?: string) => {
      const userId = id(c, head);
      return { userId, idKey: idKeyOf(userId), stamp: 0, answered: 1, currentStreak: 0, bestStreak: 0, points, correct, reachedUs };
    };
    const sorted = [mk('b', 10, 1, 2), mk('a', 10, 1, 2), mk('0', 10, 1, 2, 'ffffffff-ffff'), mk('c', 10, 2, 9), mk('d', 20, 0, 9), mk('e', 10, 1, 1)]
      .sort(rankOrder)
      .map((r) => r.userId.slice(-1));
    expect(sorted).toEqual(['d', 'c', 'e', 'a', 'b', '0']);
  });
});

/**
 * The in-process boards (leaderboards.memory.ts): a board a process reads (a
 * match's, a league's, the whole game's; all time or a period) is kept in
 * memory and takes each settlement as soon as it is committed, before the
 * applier writes its rows (private groups' boards, drawn from them, too).
 * Whatever a read is served from, its reply must be the one the SQL read
 * gives once the applier has caught up, byte for byte:
 * through right, wrong, voided and revoked answers, ties, players in zones on
 * both sides of the date line (a settlement on two days' boards at once), a
 * hidden and a deactivated player, a new zone, a rename; in two processes
 * (two services); and for a board loaded while a settlement is half applied.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { defaultMemoryRows, loadConfig } from '../../src/config.js';
import { describe, expect, it } from 'vitest';
import { consistentOrder, KeyIndex, MemoryBoard, NONE, UserZones } from '../../src/modules/leaderboards/leaderboards.memory.js';
import { ALL_TIME_START, boardRowsPage, findBoards, OVERALL_ID, userKeyOf, userZonesPage } from '../../src/modules/leaderboards/leaderboards.repository.js';
import { createLeaderboardsService, type LeaderboardsService } from '../../src/modules/leaderboards/leaderboards.service.js';
import { leaderboardSettlements } from '../../src/modules/leaderboards/leaderboards.table.js';
import type { MatchRow } from '../../src/modules/matches/matches.table.js';
import { users, type UserRow } from '../../src/modules/users/users.table.js';
import { createMatch, follow } from '../helpers/factories.js';
import { liveMatchWithCrowd, playQuestion } from '../helpers/leaderboards.js';
import type { TestUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const { app, admin } = useTestApp();
const db = () => app.services.database.db;

/** A service of its own (another process's), with boards in memory, trusted as if its bus listened. */
const memoryService = (trusted = () => true) => createLeaderboardsService({ db: db(), leagues: app.services.leagues, memoryBoards: { trusted } });
/** The SQL read, nothing in memory. */
const sqlService = () => createLeaderboardsService({ db: db(), leagues: app.services.leagues });

const viewers = async (ids: string[]): Promise<(UserRow | null)[]> => [null, ...(await db().select().from(users)).filter((u) => ids.includes(u.id))];

type Page = { offset: number; limit: number };
/** Every board a settlement of the match lands on, as a viewer reads it (the periods in the viewer's zone). */
const boardsOf = (svc: LeaderboardsService, match: Pick<MatchRow, 'id' | 'leagueId'>) => [
  (q: Page, v: UserRow | null) => svc.match(match.id, q, v),
  ...(['all_time', 'day', 'week', 'month'] as const).flatMap((period) => [
    (q: Page, v: UserRow | null) => svc.overall({ ...q, period }, v),
    (q: Page, v: UserRow | null) => svc.league(match.leagueId, { ...q, period }, v),
  ]),
];

/** Every viewer's reply on every board (the page of 100, and one of 3 from the second row), as JSON text. */
async function replies(svc: LeaderboardsService, match: Pick<MatchRow, 'id' | 'leagueId'>, ids: string[]): Promise<string[]> {
  // The SQL read's own page cache holds names up to a second (the bus empties it in a process; these services hear no bus).
  if (!svc.memoryBoards) svc.forgetPages();
  const out: string[] = [];
  for (const viewer of await viewers(ids))
    for (const read of boardsOf(svc, match)) {
      out.push(JSON.stringify(await read({ offset: 0, limit: 100 }, viewer)));
      out.push(JSON.stringify(await read({ offset: 1, limit: 3 }, viewer)));
    }
  const live = await svc.matchForDelivery({ matchId: match.id, userIds: ids, top: 5 });
  out.push(JSON.stringify(live ? { ...live, mine: [...live.mine.entries()].sort() } : null));
  // A private group of every other player (and an id with no row), on each scope, as each member in turn sees it.
  const members = [...ids.filter((_, i) => i % 2 === 0), '00000000-0000-4000-8000-000000000000'];
  for (const viewer of (await viewers(members)).filter((v) => v !== null))
    for (const [scope, period] of [
      ['overall', 'all_time'],
      ['overall', 'week'],
      ['league', 'day'],
      ['match', 'all_time'],
    ] as const)
      out.push(
        JSON.stringify(
          await svc.ofMembers({
            groupId: '00000000-0000-4000-8000-000000000001',
            scope,
            league: scope === 'league' ? match.leagueId : undefined,
            matchId: scope === 'match' ? match.id : undefined,
            query: { period },
            viewer,
            userIds: members,
            limit: 50,
          }),
        ),
      );
  return out;
}

/** The replies of a memory service, after its boards are loaded: served from memory (checked), not the SQL fallback. */
async function fromMemory(svc: LeaderboardsService, match: Pick<MatchRow, 'id' | 'leagueId'>, ids: string[]): Promise<string[]> {
  await replies(svc, match, ids);
  await svc.memoryBoards!.loaded();
  const before = svc.memoryBoards!.state();
  const out = await replies(svc, match, ids);
  const after = svc.memoryBoards!.state();
  expect(after.memoryMisses).toBe(before.memoryMisses);
  expect(after.memoryReads).toBeGreaterThan(before.memoryReads);
  return out;
}

/** Zones on both sides of the date line and UTC: at any hour, a settlement's day differs between two of them. */
const ZONES = ['Pacific/Kiritimati', 'Pacific/Pago_Pago', null] as const;

async function setZone(u: TestUser, zone: string | null) {
  const res = await app.request('PATCH', '/api/users/me', { token: u.token, body: { match_follow_timezone: zone } });
  expect(res.status).toBe(200);
}

/** A live match and its followers, in the zones of ZONES by turns. */
async function crowdInZones<N extends number>(size: N) {
  const made = await liveMatchWithCrowd(app, size);
  for (const [i, u] of (made.crowd as TestUser[]).entries()) if (ZONES[i % 3]) await setZone(u, ZONES[i % 3]!);
  return made;
}

describe('boards in memory', () => {
  it('serve, before the applier has written a settlement, the replies the SQL read gives once it has, in two processes', async () => {
    const { match, crowd, ids } = await crowdInZones(9);
    const one = memoryService();
    const two = memoryService();
    const ref = sqlService();

    /** A question settled and not applied: both memory services have it at once; the SQL read, once drained, agrees. */
    const step = async (answers: [TestUser, 'home' | 'away'][], outcome: 'home' | 'away' | 'voided', points = 10) => {
      await playQuestion(app, match.id, answers, outcome, { points, drain: false });
      const a = await fromMemory(one, match, ids);
      const b = await fromMemory(two, match, ids);
      await app.services.leaderboards.drain();
      const expected = await replies(ref, match, ids);
      expect(a).toEqual(expected);
      expect(b).toEqual(expected);
      // And after the drain, from memory still (nothing counted twice).
      expect(await fromMemory(one, match, ids)).toEqual(expected);
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
    expect(await fromMemory(one, match, ids)).toEqual(await replies(ref, match, ids));

    // Hidden and deactivated players (the operator's change rebuilds their rows in its transaction; the bus announces it).
    for (const [who, body] of [
      [crowd[0]!, { hidden_from_leaderboards: true }],
      [crowd[3]!, { is_active: false }],
    ] as const) {
      expect((await app.request('PATCH', `/api/users/${who.id}`, { token: admin.token, body })).status).toBe(200);
      await Promise.all([one.memoryBoards!.userChanged(who.id), two.memoryBoards!.userChanged(who.id)]);
    }
    const expected = await replies(ref, match, ids);
    expect(await fromMemory(one, match, ids)).toEqual(expected);
    expect(await fromMemory(two, match, ids)).toEqual(expected);
    // What the hidden one answers meanwhile counts nowhere (the deactivated one's keys are revoked); the others' counts.
    await step(
      crowd.filter((_, i) => i !== 3).map((u) => [u, 'home']),
      'home',
    );
    // Back: everything they scored meanwhile counts again.
    await app.request('PATCH', `/api/users/${crowd[0]!.id}`, { token: admin.token, body: { hidden_from_leaderboards: false } });
    await app.request('PATCH', `/api/users/${crowd[3]!.id}`, { token: admin.token, body: { is_active: true } });
    for (const u of [crowd[0]!, crowd[3]!]) await Promise.all([one.memoryBoards!.userChanged(u.id), two.memoryBoards!.userChanged(u.id)]);
    const back = await replies(ref, match, ids);
    expect(JSON.parse(back[0]!).player_count).toBe(9);
    expect(await fromMemory(one, match, ids)).toEqual(back);
    expect(await fromMemory(two, match, ids)).toEqual(back);

    // A new zone (the change rebuilds the player's rows; the announcement recomputes them on every kept board, periods too).
    for (const [who, zone] of [
      [crowd[2]!, 'Pacific/Kiritimati'],
      [crowd[0]!, null],
    ] as const) {
      await setZone(who, zone);
      await Promise.all([one.memoryBoards!.userChanged(who.id), two.memoryBoards!.userChanged(who.id)]);
    }
    const moved = await replies(ref, match, ids);
    expect(await fromMemory(one, match, ids)).toEqual(moved);
    expect(await fromMemory(two, match, ids)).toEqual(moved);
    await step(
      crowd.filter((_, i) => i !== 3).map((u, i) => [u, i % 2 ? 'home' : 'away']),
      'away',
      7,
    );

    // A player hidden whose announcement has not arrived yet: a read showing them falls back to SQL (never a wrong rank).
    await app.request('PATCH', `/api/users/${crowd[5]!.id}`, { token: admin.token, body: { hidden_from_leaderboards: true } });
    const misses = one.memoryBoards!.state().memoryMisses;
    expect(await replies(one, match, ids)).toEqual(await replies(ref, match, ids));
    expect(one.memoryBoards!.state().memoryMisses).toBeGreaterThan(misses);
    await one.memoryBoards!.userChanged(crowd[5]!.id);
    expect(await fromMemory(one, match, ids)).toEqual(await replies(ref, match, ids));

    // Not trusted (the bus not listening): every read is the SQL read, and the boards are dropped.
    let trusted = true;
    const three = memoryService(() => trusted);
    await fromMemory(three, match, ids);
    trusted = false;
    expect(await replies(three, match, ids)).toEqual(await replies(ref, match, ids));
    expect(three.memoryBoards!.state().boards).toBe(0);
  }, 120_000);

  it('a board loaded while a settlement is half applied counts every answer once', async () => {
    const { match, crowd, ids } = await crowdInZones(10);
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
    const early = await fromMemory(mid, match, ids);
    // Another chunk meanwhile, then a process loading after it: the same.
    await app.services.leaderboards.applyNext({ wait: true, chunkRows: 3 });
    const later = memoryService();
    const late = await fromMemory(later, match, ids);
    await app.services.leaderboards.drain();
    const expected = await replies(ref, match, ids);
    expect(early).toEqual(expected);
    expect(late).toEqual(expected);
    expect(await fromMemory(mid, match, ids)).toEqual(expected);
  }, 120_000);

  it("a settlement lands on its own match's and league's boards only, and on the whole game's", async () => {
    const { match, crowd, ids } = await crowdInZones(4);
    const other = await createMatch(app, { league: 'nhl', status: 'live', scheduled: new Date(Date.now() - 30 * 60_000) });
    for (const u of crowd) await follow(app, u.id, other.id);
    const ref = sqlService();
    const one = memoryService();
    await playQuestion(
      app,
      match.id,
      crowd.map((u, i) => [u, i % 2 ? 'home' : 'away']),
      'home',
    );
    await fromMemory(one, match, ids);
    await fromMemory(one, other, ids);
    await playQuestion(
      app,
      other.id,
      crowd.map((u) => [u, 'away']),
      'away',
      { drain: false, points: 30 },
    );
    const [a, b] = [await fromMemory(one, match, ids), await fromMemory(one, other, ids)];
    await app.services.leaderboards.drain();
    expect(a).toEqual(await replies(ref, match, ids));
    expect(b).toEqual(await replies(ref, other, ids));
  }, 120_000);

  it("users' changes while settlements are half applied (each board's phase, before and after the cursor) count every answer once", async () => {
    const { match, crowd, ids } = await crowdInZones(6);
    const ref = sqlService();
    const one = memoryService();
    await playQuestion(
      app,
      match.id,
      crowd.map((u, i) => [u, i % 2 ? 'home' : 'away']),
      'home',
    );
    await fromMemory(one, match, ids);
    const lb = app.services.leaderboards;
    // Stop the applier with the first of two settlements in the middle of its all-time phase, then of its periods' phase
    // (two answers a chunk: players on both sides of the cursor); meanwhile every player gets a new zone and one is hidden
    // (then shown again), each change announced. Every board then has each answer once: the SQL read's once drained.
    for (const [stop, target, hidden] of [
      [0, 2, true],
      [1, 3, false],
    ] as const) {
      await playQuestion(
        app,
        match.id,
        crowd.map((u, i) => [u, (i + stop) % 3 ? 'home' : 'away']),
        'home',
        { drain: false, points: 20 },
      );
      await playQuestion(
        app,
        match.id,
        crowd.slice(2).map((u) => [u, 'away']),
        'away',
        { drain: false, points: 5 },
      );
      for (;;) {
        const chunk = await lb.applyNext({ wait: true, chunkRows: target === 2 ? 4 : 12 });
        if (!chunk || chunk === 'busy') throw new Error('the applier ran out of work before the stop');
        if (chunk.phase === target && !chunk.phaseDone) break;
      }
      const kept = one.memoryBoards!.state();
      for (const [i, u] of crowd.entries()) {
        await setZone(u, ZONES[(i + stop + 1) % 3]!);
        await one.memoryBoards!.userChanged(u.id);
      }
      const res = await app.request('PATCH', `/api/users/${crowd[4]!.id}`, { token: admin.token, body: { hidden_from_leaderboards: hidden } });
      expect(res.status).toBe(200);
      await one.memoryBoards!.userChanged(crowd[4]!.id);
      const mid = await fromMemory(one, match, ids);
      // Recomputed in place: no board dropped and loaded again (a fresh load would hide a wrong recompute).
      expect(one.memoryBoards!.state()).toMatchObject({ loads: kept.loads, drops: kept.drops });
      await lb.drain();
      expect(mid).toEqual(await replies(ref, match, ids));
    }
  }, 120_000);

  it('boards loaded and read while the applier writes chunk after chunk end equal to the SQL read', async () => {
    const { match, crowd, ids } = await crowdInZones(12);
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
    // One answer a chunk (about 110 chunks); every 20 chunks a new process starts loading the boards (each read starts
    // its board's load, and reads PostgreSQL meanwhile), its loads racing the chunks that follow.
    const readers: LeaderboardsService[] = [];
    const loads: Promise<void>[] = [];
    for (let n = 0; ; n++) {
      const chunk = await app.services.leaderboards.applyNext({ wait: true, chunkRows: 1 });
      if (!chunk) break;
      if (n % 20 === 0) {
        const svc = memoryService();
        readers.push(svc);
        loads.push(replies(svc, match, ids).then(() => svc.memoryBoards!.loaded()));
      }
    }
    await Promise.all(loads);
    expect(readers.length).toBeGreaterThan(4);
    const expected = await replies(sqlService(), match, ids);
    for (const svc of readers) expect(await fromMemory(svc, match, ids)).toEqual(expected);
  }, 120_000);

  it("in the application, its bus listening: settlements and users' changes reach the kept board through the bus", async () => {
    const lb = app.services.leaderboards;
    expect(app.services.liveBus.listening).toBe(true);
    const { match, crowd, ids } = await crowdInZones(5);
    const ref = sqlService();
    await playQuestion(
      app,
      match.id,
      crowd.map((u, i) => [u, i % 2 ? 'home' : 'away']),
      'home',
    );
    expect(await fromMemory(lb, match, ids)).toEqual(await replies(ref, match, ids));
    // Hidden through the API: the trigger announces it on the bus, and the kept board drops the row with no read at all.
    const kept = lb.memoryBoards!.state().rows;
    await app.request('PATCH', `/api/users/${crowd[1]!.id}`, { token: admin.token, body: { hidden_from_leaderboards: true } });
    // Their row on each of the nine boards they are on: the match's, and the league's and the whole game's, all time and their periods.
    for (let i = 0; i < 300 && lb.memoryBoards!.state().rows !== kept - 9; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(lb.memoryBoards!.state().rows).toBe(kept - 9);
    const expected = await replies(ref, match, ids);
    expect(JSON.parse(expected[0]!).player_count).toBe(4);
    expect(await fromMemory(lb, match, ids)).toEqual(expected);
    // A settlement the applier has not taken: on the kept board at once, and the same once it has.
    await playQuestion(
      app,
      match.id,
      crowd.map((u) => [u, 'home']),
      'home',
      { drain: false },
    );
    const early = await fromMemory(lb, match, ids);
    await lb.drain();
    expect(early).toEqual(await replies(ref, match, ids));
  }, 120_000);

  it('are bounded by LEADERBOARD_MEMORY_BOARDS and LEADERBOARD_MEMORY_ROWS, by default within 40% of the heap', () => {
    expect(defaultMemoryRows(4 * 2 ** 30)).toBe(4_000_000);
    // A smaller heap (a container, --max-old-space-size): 40% of it at 110 bytes a row.
    expect(defaultMemoryRows(2 ** 30)).toBe(Math.floor((2 ** 30 * 0.4) / 110));
    expect(defaultMemoryRows(256 * 2 ** 20)).toBeLessThan(1_000_000);
    expect(loadConfig({ APP_ENV: 'test' }).engine).toMatchObject({ leaderboardMemoryBoards: 64, leaderboardMemoryRows: defaultMemoryRows() });
    expect(loadConfig({ APP_ENV: 'test', LEADERBOARD_MEMORY_BOARDS: '0', LEADERBOARD_MEMORY_ROWS: '1000' }).engine).toMatchObject({
      leaderboardMemoryBoards: 0,
      leaderboardMemoryRows: 1000,
    });
    expect(() => loadConfig({ APP_ENV: 'test', LEADERBOARD_MEMORY_ROWS: '0' })).toThrow(/LEADERBOARD_MEMORY_ROWS/);
  });

  it('keep at most their bounds of boards and rows, the least recently read first out', async () => {
    const { match, crowd } = await crowdInZones(3);
    await playQuestion(
      app,
      match.id,
      crowd.map((u) => [u, 'home']),
      'home',
    );
    // Two boards at most: reading a third drops the one read least recently.
    const two = createLeaderboardsService({ db: db(), leagues: app.services.leagues, memoryBoards: { trusted: () => true, maxBoards: 2 } });
    for (const period of ['all_time', 'week', 'month'] as const) {
      await two.overall({ period, offset: 0, limit: 10 }, null);
      await two.memoryBoards!.loaded();
    }
    expect(two.memoryBoards!.state()).toMatchObject({ boards: 2, loads: 3 });
    const misses = two.memoryBoards!.state().memoryMisses;
    await two.overall({ period: 'month', offset: 0, limit: 10 }, null);
    expect(two.memoryBoards!.state().memoryMisses).toBe(misses);
    await two.overall({ period: 'all_time', offset: 0, limit: 10 }, null);
    expect(two.memoryBoards!.state().memoryMisses).toBe(misses + 1);
    // Rows: a board larger than the bound is never kept (its reads stay the SQL read, and right).
    const tiny = createLeaderboardsService({ db: db(), leagues: app.services.leagues, memoryBoards: { trusted: () => true, maxRows: 2 } });
    await tiny.match(match.id, { offset: 0, limit: 10 }, null);
    await tiny.memoryBoards!.loaded();
    expect(tiny.memoryBoards!.state()).toMatchObject({ boards: 0, rows: 0 });
    expect(JSON.stringify(await tiny.match(match.id, { offset: 0, limit: 10 }, null))).toEqual(
      JSON.stringify(await sqlService().match(match.id, { offset: 0, limit: 10 }, null)),
    );
  });

  it("a board's rows read a page at a time join up in rank order, ties split across the pages' ends", async () => {
    const { match, crowd } = await crowdInZones(9);
    // Ties on points, on correct answers and on reached_at (one settlement: one time), broken by the user id.
    await playQuestion(
      app,
      match.id,
      crowd.map((u, i) => [u, i % 3 ? 'home' : 'away']),
      'home',
    );
    await playQuestion(
      app,
      match.id,
      crowd.slice(0, 4).map((u) => [u, 'home']),
      'home',
      { points: 0 },
    );
    const [board] = await findBoards({ db: db(), keys: [{ scope: 'match', scopeId: match.id, period: 'all_time', periodStart: ALL_TIME_START }] });
    const all = await boardRowsPage({ db: db(), boardId: board!.id, after: null, limit: 1000 });
    expect(all).toHaveLength(9);
    // In the order a kept board ranks them (its load takes the pages as they come, checking that order).
    expect(new MemoryBoard({ scope: 'overall', scopeId: OVERALL_ID, period: 'all_time', periodStart: ALL_TIME_START }, new KeyIndex()).append(all)).toBe(true);
    for (const limit of [1, 2, 4]) {
      const paged: typeof all = [];
      for (let after = null; ;) {
        const page = await boardRowsPage({ db: db(), boardId: board!.id, after, limit });
        paged.push(...page);
        if (page.length < limit) break;
        after = page[page.length - 1]!;
      }
      expect(paged).toEqual(all);
    }
    // The users' zones, a page at a time too (every user with a zone once, those without none).
    const whole = await userZonesPage({ db: db(), after: null, limit: 100_000 });
    expect(whole.done).toBe(true);
    expect(whole.zones.length).toBeGreaterThanOrEqual(6);
    for (const limit of [1, 2, 3]) {
      const zones: [string, string][] = [];
      for (let after: string | null = null; ;) {
        const page = await userZonesPage({ db: db(), after, limit });
        zones.push(...page.zones);
        if (page.done) break;
        after = page.last;
      }
      expect(zones).toEqual(whole.zones);
    }
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
    const key = { scope: 'overall', scopeId: OVERALL_ID, period: 'all_time', periodStart: ALL_TIME_START } as const;
    const board = new MemoryBoard(key, new KeyIndex());
    const userId = randomUUID();
    const steps: { points: number; correct: number; resolved: boolean; atUs: number }[] = [];
    /** One settlement's answer of the player, on the board; their row after it. */
    const answer = (points: number, correct: number, resolved: boolean, atUs: number) => {
      steps.push({ points, correct, resolved, atUs });
      board.apply({ resolved, scoredUs: atUs }, [{ userId, ...userKeyOf(userId), points, correct }]);
      return board.rowAt(board.find(userKeyOf(userId)));
    };
    let row = answer(0, 0, true, t(10));
    expect(row).toMatchObject({ userId, answered: 1, currentStreak: 0, bestStreak: 0, reachedUs: t(10) });
    // Wrong answers while none is right: the earliest answer's time.
    row = answer(0, 0, true, t(5));
    expect(row.reachedUs).toBe(t(5));
    // The first right answer: its time, then the latest right one's.
    answer(10, 1, true, t(20));
    row = answer(10, 1, true, t(15));
    expect(row).toMatchObject({ points: 20, correct: 2, answered: 4, currentStreak: 2, bestStreak: 2, reachedUs: t(20) });
    // Voided: no streak moves; wrong (resolved): the current one ends, the best stays.
    row = answer(0, 0, false, t(30));
    expect(row).toMatchObject({ currentStreak: 2, bestStreak: 2, answered: 5, reachedUs: t(20) });
    row = answer(0, 0, true, t(31));
    expect(row).toMatchObject({ currentStreak: 0, bestStreak: 2 });
    // A row recomputed from the same answers (a user's change) is the same row, from none or from a row part of the way.
    const again = new MemoryBoard(key, new KeyIndex());
    again.recomputed(userKeyOf(userId), undefined, steps);
    expect(again.rowAt(again.find(userKeyOf(userId)))).toEqual(row);
    const midway = new MemoryBoard(key, new KeyIndex());
    midway.recomputed(userKeyOf(userId), undefined, steps.slice(0, 3));
    const base = midway.rowAt(midway.find(userKeyOf(userId)));
    midway.recomputed(userKeyOf(userId), base, steps.slice(3));
    expect(midway.rowAt(midway.find(userKeyOf(userId)))).toEqual(row);
    expect(midway.size).toBe(1);
    // Not counting any more (no row, no answers): gone.
    midway.recomputed(userKeyOf(userId), undefined, []);
    expect([midway.size, midway.find(userKeyOf(userId)), midway.sorted.length]).toEqual([0, NONE, 0]);

    // The ranking: points desc, correct desc, reached_at, then the ids as their key's three numbers, in the order of their
    // text (b and a share their first 48 bits). Rows given out of order are found so, and ranked.
    const id = (c: string, head = '00000000-0000') => `${head}-4000-8000-00000000000${c}`;
    const mk = (userId: string, points = 10, correct = 1, reachedUs = 2) => ({
      userId,
      ...userKeyOf(userId),
      answered: 1,
      currentStreak: 0,
      bestStreak: 0,
      points,
      correct,
      reachedUs,
    });
    const ranked = (rows: ReturnType<typeof mk>[]) => {
      const b = new MemoryBoard(key, new KeyIndex());
      if (!b.append(rows)) b.resort();
      return [...b.sorted].map((i) => b.rowAt(i).userId);
    };
    const sorted = ranked([mk(id('b')), mk(id('a')), mk(id('0', 'ffffffff-ffff')), mk(id('c'), 10, 2, 9), mk(id('d'), 20, 0, 9), mk(id('e'), 10, 1, 1)]);
    expect(sorted.map((u) => u.slice(-1))).toEqual(['d', 'c', 'e', 'a', 'b', '0']);
    // Equal otherwise, rows order as their ids' text, whichever of the three parts tells them apart; written out again as given.
    const ids = [
      ...Array.from({ length: 300 }, () => randomUUID()),
      '12345678-9abc-4def-8123-456789abcdef',
      '12345678-9abc-4def-8123-456789abcdee',
      '12345678-9abc-4dee-8123-456789abcdef',
      '12345678-9abc-3def-8123-456789abcdef',
      '12345678-9abd-4def-8123-456789abcdef',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
      '00000000-0000-0000-0000-000000000000',
    ];
    expect(ranked(ids.map((u) => mk(u)))).toEqual([...ids].sort());
    // The index: each id at its own row, found by its key only; ids sharing a chain (the same low bits) stay apart.
    const index = new KeyIndex();
    index.reserve(ids.length);
    const rows = ids.map((u) => index.add(userKeyOf(u)));
    expect(new Set(rows).size).toBe(ids.length);
    expect(index.size).toBe(ids.length);
    for (const [n, u] of ids.entries()) {
      expect(index.find(userKeyOf(u))).toBe(rows[n]);
      expect(index.userIdAt(rows[n]!)).toBe(u);
    }
    expect(index.find(userKeyOf('12345678-9abc-4def-8123-456789abcded'))).toBe(NONE);
    // 300 and 304 differ in their first 48 bits only: one chain.
    index.remove(index.find(userKeyOf(ids[304]!)));
    expect(index.find(userKeyOf(ids[304]!))).toBe(NONE);
    expect(index.find(userKeyOf(ids[300]!))).toBe(rows[300]);
    // Grown past its room, every id still found; a removed row's number reused.
    index.reserve(5000);
    for (const [n, u] of ids.entries()) expect(index.find(userKeyOf(u))).toBe(n === 304 ? NONE : rows[n]);
    index.reserve(1);
    expect(index.add(userKeyOf(ids[304]!))).toBe(rows[304]);
    // The users' zones: found, replaced, deleted, past their first room (1,024) and with rooms reused.
    const zones = new UserZones();
    const many = Array.from({ length: 3000 }, () => randomUUID());
    for (const [i, u] of many.entries()) zones.set(userKeyOf(u), i % 2 ? 'Asia/Tokyo' : 'Europe/Berlin');
    for (const u of many.slice(0, 1000)) zones.delete(userKeyOf(u));
    for (const u of many.slice(0, 500)) zones.set(userKeyOf(u), 'Pacific/Kiritimati');
    zones.set(userKeyOf(many[2999]!), 'America/New_York');
    for (const [i, u] of many.entries())
      expect(zones.get(userKeyOf(u))).toBe(
        i < 500 ? 'Pacific/Kiritimati' : i < 1000 ? undefined : i === 2999 ? 'America/New_York' : i % 2 ? 'Asia/Tokyo' : 'Europe/Berlin',
      );
    expect(zones.get(userKeyOf(randomUUID()))).toBeUndefined();
  });
});

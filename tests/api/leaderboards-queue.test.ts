/**
 * The leaderboards take settlements after their commit: the settling
 * transaction queues one row (`leaderboard_settlements`), and the applier
 * writes it to the boards in chunks, each in its own transaction with the
 * queue's cursor. These tests hold the applier to its promises: after the
 * queue drains the boards equal a rebuild from the answers (the oracle) and
 * the points endpoints, whatever failed in between (a chunk that throws, a
 * statement that fails, an applier that stops between chunks), whatever
 * changed in between (a user hidden, a new time zone), and in settlement
 * order (streaks).
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rebuildAll } from '../../src/modules/leaderboards/leaderboards.applier.repository.js';
import { leaderboardPointCounts, leaderboardScores, leaderboardSettlements } from '../../src/modules/leaderboards/leaderboards.table.js';
import type { QuestionIssuanceRow } from '../../src/modules/issuances/issuances.table.js';
import { createEngineWorker } from '../../src/engine/start-worker.js';
import { scrape } from '../../src/observability/metrics.js';
import { insertIssuance } from '../helpers/engine-rows.js';
import { waitFor } from '../helpers/engine.js';
import { createMatch, follow } from '../helpers/factories.js';
import { loadConfig } from '../../src/config.js';
import { registerUser, startTestApp, type TestUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const { app, admin } = useTestApp();
const db = () => app.services.database.db;
const lb = () => app.services.leaderboards;
const inMinutes = (m: number) => new Date(Date.now() + m * 60_000);

async function liveMatch(values: Parameters<typeof createMatch>[1] = {}) {
  return createMatch(app, { status: 'live', scheduled: inMinutes(-30), ...values });
}

async function players(n: number, matchId: string): Promise<TestUser[]> {
  const out: TestUser[] = [];
  for (let i = 0; i < n; i++) {
    const u = await registerUser(app);
    await follow(app, u.id, matchId);
    out.push(u);
  }
  return out;
}

/** An open question every player answers (`choose` picks each one's answer). */
async function asked(matchId: string, crowd: TestUser[], choose: (i: number) => 'home' | 'away', points = 10): Promise<QuestionIssuanceRow> {
  const q = await insertIssuance(app, { matchId, status: 'open', closesAt: inMinutes(2), points });
  for (const [i, u] of crowd.entries()) {
    const res = await app.request('PUT', '/api/question-answers', {
      token: u.token,
      body: { question_issuance_id: q.id, selected_answer_identifier: choose(i) },
    });
    expect(res.status).toBe(201);
  }
  return q;
}

/** Settles as the engine does (scoring and the queue row in one transaction); the boards are not touched yet. */
async function settle(q: QuestionIssuanceRow, outcome: 'home' | 'away' | 'voided') {
  const row = await app.services.engine.store.settleIssuance({
    id: q.id,
    status: outcome === 'voided' ? 'voided' : 'resolved',
    correct: outcome === 'voided' ? null : outcome,
    resolvedSeq: null,
    resolutionEventId: null,
  });
  expect(row?.status).toBe(outcome === 'voided' ? 'voided' : 'resolved');
}

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

/** The oracle: the boards as maintained equal a rebuild of every board from the answers (which the rebuild then leaves in place). */
async function expectExact() {
  const maintained = await snapshot();
  await db().transaction((tx) => rebuildAll({ tx }));
  expect(await snapshot()).toEqual(maintained);
  return maintained;
}

/** Each player's points, correct answers and answered count as the points endpoint says them equal their row on the whole game's board. */
async function expectPointsAgree(crowd: TestUser[]) {
  for (const u of crowd) {
    const points = (await app.request('GET', `/api/users/${u.id}/points`, { token: admin.token })).body.all_time;
    const me = (await app.request('GET', '/api/leaderboards/overall', { token: u.token })).body.me;
    expect(me, u.username).toMatchObject({ points: points.points, correct_count: points.correct_count });
  }
}

/** How many phases of settlements this process's appliers have finished, by phase (the lag histogram's counts). */
async function lagCounts(): Promise<Record<string, number>> {
  const { body } = await scrape();
  const out: Record<string, number> = {};
  for (const m of body.matchAll(/^qp_leaderboard_apply_lag_seconds_count\{phase="(\w+)"\} (\d+)$/gm)) out[m[1]!] = Number(m[2]);
  return out;
}

const queued = () => db().select().from(leaderboardSettlements).orderBy(leaderboardSettlements.seq);
const pending = async () => (await queued()).filter((r) => r.phase < 4);

describe('the settling transaction', () => {
  it('queues the settlement and leaves the boards to the applier; test matches and unanswered questions queue nothing', async () => {
    const m = await liveMatch();
    const crowd = await players(2, m.id);
    const q = await asked(m.id, crowd, () => 'home');
    await settle(q, 'home');
    const [row] = (await queued()).filter((r) => r.questionIssuanceId === q.id);
    expect(row).toMatchObject({ matchId: m.id, resolved: true, phase: 1, cursor: null, position: null, appliedAt: null });
    // Not on the board before the applier ran; on it after.
    expect((await app.request('GET', `/api/leaderboards/matches/${m.id}`)).body.player_count).toBe(0);
    const chunks: { phase: number; answers: number }[] = [];
    const lagsBefore = await lagCounts();
    await lb().drain({ onChunk: (c) => chunks.push({ phase: c.phase, answers: c.answers }) });
    // Each phase's lag (from the settlement's commit) goes to the metrics once.
    const lags = await lagCounts();
    for (const phase of ['match', 'all_time', 'periods']) expect(lags[phase], phase).toBe((lagsBefore[phase] ?? 0) + 1);
    expect(chunks).toEqual([
      { phase: 1, answers: 2 },
      { phase: 2, answers: 2 },
      { phase: 3, answers: 2 },
    ]);
    expect((await app.request('GET', `/api/leaderboards/matches/${m.id}`)).body.player_count).toBe(2);
    const [done] = (await queued()).filter((r) => r.questionIssuanceId === q.id);
    expect(done).toMatchObject({ phase: 4, cursor: null });
    expect(done!.appliedAt).toBeInstanceOf(Date);
    expect(done!.position).toBeGreaterThan(0);

    const test = await liveMatch({ isTest: true });
    const [t] = await players(1, test.id);
    await settle(await asked(test.id, [t!], () => 'home'), 'home');
    await settle(await asked(m.id, [], () => 'home'), 'voided');
    expect(await pending()).toEqual([]);
    expect(await lb().queueState()).toMatchObject({ pending: 0 });
    await expectExact();
  });
});

describe('the applier', () => {
  it('applies in chunks, each phase in turn, and the boards equal the rebuild and the points endpoints after the drain', async () => {
    const m = await liveMatch({ league: 'mls' });
    const crowd = await players(7, m.id);
    for (const [i, u] of crowd.entries())
      await app.request('PATCH', '/api/users/me', {
        token: u.token,
        body: { match_follow_timezone: ['Asia/Tokyo', 'America/New_York', 'Pacific/Kiritimati'][i % 3] },
      });
    await settle(await asked(m.id, crowd, (i) => (i % 2 ? 'home' : 'away'), 20), 'home');
    await settle(await asked(m.id, crowd, (i) => (i % 3 ? 'home' : 'away'), 10), 'away');
    const chunks: { phase: number; answers: number }[] = [];
    // 6 board rows a chunk: 6 answers on the match board, 3 on the all-time boards, 1 on the period boards.
    await lb().drain({ chunkRows: 6, onChunk: (c) => chunks.push({ phase: c.phase, answers: c.answers }) });
    expect(chunks.filter((c) => c.phase === 1).map((c) => c.answers)).toEqual([6, 1, 6, 1]);
    expect(chunks.filter((c) => c.phase === 2).map((c) => c.answers)).toEqual([3, 3, 1, 3, 3, 1]);
    expect(chunks.filter((c) => c.phase === 3)).toHaveLength(16);
    // Both match boards first, then both settlements' all-time boards, then their period boards.
    expect(chunks.map((c) => c.phase)).toEqual([...chunks.map((c) => c.phase)].sort());
    await expectExact();
    await expectPointsAgree(crowd);
  });

  it('resumes exactly where a chunk failed inside its transaction (no double count, nothing lost)', async () => {
    const m = await liveMatch();
    const crowd = await players(5, m.id);
    await settle(await asked(m.id, crowd, (i) => (i % 2 ? 'home' : 'away')), 'home');
    await settle(await asked(m.id, crowd, () => 'home', 30), 'home');
    // The third chunk throws after writing its rows, before its commit: as a crash inside the transaction would.
    let n = 0;
    const crash = new Error('applier crashed mid-chunk');
    await expect(
      lb().drain({
        chunkRows: 2,
        probe: () => {
          if (++n === 3) throw crash;
        },
      }),
    ).rejects.toBe(crash);
    const [first] = await pending();
    // The first two chunks of the match board (2 answers each) are committed, the failed one is not.
    expect(first).toMatchObject({ phase: 1, cursor: expect.any(String) });
    await lb().drain({ chunkRows: 2 });
    expect(await pending()).toEqual([]);
    await expectExact();
    await expectPointsAgree(crowd);
  });

  it('resumes exactly after a failing statement and after an applier that stopped between chunks', async () => {
    const m = await liveMatch();
    const crowd = await players(4, m.id);
    await settle(await asked(m.id, crowd, (i) => (i < 2 ? 'home' : 'away')), 'home');
    // A real statement failure: the point counts refuse the 4th chunk's insert (a sequence counts across rolled-back transactions).
    await db().execute(sql`create sequence lb_fault_seq`);
    await db().execute(
      sql.raw(`create function lb_fault() returns trigger language plpgsql as $$
        begin if nextval('lb_fault_seq') = 4 then raise exception 'injected failure'; end if; return null; end $$`),
    );
    await db().execute(sql`create trigger lb_fault before insert on leaderboard_point_counts for each statement execute function lb_fault()`);
    try {
      const failed = (await lb()
        .drain({ chunkRows: 1 })
        .then(
          () => new Error('no failure'),
          (err: Error) => err,
        )) as Error & { cause?: Error };
      expect(String(failed.cause?.message ?? failed.message)).toMatch(/injected failure/);
    } finally {
      await db().execute(sql`drop trigger lb_fault on leaderboard_point_counts`);
      await db().execute(sql`drop function lb_fault()`);
      await db().execute(sql`drop sequence lb_fault_seq`);
    }
    expect(await pending()).toHaveLength(1);
    // An applier that stops after two chunks (a worker shut down), then another that finishes.
    let chunks = 0;
    expect(await lb().applyQueued({ chunkRows: 1, stopped: () => chunks >= 2, onChunk: () => chunks++ })).toBe(2);
    expect(await pending()).toHaveLength(1);
    await lb().drain();
    await expectExact();
    await expectPointsAgree(crowd);
  });

  it("applies two settlements of a match in their order (streaks), the later one's match board before the earlier one's period boards", async () => {
    const m = await liveMatch();
    const [p, q] = await players(2, m.id);
    const right = await asked(m.id, [p!, q!], () => 'home');
    const wrong = await asked(m.id, [p!, q!], (i) => (i === 0 ? 'away' : 'home'));
    await settle(right, 'home');
    // The first settlement part applied: its match and all-time boards, not its period boards.
    let chunk = await lb().applyNext({ chunkRows: 100 });
    expect(chunk).toMatchObject({ phase: 1, phaseDone: true });
    chunk = await lb().applyNext({ chunkRows: 100 });
    expect(chunk).toMatchObject({ phase: 2, phaseDone: true });
    await settle(wrong, 'home');
    const order: [string, number][] = [];
    await lb().drain({ onChunk: (c) => order.push([c.issuanceId, c.phase]) });
    expect(order).toEqual([
      [wrong.id, 1],
      [wrong.id, 2],
      [right.id, 3],
      [wrong.id, 3],
    ]);
    const board = (await app.request('GET', `/api/leaderboards/matches/${m.id}`, { token: p!.token })).body;
    // p: right then wrong (streak ended); q: right twice.
    expect(board.me).toMatchObject({ points: 10, correct_count: 1, answered_count: 2, current_streak: 0, best_streak: 1 });
    expect(board.rows[0]).toMatchObject({ user_id: q!.id, points: 20, current_streak: 2, best_streak: 2 });
    for (const period of ['day', 'week', 'month']) {
      const mine = (await app.request('GET', '/api/leaderboards/overall', { token: p!.token, query: { period } })).body.me;
      expect(mine, period).toMatchObject({ current_streak: 0, best_streak: 1 });
    }
    const [a, b] = await Promise.all([right, wrong].map(async (x) => (await queued()).find((r) => r.questionIssuanceId === x.id)!.position!));
    expect(a).toBeLessThan(b!);
    await expectExact();
  });

  it('takes settlements that committed out of their time order in commit order, and the rebuild follows that order (streaks)', async () => {
    const m = await liveMatch();
    const [p] = await players(1, m.id);
    const later = await asked(m.id, [p!], () => 'home');
    const earlier = await asked(m.id, [p!], () => 'away');
    await settle(later, 'home');
    await settle(earlier, 'home');
    // As if `earlier`'s transaction had begun (and stamped its answers) a minute before `later`'s, and committed after it.
    for (const table of ['question_answers', 'leaderboard_settlements'])
      await db().execute(sql`update ${sql.identifier(table)} set scored_at = scored_at - interval '1 minute' where question_issuance_id = ${earlier.id}`);
    await db().execute(sql`update question_issuances set resolved_at = resolved_at - interval '1 minute' where id = ${earlier.id}`);
    await lb().drain();
    // Correct, then incorrect: the streak ended (by time, it would be running).
    expect((await app.request('GET', `/api/leaderboards/matches/${m.id}`, { token: p!.token })).body.me).toMatchObject({ current_streak: 0, best_streak: 1 });
    await expectExact();
  });

  it('counts a revocation after a settlement (answered, no points), both queued and applied in order', async () => {
    const m = await liveMatch();
    const crowd = await players(3, m.id);
    await settle(await asked(m.id, crowd, (i) => (i ? 'home' : 'away')), 'home');
    await asked(m.id, crowd, () => 'home');
    const stop = await app.request('POST', `/api/matches/${m.id}/stop-listener`, { token: admin.token });
    expect(stop.body.revoked_issuance_count).toBe(1);
    expect((await pending()).map((r) => r.resolved)).toEqual([true, false]);
    await lb().drain();
    const board = (await app.request('GET', `/api/leaderboards/matches/${m.id}`)).body;
    expect(board.rows.map((r: { answered_count: number }) => r.answered_count)).toEqual([2, 2, 2]);
    expect(board.rows.map((r: { points: number }) => r.points)).toEqual([10, 10, 0]);
    // A revoked question neither ends nor extends a streak.
    expect(board.rows[0]).toMatchObject({ current_streak: 1, best_streak: 1 });
    await expectExact();
    await expectPointsAgree(crowd);
  });

  it('stays exact when a player is hidden, moves time zone or is deactivated while a settlement is part applied', async () => {
    const m = await liveMatch({ league: 'nfl' });
    const crowd = await players(6, m.id);
    await settle(await asked(m.id, crowd, (i) => (i % 2 ? 'home' : 'away'), 15), 'home');
    await settle(await asked(m.id, crowd, () => 'home', 5), 'home');
    // Part applied: both match boards (6 answers, then none left: 2 chunks each), and half the first settlement's all-time boards.
    for (let i = 0; i < 5; i++) await lb().applyNext({ chunkRows: 6 });
    const [head] = await pending();
    expect(head).toMatchObject({ phase: 2, cursor: expect.any(String) });
    const cursor = head!.cursor!;
    const before = crowd.filter((u) => u.id <= cursor);
    const after = crowd.filter((u) => u.id > cursor);
    expect(before.length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(0);
    // Each change rebuilds the player's rows from what the applier has applied so far; the applier adds the rest.
    await app.request('PATCH', '/api/users/me', { token: before[0]!.token, body: { match_follow_timezone: 'Pacific/Kiritimati' } });
    await app.request('PATCH', '/api/users/me', { token: after[0]!.token, body: { match_follow_timezone: 'Pacific/Pago_Pago' } });
    await app.request('PATCH', `/api/users/${after.at(-1)!.id}`, { token: admin.token, body: { hidden_from_leaderboards: true } });
    if (before.length > 1) await app.request('DELETE', `/api/users/${before.at(-1)!.id}`, { token: admin.token });
    await expectExact();
    await lb().drain({ chunkRows: 6 });
    await expectExact();
    // Back on the boards with everything they scored.
    await app.request('PATCH', `/api/users/${after.at(-1)!.id}`, { token: admin.token, body: { hidden_from_leaderboards: false } });
    if (before.length > 1) await app.request('PATCH', `/api/users/${before.at(-1)!.id}`, { token: admin.token, body: { is_active: true } });
    await expectExact();
    await expectPointsAgree(crowd.filter((u) => u !== before.at(-1) || before.length === 1));
  });
});

describe('the worker', () => {
  /** A worker of this app whose applier polls every `applyPollMs` (its engine rounds once a quarter hour: none voids the open questions here). */
  const workerPolling = (applyPollMs: number) =>
    createEngineWorker({
      ...app.services,
      config: { ...app.services.config, engine: { ...app.services.config.engine, pollMs: 900_000, leaderboardApplyPollMs: applyPollMs } },
    });
  const onBoard = (matchId: string, n: number) =>
    waitFor(async () => (await app.request('GET', `/api/leaderboards/matches/${matchId}`)).body.player_count === n, {
      what: `${n} players on the match board`,
      timeoutMs: 10_000,
    });

  it("applies its own process's settlements at once (the settled hook), long before its next poll", async () => {
    const worker = workerPolling(600_000);
    worker.start();
    try {
      const m = await liveMatch();
      const crowd = await players(2, m.id);
      const q = await asked(m.id, crowd, () => 'home');
      const row = await app.services.engine.store.settleIssuance({ id: q.id, status: 'resolved', correct: 'home', resolvedSeq: null, resolutionEventId: null });
      await app.services.engine.hooks.onSettled!(row!);
      await onBoard(m.id, 2);
      await waitFor(async () => (await pending()).length === 0, { what: 'the queue to drain' });
    } finally {
      await worker.stop();
    }
    await expectExact();
  });

  it('applies settlements of other processes (no hook here) on its poll', async () => {
    const worker = workerPolling(100);
    worker.start();
    try {
      const m = await liveMatch();
      const crowd = await players(3, m.id);
      await settle(await asked(m.id, crowd, () => 'away'), 'away');
      await onBoard(m.id, 3);
      await waitFor(async () => (await pending()).length === 0, { what: 'the queue to drain' });
    } finally {
      await worker.stop();
    }
    await expectExact();
  });
});

describe('the settings', () => {
  it('take the poll and the chunk from LEADERBOARD_APPLY_POLL_MS and LEADERBOARD_APPLY_CHUNK_ROWS, and the applier its chunk from them', async () => {
    expect(loadConfig({ APP_ENV: 'test' }).engine).toMatchObject({ leaderboardApplyPollMs: 500, leaderboardChunkRows: 20_000 });
    expect(loadConfig({ APP_ENV: 'test', LEADERBOARD_APPLY_POLL_MS: '50', LEADERBOARD_APPLY_CHUNK_ROWS: '1000' }).engine).toMatchObject({
      leaderboardApplyPollMs: 50,
      leaderboardChunkRows: 1000,
    });
    expect(() => loadConfig({ APP_ENV: 'test', LEADERBOARD_APPLY_CHUNK_ROWS: '0' })).toThrow(/LEADERBOARD_APPLY_CHUNK_ROWS/);
    const small = await startTestApp({ config: { engine: { ...loadConfig({ APP_ENV: 'test' }).engine, leaderboardChunkRows: 2 } } });
    try {
      const m = await createMatch(small, { status: 'live', scheduled: inMinutes(-30) });
      const crowd = [await registerUser(small), await registerUser(small), await registerUser(small)];
      const q = await insertIssuance(small, { matchId: m.id, status: 'open', closesAt: inMinutes(2) });
      for (const u of crowd) {
        await follow(small, u.id, m.id);
        const res = await small.request('PUT', '/api/question-answers', {
          token: u.token,
          body: { question_issuance_id: q.id, selected_answer_identifier: 'home' },
        });
        expect(res.status).toBe(201);
      }
      await small.services.engine.store.settleIssuance({ id: q.id, status: 'resolved', correct: 'home', resolvedSeq: null, resolutionEventId: null });
      const sizes: number[] = [];
      await small.services.leaderboards.drain({ onChunk: (c) => c.phase === 1 && sizes.push(c.answers) });
      expect(sizes).toEqual([2, 1]);
    } finally {
      await small.close();
    }
  });
});

/**
 * The stream's `leaderboard` message: followers of a match get its top rows
 * and their own rank when a settlement changes its board (at once when the
 * board is kept in memory; else when the leaderboards' applier wrote it),
 * after the resolution,
 * throttled per match, and only when what they would see changed. Every message is validated against openapi/asyncapi.yaml.
 */
import { describe, expect, it } from 'vitest';
import type { QuestionIssuanceRow } from '../../src/modules/issuances/issuances.table.js';
import { loadConfig } from '../../src/config.js';
import { createMatch, follow } from '../helpers/factories.js';
import { insertIssuance } from '../helpers/engine-rows.js';
import { liveMatchWithCrowd } from '../helpers/leaderboards.js';
import { manualClock } from '../helpers/manual-clock.js';
import { openStream, type StreamClient, type StreamMessage } from '../helpers/live-client.js';
import { registerUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app.js';

async function settle(app: TestApp, row: QuestionIssuanceRow, status: 'resolved' | 'voided', correct: string | null = null, { drain = true } = {}) {
  const { store, hooks } = app.services.engine;
  const settled = await store.settleIssuance({ id: row.id, status, correct, resolvedSeq: null, resolutionEventId: null });
  if (!settled) throw new Error(`issuance ${row.id} did not settle`);
  await hooks.onSettled!(settled);
  // The boards take it after the commit (the worker's applier; none runs in tests): its match board's chunk publishes `board`.
  if (drain) await app.services.leaderboards.drain();
}

async function question(app: TestApp, matchId: string, answers: [TestUser, string][], points = 10) {
  const row = await insertIssuance(app, { matchId, status: 'open', closesAt: new Date(Date.now() + 60_000), points });
  for (const [u, choice] of answers) {
    const res = await app.request('PUT', '/api/question-answers', {
      token: u.token,
      body: { question_issuance_id: row.id, selected_answer_identifier: choice },
    });
    expect(res.status).toBe(201);
  }
  return row;
}

async function connected(app: TestApp, user: TestUser): Promise<StreamClient> {
  const client = await openStream(app, user.token);
  await client.ready();
  return client;
}

async function withApp(options: Parameters<typeof startTestApp>[0], fn: (app: TestApp) => Promise<void>) {
  const app = await startTestApp(options);
  try {
    await fn(app);
  } finally {
    await app.close();
  }
}

describe('leaderboard messages', () => {
  it("go to the match's followers after the resolution: the top rows, the count and each one's own row and rank", async () => {
    await withApp({ live: { leaderboardIntervalMs: 0 } }, async (app) => {
      const match = await createMatch(app, { status: 'live', scheduled: new Date(Date.now() - 1800_000) });
      const [winner, loser, watcher, stranger] = [await registerUser(app), await registerUser(app), await registerUser(app), await registerUser(app)];
      for (const u of [winner, loser, watcher]) await follow(app, u.id, match.id);
      const clients = [await connected(app, winner), await connected(app, loser), await connected(app, watcher), await connected(app, stranger)];
      const q = await question(app, match.id, [
        [winner, 'home'],
        [loser, 'away'],
      ]);
      await settle(app, q, 'resolved', 'home');
      const [w, l, watching] = (await Promise.all(clients.slice(0, 3).map((c) => c.take('leaderboard')))) as [StreamMessage, StreamMessage, StreamMessage];
      expect(w).toMatchObject({ match_id: match.id, player_count: 2, me: { rank: 1, user_id: winner.id, points: 10, current_streak: 1 } });
      expect(w.top.map((r: { user_id: string }) => r.user_id)).toEqual([winner.id, loser.id]);
      expect(l.me).toMatchObject({ rank: 2, user_id: loser.id, points: 0 });
      expect(l.top).toEqual(w.top);
      expect(watching.me).toBeNull();
      // After the resolution, never before it.
      for (const c of clients.slice(0, 3)) {
        const types = c.messages.map((m) => m.type);
        expect(types.indexOf('resolution')).toBeLessThan(types.indexOf('leaderboard'));
      }
      // The same rows as the HTTP operation.
      const http = await app.request('GET', `/api/leaderboards/matches/${match.id}`, { token: winner.token });
      expect(http.body.rows).toEqual(w.top);
      expect(http.body.me).toEqual(w.me);
      await clients[3]!.expectNone('leaderboard', 300);
      for (const c of clients) await c.close();
    });
  });

  it('with the match board read from PostgreSQL: none until the applier wrote the match board, one after each of its chunks there', async () => {
    await withApp({ live: { leaderboardIntervalMs: 0 } }, async (app) => {
      const {
        match,
        crowd: [a, b, c],
      } = await liveMatchWithCrowd(app, 3);
      const client = await connected(app, a);
      await settle(
        app,
        await question(app, match.id, [
          [a, 'home'],
          [b, 'away'],
          [c, 'home'],
        ]),
        'resolved',
        'home',
        { drain: false },
      );
      await client.take('resolution');
      await client.expectNone('leaderboard', 300);
      // Two chunks of the match board (2 answers, then 1): each one's commit schedules a message.
      expect(await app.services.leaderboards.applyNext({ chunkRows: 2 })).toMatchObject({ phase: 1, answers: 2 });
      expect((await client.take('leaderboard')).player_count).toBe(2);
      expect(await app.services.leaderboards.applyNext({ chunkRows: 2 })).toMatchObject({ phase: 1, answers: 1 });
      expect((await client.take('leaderboard')).player_count).toBe(3);
      // The other boards change nothing the stream shows.
      await app.services.leaderboards.drain();
      await client.expectNone('leaderboard', 300);
      await client.close();
    });
  });

  it('are sent only when what a receiver sees changed, and never for test matches', async () => {
    await withApp({ live: { leaderboardIntervalMs: 0 } }, async (app) => {
      const {
        match,
        crowd: [a, b],
      } = await liveMatchWithCrowd(app, 2);
      const [ca, cb] = [await connected(app, a), await connected(app, b)];
      await settle(app, await question(app, match.id, [[a, 'home']]), 'resolved', 'home');
      await ca.take('leaderboard');
      const first = await cb.take('leaderboard');
      expect(first.me).toBeNull();
      // Nobody answered: the board did not change, nothing goes out.
      await settle(app, await question(app, match.id, []), 'voided');
      await ca.take('resolution');
      await ca.take('resolution');
      await ca.expectNone('leaderboard', 400);
      // Only a's row changes: b sees a's row in the top, so b gets it too.
      await settle(app, await question(app, match.id, [[a, 'home']]), 'resolved', 'home');
      expect((await ca.take('leaderboard')).me.points).toBe(20);
      expect((await cb.take('leaderboard')).top[0].points).toBe(20);

      const test = await createMatch(app, { status: 'live', scheduled: new Date(Date.now() - 1800_000), isTest: true });
      await follow(app, a.id, test.id);
      const cTest = await connected(app, a);
      await settle(app, await question(app, test.id, [[a, 'home']]), 'resolved', 'home');
      await cTest.take((m) => m.type === 'resolution' && m.match_id === test.id);
      await cTest.expectNone('leaderboard', 400);
      for (const c of [ca, cb, cTest]) await c.close();
    });
  });

  it('are throttled per match: the first at once, later settlements of the interval merged into one at its end', async () => {
    // The throttle runs on a clock of the test's (a ThrottleClock; vitest's fake timers would stall postgres.js's pool,
    // which waits on a timer of its own): the two later settlements fall inside the interval however slow the machine,
    // and the interval ends when the test moves the clock past it.
    const clock = manualClock();
    await withApp({ live: { leaderboardIntervalMs: 20_000, throttleClock: clock } }, async (app) => {
      const {
        match,
        crowd: [p],
      } = await liveMatchWithCrowd(app, 1);
      const client = await connected(app, p);
      await settle(app, await question(app, match.id, [[p, 'home']]), 'resolved', 'home');
      expect((await client.take('leaderboard')).me.points).toBe(10);
      await settle(app, await question(app, match.id, [[p, 'home']], 20), 'resolved', 'home');
      await settle(app, await question(app, match.id, [[p, 'home']], 30), 'resolved', 'home');
      await client.take('resolution');
      await client.take('resolution');
      await client.take('resolution');
      await client.expectNone('leaderboard', 300);
      // Not yet at the interval's end: still nothing.
      clock.advance(19_999);
      await client.expectNone('leaderboard', 300);
      clock.advance(1);
      const merged = await client.take('leaderboard');
      expect(merged.me).toMatchObject({ points: 60, correct_count: 3, current_streak: 3 });
      await client.expectNone('leaderboard', 300);
      await client.close();
    });
  });

  it("start no interval with a read that found the board not written yet: the board's own change goes out at once", async () => {
    // The settlement is heard before its board is written (the applier runs after the commit): the read it starts finds
    // no board. The board's change must then go out at once, not at the end of an interval nothing was sent in.
    const clock = manualClock();
    await withApp({ live: { leaderboardIntervalMs: 20_000, throttleClock: clock } }, async (app) => {
      const {
        match,
        crowd: [p],
      } = await liveMatchWithCrowd(app, 1);
      const client = await connected(app, p);
      await settle(app, await question(app, match.id, [[p, 'home']]), 'resolved', 'home', { drain: false });
      await client.take('resolution');
      await app.services.leaderboards.drain();
      expect((await client.take('leaderboard')).me.points).toBe(10);
      await client.close();
    });
  });

  it('take their interval from STREAM_LEADERBOARD_INTERVAL_MS', () => {
    expect(loadConfig({ APP_ENV: 'test' }).stream.leaderboardIntervalMs).toBe(5000);
    expect(loadConfig({ APP_ENV: 'test', STREAM_LEADERBOARD_INTERVAL_MS: '250' }).stream.leaderboardIntervalMs).toBe(250);
  });
});

/**
 * Live group boards: a member of a private group who subscribed to it
 * (`subscribe_group`) gets the group's board of each followed match as it
 * changes (`group_leaderboard`, right after the match's `leaderboard`), the
 * rows of the group's HTTP board; anyone else is refused and gets none;
 * leaving the group or unsubscribing stops them; every socket's boards come
 * from one lookup of the members and one of their rows per change; the same
 * through Redis. Every message is validated against openapi/asyncapi.yaml.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { follow } from '../helpers/factories.js';
import { liveMatchWithCrowd, playQuestion, type Crowd } from '../helpers/leaderboards.js';
import { openStream, type StreamClient, type StreamMessage } from '../helpers/live-client.js';
import { dropPrefix, testRedisConfig } from '../helpers/redis.js';
import { registerUser, startTestApp, statementsDuring, type TestApp, type TestUser } from '../helpers/test-app.js';

let addresses = 0;
/** Joins are throttled per client address: each join comes from an address of its own. */
const join = (app: TestApp, u: TestUser, code: string) =>
  app.request('POST', '/api/player-groups/join', { token: u.token, body: { invite_code: code }, headers: { 'x-forwarded-for': `198.51.100.${++addresses}` } });

/** A group of `owner` with `others` in it. */
async function groupOf(app: TestApp, owner: TestUser, ...others: TestUser[]): Promise<string> {
  const created = await app.request('POST', '/api/player-groups', { token: owner.token, body: { name: 'Office World Cup' } });
  expect(created.status).toBe(201);
  for (const o of others) expect((await join(app, o, created.body.invite_code)).status).toBe(200);
  return created.body.id as string;
}

/** `n` verified players following a live match (groups need verified members). */
async function players<N extends number>(app: TestApp, n: N) {
  const { match } = await liveMatchWithCrowd(app, 0);
  const users: TestUser[] = [];
  for (let i = 0; i < n; i++) {
    const u = await registerUser(app, { verified: true });
    await follow(app, u.id, match.id);
    users.push(u);
  }
  return { match, users: users as Crowd<N> };
}

async function connected(app: TestApp, user: TestUser): Promise<StreamClient> {
  const client = await openStream(app, user.token);
  await client.ready();
  return client;
}

/** Sends `subscribe_group` and returns its reply (`group_subscribed` or `error`). */
async function subscribe(client: StreamClient, groupId: string): Promise<StreamMessage> {
  client.send({ type: 'subscribe_group', group_id: groupId });
  return client.take((m) => (m.type === 'group_subscribed' && m.group_id === groupId) || m.type === 'error');
}

const groupBoard = (app: TestApp, u: TestUser, groupId: string, matchId: string) =>
  app.request('GET', `/api/player-groups/${groupId}/leaderboard`, { token: u.token, query: { scope: 'match', match_id: matchId } });

async function withApp(options: Parameters<typeof startTestApp>[0], fn: (app: TestApp) => Promise<void>) {
  const app = await startTestApp(options);
  try {
    await fn(app);
  } finally {
    await app.close();
  }
}

describe('group boards on the stream', () => {
  it("reach the group's subscribed members after the match's board, as the group's read ranks them; others are refused and get none", async () => {
    await withApp({ live: { leaderboardIntervalMs: 0 } }, async (app) => {
      const {
        match,
        users: [alice, carla, dave, bob],
      } = await players(app, 4);
      const office = await groupOf(app, alice, carla, dave);
      const [ca, cc, cd, cb] = [await connected(app, alice), await connected(app, carla), await connected(app, dave), await connected(app, bob)];
      expect(await subscribe(ca, office)).toEqual({ type: 'group_subscribed', group_id: office });
      expect(await subscribe(cc, office)).toEqual({ type: 'group_subscribed', group_id: office });
      // Not a member, or no such group: the HTTP API's answer, and nothing subscribed.
      expect(await subscribe(cb, office)).toMatchObject({ type: 'error', code: 'player_group.not_found' });
      expect(await subscribe(cb, '00000000-0000-4000-8000-000000000000')).toMatchObject({ type: 'error', code: 'player_group.not_found' });
      // dave is a member who did not subscribe.

      await playQuestion(
        app,
        match.id,
        [
          [alice, 'home'],
          [carla, 'away'],
          [bob, 'home'],
        ],
        'home',
      );
      const [ga, gc] = await Promise.all([ca.take('group_leaderboard'), cc.take('group_leaderboard')]);
      expect(ga).toMatchObject({ group_id: office, match_id: match.id, player_count: 2, me: { rank: 1, user_id: alice.id, points: 10 } });
      // Ranked among the group: bob, second on the match's board, is not in it.
      expect(ga.rows.map((r: { user_id: string; rank: number }) => [r.rank, r.user_id])).toEqual([
        [1, alice.id],
        [2, carla.id],
      ]);
      expect(gc.me).toMatchObject({ rank: 2, user_id: carla.id, points: 0 });
      expect(gc.rows).toEqual(ga.rows);
      // The rows of the group's HTTP board.
      const http = await groupBoard(app, alice, office, match.id);
      expect(http.status).toBe(200);
      expect(http.body.rows).toEqual(ga.rows);
      expect(http.body.me).toEqual(ga.me);
      // Right after the match's board.
      for (const c of [ca, cc]) {
        const types = c.messages.map((m) => m.type);
        expect(types.indexOf('group_leaderboard')).toBe(types.indexOf('leaderboard') + 1);
      }
      await cb.take('leaderboard');
      await cd.take('leaderboard');
      await cb.expectNone('group_leaderboard', 300);
      await cd.expectNone('group_leaderboard', 300);
      for (const c of [ca, cc, cd, cb]) await c.close();
    });
  });

  it('stop for a member who left the group (told so at the next change) and for a socket that unsubscribed', async () => {
    await withApp({ live: { leaderboardIntervalMs: 0 } }, async (app) => {
      const {
        match,
        users: [alice, carla, dave],
      } = await players(app, 3);
      const office = await groupOf(app, alice, carla, dave);
      const clients = await Promise.all([alice, carla, dave].map((u) => connected(app, u)));
      const [ca, cc, cd] = clients as [StreamClient, StreamClient, StreamClient];
      for (const c of clients) expect((await subscribe(c, office)).type).toBe('group_subscribed');
      const all: [TestUser, 'home' | 'away'][] = [
        [alice, 'home'],
        [carla, 'home'],
        [dave, 'away'],
      ];
      await playQuestion(app, match.id, all, 'home');
      for (const c of clients) expect((await c.take('group_leaderboard')).player_count).toBe(3);

      expect((await app.request('POST', `/api/player-groups/${office}/leave`, { token: carla.token })).status).toBe(204);
      cd.send({ type: 'unsubscribe_group', group_id: office });
      expect(await cd.take('group_unsubscribed')).toEqual({ type: 'group_unsubscribed', group_id: office, reason: 'requested' });

      await playQuestion(app, match.id, all, 'home', { points: 20 });
      const after = await ca.take('group_leaderboard');
      expect(after.rows.map((r: { user_id: string }) => r.user_id)).toEqual([alice.id, dave.id]);
      expect(after.me).toMatchObject({ rank: 1, points: 30 });
      expect(await cc.take('group_unsubscribed')).toEqual({ type: 'group_unsubscribed', group_id: office, reason: 'not_a_member' });
      await cc.take((m) => m.type === 'leaderboard' && m.me.points === 30);
      await cd.take((m) => m.type === 'leaderboard' && m.me.points === 0 && m.top[0].points === 30);
      await cc.expectNone('group_leaderboard', 300);
      await cd.expectNone('group_leaderboard', 300);
      // And a former member cannot subscribe again.
      expect(await subscribe(cc, office)).toMatchObject({ type: 'error', code: 'player_group.not_found' });
      for (const c of clients) await c.close();
    });
  });

  it("cost one lookup of the groups' members and one of their rows per change, whatever the number of sockets and groups", async () => {
    await withApp({ live: { leaderboardIntervalMs: 0 } }, async (app) => {
      const {
        match,
        users: [a, b, c, d],
      } = await players(app, 4);
      const first = await groupOf(app, a, b, c);
      const second = await groupOf(app, d, a);
      const sockets: [StreamClient, string][] = [
        [await connected(app, a), first],
        [await connected(app, a), second],
        [await connected(app, a), first],
        [await connected(app, b), first],
        [await connected(app, c), first],
        [await connected(app, d), second],
      ];
      for (const [s, g] of sockets) expect((await subscribe(s, g)).type).toBe('group_subscribed');
      const { statements } = await statementsDuring(app, async () => {
        await playQuestion(
          app,
          match.id,
          [
            [a, 'home'],
            [b, 'away'],
            [c, 'home'],
            [d, 'home'],
          ],
          'home',
        );
        for (const [s, g] of sockets) expect((await s.take('group_leaderboard')).group_id).toBe(g);
      });
      expect(statements.filter((s) => /player_group_members/.test(s))).toHaveLength(1);
      // The members' rows (ranked among them), as the group's read takes them.
      expect(statements.filter((s) => /^select row_number\(\) over/.test(s.trim()))).toHaveLength(1);
      const [, secondBoard] = [await groupBoard(app, a, first, match.id), await groupBoard(app, a, second, match.id)];
      expect(sockets[1]![0].messages.find((m) => m.type === 'group_leaderboard')!.rows).toEqual(secondBoard.body.rows);
      for (const [s] of sockets) await s.close();
    });
  });
});

describe('group boards on the stream, boards in Redis', () => {
  const redis = testRedisConfig('groupboards');
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ config: { redis }, live: { leaderboardIntervalMs: 0 } });
  });
  afterAll(async () => {
    await app?.close();
    await dropPrefix(redis);
  });

  it('reach a subscribed member once the match board is in Redis, ranked as the read from Redis ranks them', async () => {
    const {
      match,
      users: [alice, carla, bob],
    } = await players(app, 3);
    const office = await groupOf(app, alice, carla);
    // The boards' first copy into Redis (the worker's writer): from then on, each copied settlement says its match's board changed.
    await app.services.leaderboards.copyToRedis();
    const client = await connected(app, carla);
    expect((await subscribe(client, office)).type).toBe('group_subscribed');
    await playQuestion(
      app,
      match.id,
      [
        [alice, 'away'],
        [carla, 'home'],
        [bob, 'home'],
      ],
      'home',
    );
    // The boards' copy into Redis (the worker's writer) says the match's board changed.
    await app.services.leaderboards.copyToRedis();
    const board = await client.take('group_leaderboard');
    expect(board).toMatchObject({ group_id: office, match_id: match.id, player_count: 2, me: { rank: 1, user_id: carla.id, points: 10 } });
    expect((await groupBoard(app, carla, office, match.id)).body.rows).toEqual(board.rows);
    await client.close();
  });
});

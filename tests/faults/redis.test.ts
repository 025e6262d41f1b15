/**
 * The boards in Redis when Redis fails, against the real server behind a
 * proxy of the test's own (so pausing it pauses no other test's Redis):
 * stopped (connections cut, new ones refused), frozen (nothing answered
 * until it thaws) and restarted empty (every key of the deployment gone),
 * each while boards are read and a match settles. Players get the boards
 * (PostgreSQL's read: 200, never a 500, within the read's command budget),
 * and once Redis is back every board read from it equals PostgreSQL's
 * rebuilt from the answers: nothing lost, nothing counted twice.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildAll } from '../../src/modules/leaderboards/leaderboards.applier.repository.js';
import { createLeaderboardsService } from '../../src/modules/leaderboards/leaderboards.service.js';
import type { QuestionIssuanceRow } from '../../src/modules/issuances/issuances.table.js';
import { insertIssuance } from '../helpers/engine-rows.js';
import { waitFor } from '../helpers/engine.js';
import { createMatch, follow } from '../helpers/factories.js';
import { dropPrefix, TEST_REDIS_URL, testRedisConfig } from '../helpers/redis.js';
import { registerUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app.js';

/** A TCP proxy to the test Redis that can be stopped, frozen and thawed. */
function redisProxy() {
  const target = new URL(TEST_REDIS_URL);
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket; held: [net.Socket, Buffer][] }>();
  let frozen = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    const pair = { client, upstream, held: [] as [net.Socket, Buffer][] };
    pairs.add(pair);
    const relay = (to: net.Socket) => (data: Buffer) => {
      if (frozen) pair.held.push([to, data]);
      else to.write(data);
    };
    client.on('data', relay(upstream));
    upstream.on('data', relay(client));
    const end = () => {
      client.destroy();
      upstream.destroy();
      pairs.delete(pair);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  server.on('error', () => {});
  let port = 0;
  return {
    url: () => `redis://127.0.0.1:${port}${target.pathname}`,
    start: () =>
      new Promise<void>((resolve) => {
        server.listen(port, '127.0.0.1', () => {
          port = (server.address() as net.AddressInfo).port;
          resolve();
        });
      }),
    /** Connections cut, new ones refused. */
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const p of pairs) {
          p.client.destroy();
          p.upstream.destroy();
        }
      }),
    freeze: () => {
      frozen = true;
    },
    thaw: () => {
      frozen = false;
      for (const p of pairs) for (const [to, data] of p.held.splice(0)) to.write(data);
    },
  };
}

const proxy = redisProxy();
const prefix = testRedisConfig('faults').keyPrefix;
let app: TestApp;
beforeAll(async () => {
  await proxy.start();
  app = await startTestApp({ config: { redis: { url: proxy.url(), keyPrefix: prefix } } });
});
afterAll(async () => {
  await app?.close();
  await proxy.stop();
  await dropPrefix({ url: TEST_REDIS_URL, keyPrefix: prefix });
});

const lb = () => app.services.leaderboards;
const sqlOnly = () => createLeaderboardsService({ db: app.services.database.db, leagues: app.services.leagues });
const inMinutes = (m: number) => new Date(Date.now() + m * 60_000);

async function question(matchId: string, crowd: TestUser[], choose: (i: number) => 'home' | 'away', points: number): Promise<QuestionIssuanceRow> {
  const q = await insertIssuance(app, { matchId, status: 'open', closesAt: inMinutes(2), points });
  for (const [i, u] of crowd.entries())
    await app.request('PUT', '/api/question-answers', { token: u.token, body: { question_issuance_id: q.id, selected_answer_identifier: choose(i) } });
  return q;
}

async function settle(q: QuestionIssuanceRow) {
  await app.services.engine.store.settleIssuance({ id: q.id, status: 'resolved', correct: 'home', resolvedSeq: null, resolutionEventId: null });
  await lb().drain();
}

/** What players see, over HTTP: every board of the match's players, each read a 200. */
async function httpReads(matchId: string, leagueId: string, crowd: TestUser[]) {
  const out: unknown[] = [];
  for (const u of crowd)
    for (const path of ['/api/leaderboards/overall', `/api/leaderboards/leagues/${leagueId}`, `/api/leaderboards/matches/${matchId}`]) {
      const res = await app.request('GET', path, { token: u.token });
      expect(res.status, path).toBe(200);
      out.push(res.body);
    }
  return out;
}

/** Every board row a player can read, from the service given (the boards in Redis, or PostgreSQL's). */
async function everyRead(svc: ReturnType<typeof sqlOnly>, matchId: string, leagueId: string, crowd: TestUser[]) {
  const out: unknown[] = [];
  for (const u of crowd) {
    const viewer = await app.services.users.get(u.id);
    for (const period of ['all_time', 'day', 'week', 'month'] as const) {
      out.push(await svc.overall({ period, offset: 0, limit: 100 }, viewer));
      out.push(await svc.league(leagueId, { period, offset: 0, limit: 100 }, viewer));
    }
    out.push(await svc.match(matchId, { offset: 0, limit: 100 }, viewer));
  }
  return JSON.parse(JSON.stringify(out));
}

/** The copy into Redis, once Redis answers again (it fails while it does not). */
const copied = () =>
  waitFor(
    async () => {
      try {
        await lb().copyToRedis();
        return true;
      } catch {
        return false;
      }
    },
    { what: 'the copy into Redis to succeed' },
  );

/** Reads are served from Redis again (after a failed read they skip it for a second). */
const redisServes = () =>
  waitFor(
    async () => {
      const before = lb().cacheState().redisReads;
      await lb().overall({ period: 'all_time', offset: 0, limit: 1 }, null);
      return lb().cacheState().redisReads > before;
    },
    { what: 'reads served from Redis again' },
  );

describe('Redis', () => {
  it('stopped, frozen and restarted empty while boards are read and a match settles: boards answered throughout, exact once it is back', async () => {
    const m = await createMatch(app, { status: 'live', scheduled: inMinutes(-30) });
    const crowd: TestUser[] = [];
    for (let i = 0; i < 4; i++) {
      const u = await registerUser(app);
      await follow(app, u.id, m.id);
      crowd.push(u);
    }
    await settle(await question(m.id, crowd, (i) => (i % 2 ? 'home' : 'away'), 10));
    await copied();
    const served = () => lb().cacheState();
    const expectExact = async () => {
      const viaRedis = served().redisReads;
      expect(await everyRead(lb(), m.id, m.leagueId, crowd)).toEqual(await everyRead(sqlOnly(), m.id, m.leagueId, crowd));
      expect(served().redisReads).toBeGreaterThan(viaRedis);
    };
    await expectExact();

    // Frozen: reads give up on Redis within their budget and read PostgreSQL; a settlement lands meanwhile.
    proxy.freeze();
    const fallbacks = served().redisFallbacks;
    await httpReads(m.id, m.leagueId, crowd);
    expect(served().redisFallbacks).toBeGreaterThan(fallbacks);
    await settle(await question(m.id, crowd, () => 'home', 7));
    const stuckCopy = lb()
      .copyToRedis()
      .catch(() => 0);
    expect(await everyRead(lb(), m.id, m.leagueId, crowd)).toEqual(await everyRead(sqlOnly(), m.id, m.leagueId, crowd));
    proxy.thaw();
    await stuckCopy;
    await copied();
    await redisServes();
    await expectExact();

    // Stopped: the same, and the copy fails until Redis is back.
    await proxy.stop();
    await httpReads(m.id, m.leagueId, crowd);
    await settle(await question(m.id, crowd, (i) => (i === 0 ? 'home' : 'away'), 5));
    await expect(lb().copyToRedis()).rejects.toThrow();
    await proxy.start();
    await copied();
    await redisServes();
    await expectExact();

    // Restarted empty: every key of the deployment gone; reads are PostgreSQL's until the writer copied every board again.
    await dropPrefix({ url: TEST_REDIS_URL, keyPrefix: prefix });
    const before = served().redisReads;
    await httpReads(m.id, m.leagueId, crowd);
    expect(served().redisReads).toBe(before);
    await settle(await question(m.id, crowd, () => 'away', 3));
    await copied();
    await redisServes();
    await expectExact();

    // Nothing lost, nothing counted twice: the boards in Redis equal PostgreSQL's rebuilt from the answers.
    await app.services.database.db.transaction((tx) => rebuildAll({ tx }));
    await expectExact();
    const me = (await app.request('GET', `/api/leaderboards/matches/${m.id}`, { token: crowd[0]!.token })).body.me;
    expect(me).toMatchObject({ answered_count: 4 });
  }, 600_000);
});

/**
 * The boards in Redis (REDIS_URL; src/modules/leaderboards/leaderboards.redis.ts),
 * against the real server: every board (match, league, whole game; all time
 * and periods) and a private group's read from Redis equal PostgreSQL's read
 * of the same board, byte for byte, ranked by points and by either streak;
 * settlements are on them before the SQL applier took them; writes stopped,
 * replayed and interleaved with users hidden, shown and moved count nothing
 * twice; and a Redis that lost everything is read around (PostgreSQL) until
 * the writer copied it all again, as are boards an older layout copied.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createLeaderboardsService } from '../../src/modules/leaderboards/leaderboards.service.js';
import type { QuestionIssuanceRow } from '../../src/modules/issuances/issuances.table.js';
import { insertIssuance } from '../helpers/engine-rows.js';
import { createMatch, follow } from '../helpers/factories.js';
import { dropPrefix, testRedisConfig } from '../helpers/redis.js';
import { registerUser, type TestUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const redis = testRedisConfig('boards');
const { app, admin } = useTestApp({ config: { redis } });
afterAll(() => dropPrefix(redis));

const lb = () => app.services.leaderboards;
/** The same service without Redis: PostgreSQL's read of every board. */
const sqlOnly = () => createLeaderboardsService({ db: app.services.database.db, leagues: app.services.leagues });
const inMinutes = (m: number) => new Date(Date.now() + m * 60_000);

async function players(n: number, matchId: string): Promise<TestUser[]> {
  const out: TestUser[] = [];
  for (let i = 0; i < n; i++) {
    const u = await registerUser(app);
    await follow(app, u.id, matchId);
    out.push(u);
  }
  return out;
}

async function asked(matchId: string, crowd: TestUser[], choose: (i: number) => 'home' | 'away' | null, points = 10): Promise<QuestionIssuanceRow> {
  const q = await insertIssuance(app, { matchId, status: 'open', closesAt: inMinutes(2), points });
  for (const [i, u] of crowd.entries()) {
    const pick = choose(i);
    if (!pick) continue;
    const res = await app.request('PUT', '/api/question-answers', { token: u.token, body: { question_issuance_id: q.id, selected_answer_identifier: pick } });
    expect(res.status).toBe(201);
  }
  return q;
}

async function settle(q: QuestionIssuanceRow, outcome: 'home' | 'away' | 'voided') {
  await app.services.engine.store.settleIssuance({
    id: q.id,
    status: outcome === 'voided' ? 'voided' : 'resolved',
    correct: outcome === 'voided' ? null : outcome,
    resolvedSeq: null,
    resolutionEventId: null,
  });
}

/** Every read a player makes of the boards of a match's settlements, through the service given. */
async function everyRead(svc: ReturnType<typeof sqlOnly>, matchId: string, leagueId: string, crowd: TestUser[]) {
  const out: unknown[] = [];
  for (const u of [null, ...crowd]) {
    const viewer = u ? (await app.services.users.get(u.id))! : null;
    // Every ranking: points, and the streak boards (their own sorted sets in Redis).
    for (const rankBy of ['points', 'current_streak', 'best_streak'] as const) {
      for (const period of ['all_time', 'day', 'week', 'month'] as const) {
        out.push(await svc.overall({ period, rankBy, offset: 0, limit: 50 }, viewer));
        out.push(await svc.overall({ period, rankBy, offset: 1, limit: 2 }, viewer));
        out.push(await svc.league(leagueId, { period, rankBy, offset: 0, limit: 50 }, viewer));
      }
      out.push(await svc.match(matchId, { rankBy, offset: 0, limit: 50 }, viewer));
      if (viewer)
        out.push(
          await svc.ofMembers({
            groupId: '00000000-0000-0000-0000-000000000001',
            scope: 'overall',
            league: undefined,
            matchId: undefined,
            query: { period: 'all_time', rankBy },
            viewer,
            userIds: crowd.slice(0, 3).map((c) => c.id),
            limit: 50,
          }),
        );
    }
  }
  out.push(await svc.matchForDelivery({ matchId, userIds: crowd.map((c) => c.id), top: 10 }));
  return JSON.parse(JSON.stringify(out, (_k, v: unknown) => (v instanceof Map ? [...v].sort() : v)));
}

/** The boards in Redis and PostgreSQL caught up: the SQL applier's queue drained, and the writer. */
async function caughtUp() {
  await lb().drain();
  await lb().copyToRedis();
}

describe('boards in Redis', { timeout: 300_000 }, () => {
  it('serve every board and group as PostgreSQL does, once copied; until the first copy, reads are PostgreSQL’s', async () => {
    const m = await createMatch(app, { status: 'live', scheduled: inMinutes(-30) });
    const crowd = await players(5, m.id);
    for (const [k, choose] of [(i: number) => (i % 2 ? 'home' : 'away'), (i: number) => (i < 3 ? 'home' : null), () => 'away' as const].entries()) {
      await settle(await asked(m.id, crowd, choose as (i: number) => 'home' | 'away' | null, 10 + k), k === 2 ? 'voided' : 'home');
    }
    await lb().drain();
    const before = lb().cacheState().redisReads;
    const sqlReads = await everyRead(sqlOnly(), m.id, m.leagueId, crowd);
    expect(await everyRead(lb(), m.id, m.leagueId, crowd)).toEqual(sqlReads);
    // Nothing copied yet: not ready, every read was PostgreSQL's.
    expect(lb().cacheState().redisReads).toBe(before);

    expect(await lb().copyToRedis()).toBeGreaterThan(0);
    expect(await everyRead(lb(), m.id, m.leagueId, crowd)).toEqual(sqlReads);
    expect(lb().cacheState().redisReads).toBeGreaterThan(before);

    // Later settlements, copied incrementally.
    await settle(await asked(m.id, crowd, (i) => (i === 4 ? 'home' : 'away'), 7), 'home');
    await caughtUp();
    expect(await everyRead(lb(), m.id, m.leagueId, crowd)).toEqual(await everyRead(sqlOnly(), m.id, m.leagueId, crowd));
  });

  it('have a settlement on every board before the SQL applier took it, each answer once however the writer is stopped and replayed', async () => {
    const m = await createMatch(app, { status: 'live', scheduled: inMinutes(-30) });
    const crowd = await players(4, m.id);
    await caughtUp();
    await settle(await asked(m.id, crowd, (i) => (i % 2 ? 'home' : 'away'), 12), 'home');
    await settle(await asked(m.id, crowd, (i) => (i === 1 ? null : 'home'), 4), 'home');
    // The writer alone (no SQL applier): stopped between its scripts (in the middle of the first settlement), then
    // every settlement sent again in scripts that straddle where it stopped, then again a row a script.
    let steps = 0;
    await lb().copyToRedis({ batchRows: 1, stopped: () => ++steps > 4 });
    await lb().copyToRedis({ replay: true });
    await lb().copyToRedis({ replay: true, batchRows: 1 });
    const fromRedis = await everyRead(lb(), m.id, m.leagueId, crowd);
    expect((await lb().queueState()).pending, 'nothing applied in PostgreSQL yet').toBe(2);
    await lb().drain();
    expect(fromRedis).toEqual(await everyRead(sqlOnly(), m.id, m.leagueId, crowd));
  });

  it('take users hidden, shown, moved to another zone and deactivated, however the copies interleave', async () => {
    const m = await createMatch(app, { status: 'live', scheduled: inMinutes(-30) });
    const crowd = await players(4, m.id);
    await settle(await asked(m.id, crowd, () => 'home'), 'home');
    await caughtUp();
    const [a, b, c] = crowd as [TestUser, TestUser, TestUser];
    const hide = (u: TestUser, hidden: boolean) =>
      app.request('PATCH', `/api/users/${u.id}`, { token: admin.token, body: { hidden_from_leaderboards: hidden } });
    await hide(a, true);
    await settle(await asked(m.id, crowd, () => 'away', 5), 'away');
    await hide(a, false);
    await app.request('PATCH', '/api/users/me', { token: b.token, body: { match_follow_timezone: 'Pacific/Kiritimati' } });
    await lb().drain();
    // Copied twice over (a writer rewound: the same rows again), a hide toggled between the copies.
    await lb().copyToRedis();
    await hide(c, true);
    await lb().copyToRedis();
    await hide(c, false);
    await hide(c, true);
    await lb().copyToRedis();
    await lb().copyToRedis();
    expect(await everyRead(lb(), m.id, m.leagueId, crowd)).toEqual(await everyRead(sqlOnly(), m.id, m.leagueId, crowd));
    const board = await lb().overall({ period: 'all_time', offset: 0, limit: 100 }, null);
    expect(board.rows.map((r) => r.user_id)).not.toContain(c.id);
    expect(board.rows.find((r) => r.user_id === a.id)).toMatchObject({ answered_count: 2 });
  });

  it('end a copy with nothing left to copy while the applier is in the middle of a settlement, instead of spinning on it', async () => {
    const m = await createMatch(app, { status: 'live', scheduled: inMinutes(-30) });
    const crowd = await players(3, m.id);
    await caughtUp();
    await settle(await asked(m.id, crowd, (i) => (i === 2 ? 'away' : 'home')), 'home');
    // The applier a row at a time: between its steps the settlement is part applied (its match board done, its
    // league's and the whole game's not yet), and a copy then has boards behind it with nothing to copy for them.
    for (let step = 0; step < 40; step++) {
      const applied = await lb().applyNext({ wait: true, chunkRows: 1 });
      let rounds = 0;
      await lb().copyToRedis({ stopped: () => ++rounds > 10 });
      expect(rounds, `copy rounds after applier step ${step}`).toBeLessThanOrEqual(10);
      if (!applied) break;
    }
    await caughtUp();
    expect(await everyRead(lb(), m.id, m.leagueId, crowd)).toEqual(await everyRead(sqlOnly(), m.id, m.leagueId, crowd));
  });

  it('are copied again in full when an older layout copied them (copy cursors, no markers), read from PostgreSQL meanwhile', async () => {
    const m = await createMatch(app, { status: 'live', scheduled: inMinutes(-30) });
    const crowd = await players(3, m.id);
    await settle(await asked(m.id, crowd, (i) => (i ? 'home' : 'away')), 'home');
    await caughtUp();
    // What the writer before the applied markers left: `ready` '2' (or '1' before the streak boards) and its copy
    // cursors `p1`..`p3`, no `d1`..`d3`. Taken for this layout, every settlement would be applied again on top.
    const raw = new Redis(redis.url, { keyPrefix: redis.keyPrefix });
    try {
      const [p] = await raw.hmget('lb:meta', 'd1');
      await raw.hdel('lb:meta', 'd1', 'd2', 'd3');
      await raw.hset('lb:meta', 'ready', '2', 'p1', p!.split('|')[0]!, 'p2', p!.split('|')[0]!, 'p3', p!.split('|')[0]!);
    } finally {
      raw.disconnect();
    }
    const fallbacks = lb().cacheState().redisReads;
    const sqlReads = await everyRead(sqlOnly(), m.id, m.leagueId, crowd);
    expect(await everyRead(lb(), m.id, m.leagueId, crowd)).toEqual(sqlReads);
    expect(lb().cacheState().redisReads, 'not ready: PostgreSQL read').toBe(fallbacks);
    await settle(await asked(m.id, crowd, () => 'home', 3), 'home');
    await caughtUp();
    expect(await everyRead(lb(), m.id, m.leagueId, crowd)).toEqual(await everyRead(sqlOnly(), m.id, m.leagueId, crowd));
    expect(lb().cacheState().redisReads).toBeGreaterThan(fallbacks);
  });

  it('are copied again in full when Redis lost them, read from PostgreSQL meanwhile', async () => {
    const m = await createMatch(app, { status: 'live', scheduled: inMinutes(-30) });
    const crowd = await players(3, m.id);
    await settle(await asked(m.id, crowd, (i) => (i ? 'home' : 'away')), 'home');
    await caughtUp();
    const sqlReads = await everyRead(sqlOnly(), m.id, m.leagueId, crowd);
    await dropPrefix(redis);
    // Lost: not ready, so PostgreSQL answers (the same).
    const fallbacks = lb().cacheState().redisReads;
    expect(await everyRead(lb(), m.id, m.leagueId, crowd)).toEqual(sqlReads);
    expect(lb().cacheState().redisReads).toBe(fallbacks);
    await settle(await asked(m.id, crowd, () => 'home', 3), 'home');
    await caughtUp();
    expect(lb().cacheState().redisReads).toBe(fallbacks);
    expect(await everyRead(lb(), m.id, m.leagueId, crowd)).toEqual(await everyRead(sqlOnly(), m.id, m.leagueId, crowd));
    expect(lb().cacheState().redisReads).toBeGreaterThan(fallbacks);
  });
});

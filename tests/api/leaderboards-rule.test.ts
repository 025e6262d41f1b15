/**
 * The leaderboard rule exists once (src/modules/leaderboards/leaderboards.rule.ts);
 * every other form of it is held to it here, on generated histories
 * (fast-check): the SQL applier's chunks, plpgsql `qp_leaderboards_rebuild`,
 * and the boards in Redis, whose copies are repeated, rewound and
 * interleaved with players hidden and shown.
 */
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { rebuildAll } from '../../src/modules/leaderboards/leaderboards.applier.repository.js';
import {
  applyAnswer,
  compareRows,
  compareRowsBy,
  parseRankKey,
  rankKey,
  type RankedRuleRow,
  type RuleRow,
} from '../../src/modules/leaderboards/leaderboards.rule.js';
import type { ScoredOutcome } from '../../src/domain/vocabulary.js';
import { insertIssuance } from '../helpers/engine-rows.js';
import { createMatch, follow } from '../helpers/factories.js';
import { dropPrefix, testRedisConfig } from '../helpers/redis.js';
import { registerUser, type TestUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const uuid = fc.uuid().map((u) => u.toLowerCase());
const row = fc.record({
  userId: uuid,
  points: fc.integer({ min: -1000, max: 2_000_000_000 }),
  correct: fc.integer({ min: 0, max: 2_000_000_000 }),
  answered: fc.nat(),
  currentStreak: fc.nat(),
  bestStreak: fc.nat(),
  // Years 1900 to 2200, to the microsecond.
  reachedUs: fc.integer({ min: -2_208_988_800_000_000, max: 7_258_118_400_000_000 }),
});

describe('the rule', () => {
  it('rank keys sort as the rank order, and say the row back', () => {
    fc.assert(
      fc.property(row, row, (a, b) => {
        const ka = rankKey(a);
        const kb = rankKey(b);
        expect(Math.sign(ka < kb ? -1 : ka > kb ? 1 : 0)).toBe(Math.sign(compareRows(a, b)));
        expect(parseRankKey(ka)).toEqual({ points: a.points, correct: a.correct, reachedUs: a.reachedUs, userId: a.userId });
      }),
      { numRuns: 2000 },
    );
  });

  it('adds up: points, correct and answered are sums; streaks and reached_at as the contract says', () => {
    const answer = fc.record({ outcome: fc.constantFrom<ScoredOutcome>('correct', 'incorrect', 'void'), points: fc.nat(50), atUs: fc.nat(1e15) });
    fc.assert(
      fc.property(fc.array(answer, { minLength: 1, maxLength: 30 }), (answers) => {
        const r = answers.reduce<RuleRow | undefined>((acc, a) => applyAnswer(acc, a), undefined)!;
        const right = answers.filter((a) => a.outcome === 'correct');
        expect(r.points).toBe(answers.reduce((s, a) => s + a.points, 0));
        expect(r.correct).toBe(right.length);
        expect(r.answered).toBe(answers.length);
        expect(r.reachedUs).toBe(right.length ? Math.max(...right.map((a) => a.atUs)) : Math.min(...answers.map((a) => a.atUs)));
        let run = 0;
        let best = 0;
        for (const a of answers) {
          if (a.outcome === 'correct') run++;
          else if (a.outcome === 'incorrect') run = 0;
          best = Math.max(best, run);
        }
        expect({ current: r.currentStreak, best: r.bestStreak }).toEqual({ current: run, best });
      }),
      { numRuns: 500 },
    );
  });
});

const redis = testRedisConfig('rule');
const { app, admin } = useTestApp({ config: { redis } });
afterAll(() => dropPrefix(redis));
const db = () => app.services.database.db;
const lb = () => app.services.leaderboards;
const inMinutes = (m: number) => new Date(Date.now() + m * 60_000);

type Step =
  | { kind: 'settle'; picks: ('home' | 'away' | null)[]; outcome: 'home' | 'away' | 'voided'; points: number; apply: boolean }
  | { kind: 'hide'; who: number; hidden: boolean }
  | { kind: 'copy' }
  | { kind: 'rewind' };

const PLAYERS = 3;
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('settle' as const),
      picks: fc.array(fc.constantFrom('home' as const, 'away' as const, null), { minLength: PLAYERS, maxLength: PLAYERS }),
      outcome: fc.constantFrom('home' as const, 'away' as const, 'voided' as const),
      points: fc.integer({ min: 1, max: 30 }),
      apply: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('hide' as const), who: fc.integer({ min: 0, max: PLAYERS - 1 }), hidden: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('copy' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rewind' as const) }) },
);

/** Each player's answers in the order the boards took their settlements, as the rule takes them. */
async function answersInOrder(matchId: string) {
  const result = (await db().execute(
    sql`select a.user_id, a.outcome, coalesce(a.points_awarded, 0) as points, ((extract(epoch from a.scored_at) * 1000000)::bigint)::text as at_us
        from question_answers a join leaderboard_settlements s on s.question_issuance_id = a.question_issuance_id
        where a.match_id = ${matchId}::uuid and a.outcome is not null order by s.position`,
  )) as unknown;
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
    user_id: string;
    outcome: ScoredOutcome;
    points: number;
    at_us: string;
  }[];
  const byUser = new Map<string, RuleRow>();
  for (const r of rows) byUser.set(r.user_id, applyAnswer(byUser.get(r.user_id), { outcome: r.outcome, points: Number(r.points), atUs: Number(r.at_us) }));
  return byUser;
}

/** The match board's rows in PostgreSQL, by user. */
async function sqlRows(matchId: string): Promise<Map<string, RuleRow>> {
  const result = (await db().execute(
    sql`select s.user_id, s.points, s.correct, s.answered, s.current_streak, s.best_streak, ((extract(epoch from s.reached_at) * 1000000)::bigint)::text as reached_us
        from leaderboard_scores s join leaderboards b on b.id = s.leaderboard_id where b.scope = 'match' and b.scope_id = ${matchId}::uuid`,
  )) as unknown;
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, string | number>[];
  return new Map(
    rows.map((r) => [
      String(r.user_id),
      {
        points: Number(r.points),
        correct: Number(r.correct),
        answered: Number(r.answered),
        currentStreak: Number(r.current_streak),
        bestStreak: Number(r.best_streak),
        reachedUs: Number(r.reached_us),
      },
    ]),
  );
}

/** The match board in Redis, by user, and its orders: by points, and the streak boards' (current, best). */
async function redisRows(matchId: string): Promise<{ rows: Map<string, RuleRow>; order: string[]; currentOrder: string[]; bestOrder: string[] }> {
  const r = new Redis(redis.url, { keyPrefix: redis.keyPrefix });
  try {
    const key = `match|${matchId}|all_time|1970-01-01`;
    const values = await r.hgetall(`lb:h:${key}`);
    const order = (await r.zrange(`lb:z:${key}`, '0', '-1')).map((m) => m.slice(40));
    const currentOrder = (await r.zrange(`lb:c:${key}`, '0', '-1')).map((m) => m.slice(40));
    const bestOrder = (await r.zrange(`lb:b:${key}`, '0', '-1')).map((m) => m.slice(40));
    const rows = new Map<string, RuleRow>();
    for (const [user, v] of Object.entries(values)) {
      const k = parseRankKey(v.slice(0, 76));
      const [answered, current, best] = v.slice(77).split('|').map(Number);
      rows.set(user, { points: k.points, correct: k.correct, reachedUs: k.reachedUs, answered: answered!, currentStreak: current!, bestStreak: best! });
    }
    return { rows, order, currentOrder, bestOrder };
  } finally {
    r.disconnect();
  }
}

async function rewindRedisWriter() {
  const r = new Redis(redis.url, { keyPrefix: redis.keyPrefix });
  try {
    if (await r.exists('lb:meta')) await r.hset('lb:meta', { p1: '0', p2: '0', p3: '0', u: '0' });
  } finally {
    r.disconnect();
  }
}

describe('every form of the rule', () => {
  it('the SQL applier, the rebuild and the boards in Redis (copies rewound and repeated, players hidden and shown) all equal the rule', async () => {
    let rowsCompared = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 6, maxLength: 16 }), async (steps) => {
        const m = await createMatch(app, { status: 'live', scheduled: inMinutes(-30) });
        const crowd: TestUser[] = [];
        for (let i = 0; i < PLAYERS; i++) {
          const u = await registerUser(app);
          await follow(app, u.id, m.id);
          crowd.push(u);
        }
        const hidden = new Set<string>();
        for (const s of steps) {
          if (s.kind === 'settle') {
            const q = await insertIssuance(app, { matchId: m.id, status: 'open', closesAt: inMinutes(2), points: s.points });
            for (const [i, pick] of s.picks.entries())
              if (pick)
                await app.request('PUT', '/api/question-answers', {
                  token: crowd[i]!.token,
                  body: { question_issuance_id: q.id, selected_answer_identifier: pick },
                });
            await app.services.engine.store.settleIssuance({
              id: q.id,
              status: s.outcome === 'voided' ? 'voided' : 'resolved',
              correct: s.outcome === 'voided' ? null : s.outcome,
              resolvedSeq: null,
              resolutionEventId: null,
            });
            // Part applied at times: a chunk of one row, then the rest later.
            if (s.apply) await lb().applyNext({ wait: true, chunkRows: 1 });
          } else if (s.kind === 'hide') {
            const u = crowd[s.who]!;
            await app.request('PATCH', `/api/users/${u.id}`, { token: admin.token, body: { hidden_from_leaderboards: s.hidden } });
            if (s.hidden) hidden.add(u.id);
            else hidden.delete(u.id);
          } else if (s.kind === 'copy') await lb().copyToRedis();
          else await rewindRedisWriter();
        }
        await lb().drain();
        await lb().copyToRedis();
        const expected = await answersInOrder(m.id);
        for (const id of hidden) expected.delete(id);
        rowsCompared += [...expected.values()].filter((r) => r.bestStreak > r.currentStreak).length;
        const sorted = (x: Map<string, RuleRow>) => [...x].sort(([a], [b]) => (a < b ? -1 : 1));
        expect(sorted(await sqlRows(m.id)), 'the SQL applier').toEqual(sorted(expected));
        const inRedis = await redisRows(m.id);
        expect(sorted(inRedis.rows), 'the boards in Redis').toEqual(sorted(expected));
        const order = [...expected]
          .map(([userId, r]): RankedRuleRow => ({ ...r, userId }))
          .sort(compareRows)
          .map((r) => r.userId);
        expect(inRedis.order, 'the order in Redis').toEqual(order);
        const orderBy = (by: 'current_streak' | 'best_streak') =>
          [...expected]
            .map(([userId, r]): RankedRuleRow => ({ ...r, userId }))
            .sort((a, b) => compareRowsBy(by, a, b))
            .map((r) => r.userId);
        expect(inRedis.currentOrder, 'the current streak order in Redis').toEqual(orderBy('current_streak'));
        expect(inRedis.bestOrder, 'the best streak order in Redis').toEqual(orderBy('best_streak'));
        await db().transaction((tx) => rebuildAll({ tx }));
        expect(sorted(await sqlRows(m.id)), 'the rebuild').toEqual(sorted(expected));
      }),
      // Each run is a match and its players through the service: few runs, long histories; no shrinking (minutes a step).
      { numRuns: 6, endOnFailure: true },
    );
    // Not vacuous: the histories put players on the boards, some with a streak that ended.
    expect(rowsCompared).toBeGreaterThan(0);
  }, 600_000);
});

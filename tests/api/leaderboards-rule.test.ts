/**
 * The leaderboard rule exists once (src/modules/leaderboards/leaderboards.rule.ts);
 * every other form of it is held to it here, on generated histories
 * (fast-check): the SQL applier's chunks, plpgsql `qp_leaderboards_rebuild`,
 * and the boards in Redis, to which the writer applies settlements straight
 * from their answers (the rule in Lua) ahead of the SQL applier: stopped
 * between its scripts, replayed from the start, copied in full after Redis
 * lost them, interleaved with players hidden, shown and moved to another
 * zone, on every board of the players (match, league, whole game; all time
 * and each period).
 */
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { rebuildAll } from '../../src/modules/leaderboards/leaderboards.applier.repository.js';
import { boardKeysFor, boardKeyText } from '../../src/modules/leaderboards/leaderboards.keys.js';
import {
  applyAnswer,
  compareRows,
  compareRowsBy,
  parseRankKey,
  rankKey,
  type RankBy,
  type RankedRuleRow,
  type RuleRow,
} from '../../src/modules/leaderboards/leaderboards.rule.js';
import { zoneOrUtc } from '../../src/modules/shared/calendar.js';
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
  | { kind: 'zone'; who: number; zone: string | null }
  | { kind: 'copy'; crashAfter: number | null; batchRows: number }
  | { kind: 'replay'; batchRows: number }
  | { kind: 'lose' };

const PLAYERS = 3;
/** Zones whose local dates differ from UTC's for half the day (a zone change moves a player's period rows). */
const ZONES = [null, 'Pacific/Kiritimati', 'Etc/GMT+12'];
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('settle' as const),
      // Mostly answered and mostly not voided, so that streaks start and end (the streak orders differ from the points').
      picks: fc.array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom('home' as const, 'away' as const) }, { weight: 1, arbitrary: fc.constant(null) }), {
        minLength: PLAYERS,
        maxLength: PLAYERS,
      }),
      outcome: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('home' as const, 'away' as const) }, { weight: 1, arbitrary: fc.constant('voided' as const) }),
      points: fc.integer({ min: 1, max: 30 }),
      apply: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('hide' as const), who: fc.integer({ min: 0, max: PLAYERS - 1 }), hidden: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('zone' as const), who: fc.integer({ min: 0, max: PLAYERS - 1 }), zone: fc.constantFrom(...ZONES) }) },
  {
    weight: 3,
    // The writer stopped (a crash) after some scripts, at times, with scripts of a few rows.
    arbitrary: fc.record({
      kind: fc.constant('copy' as const),
      crashAfter: fc.option(fc.integer({ min: 0, max: 6 })),
      batchRows: fc.constantFrom(1, 2, 5, 2000),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replay' as const), batchRows: fc.constantFrom(1, 2000) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('lose' as const) }) },
);

/**
 * A history run first, every time (fast-check's `examples`): a streak that ended for a player counted at the end
 * (player 0: right, wrong, void, wrong), so the streak orders differ from the points order however the generated
 * histories fall, through a crash between scripts, a direct apply ahead of the SQL applier, a replay, a lost Redis,
 * a hide and a show, and a zone change.
 */
const ENDED_STREAK: Step[] = [
  { kind: 'settle', picks: ['home', 'home', 'away'], outcome: 'home', points: 10, apply: false },
  { kind: 'copy', crashAfter: 1, batchRows: 1 },
  { kind: 'settle', picks: ['away', 'home', 'home'], outcome: 'home', points: 7, apply: true },
  { kind: 'hide', who: 2, hidden: true },
  { kind: 'replay', batchRows: 1 },
  { kind: 'settle', picks: ['home', 'away', null], outcome: 'voided', points: 5, apply: false },
  { kind: 'lose' },
  { kind: 'hide', who: 2, hidden: false },
  { kind: 'zone', who: 1, zone: 'Pacific/Kiritimati' },
  { kind: 'settle', picks: ['home', 'away', 'home'], outcome: 'away', points: 3, apply: false },
  { kind: 'copy', crashAfter: null, batchRows: 2000 },
];

/** Each board's rows of the players: their answers in the order the boards took their settlements, as the rule takes them. */
async function expectedBoards(matchId: string, counted: Set<string>) {
  const result = (await db().execute(
    sql`select a.user_id, a.outcome, coalesce(a.points_awarded, 0) as points, ((extract(epoch from a.scored_at) * 1000000)::bigint)::text as at_us,
               m.league_id, u.match_follow_timezone as zone
        from question_answers a join leaderboard_settlements s on s.question_issuance_id = a.question_issuance_id
        join matches m on m.id = a.match_id join users u on u.id = a.user_id
        where a.match_id = ${matchId}::uuid and a.outcome is not null order by s.position`,
  )) as unknown;
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
    user_id: string;
    outcome: ScoredOutcome;
    points: number;
    at_us: string;
    league_id: string;
    zone: string | null;
  }[];
  const boards = new Map<string, Map<string, RuleRow>>();
  for (const r of rows) {
    if (!counted.has(r.user_id)) continue;
    const atUs = Number(r.at_us);
    for (const key of boardKeysFor({ matchId, leagueId: r.league_id, at: new Date(Math.floor(atUs / 1000)), timeZone: zoneOrUtc(r.zone) })) {
      const board = boards.get(boardKeyText(key)) ?? new Map<string, RuleRow>();
      board.set(r.user_id, applyAnswer(board.get(r.user_id), { outcome: r.outcome, points: Number(r.points), atUs }));
      boards.set(boardKeyText(key), board);
    }
  }
  return boards;
}

/** Every board's rows of these players in PostgreSQL, by board key text and user. */
async function sqlBoards(userIds: string[]): Promise<Map<string, Map<string, RuleRow>>> {
  const result = (await db().execute(
    sql`select b.scope || '|' || b.scope_id || '|' || b.period || '|' || b.period_start::text as board, s.user_id, s.points, s.correct, s.answered,
               s.current_streak, s.best_streak, ((extract(epoch from s.reached_at) * 1000000)::bigint)::text as reached_us
        from leaderboard_scores s join leaderboards b on b.id = s.leaderboard_id
        where s.user_id = any(string_to_array(${userIds.join(',')}, ',')::uuid[])`,
  )) as unknown;
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, string | number>[];
  const boards = new Map<string, Map<string, RuleRow>>();
  for (const r of rows) {
    const board = boards.get(String(r.board)) ?? new Map<string, RuleRow>();
    board.set(String(r.user_id), {
      points: Number(r.points),
      correct: Number(r.correct),
      answered: Number(r.answered),
      currentStreak: Number(r.current_streak),
      bestStreak: Number(r.best_streak),
      reachedUs: Number(r.reached_us),
    });
    boards.set(String(r.board), board);
  }
  return boards;
}

/**
 * Every board's rows of these players in Redis (every board of the test's prefix searched), each board's order of
 * them in each ranking's sorted set (points `lb:z`, current streak `lb:c`, best streak `lb:b`), and the boards whose
 * sets and hash disagree (members, or expiries): every write path keeps the four keys of a board together.
 */
async function redisBoards(
  userIds: string[],
): Promise<{ rows: Map<string, Map<string, RuleRow>>; order: Map<string, Record<RankBy, string[]>>; torn: string[] }> {
  const r = new Redis(redis.url, { keyPrefix: redis.keyPrefix });
  const ids = new Set(userIds);
  try {
    const boards = new Map<string, Map<string, RuleRow>>();
    const order = new Map<string, Record<RankBy, string[]>>();
    const all = new Set<string>();
    let cursor = '0';
    do {
      const [next, keys] = await r.scan(cursor, 'MATCH', `${redis.keyPrefix}lb:[zhcb]:*`, 'COUNT', 1000);
      cursor = next;
      for (const full of keys) all.add(full.slice(redis.keyPrefix.length + 'lb:h:'.length));
    } while (cursor !== '0');
    const torn: string[] = [];
    for (const board of all) {
      const kinds = ['h', 'z', 'c', 'b'].map((k) => `lb:${k}:${board}`);
      const sizes = [await r.hlen(kinds[0]!), ...(await Promise.all(kinds.slice(1).map((k) => r.zcard(k))))];
      const expiries = await Promise.all(kinds.map((k) => r.expiretime(k)));
      const members = await Promise.all(kinds.slice(1).map((k) => r.zrange(k, '0', '-1')));
      const same = (xs: string[]) => [...xs].sort().join();
      if (new Set(sizes).size > 1 || new Set(expiries).size > 1 || new Set(members.map(same)).size > 1)
        torn.push(`${board}: sizes ${sizes.join('/')}, expiries ${expiries.join('/')}`);
      const values = await r.hmget(kinds[0]!, ...userIds);
      const rows = new Map<string, RuleRow>();
      values.forEach((v, i) => {
        if (!v) return;
        const k = parseRankKey(v.slice(0, 76));
        const [answered, current, best] = v.slice(77).split('|').map(Number);
        rows.set(userIds[i]!, {
          points: k.points,
          correct: k.correct,
          reachedUs: k.reachedUs,
          answered: answered!,
          currentStreak: current!,
          bestStreak: best!,
        });
      });
      const [points, currentStreak, bestStreak] = members.map((ms) => ms.map((m) => m.slice(40)).filter((u) => ids.has(u)));
      if (!rows.size && !points!.length && !currentStreak!.length && !bestStreak!.length) continue;
      boards.set(board, rows);
      order.set(board, { points: points!, current_streak: currentStreak!, best_streak: bestStreak! });
    }
    return { rows: boards, order, torn };
  } finally {
    r.disconnect();
  }
}

/** Redis lost the boards (restarted empty): the writer copies every board from PostgreSQL next. */
async function loseRedisBoards() {
  const r = new Redis(redis.url, { keyPrefix: redis.keyPrefix });
  try {
    await r.del('lb:meta');
  } finally {
    r.disconnect();
  }
}

/** The boards in Redis hold the rule's rows, in each ranking's order (compareRowsBy), their four keys together. */
function expectRedis(inRedis: Awaited<ReturnType<typeof redisBoards>>, expected: Map<string, Map<string, RuleRow>>, when: string) {
  expect(inRedis.torn, `boards whose sets and hash disagree in Redis ${when}`).toEqual([]);
  expect(sortedBoards(inRedis.rows), `the boards in Redis ${when}`).toEqual(sortedBoards(expected));
  for (const [board, rows] of expected) {
    const ranked = [...rows].map(([userId, r]): RankedRuleRow => ({ ...r, userId }));
    const orderBy = (by: RankBy) => [...ranked].sort((a, b) => compareRowsBy(by, a, b)).map((r) => r.userId);
    for (const by of ['points', 'current_streak', 'best_streak'] as const)
      expect(inRedis.order.get(board)?.[by], `the ${by} order in Redis of ${board} ${when}`).toEqual(orderBy(by));
  }
}

const sortedBoards = (x: Map<string, Map<string, RuleRow>>) =>
  [...x].map(([board, rows]) => [board, [...rows].sort(([a], [b]) => (a < b ? -1 : 1))] as const).sort(([a], [b]) => (a < b ? -1 : 1));

describe('every form of the rule', () => {
  it('the SQL applier, the rebuild and the boards in Redis (settlements applied there directly, crashes between scripts, replays, a lost Redis, players hidden, shown and moved) all equal the rule', async () => {
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
          } else if (s.kind === 'zone') {
            const res = await app.request('PATCH', '/api/users/me', { token: crowd[s.who]!.token, body: { match_follow_timezone: s.zone } });
            expect(res.status).toBe(200);
          } else if (s.kind === 'copy') {
            let scripts = 0;
            const crashAfter = s.crashAfter;
            await lb().copyToRedis({ batchRows: s.batchRows, ...(crashAfter === null ? {} : { stopped: () => scripts++ > crashAfter }) });
          } else if (s.kind === 'replay') await lb().copyToRedis({ replay: true, batchRows: s.batchRows });
          else await loseRedisBoards();
        }
        await lb().copyToRedis();
        const ids = crowd.map((u) => u.id);
        const expected = await expectedBoards(m.id, new Set(ids.filter((id) => !hidden.has(id))));
        for (const rows of expected.values()) rowsCompared += [...rows.values()].filter((r) => r.bestStreak > r.currentStreak).length;
        // The boards in Redis have every settlement before the SQL applier has applied them.
        expectRedis(await redisBoards(ids), expected, 'before the applier');
        await lb().drain();
        expect(sortedBoards(await sqlBoards(ids)), 'the SQL applier').toEqual(sortedBoards(expected));
        // Once more after the applier (its boardsApplied kicks the writer: nothing left to apply, nothing applied twice).
        await lb().copyToRedis();
        expectRedis(await redisBoards(ids), expected, 'after the applier');
        await db().transaction((tx) => rebuildAll({ tx }));
        expect(sortedBoards(await sqlBoards(ids)), 'the rebuild').toEqual(sortedBoards(expected));
      }),
      // Each run is a match and its players through the service: few runs, long histories; no shrinking (minutes a step).
      { numRuns: 6, endOnFailure: true, examples: [[ENDED_STREAK]] },
    );
    // Not vacuous: the histories put players on the boards, some with a streak that ended.
    expect(rowsCompared).toBeGreaterThan(0);
  }, 600_000);
});

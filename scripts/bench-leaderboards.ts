/**
 * npm run bench:leaderboards: leaderboards at scale (the targets: a read of
 * the top 100 plus the caller's rank under 20 ms p99 with 1,000,000 scored
 * players and 10,000 groups; a resolution that scores 100,000 answers updates
 * every affected board within a second).
 *
 * Runs the service's own code (createServices: the leaderboards service, the
 * engine store's settling transaction) on a dedicated PostgreSQL database
 * qp_benchlb_<pid> (DATABASE_URL; created and dropped), or on an in-memory
 * PGlite without it (slow to seed; use a smaller BENCH_LB_PLAYERS).
 *
 * Seeds, in SQL: BENCH_LB_PLAYERS users (default 1,000,000) in four time
 * zones, each on the whole game's all-time board and most on league wc's,
 * and subsets on the current month's, week's and day's boards of both (2.7
 * rows per player on average), with a spread of points
 * and correct answers like a season's (5% with no correct answer: the
 * largest tie, the worst case of a rank count); the point counts of every
 * board; BENCH_LB_GROUPS private groups (default 10,000) of
 * BENCH_LB_GROUP_SIZE members (default 20).
 *
 * Measures: BENCH_LB_READS reads (default 2,000, after 200 warm-up reads) of
 * the whole game all time, league wc all time and the whole game this week,
 * each the top 100 plus a random caller's own row and rank, as the
 * operations' handlers call them; the same for callers of the largest tie
 * (no correct answer); reads of a random group's board by its owner. Then
 * BENCH_LB_ROUNDS resolutions (default 2) of a question answered by
 * BENCH_LB_ANSWERS players (default 100,000; half of them right), each
 * settled in one transaction as the engine settles (scoring, then the
 * settlement queued for the boards), with the time of each part; then the
 * queue applied as the worker applies it (chunks of BENCH_LB_CHUNK_ROWS
 * board rows, default LEADERBOARD_APPLY_CHUNK_ROWS), with the time from the
 * commit until the match board, the all-time boards and the period boards
 * have it, the number of chunks and the longest chunk; meanwhile (unless
 * BENCH_LB_READ_DURING=0) reads of the whole game's and the match's boards,
 * one after another. Then (PostgreSQL) the floor of a row write: the
 * cheapest statements writing as many rows as a resolution does, rolled
 * back, timed, with their WAL records (pg_walinspect when available).
 *
 * Prints p50 / p99 / max per read kind, the resolution times, and the
 * machine. Never exits non-zero on a missed target.
 */
import os from 'node:os';
import { sql } from 'drizzle-orm';
import type { BoardKey } from '../src/modules/leaderboards/leaderboards.repository.js';

function envInt(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}`);
  return n;
}

const PLAYERS = envInt('BENCH_LB_PLAYERS', 1_000_000, 1000);
const GROUPS = envInt('BENCH_LB_GROUPS', 10_000, 1);
const GROUP_SIZE = envInt('BENCH_LB_GROUP_SIZE', 20, 2);
const READS = envInt('BENCH_LB_READS', 2000, 10);
const ANSWERS = Math.min(envInt('BENCH_LB_ANSWERS', 100_000, 10), PLAYERS);
const ROUNDS = envInt('BENCH_LB_ROUNDS', 2, 1);
/** 0: no reads while the resolutions are applied (the applier alone, to compare its cost between builds). */
const READ_DURING = envInt('BENCH_LB_READ_DURING', 1, 0);
/** 1: the applier starts once the other process's boards in memory have the settlement (their figure without the applier's database work on the same cores). */
const APPLIER_AFTER = envInt('BENCH_LB_APPLIER_AFTER', 0, 0);
/** Board rows per applied chunk (0: the service's default, LEADERBOARD_APPLY_CHUNK_ROWS). */
const CHUNK_ROWS = envInt('BENCH_LB_CHUNK_ROWS', 0, 0);

const fmt = (n: number, digits = 1) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
const log = (...args: unknown[]) => console.error(`[${new Date().toISOString().slice(11, 19)}]`, ...args);

async function main() {
  // Seeding a million players takes statements of minutes; the API's 2-second budget would cut them. (The engine
  // settles on connections with a 30-second budget; the reads measured here are far below either.)
  process.env.DB_STATEMENT_TIMEOUT_MS ??= '900000';
  process.env.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS ??= '900000';
  process.env.DB_POOL_WAIT_MS ??= '600000';
  const { loadConfig } = await import('../src/config.js');
  const { createLogger } = await import('../src/logger.js');
  const { createServices } = await import('../src/services.js');
  const { createEngineStore } = await import('../src/engine/store.js');
  const { scoreSettledIssuance } = await import('../src/modules/answers/scoring.js');
  const { openBenchDatabase } = await import('./bench-database.js');
  const { seedLeagues } = await import('../src/modules/leagues/leagues.repository.js');
  const { periodStarts, periodStartsOfDate, localDate, zoneOrUtc } = await import('../src/modules/shared/calendar.js');
  const { OVERALL_ID, ALL_TIME_START } = await import('../src/modules/leaderboards/leaderboards.repository.js');
  const { createLeaderboardsService } = await import('../src/modules/leaderboards/leaderboards.service.js');
  const { openDatabase } = await import('../src/db/client.js');

  const { database, where, url, drop } = await openBenchDatabase('qp_benchlb');
  /** Deletes the boards this run put in Redis (its own prefix). */
  let dropRedisBoards = async () => {};
  try {
    // The service's own boards are the SQL read (what the reads and the applier below measure); the boards in memory are
    // another service's (memLb below), as another process's would be.
    const config = loadConfig({ APP_ENV: 'test', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', DATA_DIR: ':memory:' });
    const services = createServices({ database, config, logger: createLogger(config.logLevel) });
    const { db } = database;
    const exec = (q: ReturnType<typeof sql>) => database.rows(q);
    const timed = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
      const t0 = performance.now();
      const out = await fn();
      log(`${what}: ${fmt((performance.now() - t0) / 1000)} s`);
      return out;
    };

    // ------------------------------------------------------------ seed
    await seedLeagues({ db });
    const [league] = await exec(sql`select id from leagues where slug = 'wc'`);
    const leagueId = (league as { id: string }).id;
    const starts = periodStarts(new Date(), 'UTC');
    await timed(`${PLAYERS.toLocaleString()} users`, () =>
      exec(sql`insert into users (username, email, match_follow_timezone)
               select 'p' || g, 'p' || g || '@bench.invalid', (array[null, 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo'])[1 + g % 4]
               from generate_series(1, ${PLAYERS}::int) g`),
    );
    const boards: { scope: string; scopeId: string; period: string; start: string; share: number; scale: number }[] = [];
    for (const [scope, scopeId, allShare] of [
      ['overall', OVERALL_ID, 100],
      ['league', leagueId, 80],
    ] as const) {
      boards.push({ scope, scopeId, period: 'all_time', start: ALL_TIME_START, share: allShare, scale: 1 });
      boards.push({ scope, scopeId, period: 'month', start: starts.month, share: scope === 'overall' ? 30 : 25, scale: 0.12 });
      boards.push({ scope, scopeId, period: 'week', start: starts.week, share: scope === 'overall' ? 15 : 12, scale: 0.04 });
      boards.push({ scope, scopeId, period: 'day', start: starts.day, share: scope === 'overall' ? 6 : 5, scale: 0.01 });
    }
    const boardIds = new Map<string, number>();
    for (const b of boards) {
      const [row] = await exec(
        sql`insert into leaderboards (scope, scope_id, period, period_start) values (${b.scope}, ${b.scopeId}::uuid, ${b.period}, ${b.start}::date) returning id`,
      );
      const id = Number((row as { id: number }).id);
      boardIds.set(`${b.scope}:${b.period}`, id);
      // A season's spread: answered up to ~400 (scaled for periods), 15-70% right, 10-30 points a right answer; 5% with none right.
      await timed(`board ${b.scope} ${b.period} (${b.share}% of players)`, () =>
        exec(sql`insert into leaderboard_scores (leaderboard_id, user_id, points, correct, answered, current_streak, best_streak, reached_at)
                 select ${id}::int, u.id, c.correct * 10 + floor(random() * c.correct * 20)::int, c.correct, c.answered,
                        floor(random() * least(c.correct, 5))::int, least(c.correct, 1 + floor(random() * 12))::int,
                        now() - random() * interval '30 days' * ${b.scale}::float8
                 from users u
                 -- Per player: a LATERAL subquery that names no column of u is run once for the whole statement (one
                 -- answered count for every player of a board, as this bench seeded until 2026-11-26).
                 cross join lateral (select 1 + floor(power(random(), 2) * 400 * ${b.scale}::float8)::int as answered where u.id is not null) a
                 cross join lateral (select case when random() < 0.05 then 0 else floor(a.answered * (0.15 + random() * 0.55))::int end as correct, a.answered) c
                 where abs(hashtext(u.id::text)) % 100 < ${b.share}::int`),
      );
    }
    await timed('point counts', () =>
      exec(
        sql`insert into leaderboard_point_counts (leaderboard_id, points, players) select leaderboard_id, points, count(*) from leaderboard_scores group by 1, 2`,
      ),
    );
    // Players are p1..pN: a group's owner and members are picked by number (spread over the whole range).
    await timed(`${GROUPS.toLocaleString()} groups of ${GROUP_SIZE}`, async () => {
      await exec(sql`insert into player_groups (name, owner_id, invite_code)
                     select 'Group ' || g, u.id, upper(substr(md5(g::text), 1, 10))
                     from generate_series(1, ${GROUPS}::int) g
                     join users u on lower(u.username) = 'p' || (1 + (g::bigint * 7919) % ${PLAYERS}::int)`);
      await exec(sql`insert into player_group_members (group_id, user_id) select id, owner_id from player_groups`);
      await exec(sql`insert into player_group_members (group_id, user_id)
                     select g.id, u.id from (select id, row_number() over (order by id) as gn from player_groups) g
                     cross join generate_series(1, ${GROUP_SIZE - 1}::int) k
                     join users u on lower(u.username) = 'p' || (1 + (g.gn * 104729 + k * 15485863) % ${PLAYERS}::int)
                     on conflict do nothing`);
    });
    // Vacuumed as a settled production table is: the visibility map lets the rank counts read the index alone, and no autovacuum runs during the reads.
    await timed('vacuum analyze', () => exec(sql`vacuum analyze`));
    const [{ rows: scoreRows }] = (await exec(sql`select count(*)::int as rows from leaderboard_scores`)) as [{ rows: number }];
    const [{ size }] = (await exec(sql`select pg_size_pretty(pg_total_relation_size('leaderboard_scores')) as size`)) as [{ size: string }];
    const [{ members }] = (await exec(sql`select count(*)::int as members from player_group_members`)) as [{ members: number }];

    // ------------------------------------------------------------ reads
    const sample = async (n: number, where = sql`true`) => {
      const rows = (await exec(
        sql`select u.* from users u join leaderboard_scores s on s.user_id = u.id and s.leaderboard_id = ${boardIds.get('overall:all_time')!}::int where ${where} order by random() limit ${n}`,
      )) as Record<string, unknown>[];
      // The row as drizzle maps it (the services take UserRow).
      const ids = rows.map((r) => r.id as string);
      const { users } = await import('../src/modules/users/users.table.js');
      const { inArray } = await import('drizzle-orm');
      return db.select().from(users).where(inArray(users.id, ids));
    };
    const viewers = await sample(READS + 200);
    const tied = await sample(Math.min(READS, 500), sql`s.correct = 0`);
    const groupOwners = (await exec(sql`select id, owner_id from player_groups order by random() limit ${Math.min(READS, GROUPS)}`)) as {
      id: string;
      owner_id: string;
    }[];
    const { users } = await import('../src/modules/users/users.table.js');
    const { inArray } = await import('drizzle-orm');
    const ownerRows = new Map(
      (
        await db
          .select()
          .from(users)
          .where(
            inArray(
              users.id,
              groupOwners.map((g) => g.owner_id),
            ),
          )
      ).map((u) => [u.id, u]),
    );

    const lb = services.leaderboards;
    const reads: { name: string; run: (i: number) => Promise<unknown> }[] = [
      { name: 'whole game, all time: top 100 + caller', run: (i) => lb.overall({ period: 'all_time', offset: 0, limit: 100 }, viewers[i % viewers.length]!) },
      {
        name: 'league wc, all time: top 100 + caller',
        run: (i) => lb.league('wc', { period: 'all_time', offset: 0, limit: 100 }, viewers[i % viewers.length]!),
      },
      { name: 'whole game, this week: top 100 + caller', run: (i) => lb.overall({ period: 'week', offset: 0, limit: 100 }, viewers[i % viewers.length]!) },
      {
        name: 'whole game, all time, caller in the largest tie',
        run: (i) => lb.overall({ period: 'all_time', offset: 0, limit: 100 }, tied[i % tied.length]!),
      },
      {
        name: `a group's board (${GROUP_SIZE} members), all time`,
        run: (i) => {
          const g = groupOwners[i % groupOwners.length]!;
          return services.playerGroups.leaderboard(ownerRows.get(g.owner_id)!, g.id, { scope: 'overall', period: 'all_time' });
        },
      },
    ];
    const readResults: { name: string; lat: number[] }[] = [];
    for (const r of reads) {
      for (let i = 0; i < 200; i++) await r.run(READS + i);
      const lat: number[] = [];
      for (let i = 0; i < READS; i++) {
        const t0 = performance.now();
        await r.run(i);
        lat.push(performance.now() - t0);
      }
      lat.sort((a, b) => a - b);
      readResults.push({ name: r.name, lat });
      log(`${r.name}: p50 ${fmt(percentile(lat, 50), 2)} ms, p99 ${fmt(percentile(lat, 99), 2)} ms`);
    }

    // ------------------------------------------------------------ resolutions
    // The settling transaction as the engine runs it (scoring, then the queue row), timed in parts; then the applier
    // (what the worker runs after the commit), timed from the commit to the end of each phase.
    const parts = { scoring: 0, enqueue: 0 };
    const store = createEngineStore({
      db,
      brandSnapshot: services.engine.brandSnapshot,
      // The reactions to `settling` (src/events/reactions.ts), timed one by one.
      events: {
        emit: async (event) => {
          if (event.type !== 'settling') return;
          const { tx, row } = event;
          const t0 = performance.now();
          await scoreSettledIssuance(tx, row);
          const t1 = performance.now();
          await services.leaderboards.enqueueSettlement(tx, row);
          parts.scoring = t1 - t0;
          parts.enqueue = performance.now() - t1;
        },
      },
    });
    const [matchRow] = (await exec(sql`insert into matches (sr_id, league_id, home_team, away_team, scheduled, status)
                                       values ('bench:lb', ${leagueId}::uuid, 'Bench Home', 'Bench Away', now() - interval '30 minutes', 'live') returning id`)) as [
      { id: string },
    ];
    type DuringApply = { name: string; lat: number[]; run: (i: number, matchId: string) => Promise<unknown> };
    /** The whole game's board, top 100 + a caller, and a caller in the largest tie, read through a service. */
    const wholeGameReads = (prefix: string, service: typeof lb): DuringApply[] => [
      {
        name: `${prefix}whole game, all time: top 100 + caller`,
        lat: [],
        run: (i) => service.overall({ period: 'all_time', offset: 0, limit: 100 }, viewers[i % viewers.length]!),
      },
      {
        name: `${prefix}whole game, all time, caller in the largest tie`,
        lat: [],
        run: (i) => service.overall({ period: 'all_time', offset: 0, limit: 100 }, tied[i % tied.length]!),
      },
    ];
    const duringApply: DuringApply[] = [
      ...wholeGameReads('', lb),
      { name: 'the match: top 100 + caller', lat: [], run: (i, matchId) => lb.match(matchId, { offset: 0, limit: 100 }, viewers[i % viewers.length]!) },
    ];
    // Another process's reads of the boards: a service of its own on a connection pool of its own (PGlite: the same
    // database, one connection); with BENCH_REDIS_URL its boards are in Redis (leaderboards.redis.ts), where its writer
    // applies each settlement from its answers once it is committed, as a worker's would (kicked by `settled`). Without
    // it, its reads are PostgreSQL's.
    // The engine's budgets (30-second statements): its writer is a worker's, whose connections have them (scripts/worker.ts).
    const other = url ? await openDatabase({ url, limits: config.database.engine }) : database;
    const { connectRedis } = await import('../src/redis/client.js');
    const { createRedisBoards } = await import('../src/modules/leaderboards/leaderboards.redis.js');
    const redisConfig = process.env.BENCH_REDIS_URL ? { url: process.env.BENCH_REDIS_URL, keyPrefix: `qp-benchlb:${process.pid}:` } : null;
    const benchLogger = createLogger('warn');
    if (redisConfig)
      dropRedisBoards = async () => {
        const { Redis } = await import('ioredis');
        const r = new Redis(redisConfig.url);
        let cursor = '0';
        do {
          const [next, keys] = await r.scan(cursor, 'MATCH', `${redisConfig.keyPrefix}*`, 'COUNT', 1000);
          cursor = next;
          if (keys.length) await r.unlink(...keys);
        } while (cursor !== '0');
        r.disconnect();
      };
    const otherBoards = (otherDb: typeof other.db) =>
      createLeaderboardsService({
        db: otherDb,
        leagues: services.leagues,
        ...(redisConfig
          ? {
              redisBoards: {
                boards: createRedisBoards({ redis: connectRedis(redisConfig, { name: 'bench boards', logger: benchLogger }), prefix: redisConfig.keyPrefix }),
                writer: createRedisBoards({
                  redis: connectRedis(redisConfig, { name: 'bench writer', logger: benchLogger, commandTimeoutMs: 60_000 }),
                  prefix: redisConfig.keyPrefix,
                }),
              },
            }
          : {}),
      });
    const memLb = otherBoards(other.db);
    /** The writer of the boards in Redis, one round after another (kicked at each commit, as the worker's is). */
    let copying: Promise<unknown> = Promise.resolve();
    /** The writer's steps in the round of each settlement: reading its answers, applying each phase (ms). */
    const writerSteps: string[] = [];
    const copy = () =>
      (copying = copying.then(() =>
        memLb.copyToRedis({ onStep: (s) => writerSteps.push(`${s.what === 'answers' ? 'answers read' : `phase ${s.what}`} ${fmt(s.ms)}`) }),
      ));
    /** ms from the commit until the writer's round that applied the settlement to every board in Redis ended, per round. */
    const writerDone: number[] = [];
    if (redisConfig) {
      const c0 = performance.now();
      const rows = await memLb.copyToRedis();
      log(`every board copied into Redis: ${rows.toLocaleString()} rows in ${fmt(performance.now() - c0)} ms`);
    }
    // The same reads from the other service's memory (its whole game's board is kept from each round's start).
    duringApply.push(...wholeGameReads("from the other process's memory: ", memLb));
    const memory: {
      round: number;
      /** ms from the commit until each board read from memory had the watcher's answer, by board name. */
      byBoard: Map<string, number>;
      /** ms until the last of them. */
      every: number;
      reads: number;
      rows: number;
      identical: boolean;
      loadMs: number;
      readMs: number;
      applyMs: number[];
    }[] = [];
    const resolutions: {
      round: number;
      total: number;
      scoring: number;
      enqueue: number;
      phases: [number, number, number];
      chunks: number;
      longestChunk: number;
    }[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const [iss] =
        (await exec(sql`insert into question_issuances (match_id, kind, definition_name, question_text, choices, resolution, trigger_event_id, closes_at, points, status)
                                     values (${matchRow.id}::uuid, 'in_game', 'Bench', 'Next goal?', ${JSON.stringify([
                                       { identifier: 'home', label: 'Bench Home' },
                                       { identifier: 'away', label: 'Bench Away' },
                                     ])}::jsonb, '{}'::jsonb, ${`bench-${round}`}, now() + interval '1 hour', 10, 'open') returning id`)) as [{ id: string }];
      await timed(`round ${round}: ${ANSWERS.toLocaleString()} answers`, () =>
        exec(sql`insert into question_answers (user_id, question_issuance_id, match_id, selected_answer_identifier)
                 select id, ${iss.id}::uuid, ${matchRow.id}::uuid, case when random() < 0.5 then 'home' else 'away' end
                 from (select id from users order by hashtext(id::text || ${String(round)}) limit ${ANSWERS}::int) u`),
      );
      await exec(sql`analyze question_answers`);
      // The watcher: the last player (in user order) who answered this question, their row on the match board before it
      // (the board loaded in memory first: its load is not what is measured). The writers go through a settlement's
      // answers in user order: the watcher's row has it on a board once the whole settlement is on it.
      const [watched] = (await exec(sql`select u.* from users u join question_answers a on a.user_id = u.id
                                         where a.question_issuance_id = ${iss.id}::uuid order by a.user_id desc limit 1`)) as Record<string, unknown>[];
      const watcher = (await db.query.users.findFirst({ where: (u, { eq }) => eq(u.id, String(watched!.id)) }))!;
      // Every board the watcher's answer lands on (the periods in the watcher's zone), as the handlers read them.
      const page = { offset: 0, limit: 100 };
      const boardReads: { name: string; key: BoardKey; read: (svc: typeof memLb) => ReturnType<typeof memLb.overall> }[] = [
        {
          name: 'match',
          key: { scope: 'match', scopeId: matchRow.id, period: 'all_time', periodStart: ALL_TIME_START },
          read: (svc) => svc.match(matchRow.id, page, watcher),
        },
        ...(['all_time', 'day', 'week', 'month'] as const).flatMap((period) => {
          const start = period === 'all_time' ? ALL_TIME_START : periodStartsOfDate(localDate(new Date(), zoneOrUtc(watcher.matchFollowTimezone)))[period];
          return [
            {
              name: `whole game ${period}`,
              key: { scope: 'overall' as const, scopeId: OVERALL_ID, period, periodStart: start },
              read: (svc: typeof memLb) => svc.overall({ ...page, period }, watcher),
            },
            {
              name: `league ${period}`,
              key: { scope: 'league' as const, scopeId: leagueId, period, periodStart: start },
              read: (svc: typeof memLb) => svc.league(leagueId, { ...page, period }, watcher),
            },
          ];
        }),
      ];
      // Loaded in memory first (their loads are not what is measured): a read starts each one's load.
      for (const b of boardReads) await b.read(memLb);
      const answeredBefore = new Map<string, number>();
      for (const b of boardReads) answeredBefore.set(b.name, (await b.read(memLb)).me?.answered_count ?? 0);
      const t0 = performance.now();
      const settled = await store.settleIssuance({ id: iss.id, status: 'resolved', correct: 'home', resolvedSeq: null, resolutionEventId: null });
      const committed = performance.now();
      if (!settled) throw new Error('the question did not settle');
      if (redisConfig) void copy().then(() => writerDone.push(performance.now() - committed));
      const phases: [number, number, number] = [NaN, NaN, NaN];
      let chunks = 0;
      let longestChunk = 0;
      let last = committed;
      // Meanwhile, readers (as players refresh the boards while the resolution lands): every chunk moves the boards'
      // versions, so the cached pages and tie copies are read again as they go stale.
      // From the commit, the other process reads its boards in turn until the watcher's row has the answer on each (from memory).
      const memoryReader = (async () => {
        const byBoard = new Map<string, number>();
        let reads = 0;
        while (byBoard.size < boardReads.length)
          for (const b of boardReads) {
            if (byBoard.has(b.name)) continue;
            reads++;
            const board = await b.read(memLb);
            if ((board.me?.answered_count ?? 0) > answeredBefore.get(b.name)!) byBoard.set(b.name, performance.now() - committed);
          }
        return { byBoard, every: Math.max(...byBoard.values()), reads, rows: 0 };
      })().catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
      let applying = READ_DURING > 0;
      const reader = (async () => {
        for (let i = 0; applying; i++) {
          const kind = duringApply[i % duringApply.length]!;
          const t0 = performance.now();
          await kind.run(i, matchRow.id);
          kind.lat.push(performance.now() - t0);
        }
      })();
      if (APPLIER_AFTER) await memoryReader;
      await services.leaderboards.drain({
        ...(CHUNK_ROWS ? { chunkRows: CHUNK_ROWS } : {}),
        onChunk: (c) => {
          const at = performance.now();
          chunks++;
          longestChunk = Math.max(longestChunk, at - last);
          last = at;
          if (c.phaseDone) phases[c.phase - 1] = at - committed;
        },
      });
      await copying;
      applying = false;
      await reader;
      const seen = await memoryReader;
      if (seen instanceof Error) throw seen;
      // Once the applier has caught up, the memory's replies are the SQL read's, byte for byte (the top 100 and the watcher's row).
      services.leaderboards.forgetPages();
      let identical = true;
      for (const b of boardReads) if (JSON.stringify(await b.read(services.leaderboards)) !== JSON.stringify(await b.read(memLb))) identical = false;
      // And the boards loaded now, in one snapshot each (what a process that reads them first pays, in the background); dropped after.
      const fresh = otherBoards(other.db);
      const l0 = performance.now();
      for (const b of boardReads) await b.read(fresh);
      const loadMs = performance.now() - l0;
      const splits: ({ readMs: number; applyMs: number } | undefined)[] = [];
      memory.push({
        round,
        ...seen,
        identical,
        loadMs,
        readMs: splits[0]?.readMs ?? NaN,
        applyMs: splits.map((x) => x?.applyMs ?? NaN),
      });
      log(
        `round ${round}: the other process's ${boardReads.length} boards (memory, ${seen.rows.toLocaleString()} rows) had it ${fmt(seen.every)} ms after the commit (${[...seen.byBoard].map(([n, ms]) => `${n} ${fmt(ms)}`).join(', ')}; ${seen.reads} reads); identical to the SQL read after the applier: ${identical}; a fresh load of them ${fmt(loadMs)} ms${redisConfig ? `; the Redis writer's round done ${fmt(writerDone[round - 1] ?? NaN)} ms after the commit (${writerSteps.splice(0).join(', ')} ms)` : ''}`,
      );
      const r = { round, total: committed - t0, scoring: parts.scoring, enqueue: parts.enqueue, phases, chunks, longestChunk };
      resolutions.push(r);
      log(
        `round ${round}: settled in ${fmt(r.total)} ms (scoring ${fmt(r.scoring)} ms, queue ${fmt(r.enqueue)} ms); after the commit: match board ${fmt(phases[0])} ms, all-time boards ${fmt(phases[1])} ms, period boards ${fmt(phases[2])} ms (${chunks} chunks, longest ${fmt(longestChunk)} ms)`,
      );
    }

    // ------------------------------------------------------------ the floor of a row write
    // What the boards' rows cost PostgreSQL at the least, whatever writes them: the cheapest set-based statements for
    // as many rows as a resolution of ANSWERS answers writes (9 per answer), each in a transaction rolled back after
    // it, timed, with the WAL records of its transaction (pg_walinspect, when the server has it).
    const floor: { what: string; rows: number; ms: number; records: number | null; walMb: number }[] = [];
    if (url) {
      const walinspect = await exec(sql`create extension if not exists pg_walinspect`).then(
        () => true,
        () => false,
      );
      await exec(sql`create table bench_sample as select user_id from leaderboard_scores where leaderboard_id = ${boardIds.get('overall:all_time')!}::int
                     order by hashtext(user_id::text) limit ${ANSWERS}::int`);
      await exec(sql`create index on bench_sample (user_id)`);
      await exec(sql`vacuum analyze bench_sample, leaderboard_scores`);
      const overall = boardIds.get('overall:all_time')!;
      const statements = [
        {
          what: `insert ${(ANSWERS * 9).toLocaleString()} new rows (9 boards of ${ANSWERS.toLocaleString()})`,
          rows: ANSWERS * 9,
          q: sql`insert into leaderboard_scores (leaderboard_id, user_id, points, correct, answered, current_streak, best_streak, reached_at)
                 select -k, s.user_id, 10, 1, 1, 1, 1, now() from bench_sample s cross join generate_series(1, 9) k`,
        },
        {
          what: `update ${ANSWERS.toLocaleString()} rows in place, no indexed column (an incorrect answer)`,
          rows: ANSWERS,
          q: sql`update leaderboard_scores s set answered = s.answered + 1 from bench_sample u where s.leaderboard_id = ${overall}::int and s.user_id = u.user_id`,
        },
        {
          what: `update ${ANSWERS.toLocaleString()} rows, points and correct (a right answer: the rank index moves)`,
          rows: ANSWERS,
          q: sql`update leaderboard_scores s set points = s.points + 10, correct = s.correct + 1, answered = s.answered + 1
                 from bench_sample u where s.leaderboard_id = ${overall}::int and s.user_id = u.user_id`,
        },
      ];
      class Rollback extends Error {}
      for (const st of statements) {
        let l0 = '';
        let l1 = '';
        let xid = '';
        let ms = 0;
        await db
          .transaction(async (tx) => {
            const [a] = (await tx.execute(sql`select pg_current_wal_insert_lsn()::text as l, pg_current_xact_id()::text as x`)) as unknown as {
              l: string;
              x: string;
            }[];
            const t0 = performance.now();
            await tx.execute(st.q);
            ms = performance.now() - t0;
            const [b] = (await tx.execute(sql`select pg_current_wal_insert_lsn()::text as l`)) as unknown as { l: string }[];
            l0 = a!.l;
            xid = a!.x;
            l1 = b!.l;
            throw new Rollback();
          })
          .catch((err: unknown) => {
            if (!(err instanceof Rollback)) throw err;
          });
        const [{ mb }] = (await exec(sql`select pg_wal_lsn_diff(${l1}::pg_lsn, ${l0}::pg_lsn) / 1048576.0 as mb`)) as [{ mb: string }];
        let records: number | null = null;
        if (walinspect) {
          // The records can be read once flushed (the walwriter does within wal_writer_delay).
          for (let i = 0; i < 50; i++) {
            const [{ ok }] = (await exec(sql`select pg_current_wal_flush_lsn() >= ${l1}::pg_lsn as ok`)) as [{ ok: boolean }];
            if (ok) break;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          // A statement writing more WAL than max_wal_size spans a checkpoint, which may have recycled its first segments.
          records = await exec(sql`select count(*)::int as n from pg_get_wal_records_info(${l0}::pg_lsn, ${l1}::pg_lsn) where xid = ${xid}::xid`).then(
            (rows) => (rows[0] as { n: number }).n,
            () => null,
          );
        }
        floor.push({ what: st.what, rows: st.rows, ms, records, walMb: Number(mb) });
        log(`floor: ${st.what}: ${fmt(ms)} ms, ${records ?? '?'} WAL records, ${fmt(Number(mb))} MB`);
      }
    }

    // ------------------------------------------------------------ report
    const cpus = os.cpus();
    const version = ((await exec(sql`select version() as v`))[0] as { v: string }).v;
    console.log(
      `\nnode ${process.version}, ${cpus[0]?.model ?? 'unknown CPU'} x ${cpus.length}, ${fmt(os.totalmem() / 2 ** 30)} GiB RAM; load average ${os
        .loadavg()
        .map((l) => fmt(l, 2))
        .join(' ')}`,
    );
    console.log(`database: ${where} (${version.split(' on ')[0]})`);
    console.log(
      `seeded: ${PLAYERS.toLocaleString()} players, ${scoreRows.toLocaleString()} leaderboard rows (${size} with indexes), ${GROUPS.toLocaleString()} groups, ${members.toLocaleString()} memberships`,
    );
    console.log(`\n| read (${READS.toLocaleString()} each, after 200 warm-up) | p50 ms | p99 ms | max ms |`);
    console.log('|---|--:|--:|--:|');
    for (const r of readResults)
      console.log(`| ${r.name} | ${fmt(percentile(r.lat, 50), 2)} | ${fmt(percentile(r.lat, 99), 2)} | ${fmt(r.lat[r.lat.length - 1]!, 2)} |`);
    const p99 = Math.max(...readResults.map((r) => percentile(r.lat, 99)));
    console.log(`worst p99 ${fmt(p99, 2)} ms -> target < 20 ms ${p99 < 20 ? 'met' : 'MISSED'}`);
    console.log(
      `\n| resolution of ${ANSWERS.toLocaleString()} answers | settling transaction ms | of which scoring ms | of which queueing ms | match board applied, ms after commit | all-time boards | period boards | chunks | longest chunk ms |`,
    );
    console.log('|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
    for (const r of resolutions)
      console.log(
        `| round ${r.round} | ${fmt(r.total)} | ${fmt(r.scoring)} | ${fmt(r.enqueue)} | ${fmt(r.phases[0])} | ${fmt(r.phases[1])} | ${fmt(r.phases[2])} | ${r.chunks} | ${fmt(r.longestChunk)} |`,
      );
    console.log(
      `\n| resolution of ${ANSWERS.toLocaleString()} answers | every board in another process's memory, ms after the commit | match board | slowest other board | reading the answers, ms | applying them, ms a board (match, then whole game / league by period) | reads until then | rows kept | identical to the SQL read once applied | a fresh load of the boards, ms |`,
    );
    console.log('|--:|--:|--:|--:|--:|--|--:|--:|--|--:|');
    for (const m of memory) {
      const others = [...m.byBoard].filter(([n]) => n !== 'match');
      const slowest = others.reduce((a, b) => (b[1] > a[1] ? b : a), others[0]!);
      console.log(
        `| round ${m.round} | ${fmt(m.every)} | ${fmt(m.byBoard.get('match') ?? NaN)} | ${slowest[0]} ${fmt(slowest[1])} | ${fmt(m.readMs)} | ${m.applyMs.map((x) => fmt(x)).join(' / ')} | ${m.reads} | ${m.rows.toLocaleString()} | ${m.identical ? 'yes' : 'NO'} | ${fmt(m.loadMs)} |`,
      );
    }
    await memLb.close();
    if (other !== database) await other.close();
    console.log(`\n| read while the resolutions were applied (all rounds) | reads | p50 ms | p99 ms | max ms |`);
    console.log('|---|--:|--:|--:|--:|');
    for (const r of duringApply) {
      r.lat.sort((a, b) => a - b);
      console.log(
        `| ${r.name} | ${r.lat.length.toLocaleString()} | ${fmt(percentile(r.lat, 50), 2)} | ${fmt(percentile(r.lat, 99), 2)} | ${fmt(r.lat[r.lat.length - 1] ?? NaN, 2)} |`,
      );
    }
    console.log(`read caches: ${JSON.stringify(lb.cacheState())}`);
    if (floor.length) {
      console.log(`\n| the floor: one statement, rolled back | ms | rows/s | WAL records | per row | WAL MB |`);
      console.log('|---|--:|--:|--:|--:|--:|');
      for (const f of floor)
        console.log(
          `| ${f.what} | ${fmt(f.ms)} | ${Math.round((f.rows / f.ms) * 1000).toLocaleString()} | ${f.records?.toLocaleString() ?? 'n/a'} | ${f.records === null ? 'n/a' : fmt(f.records / f.rows, 2)} | ${fmt(f.walMb)} |`,
        );
    }
    const worstMatch = Math.max(...resolutions.map((r) => r.phases[0]));
    const worstMemory = Math.max(...memory.map((m) => m.every));
    console.log(
      `worst: every board in another process's memory ${fmt(worstMemory)} ms after the commit -> target < 1000 ms ${worstMemory < 1000 ? 'met' : 'MISSED'}`,
    );
    const worstAll = Math.max(...resolutions.map((r) => r.phases[2]));
    console.log(`worst (the applier's rows in PostgreSQL, the SQL read): match board ${fmt(worstMatch)} ms, every board ${fmt(worstAll)} ms after the commit`);
  } finally {
    await dropRedisBoards();
    // BENCH_LB_KEEP=1 leaves the database in place (to look at plans); drop it by hand after.
    if (process.env.BENCH_LB_KEEP === '1') {
      log(`kept ${where}`);
      await database.close();
    } else await drop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);

/**
 * The boards in Redis, unit costs (`npm run bench:redis-boards`): against
 * the Redis at BENCH_REDIS_URL (default redis://127.0.0.1:6379/0), under a
 * key prefix of its own (deleted after):
 *
 * - a board of BENCH_RB_PLAYERS rows (1,000,000) copied in, 20,000 rows a
 *   script (the writer's full copy): rows per second, and Redis's memory
 *   per row;
 * - a settlement's copy: BENCH_RB_ANSWERS (100,000) of those rows written
 *   again with new values (the writer's incremental copy of one board);
 * - reads: top 100 + the caller's row and rank, at BENCH_RB_RATE (200) reads
 *   a second for BENCH_RB_SECONDS (10) over BENCH_RB_CONNECTIONS (4)
 *   connections (as 4 API processes would), during the settlement's copy
 *   and without it: latency percentiles. Names (one primary-key statement
 *   of PostgreSQL per read) are not part of it.
 *
 * Figures: docs/performance.md ("Leaderboards in Redis").
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { createRedisBoards } from '../src/modules/leaderboards/leaderboards.redis.js';
import type { CopiedRow } from '../src/modules/leaderboards/leaderboards.copy.repository.js';
import type { BoardKey } from '../src/modules/leaderboards/leaderboards.keys.js';

const envInt = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const URL_ = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
const PLAYERS = envInt('BENCH_RB_PLAYERS', 1_000_000);
const ANSWERS = Math.min(envInt('BENCH_RB_ANSWERS', 100_000), PLAYERS);
const RATE = envInt('BENCH_RB_RATE', 200);
const SECONDS = envInt('BENCH_RB_SECONDS', 10);
const CONNECTIONS = envInt('BENCH_RB_CONNECTIONS', 4);
const BATCH = 20_000;

const prefix = `qp-bench:${randomBytes(4).toString('hex')}:`;
const key: BoardKey = { scope: 'overall', scopeId: '00000000-0000-0000-0000-000000000000', period: 'all_time', periodStart: '1970-01-01' };
const fmt = (n: number, d = 1) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;

async function main() {
  const connect = () => {
    const r = new Redis(URL_, { keyPrefix: prefix });
    r.on('error', () => {});
    return r;
  };
  const writerConn = connect();
  const writer = createRedisBoards({ redis: writerConn, prefix });
  const readers = Array.from({ length: CONNECTIONS }, () => createRedisBoards({ redis: connect(), prefix }));
  const token = randomUUID();
  const usedMemory = async () => Number(/used_memory:(\d+)/.exec(await writerConn.info('memory'))![1]);
  try {
    if (!(await writer.take(token, 60_000))) throw new Error('no lease');
    const users = Array.from({ length: PLAYERS }, () => randomUUID());
    const now = Date.now() * 1000;
    const rowOf = (u: string, i: number, bump = 0): CopiedRow => ({
      key,
      userId: u,
      row: {
        points: ((i * 7919) % 500) + bump,
        correct: (i % 40) + (bump ? 1 : 0),
        answered: 50,
        currentStreak: i % 5,
        bestStreak: 5,
        reachedUs: now - (i % 100_000),
      },
    });
    const before = await usedMemory();
    let t0 = performance.now();
    for (let i = 0; i < PLAYERS; i += BATCH) {
      const rows = users.slice(i, i + BATCH).map((u, j) => rowOf(u, i + j));
      if (!(await writer.write({ token, incremental: false, rows, expireAt: () => 0 }))) throw new Error('refused');
    }
    await writer.write({ token, incremental: false, rows: [], cursors: { ready: writer.readyValue }, expireAt: () => 0 });
    const fullMs = performance.now() - t0;
    const perRow = ((await usedMemory()) - before) / PLAYERS;
    console.log(
      `full copy: ${PLAYERS.toLocaleString()} rows in ${fmt(fullMs)} ms (${fmt(PLAYERS / (fullMs / 1000), 0)} rows/s); Redis memory ${fmt(perRow, 0)} bytes a row`,
    );

    const viewers = users.filter((_, i) => i % 997 === 0);
    const readLoop = async (seconds: number) => {
      const lat: number[] = [];
      const end = performance.now() + seconds * 1000;
      const gap = 1000 / RATE;
      let next = performance.now();
      let i = 0;
      const inFlight: Promise<void>[] = [];
      while (performance.now() < end) {
        const wait = next - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        next += gap;
        const reader = readers[i % readers.length]!;
        const viewer = viewers[i++ % viewers.length]!;
        const started = performance.now();
        inFlight.push(
          reader.read(key, 0, 100, [viewer]).then((r) => {
            if (!r || r.top.length !== 100 || !r.mine.get(viewer)) throw new Error('a read missed');
            lat.push(performance.now() - started);
          }),
        );
      }
      await Promise.all(inFlight);
      return lat.sort((a, b) => a - b);
    };

    const quiet = await readLoop(SECONDS);
    console.log(
      `reads (top 100 + caller's rank), ${RATE}/s over ${CONNECTIONS} connections, no writes: ${quiet.length} reads, p50 ${fmt(pct(quiet, 50), 2)} ms, p99 ${fmt(pct(quiet, 99), 2)} ms, max ${fmt(quiet.at(-1)!, 2)} ms`,
    );

    t0 = performance.now();
    let settledMs = NaN;
    const settling = (async () => {
      for (let i = 0; i < ANSWERS; i += BATCH) {
        const rows = users.slice(i, Math.min(ANSWERS, i + BATCH)).map((u, j) => rowOf(u, i + j, 10));
        if (!(await writer.write({ token, incremental: true, rows, cursors: { p1: i }, expireAt: () => 0 }))) throw new Error('refused');
      }
      settledMs = performance.now() - t0;
    })();
    const during = await readLoop(Math.max(2, SECONDS / 2));
    await settling;
    console.log(
      `a settlement's copy: ${ANSWERS.toLocaleString()} rows of one board in ${fmt(settledMs)} ms (${fmt((settledMs * 1000) / ANSWERS, 2)} µs a row)`,
    );
    console.log(
      `reads during it and after: ${during.length} reads, p50 ${fmt(pct(during, 50), 2)} ms, p99 ${fmt(pct(during, 99), 2)} ms, max ${fmt(during.at(-1)!, 2)} ms`,
    );
    console.log(
      `this process's heap: ${fmt(process.memoryUsage().heapUsed / 2 ** 20)} MiB (the ids of the ${PLAYERS.toLocaleString()} players generated, no board)`,
    );
  } finally {
    await writer.clear(token, 1000);
    await writerConn.del('lb:meta');
    writerConn.disconnect();
    for (const r of readers) r.redis.disconnect();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});

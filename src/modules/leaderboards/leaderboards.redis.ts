/**
 * The boards in Redis (REDIS_URL set): every board (match, league, whole
 * game; all time and each period) a sorted set shared by every process, so
 * no process keeps a copy and a read is a few O(log n) commands.
 *
 * Layout (under the deployment's key prefix):
 * - `lb:z:<board>`: a sorted set, every member of score 0 and so ordered by
 *   its bytes: the member is the row's `rankKey` (leaderboards.rule.ts), which
 *   sorts in the contract's rank order to the last tie (points, correct,
 *   reached_at to the microsecond, user id). A rank is ZRANK + 1.
 * - `lb:c:<board>`, `lb:b:<board>`: the streak boards (`rank_by`
 *   current_streak, best_streak), sorted sets of the same members scored by
 *   minus the streak, so ordered by the streak (more first), then by the
 *   member's bytes (the rank order), as `compareRowsBy` says.
 * - `lb:h:<board>`: a hash, user id -> `<rankKey>|answered|current|best`.
 * - `lb:meta`: `ready` (READY once a full copy is in), the copy cursors
 *   (`p1`, `p2`, `p3`: the last settlement position copied per phase; `u`:
 *   the last user change), and `writer`, the token of the one writer.
 *
 * PostgreSQL stays the truth: the writer (one worker task, leaderboards
 * service `copyToRedis`) copies rows from it as absolute values, never
 * increments, so a copy repeated (a crash mid-settlement, a writer rewound,
 * a replay interleaved with a user hidden and shown) writes the same rows
 * again and counts nothing twice. Each write carries the writer's token and
 * lands only while the token is still the current one (a fencing token: a
 * stale writer's late write is refused), and only while `lb:meta` exists: a
 * Redis restarted empty refuses every write until the writer has copied
 * every board again. Reads check `ready` in the same script; a board not
 * ready (or Redis unreachable, slow) is read from PostgreSQL.
 *
 * Needs a server that never evicts these keys (maxmemory-policy noeviction,
 * the default): an evicted board would read as empty.
 */
import type { Redis } from '../../redis/client.js';
import { boardKeyText, type BoardKey } from './leaderboards.keys.js';
import { parseRankKey, RANK_KEY_LENGTH, rankKey, type RankBy } from './leaderboards.rule.js';
import type { CopiedRow, CopyCursors } from './leaderboards.copy.repository.js';

/** A row read from Redis (no name: the caller adds names). */
export interface RedisRow {
  rank: number;
  userId: string;
  points: number;
  correct: number;
  answered: number;
  currentStreak: number;
  bestStreak: number;
  reachedUs: number;
}

const META = 'lb:meta';

/**
 * `ready`'s value once a full copy of this layout is in: '2' since the streak boards (`lb:c`, `lb:b`), so boards
 * copied by an older writer (no streak sets) read as not ready and are copied again in full, and an older process
 * reads around boards of this layout (PostgreSQL) instead of serving them.
 */
const READY = '2';

/** Each ranking's sorted set (the `<kind>` of `lb:<kind>:<board>`). */
const SET_OF: Record<RankBy, string> = { points: 'z', current_streak: 'c', best_streak: 'b' };

/**
 * Writes rows (absolute values) while `token` is the writer's: KEYS[1] meta;
 * ARGV: prefix, token, whether the boards must be ready ('1': an incremental
 * copy; '0': a full copy, before `ready`), the number of cursor fields to set
 * with them (name, value pairs), then per board: its key text, an expiry
 * (unix seconds, 0: none), the number of rows, and per row the user id and
 * its value ('' : no row). Returns 1, or 0 when refused (not the writer, or
 * not ready when it must be).
 */
const WRITE = `
local meta = KEYS[1]
local prefix = ARGV[1]
if redis.call('HGET', meta, 'writer') ~= ARGV[2] then return 0 end
if ARGV[3] == '1' and redis.call('HGET', meta, 'ready') ~= '${READY}' then return 0 end
local i = 4
local ncur = tonumber(ARGV[i]); i = i + 1
local cursors = {}
for c = 1, ncur do cursors[#cursors + 1] = ARGV[i]; cursors[#cursors + 1] = ARGV[i + 1]; i = i + 2 end
while i <= #ARGV do
  local board = ARGV[i]; local expire = tonumber(ARGV[i + 1]); local n = tonumber(ARGV[i + 2]); i = i + 3
  local z = prefix .. 'lb:z:' .. board
  local h = prefix .. 'lb:h:' .. board
  local c = prefix .. 'lb:c:' .. board
  local b = prefix .. 'lb:b:' .. board
  for r = 1, n do
    local user = ARGV[i]; local value = ARGV[i + 1]; i = i + 2
    local old = redis.call('HGET', h, user)
    if old then
      local m = string.sub(old, 1, ${RANK_KEY_LENGTH})
      redis.call('ZREM', z, m); redis.call('ZREM', c, m); redis.call('ZREM', b, m)
    end
    if value == '' then
      if old then redis.call('HDEL', h, user) end
    else
      local m = string.sub(value, 1, ${RANK_KEY_LENGTH})
      local current, best = string.match(value, '|(%d+)|(%d+)$')
      redis.call('HSET', h, user, value)
      redis.call('ZADD', z, 0, m)
      redis.call('ZADD', c, -tonumber(current), m)
      redis.call('ZADD', b, -tonumber(best), m)
    end
  end
  if expire > 0 then
    for _, k in ipairs({ z, h, c, b }) do redis.call('EXPIREAT', k, expire) end
  end
end
if #cursors > 0 then redis.call('HSET', meta, unpack(cursors)) end
return 1
`;

/**
 * Reads a page of a board and some players' rows and ranks: ARGV prefix,
 * board key text, the ranking's set (SET_OF), offset, limit, then user ids.
 * Returns false when the boards are not ready, else { player count, the
 * page's values, then per user its value (or false) and its rank (0-based,
 * or -1) }.
 */
const READ = `
local prefix = ARGV[1]
if redis.call('HGET', prefix .. 'lb:meta', 'ready') ~= '${READY}' then return false end
local z = prefix .. 'lb:' .. ARGV[3] .. ':' .. ARGV[2]
local h = prefix .. 'lb:h:' .. ARGV[2]
local offset = tonumber(ARGV[4]); local limit = tonumber(ARGV[5])
local out = { redis.call('HLEN', h) }
local page = {}
if limit > 0 then page = redis.call('ZRANGE', z, offset, offset + limit - 1) end
out[2] = #page
for _, m in ipairs(page) do
  local v = redis.call('HGET', h, string.sub(m, ${RANK_KEY_LENGTH - 35}))
  out[#out + 1] = v or m
end
for j = 6, #ARGV do
  local v = redis.call('HGET', h, ARGV[j])
  if v then
    out[#out + 1] = v
    out[#out + 1] = redis.call('ZRANK', z, string.sub(v, 1, ${RANK_KEY_LENGTH}))
  else
    out[#out + 1] = ''
    out[#out + 1] = -1
  end
end
return out
`;

/** Some players' values on a board: ARGV prefix, board, user ids; false when not ready. */
const MEMBERS = `
local prefix = ARGV[1]
if redis.call('HGET', prefix .. 'lb:meta', 'ready') ~= '${READY}' then return false end
local h = prefix .. 'lb:h:' .. ARGV[2]
local out = {}
for j = 3, #ARGV do out[#out + 1] = redis.call('HGET', h, ARGV[j]) or '' end
return out
`;

/**
 * Takes the writer's token for a lease: KEYS[1] meta; ARGV token, lease ms.
 * Taken when nobody holds it, its holder's lease ran out, or it is ours
 * (renewed); returns the holder's token.
 */
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local w = redis.call('HGET', KEYS[1], 'writer')
local until_ = tonumber(redis.call('HGET', KEYS[1], 'writer_until') or '0')
if not w or w == ARGV[1] or until_ < now then
  redis.call('HSET', KEYS[1], 'writer', ARGV[1], 'writer_until', now + tonumber(ARGV[2]))
  return ARGV[1]
end
return w
`;

const valueOf = (userId: string, row: NonNullable<CopiedRow['row']>) => `${rankKey({ ...row, userId })}|${row.answered}|${row.currentStreak}|${row.bestStreak}`;

function parseValue(value: string, rank: number): RedisRow {
  const k = parseRankKey(value.slice(0, RANK_KEY_LENGTH));
  const [answered, current, best] = value.slice(RANK_KEY_LENGTH + 1).split('|');
  return { rank, ...k, answered: Number(answered), currentStreak: Number(current), bestStreak: Number(best) };
}

/** Rows per write script (see `write`). */
export const WRITE_BATCH = 2000;

export type RedisBoards = ReturnType<typeof createRedisBoards>;

export function createRedisBoards({ redis, prefix }: { redis: Redis; prefix: string }) {
  redis.defineCommand('qpBoardsWrite', { numberOfKeys: 1, lua: WRITE });
  redis.defineCommand('qpBoardsRead', { numberOfKeys: 0, lua: READ });
  redis.defineCommand('qpBoardsMembers', { numberOfKeys: 0, lua: MEMBERS });
  redis.defineCommand('qpBoardsTake', { numberOfKeys: 1, lua: TAKE });
  type Cmd = (...args: (string | number)[]) => Promise<unknown>;
  const cmd = (name: string) => (redis as unknown as Record<string, Cmd>)[name]!.bind(redis);
  const write = cmd('qpBoardsWrite');
  const readScript = cmd('qpBoardsRead');
  const membersScript = cmd('qpBoardsMembers');
  const take = cmd('qpBoardsTake');

  return {
    redis,

    /**
     * A page of a board ranked by `rankBy` (`offset`, `limit`) with its player
     * count and some players' rows and ranks; null when the boards are not
     * ready (being copied again): the caller reads PostgreSQL.
     */
    async read(key: BoardKey, offset: number, limit: number, userIds: string[], rankBy: RankBy = 'points') {
      const out = (await readScript(prefix, boardKeyText(key), SET_OF[rankBy], offset, limit, ...userIds)) as (string | number)[] | null;
      if (!out) return null;
      const count = Number(out[0]);
      const n = Number(out[1]);
      const top = out.slice(2, 2 + n).map((v, i) => parseValue(String(v), offset + i + 1));
      const mine = new Map<string, RedisRow>();
      userIds.forEach((u, j) => {
        const v = String(out[2 + n + 2 * j]);
        const r = Number(out[3 + n + 2 * j]);
        if (v && r >= 0) mine.set(u, parseValue(v, r + 1));
      });
      return { playerCount: count, top, mine };
    },

    /** Some players' rows on a board, ranked among themselves; null when not ready. */
    async members(key: BoardKey, userIds: string[]): Promise<RedisRow[] | null> {
      if (!userIds.length) return (await redis.hget(META, 'ready')) === READY ? [] : null;
      const out = (await membersScript(prefix, boardKeyText(key), ...userIds)) as string[] | null;
      if (!out) return null;
      return out
        .filter(Boolean)
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
        .map((v, i) => parseValue(v, i + 1));
    },

    /** Takes or renews the writer's lease (`leaseMs`); true when `token` holds it. */
    take: async (token: string, leaseMs: number) => String(await take(META, token, leaseMs)) === token,

    /** Whether a full copy is in (else the boards are read from PostgreSQL). */
    ready: async () => (await redis.hget(META, 'ready')) === READY,

    /** The `ready` value of a full copy of this layout (the writer sets it after the copy). */
    readyValue: READY,

    /** The copy cursors (zero: none). */
    async cursors(): Promise<CopyCursors> {
      const [p1, p2, p3, u] = await redis.hmget(META, 'p1', 'p2', 'p3', 'u');
      return { p1: Number(p1 ?? 0), p2: Number(p2 ?? 0), p3: Number(p3 ?? 0), u: Number(u ?? 0) };
    },

    /**
     * Writes rows while `token` is the writer's (and, `incremental`, the boards
     * ready), with cursor fields set in the same script; false when refused.
     * `expireAt(key)`: when a board goes (unix seconds; 0 never).
     */
    async write({
      token,
      incremental,
      rows,
      cursors = {},
      expireAt,
    }: {
      token: string;
      incremental: boolean;
      rows: CopiedRow[];
      cursors?: Record<string, string | number>;
      expireAt: (key: BoardKey) => number;
    }): Promise<boolean> {
      // Scripts of at most WRITE_BATCH rows: Redis runs one script at a time, so a larger one would hold every read
      // (measured: a 20,000-row script held reads for its whole length). The cursors go with the last one: rows are
      // absolute values, so a batch written again after a failure between them changes nothing.
      for (let i = 0; i === 0 || i < rows.length; i += WRITE_BATCH) {
        const batch = rows.slice(i, i + WRITE_BATCH);
        const last = i + WRITE_BATCH >= rows.length;
        const byBoard = new Map<string, { key: BoardKey; rows: CopiedRow[] }>();
        for (const r of batch) {
          const text = boardKeyText(r.key);
          const b = byBoard.get(text) ?? { key: r.key, rows: [] };
          b.rows.push(r);
          byBoard.set(text, b);
        }
        const set = last ? Object.entries(cursors) : [];
        const args: (string | number)[] = [prefix, token, incremental ? '1' : '0', set.length];
        for (const [name, value] of set) args.push(name, value);
        for (const [text, b] of byBoard) {
          args.push(text, expireAt(b.key), b.rows.length);
          for (const r of b.rows) args.push(r.userId, r.row ? valueOf(r.userId, r.row) : '');
        }
        if (Number(await write(META, ...args)) !== 1) return false;
      }
      return true;
    },

    /** Drops every board and the meta (a full copy starts from nothing), keeping the writer's token and lease. */
    async clear(token: string, leaseMs: number): Promise<void> {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}lb:[zhcb]:*`, 'COUNT', 1000);
        cursor = next;
        // SCAN answers full names; the connection adds the prefix to commands' keys, so it comes off here.
        if (keys.length) await redis.unlink(...keys.map((k) => k.slice(prefix.length)));
      } while (cursor !== '0');
      await redis.del(META);
      await take(META, token, leaseMs);
    },
  };
}

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
 * - `lb:meta`: `ready` (READY once a full copy is in), the applied markers
 *   (`d1`, `d2`, `d3`: per phase, `<position>|<user id>`, every settlement
 *   before the position applied to that phase's boards and the position
 *   itself up to that user, `~` all of them), `u` (the last user change
 *   taken), and `writer`, the token of the one writer.
 *
 * PostgreSQL stays the truth and the boards in Redis are written by one
 * writer (a worker task, leaderboards service `copyToRedis`), three ways:
 * - a settlement's answers applied by the rule (`apply`, the Lua form of
 *   `applyAnswer`) straight from the settlement, without waiting for the SQL
 *   applier, in its order (positions), each phase's boards a batch of
 *   answerers at a time with the phase's marker checked and moved in the
 *   same script: an answer at or before the marker is skipped, so a
 *   settlement replayed, or resumed after a crash between scripts, counts
 *   each answer once;
 * - a user whose rows were rebuilt (hidden, shown, deactivated, another
 *   zone) written as absolute rows computed by the rule from their answers
 *   up to the markers (`write`);
 * - every row copied from PostgreSQL with the markers of where its applier
 *   stood in the same snapshot (`write`, a full copy: Redis lost the boards).
 * Each write carries the writer's token and lands only while the token is
 * still the current one (a fencing token: a stale writer's late write is
 * refused), and only while `lb:meta` exists: a Redis restarted empty refuses
 * every write until the writer has copied every board again. Reads check
 * `ready` in the same script; a board not ready (or Redis unreachable,
 * slow) is read from PostgreSQL.
 *
 * Needs a server that never evicts these keys (maxmemory-policy noeviction,
 * the default): an evicted board would read as empty.
 */
import type { Redis } from '../../redis/client.js';
import { boardKeyText, type BoardKey } from './leaderboards.keys.js';
import type { ScoredOutcome } from '../../domain/vocabulary.js';
import { parseRankKey, RANK_KEY_LENGTH, rankKey, type RankBy } from './leaderboards.rule.js';
import { MARKER_END, type CopiedRow, type CopyCursors, type Marker } from './leaderboards.copy.repository.js';

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
 * `ready`'s value once a full copy of this layout is in, moved whenever the layout changes, so boards copied by an
 * older writer read as not ready and are copied again in full, and an older process reads around boards of this
 * layout (PostgreSQL) instead of serving or writing them: '2' brought the streak boards (`lb:c`, `lb:b`), '3' the
 * applied markers (`d1`..`d3`) in place of the copy cursors (`p1`..`p3`), which an older writer would neither read
 * nor move.
 */
const READY = '3';

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

const INT_MAX = 2147483647;

/**
 * Applies a batch of one settlement's answers to the boards of one phase,
 * the rule (`applyAnswer`, leaderboards.rule.ts) in Lua: KEYS[1] meta; ARGV:
 * prefix, token, the phase's marker field, the settlement's position, the
 * batch's last user id (the marker after it), the settlement's time as a
 * rank key's 20 digits, then per board its key text, an expiry (unix
 * seconds, 0: none), the number of rows, and per row the user id, the
 * outcome (c, i or v) and the points. Rows at or before the marker are
 * skipped (applied before); the marker moves to the batch's last user. Each
 * row moves in the points set and both streak sets (scored minus its current,
 * its best streak), as `write` keeps them.
 * Returns 1, or 0 when refused (not the writer, or the boards not ready).
 */
const APPLY = `
local meta = KEYS[1]
local prefix = ARGV[1]
if redis.call('HGET', meta, 'writer') ~= ARGV[2] then return 0 end
if redis.call('HGET', meta, 'ready') ~= '${READY}' then return 0 end
local field = ARGV[3]; local pos = tonumber(ARGV[4]); local through = ARGV[5]; local at = ARGV[6]
local m = redis.call('HGET', meta, field) or '0|~'
local bar = string.find(m, '|', 1, true)
local mpos = tonumber(string.sub(m, 1, bar - 1)); local muser = string.sub(m, bar + 1)
if pos < mpos or (pos == mpos and through <= muser) then return 1 end
local skipTo = ''
if pos == mpos then skipTo = muser end
local i = 7
while i <= #ARGV do
  local board = ARGV[i]; local expire = tonumber(ARGV[i + 1]); local n = tonumber(ARGV[i + 2]); i = i + 3
  local z = prefix .. 'lb:z:' .. board
  local h = prefix .. 'lb:h:' .. board
  local zc = prefix .. 'lb:c:' .. board
  local zb = prefix .. 'lb:b:' .. board
  for r = 1, n do
    local user = ARGV[i]; local oc = ARGV[i + 1]; local pts = tonumber(ARGV[i + 2]); i = i + 3
    if user > skipTo then
      local right = 0
      if oc == 'c' then right = 1 end
      local points; local correct; local answered; local cur; local best; local reached
      local old = redis.call('HGET', h, user)
      if not old then
        points = pts; correct = right; answered = 1; cur = right; best = right; reached = at
      else
        local om = string.sub(old, 1, ${RANK_KEY_LENGTH})
        redis.call('ZREM', z, om); redis.call('ZREM', zc, om); redis.call('ZREM', zb, om)
        local oldCorrect = ${INT_MAX} - tonumber(string.sub(old, 11, 20))
        local r0 = string.sub(old, 21, 40)
        local a, c0, b = string.match(string.sub(old, ${RANK_KEY_LENGTH + 2}), '^(%d+)|(%d+)|(%d+)$')
        points = ${INT_MAX} - tonumber(string.sub(old, 1, 10)) + pts
        correct = oldCorrect + right
        answered = tonumber(a) + 1
        cur = tonumber(c0)
        if oc == 'c' then cur = cur + 1 elseif oc == 'i' then cur = 0 end
        best = math.max(tonumber(b), cur)
        if right == 1 then
          if oldCorrect == 0 or at > r0 then reached = at else reached = r0 end
        elseif oldCorrect == 0 then
          if at < r0 then reached = at else reached = r0 end
        else
          reached = r0
        end
      end
      local member = string.format('%010d%010d', ${INT_MAX} - points, ${INT_MAX} - correct) .. reached .. user
      redis.call('ZADD', z, 0, member)
      redis.call('ZADD', zc, -cur, member)
      redis.call('ZADD', zb, -best, member)
      redis.call('HSET', h, user, member .. '|' .. answered .. '|' .. cur .. '|' .. best)
    end
  end
  if expire > 0 then
    for _, k in ipairs({ z, h, zc, zb }) do redis.call('EXPIREAT', k, expire) end
  end
end
redis.call('HSET', meta, field, pos .. '|' .. through)
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

const parseMarker = (v: string | null | undefined): Marker => {
  if (!v) return { position: 0, userId: MARKER_END };
  const bar = v.indexOf('|');
  return { position: Number(v.slice(0, bar)), userId: v.slice(bar + 1) };
};

/** A marker as `lb:meta` holds it. */
export const markerText = (m: Marker): string => `${m.position}|${m.userId}`;

/** Rows per write script (see `write`). */
export const WRITE_BATCH = 2000;

export type RedisBoards = ReturnType<typeof createRedisBoards>;

export function createRedisBoards({ redis, prefix }: { redis: Redis; prefix: string }) {
  redis.defineCommand('qpBoardsWrite', { numberOfKeys: 1, lua: WRITE });
  redis.defineCommand('qpBoardsRead', { numberOfKeys: 0, lua: READ });
  redis.defineCommand('qpBoardsMembers', { numberOfKeys: 0, lua: MEMBERS });
  redis.defineCommand('qpBoardsTake', { numberOfKeys: 1, lua: TAKE });
  redis.defineCommand('qpBoardsApply', { numberOfKeys: 1, lua: APPLY });
  type Cmd = (...args: (string | number)[]) => Promise<unknown>;
  const cmd = (name: string) => (redis as unknown as Record<string, Cmd>)[name]!.bind(redis);
  const write = cmd('qpBoardsWrite');
  const readScript = cmd('qpBoardsRead');
  const membersScript = cmd('qpBoardsMembers');
  const take = cmd('qpBoardsTake');
  const applyScript = cmd('qpBoardsApply');

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

    /** The applied markers and the user-change cursor (none: nothing applied). */
    async cursors(): Promise<CopyCursors> {
      const [d1, d2, d3, u] = await redis.hmget(META, 'd1', 'd2', 'd3', 'u');
      return { d1: parseMarker(d1), d2: parseMarker(d2), d3: parseMarker(d3), u: Number(u ?? 0) };
    },

    /**
     * Applies a batch of one settlement's answers (in user order, the batch's
     * last `through`) to the boards of `phase` while `token` is the writer's
     * and the boards are ready, skipping the answers the phase's marker says
     * were applied and moving it to `through` (END: the settlement's last
     * batch), in one script; false when refused.
     */
    async apply({
      token,
      phase,
      position,
      through,
      atUs,
      boards,
    }: {
      token: string;
      phase: 1 | 2 | 3;
      position: number;
      through: string;
      atUs: number;
      boards: { key: BoardKey; expire: number; rows: { userId: string; outcome: ScoredOutcome; points: number }[] }[];
    }): Promise<boolean> {
      const at = rankKey({ points: 0, correct: 0, reachedUs: atUs, userId: '' }).slice(20, 40);
      const args: (string | number)[] = [prefix, token, `d${phase}`, position, through, at];
      for (const b of boards) {
        if (!b.rows.length) continue;
        args.push(boardKeyText(b.key), b.expire, b.rows.length);
        for (const r of b.rows) args.push(r.userId, r.outcome === 'correct' ? 'c' : r.outcome === 'incorrect' ? 'i' : 'v', r.points);
      }
      return Number(await applyScript(META, ...args)) === 1;
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
      batchRows = WRITE_BATCH,
    }: {
      token: string;
      incremental: boolean;
      rows: CopiedRow[];
      cursors?: Record<string, string | number>;
      expireAt: (key: BoardKey) => number;
      /** Rows per script (tests: smaller, to interleave). */
      batchRows?: number;
    }): Promise<boolean> {
      // Scripts of at most WRITE_BATCH rows: Redis runs one script at a time, so a larger one would hold every read
      // (measured: a 20,000-row script held reads for its whole length). The cursors go with the last one: rows are
      // absolute values, so a batch written again after a failure between them changes nothing.
      for (let i = 0; i === 0 || i < rows.length; i += batchRows) {
        const batch = rows.slice(i, i + batchRows);
        const last = i + batchRows >= rows.length;
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

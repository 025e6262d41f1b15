/**
 * The hot-path phase of npm run bench (the target: "Hot paths (PUT answer,
 * GET open questions, GET matches) run a constant number of queries whatever
 * the number of rows; report req/s and p50/p99"): its data set, the requests
 * the load client rotates through, and the statement counts.
 *
 * The data set is written straight into the tables, as scripts/bench-ws.ts
 * does (users with API keys from generateApiKey, match_follows,
 * question_issuances):
 *
 * - LIVE_MATCHES live matches kicked off earlier today (UTC), each with
 *   OPEN_PER_MATCH open in-game questions (three choices, closing in 6 h, so
 *   every answer is accepted for the whole run) and RESOLVED_PER_MATCH
 *   resolved ones; every third match and every fourth question sponsored;
 * - OTHER_MATCHES_TODAY more matches today, and OTHER_DAYS_MATCHES on the
 *   days around it (which GET /api/matches without a range leaves out);
 * - PLAYERS players, player i following 1 + (i mod 8) of the live matches
 *   (1 to 8), with no quota in the way, and one "heavy" player following
 *   every live match and every other match of today.
 *
 * The lightest player (1 followed match, OPEN_PER_MATCH open questions) and
 * the heavy one are the two players whose statement counts are compared.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../src/db/client.js';
import { generateApiKey } from '../src/modules/auth/credentials.js';
import { brands } from '../src/modules/brands/brands.table.js';
import { questionIssuances, type BrandSnapshot } from '../src/modules/issuances/issuances.table.js';
import { leagues } from '../src/modules/leagues/leagues.table.js';
import { matches, matchFollows } from '../src/modules/matches/matches.table.js';
import { apiKeys } from '../src/modules/auth/auth.table.js';
import { users } from '../src/modules/users/users.table.js';
import type { MatchStatus } from '../src/domain/vocabulary.js';

export const HOT = {
  PLAYERS: 300,
  LIVE_MATCHES: 40,
  OPEN_PER_MATCH: 4,
  RESOLVED_PER_MATCH: 2,
  OTHER_MATCHES_TODAY: 20,
  OTHER_DAYS_MATCHES: 20,
  /** A player follows 1 + (i mod FOLLOW_CYCLE) live matches. */
  FOLLOW_CYCLE: 8,
} as const;

const CHOICES = [
  { identifier: 'home', label: 'Lions' },
  { identifier: 'away', label: 'Tigers' },
  { identifier: 'none', label: 'No one' },
];

export interface HotPlayer {
  key: string;
  /** Followed matches. */
  follows: number;
  /** Open questions on the followed matches. */
  open: string[];
}

export interface HotData {
  players: HotPlayer[];
  /** 1 followed match. */
  light: HotPlayer;
  /** Every live match and every other match of today. */
  heavy: HotPlayer;
  /** Matches GET /api/matches lists without a range (today, UTC). */
  matchesToday: number;
  /** Rows written, for the report. */
  rows: { users: number; matches: number; follows: number; issuances: number; openIssuances: number };
}

export async function seedHotPaths(database: Database): Promise<HotData> {
  const { db } = database;
  const now = Date.now();
  const dayStart = new Date(now);
  dayStart.setUTCHours(0, 0, 0, 0);
  const dayFrom = dayStart.getTime();
  const dayTo = dayFrom + 86_400_000;
  const [league] = await db.select().from(leagues).where(eq(leagues.slug, 'wc'));
  if (!league) throw new Error('league wc is not seeded');
  const brandRows = await db.select().from(brands).limit(10);
  const snapshot = (i: number): BrandSnapshot | null => {
    const b = brandRows[i % Math.max(brandRows.length, 1)];
    return b ? { id: b.id, name: b.name, primary_color: b.primaryColor, secondary_color: b.secondaryColor, logo_url: null } : null;
  };

  const match = (i: number, scheduled: number, status: MatchStatus) => ({
    srId: `bench-hot:${randomUUID()}`,
    leagueId: league.id,
    homeTeam: `Home ${i}`,
    awayTeam: `Away ${i}`,
    scheduled: new Date(scheduled),
    status,
    venue: `Stadium ${i}`,
    ...(i % 3 === 0 && brandRows.length ? { sponsorBrandId: brandRows[i % brandRows.length]!.id } : {}),
  });
  // Live matches kicked off up to 45 min ago, never before today (UTC), so GET /api/matches lists them.
  const liveAt = Math.max(dayFrom, now - 45 * 60_000);
  const live = await db
    .insert(matches)
    .values(
      Array.from({ length: HOT.LIVE_MATCHES }, (_, i) => ({
        ...match(i, liveAt + i * 1000, 'live'),
        homeScore: i % 3,
        awayScore: i % 2,
        period: '1',
        clockSeconds: 1200 + i,
      })),
    )
    .returning({ id: matches.id });
  const step = (dayTo - dayFrom) / (HOT.OTHER_MATCHES_TODAY + 1);
  const today = await db
    .insert(matches)
    .values(
      Array.from({ length: HOT.OTHER_MATCHES_TODAY }, (_, i) => {
        const at = Math.round(dayFrom + (i + 1) * step);
        return match(HOT.LIVE_MATCHES + i, at, at < now ? 'closed' : 'scheduled');
      }),
    )
    .returning({ id: matches.id });
  await db.insert(matches).values(
    Array.from({ length: HOT.OTHER_DAYS_MATCHES }, (_, i) => {
      const day = i % 2 ? 1 : -1;
      return match(HOT.LIVE_MATCHES + HOT.OTHER_MATCHES_TODAY + i, dayFrom + day * 86_400_000 + (i + 1) * 3600_000, day < 0 ? 'closed' : 'scheduled');
    }),
  );

  // Questions: open ones (answers accepted for 6 h) and resolved ones on every live match.
  let n = 0;
  const issuance = (matchId: string, number: number, open: boolean) => {
    const k = n++;
    return {
      matchId,
      kind: 'in_game' as const,
      definitionName: 'Next goal',
      questionNumber: number,
      status: open ? ('open' as const) : ('resolved' as const),
      questionText: `Who scores next? (#${k})`,
      choices: CHOICES,
      resolution: { rules: [] },
      triggerEventId: `bench-hot-${k}`,
      period: '1',
      clockSeconds: 60 * number,
      issuedAt: new Date(now - (10 - number) * 60_000),
      closesAt: open ? new Date(now + 6 * 3600_000 + k * 1000) : new Date(now - 60_000),
      ...(open ? {} : { resolvedAt: new Date(now - 30_000), correctAnswerIdentifier: 'home' }),
      points: 10 + (k % 3) * 5,
      isPivotalMoment: k % 7 === 0,
      ...(k % 4 === 0 ? { sponsorBrand: snapshot(k) } : {}),
    };
  };
  const openByMatch = new Map<string, string[]>();
  for (const m of live) {
    const rows = await db
      .insert(questionIssuances)
      .values([
        ...Array.from({ length: HOT.RESOLVED_PER_MATCH }, (_, q) => issuance(m.id, q + 1, false)),
        ...Array.from({ length: HOT.OPEN_PER_MATCH }, (_, q) => issuance(m.id, HOT.RESOLVED_PER_MATCH + q + 1, true)),
      ])
      .returning({ id: questionIssuances.id, status: questionIssuances.status });
    openByMatch.set(
      m.id,
      rows.filter((r) => r.status === 'open').map((r) => r.id),
    );
  }

  // Players with keys and follows.
  const followsOf = (i: number) => Array.from({ length: 1 + (i % HOT.FOLLOW_CYCLE) }, (_, j) => live[(i * 7 + j) % live.length]!.id);
  const players: HotPlayer[] = [];
  let followRows = 0;
  const tag = `${process.pid}${Date.now().toString(36)}`;
  for (let start = 0; start <= HOT.PLAYERS; start += 500) {
    // Index HOT.PLAYERS is the heavy player.
    const count = Math.min(500, HOT.PLAYERS + 1 - start);
    const rows = await db
      .insert(users)
      .values(
        Array.from({ length: count }, (_, j) => ({
          username: `hot${tag}_${start + j}`,
          email: `hot${tag}_${start + j}@example.com`,
          matchDailyFollowCount: null,
        })),
      )
      .returning({ id: users.id });
    const issued = rows.map(() => generateApiKey());
    await db.insert(apiKeys).values(rows.map((r, j) => ({ userId: r.id, keyDigest: issued[j]!.digest, keyPrefix: issued[j]!.prefix })));
    const follows = rows.flatMap((r, j) => {
      const i = start + j;
      const ids = i === HOT.PLAYERS ? [...live, ...today].map((m) => m.id) : followsOf(i);
      return ids.map((matchId) => ({ userId: r.id, matchId }));
    });
    for (let f = 0; f < follows.length; f += 1000) await db.insert(matchFollows).values(follows.slice(f, f + 1000));
    followRows += follows.length;
    rows.forEach((_, j) => {
      const i = start + j;
      const ids = i === HOT.PLAYERS ? [...live, ...today].map((m) => m.id) : followsOf(i);
      players.push({ key: issued[j]!.key, follows: ids.length, open: ids.flatMap((id) => openByMatch.get(id) ?? []) });
    });
  }
  const heavy = players.pop()!;
  const light = players.find((p) => p.follows === 1)!;
  const matchRows = HOT.LIVE_MATCHES + HOT.OTHER_MATCHES_TODAY + HOT.OTHER_DAYS_MATCHES;
  const perLive = HOT.OPEN_PER_MATCH + HOT.RESOLVED_PER_MATCH;
  return {
    players: [...players, heavy],
    light,
    heavy,
    matchesToday: HOT.LIVE_MATCHES + HOT.OTHER_MATCHES_TODAY,
    rows: {
      users: HOT.PLAYERS + 1,
      matches: matchRows,
      follows: followRows,
      issuances: HOT.LIVE_MATCHES * perLive,
      openIssuances: HOT.LIVE_MATCHES * HOT.OPEN_PER_MATCH,
    },
  };
}

/** One request of a rotation: whose key, and the JSON body if any. */
export interface HotRequest {
  token: string;
  body?: string;
}

export interface HotEndpoint {
  label: string;
  method: 'GET' | 'PUT';
  path: string;
  requests: HotRequest[];
}

/**
 * The loaded endpoints. PUT: every (player, open question of a followed
 * match) pair of the regular players, interleaved so consecutive requests
 * come from different players, twice over with a different choice the second time: the
 * first request of a pair creates the answer (201), later ones replace it
 * (200). GETs: every player in turn.
 */
export function hotEndpoints(data: HotData): HotEndpoint[] {
  const pairs: { player: number; issuance: string; slot: number }[] = [];
  // The heavy player answers only in the statement counts: 160 questions of theirs would make a long run of one player at the end.
  const answering = data.players.filter((p) => p !== data.heavy);
  const most = Math.max(...answering.map((p) => p.open.length));
  for (let slot = 0; slot < most; slot++) {
    answering.forEach((p, player) => {
      const issuance = p.open[slot];
      if (issuance) pairs.push({ player, issuance, slot });
    });
  }
  const put: HotRequest[] = [0, 1].flatMap((pass) =>
    pairs.map(({ player, issuance, slot }) => ({
      token: answering[player]!.key,
      body: JSON.stringify({ question_issuance_id: issuance, selected_answer_identifier: CHOICES[(player + slot + pass) % CHOICES.length]!.identifier }),
    })),
  );
  const everyone = data.players.map((p) => ({ token: p.key }));
  return [
    { label: 'PUT /api/question-answers', method: 'PUT', path: '/api/question-answers', requests: put },
    { label: 'GET /api/question-answers/open', method: 'GET', path: '/api/question-answers/open', requests: everyone },
    { label: 'GET /api/matches', method: 'GET', path: '/api/matches', requests: everyone },
    { label: 'GET /api/matches?followed=true', method: 'GET', path: '/api/matches?followed=true', requests: everyone },
  ];
}

export interface StatementCount {
  label: string;
  light: { statements: number; rows: number; status: number };
  heavy: { statements: number; rows: number; status: number };
}

/**
 * The SQL statements one request runs (every statement issued through
 * drizzle, the key lookup included; BEGIN/COMMIT are the driver's and not
 * seen), for the light and the heavy player, with no other traffic. For PUT,
 * the first answer (created) and a second one (replaced) are counted apart;
 * "rows" is then the player's open questions. Throws on an unexpected status.
 */
export async function countStatements(database: Database, base: string, data: HotData): Promise<StatementCount[]> {
  const once = async (player: HotPlayer, method: string, path: string, body?: unknown): Promise<{ statements: number; status: number; json: unknown }> => {
    let statements = 0;
    const stop = database.onQuery(() => statements++);
    try {
      const res = await fetch(base + path, {
        method,
        headers: { authorization: `Bearer ${player.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const json: unknown = await res.json();
      if (res.status < 200 || res.status > 299) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(json)}`);
      return { statements, status: res.status, json };
    } finally {
      stop();
    }
  };
  const length = (json: unknown) => (Array.isArray(json) ? json.length : 1);
  const get = async (label: string, path: string, expect?: (p: HotPlayer) => number): Promise<StatementCount> => {
    const side = async (p: HotPlayer) => {
      const r = await once(p, 'GET', path);
      if (expect && length(r.json) !== expect(p)) throw new Error(`${label}: ${length(r.json)} items, expected ${expect(p)}`);
      return { statements: r.statements, rows: length(r.json), status: r.status };
    };
    return { label, light: await side(data.light), heavy: await side(data.heavy) };
  };
  const answer = async (label: string, choice: string, status: number): Promise<StatementCount> => {
    const side = async (p: HotPlayer) => {
      // The player's last open question: the load rotation reaches it last.
      const r = await once(p, 'PUT', '/api/question-answers', { question_issuance_id: p.open[p.open.length - 1], selected_answer_identifier: choice });
      if (r.status !== status) throw new Error(`${label}: answered ${r.status}, expected ${status}`);
      return { statements: r.statements, rows: p.open.length, status: r.status };
    };
    return { label, light: await side(data.light), heavy: await side(data.heavy) };
  };
  return [
    await answer('PUT /api/question-answers (created)', 'home', 201),
    await answer('PUT /api/question-answers (replaced)', 'away', 200),
    await get('GET /api/question-answers/open', '/api/question-answers/open', (p) => p.open.length),
    // Not checked: a run that crosses midnight (UTC) lists another day.
    await get('GET /api/matches', '/api/matches'),
    await get('GET /api/matches?followed=true', '/api/matches?followed=true', (p) => p.follows),
  ];
}

/**
 * openfootball World Cup JSON -> schedules and goal-driven feeds. It is the
 * default schedule source (real teams, real kick-offs) and, for finished
 * matches, gives a plausible normalized feed built from the goals alone, so
 * pre-game questions and goal-driven in-game questions can run on real results.
 *
 * Data notes (checked against the 2022 and 2026 files):
 * - `time` is "19:00" (local time of the host, no offset: 2022 is Qatar, UTC+3)
 *   or "13:00 UTC-6" (explicit offset). Times without an offset need
 *   `localUtcOffset` unless the season is a known host (2022).
 * - `minute` is a number (2022, with a separate `offset` for stoppage time) or a
 *   string "90+4" (2026). Goals are not always listed in time order.
 * - An own goal (`owngoal: true`) is listed under the team it counts for
 *   (goals1 = team1), with the name of the opposing player who scored it:
 *   goals1/goals2 lengths always equal the score.
 * - `score.et` is the score after extra time (including regulation goals),
 *   `score.p` the shoot-out; both are absent when not played. `ht` and the goal
 *   lists are missing for some matches (0-0s). `ht` is also wrong in a few
 *   matches (2022 #29, #41, #58, 2026 #79 disagree with their own goal lists,
 *   which agree with `ft`), so feeds are built from the goals and `ht` is only
 *   passed through.
 * - `num` (2026 knockouts) equals the 1-based position in the file, which is
 *   what srId uses.
 */
import type { FeedEvent, TeamSide } from '../../../domain/sports/events.js';
import { FootballFeedBuilder, periodBaseClockSeconds, type FootballPeriod, type Score } from '../football-feed.js';
import { ImportDataError } from '../import-error.js';

export interface OpenfootballGoal {
  team: TeamSide;
  /** Scoreboard minute (1-based; 90 for "90+4"). */
  minute: number;
  /** Stoppage-time minutes ("90+4" -> 4). */
  offset: number;
  player: string;
  penalty: boolean;
  own_goal: boolean;
}

export interface OpenfootballResult {
  /** Score at the end of play (after extra time when played), shoot-out excluded. */
  home_score: number;
  away_score: number;
  /** After 90 minutes. */
  ft: Score;
  ht: Score | null;
  et: Score | null;
  penalties: Score | null;
  /** In time order. */
  goals: OpenfootballGoal[];
}

export interface OpenfootballMatch {
  srId: string;
  num: number;
  homeTeam: string;
  awayTeam: string;
  scheduled: Date;
  round: string;
  group: string | null;
  venue: string | null;
  result: OpenfootballResult | null;
}

export interface OpenfootballScheduleOptions {
  season: string | number;
  /** UTC offset of times written without one, e.g. '+03:00'. Defaults by season for known hosts. */
  localUtcOffset?: string;
}

/** Host-country offsets of tournaments whose files write local times without an offset. */
const HOST_UTC_OFFSETS: Record<string, string> = { '2022': '+03:00' };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function offsetMinutes(text: string, where: string): number {
  const m = /^(?:UTC)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(text.trim());
  if (!m) throw new ImportDataError(`${where}: cannot read UTC offset '${text}'`);
  const minutes = Number(m[2]) * 60 + Number(m[3] ?? 0);
  return m[1] === '-' ? -minutes : minutes;
}

function kickoff(date: unknown, time: unknown, localOffset: string | undefined, where: string): Date {
  if (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new ImportDataError(`${where}: date '${String(date)}' is not YYYY-MM-DD`);
  if (typeof time !== 'string') throw new ImportDataError(`${where}: missing time`);
  const m = /^(\d{1,2}):(\d{2})(?:\s+(UTC\s*[+-]\d{1,2}(?::?\d{2})?))?$/.exec(time.trim());
  if (!m) throw new ImportDataError(`${where}: cannot read time '${time}'`);
  const zone = m[3] ?? localOffset;
  if (zone === undefined) throw new ImportDataError(`${where}: time '${time}' has no UTC offset, and the file's local times need one`, 'missing_utc_offset');
  const local = Date.parse(`${date}T${m[1]!.padStart(2, '0')}:${m[2]}:00Z`);
  return new Date(local - offsetMinutes(zone, where) * 60_000);
}

function pair(v: unknown, name: string, where: string): Score | null {
  if (v === undefined || v === null) return null;
  if (!Array.isArray(v) || v.length !== 2 || !v.every((n) => Number.isInteger(n) && (n as number) >= 0)) {
    throw new ImportDataError(`${where}: score.${name} should be [home, away], got ${JSON.stringify(v)}`);
  }
  return { home: v[0] as number, away: v[1] as number };
}

function parseMinute(g: Json, where: string): { minute: number; offset: number } {
  const raw = g.minute;
  let minute: number;
  let offset = 0;
  if (typeof raw === 'number') minute = raw;
  else if (typeof raw === 'string' && /^\d+(\+\d+)?$/.test(raw.trim())) {
    const [m, o] = raw.trim().split('+');
    minute = Number(m);
    offset = o === undefined ? 0 : Number(o);
  } else throw new ImportDataError(`${where}: cannot read minute ${JSON.stringify(raw)}`);
  if (g.offset !== undefined) {
    if (typeof g.offset !== 'number' && typeof g.offset !== 'string') throw new ImportDataError(`${where}: cannot read offset ${JSON.stringify(g.offset)}`);
    offset = Number(g.offset);
  }
  if (!Number.isInteger(minute) || minute < 0 || !Number.isInteger(offset) || offset < 0)
    throw new ImportDataError(`${where}: bad minute ${JSON.stringify(raw)}`);
  return { minute, offset };
}

function goals(list: unknown, team: TeamSide, where: string): OpenfootballGoal[] {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new ImportDataError(`${where}: goals should be an array`);
  return list.map((g: unknown, i) => {
    const at = `${where} goal ${i + 1}`;
    if (!isObject(g)) throw new ImportDataError(`${at}: not an object`);
    return { team, ...parseMinute(g, at), player: typeof g.name === 'string' ? g.name : '', penalty: g.penalty === true, own_goal: g.owngoal === true };
  });
}

/** Parses an openfootball worldcup.json (text or parsed) into matches with UTC kick-offs and results. */
export function importOpenfootballSchedule(json: string | unknown, opts: OpenfootballScheduleOptions): OpenfootballMatch[] {
  const doc: unknown = typeof json === 'string' ? JSON.parse(json) : json;
  if (!isObject(doc) || !Array.isArray(doc.matches)) throw new ImportDataError('openfootball: expected an object with a matches[] array');
  const season = String(opts.season);
  const localOffset = opts.localUtcOffset ?? HOST_UTC_OFFSETS[season];
  return doc.matches.map((m: unknown, i): OpenfootballMatch => {
    const n = i + 1;
    const where = `openfootball match ${n}`;
    if (!isObject(m)) throw new ImportDataError(`${where}: not an object`);
    if (typeof m.team1 !== 'string' || typeof m.team2 !== 'string') throw new ImportDataError(`${where}: team1 and team2 are required`);
    if (m.num !== undefined && m.num !== n) throw new ImportDataError(`${where}: num ${String(m.num)} differs from its position`);
    const score = isObject(m.score) ? m.score : null;
    const ft = score ? pair(score.ft, 'ft', where) : null;
    let result: OpenfootballResult | null = null;
    if (ft) {
      const et = pair(score!.et, 'et', where);
      const all = [...goals(m.goals1, 'home', where), ...goals(m.goals2, 'away', where)];
      // Stable sort by time; same-minute goals keep their listed order.
      const ordered = all.map((g, k) => ({ g, k })).sort((a, b) => a.g.minute - b.g.minute || a.g.offset - b.g.offset || a.k - b.k);
      const end = et ?? ft;
      result = {
        home_score: end.home,
        away_score: end.away,
        ft,
        ht: pair(score!.ht, 'ht', where),
        et,
        penalties: pair(score!.p, 'p', where),
        goals: ordered.map((x) => x.g),
      };
    }
    return {
      srId: `openfootball:${season}:${n}`,
      num: n,
      homeTeam: m.team1,
      awayTeam: m.team2,
      scheduled: kickoff(m.date, m.time, localOffset, where),
      round: typeof m.round === 'string' ? m.round : '',
      group: typeof m.group === 'string' ? m.group : null,
      venue: typeof m.ground === 'string' ? m.ground : null,
      result,
    };
  });
}

export interface OpenfootballEventsOptions {
  /** Defaults to the match's srId. */
  matchKey?: string;
  /** Defaults to the scheduled kick-off. */
  kickoff?: Date;
  /** Half-time interval in minutes (default 15). */
  halfTimeMinutes?: number;
}

/** Nominal stoppage time per period (minutes), stretched when a goal falls later. */
const STOPPAGE: Record<Exclude<FootballPeriod, 'pen'>, number> = { '1': 2, '2': 4, et1: 1, et2: 2 };
const PERIOD_END_MINUTE: Record<Exclude<FootballPeriod, 'pen'>, number> = { '1': 45, '2': 90, et1: 105, et2: 120 };

function goalPeriod(g: OpenfootballGoal, extraTime: boolean): Exclude<FootballPeriod, 'pen'> {
  if (g.minute <= 45) return '1';
  if (g.minute <= 90 || !extraTime) return '2';
  return g.minute <= 105 ? 'et1' : 'et2';
}

/**
 * Synthesizes the normalized feed of a finished match from its goals: live,
 * halves (extra time and the shoot-out when the score says so), shot(goal) and
 * score_change per goal at minute*60 (+offset minutes) on the match clock,
 * breaks, ended, closed. Own goals get a score_change only (no shot by the
 * team credited). occurred_at adds the intervals (15 min half time, 5 min
 * before extra time, 2 min between its halves, 3 min before penalties).
 */
export function openfootballEvents(match: OpenfootballMatch, opts: OpenfootballEventsOptions = {}): FeedEvent[] {
  const result = match.result;
  if (!result) throw new ImportDataError(`${match.srId} has no result to build events from`);
  const feed = new FootballFeedBuilder(opts.matchKey ?? match.srId, opts.kickoff ?? match.scheduled);
  const extraTime = result.et !== null;
  const periods: Array<Exclude<FootballPeriod, 'pen'>> = extraTime ? ['1', '2', 'et1', 'et2'] : ['1', '2'];
  const breakBefore: Record<string, number> = { '2': (opts.halfTimeMinutes ?? 15) * 60, et1: 300, et2: 120, pen: 180 };
  let wall = 0;
  let lastClock = 0;
  feed.status('status:live', 'live', { period: '1', atSeconds: 0, clockSeconds: 0 });
  for (const [pi, period] of periods.entries()) {
    const base = periodBaseClockSeconds(period);
    if (pi > 0) wall += breakBefore[period]!;
    const periodWall = wall;
    const at = (clock: number) => ({ period, atSeconds: periodWall + (clock - base), clockSeconds: clock });
    feed.add({ ...at(base), id: `period:${period}:start`, type: 'period_start', team: null });
    const inPeriod = result.goals.map((g, k) => ({ g, k })).filter(({ g }) => goalPeriod(g, extraTime) === period);
    let end = (PERIOD_END_MINUTE[period] + STOPPAGE[period]) * 60;
    for (const { g, k } of inPeriod) {
      const clock = Math.max(base + 1, (g.minute + g.offset) * 60);
      end = Math.max(end, clock + 60);
      const id = `goal:${k + 1}`;
      if (!g.own_goal) {
        feed.add({
          ...at(clock),
          id: `${id}:shot`,
          type: 'shot',
          team: g.team,
          data: {
            outcome: 'goal',
            player: g.player,
            x: null,
            y: null,
            end_x: null,
            end_y: null,
            header: false,
            penalty: g.penalty,
            set_piece: g.penalty ? 'penalty' : null,
            shootout: false,
          },
        });
      }
      feed.addGoal({
        ...at(clock),
        id,
        team: g.team,
        data: {
          scorer: g.player,
          minute: g.minute,
          offset: g.offset,
          penalty: g.penalty,
          own_goal: g.own_goal,
          header: false,
          set_piece: g.penalty ? 'penalty' : null,
        },
      });
    }
    feed.add({ ...at(end), id: `period:${period}:end`, type: 'period_end', team: null });
    wall = periodWall + (end - base);
    lastClock = end;
    const more = pi < periods.length - 1 || result.penalties !== null;
    if (more) feed.status(`status:break:${period}`, 'break', { ...at(end), data: { after_period: period } });
  }
  let period: FootballPeriod = periods.at(-1)!;
  if (result.penalties) {
    period = 'pen';
    wall += breakBefore.pen!;
    const kicks = 2 * Math.max(5, result.penalties.home + result.penalties.away);
    feed.add({ id: 'period:pen:start', type: 'period_start', period, atSeconds: wall, clockSeconds: lastClock, team: null });
    wall += kicks * 45;
    feed.add({
      id: 'period:pen:end',
      type: 'period_end',
      period,
      atSeconds: wall,
      clockSeconds: lastClock,
      team: null,
      data: { penalties: { ...result.penalties } },
    });
  }
  const at = { period, atSeconds: wall, clockSeconds: lastClock };
  feed.status('status:ended', 'ended', at);
  feed.close(at, result.penalties);
  return feed.events;
}

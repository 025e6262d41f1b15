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
 * - Two layouts: `{matches: [...]}` (worldcup.json) and `{rounds: [{name,
 *   matches: [...]}]}` (euro.json, where teams are `{name, code}` and the
 *   round is named once for its matches). Both are read.
 * - srId is `openfootball:<season>:<n>`, n the match's `num` when it has one
 *   (2026 knockouts, where it equals the position; euro.json lists matches
 *   out of number order), else its 1-based position in the file.
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
  /** UTC offset of times written without one, e.g. '+03:00' (-12:00..+14:00). Defaults by season for known hosts. */
  localUtcOffset?: string;
}

/** Host-country offsets of tournaments whose files write local times without an offset. */
const HOST_UTC_OFFSETS: Record<string, string> = { '2022': '+03:00' };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The offsets in use on Earth: from UTC-12:00 (Baker Island) to UTC+14:00 (Line Islands). */
export const UTC_OFFSET_RANGE = { min: -12 * 60, max: 14 * 60 } as const;

/**
 * Minutes east of UTC of an offset written `+03:00`, `-6`, `+0530` or `UTC-6`; or what is wrong with it: a form
 * that cannot be read, minutes past 59, or an offset no place has (outside -12:00..+14:00).
 */
export function parseUtcOffset(text: string): { minutes: number } | { problem: string } {
  const m = /^(?:UTC)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(text.trim());
  if (!m) return { problem: `'${text}' is not a UTC offset (write it like +03:00 or -06:00)` };
  const [hours, mins] = [Number(m[2]), Number(m[3] ?? 0)];
  if (mins > 59) return { problem: `'${text}' has ${mins} minutes (at most 59)` };
  const minutes = (m[1] === '-' ? -1 : 1) * (hours * 60 + mins);
  if (minutes < UTC_OFFSET_RANGE.min || minutes > UTC_OFFSET_RANGE.max)
    return { problem: `'${text}' is not an offset any place uses: UTC offsets run from -12:00 to +14:00` };
  return { minutes };
}

/** What is wrong with an offset given on a command line (`--utc-offset`), or null. */
export function utcOffsetProblem(text: string): string | null {
  const parsed = parseUtcOffset(text);
  return 'problem' in parsed ? parsed.problem : null;
}

function offsetMinutes(text: string, where: string): number {
  const parsed = parseUtcOffset(text);
  if ('problem' in parsed) throw new ImportDataError(`${where}: UTC offset ${parsed.problem}`);
  return parsed.minutes;
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

const LAYOUTS = 'an object with a matches[] array (worldcup.json) or with rounds[], each with a name and a matches[] array (euro.json)';

/**
 * The matches of a file in either layout openfootball publishes: `{matches: [...]}` (worldcup.json, each match
 * naming its `round`) or `{rounds: [{name, matches: [...]}]}` (euro.json, the round named once for its matches).
 */
function matchesOf(doc: unknown): { match: unknown; round: string | null }[] {
  if (isObject(doc) && Array.isArray(doc.matches)) return doc.matches.map((match) => ({ match, round: null }));
  if (isObject(doc) && Array.isArray(doc.rounds)) {
    return doc.rounds.flatMap((r: unknown, i) => {
      if (!isObject(r) || !Array.isArray(r.matches))
        throw new ImportDataError(`openfootball: rounds[${i}] should be an object with a matches[] array (${LAYOUTS})`);
      return r.matches.map((match) => ({ match, round: typeof r.name === 'string' ? r.name : null }));
    });
  }
  throw new ImportDataError(`openfootball: expected ${LAYOUTS}`);
}

/** A team as the files write it: its name, or `{name, code}`. */
function teamName(v: unknown): string | null {
  if (typeof v === 'string' && v.trim()) return v;
  return isObject(v) && typeof v.name === 'string' && v.name.trim() ? v.name : null;
}

/** Parses an openfootball results file (text or parsed, either layout) into matches with UTC kick-offs and results. */
export function importOpenfootballSchedule(json: string | unknown, opts: OpenfootballScheduleOptions): OpenfootballMatch[] {
  const doc: unknown = typeof json === 'string' ? JSON.parse(json) : json;
  const listed = matchesOf(doc);
  const season = String(opts.season);
  const localOffset = opts.localUtcOffset ?? HOST_UTC_OFFSETS[season];
  if (opts.localUtcOffset !== undefined) offsetMinutes(opts.localUtcOffset, 'openfootball: the offset of local times');
  const byNum = new Map<number, number>();
  return listed.map(({ match: m, round }, i): OpenfootballMatch => {
    const where = `openfootball match ${i + 1}`;
    if (!isObject(m)) throw new ImportDataError(`${where}: not an object`);
    const [team1, team2] = [teamName(m.team1), teamName(m.team2)];
    if (!team1 || !team2) throw new ImportDataError(`${where}: team1 and team2 are required (a name, or an object with a name)`);
    if (m.num !== undefined && !(Number.isInteger(m.num) && (m.num as number) >= 1))
      throw new ImportDataError(`${where}: num ${JSON.stringify(m.num)} is not a match number`);
    // The provider id: the match's own number when it has one (euro.json lists them out of order), else its position.
    const n = (m.num as number | undefined) ?? i + 1;
    const twin = byNum.get(n);
    if (twin !== undefined) throw new ImportDataError(`${where}: number ${n} is also match ${twin}'s`);
    byNum.set(n, i + 1);
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
      homeTeam: team1,
      awayTeam: team2,
      scheduled: kickoff(m.date, m.time, localOffset, where),
      round: typeof m.round === 'string' ? m.round : (round ?? ''),
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

/**
 * Metrica Sports event data -> normalized football feed events, so real
 * recorded matches (the CSV format and the JSON + FIFA EPTS metadata format)
 * can drive the listener, replays and demos exactly as a live provider would.
 *
 * Envelope: provider_event_id `metrica:<matchKey>:<source index>` (data row
 * number in the CSV, 1-based without the header; `index` in the JSON), with suffixes for derived events
 * (`:goal` for the score_change after a shot, `:own_goal`) and fixed ids for
 * synthesized ones (`status:live`, `period:<p>:start`, `period:<p>:end`,
 * `status:break:<p>`, `status:ended`, `status:closed`); seq from 1; operation
 * create; final true; occurred_at = kickoff + the event's start time (Metrica
 * time is seconds since the first half's frame 1; the second half's clock
 * continues); clock_seconds = whole seconds of that same time; period 1..5 ->
 * '1', '2', 'et1', 'et2', 'pen'; score = running score after the event.
 *
 * Mapping (Metrica type / subtype -> canonical type, team):
 *   SHOT                      -> shot (outcome: GOAL goal, WOODWORK woodwork, BLOCKED blocked,
 *                                ON TARGET|SAVED on_target, OFF TARGET|OUT off_target; header when
 *                                HEAD; set_piece penalty|free_kick|corner when taken straight from
 *                                that set piece, penalty true for a penalty), team = shooter's; a goal
 *                                adds score_change right after it (with penalty and set_piece);
 *                                in the shoot-out (period 5) every shot is a penalty and its goals
 *                                count towards final_score.penalties, not the score
 *   BALL OUT with subtype GOAL (e.g. WOODWORK-GOAL), when the next KICK OFF is taken by
 *                                the same team (i.e. that team conceded) -> score_change for
 *                                the other team with own_goal true; any other BALL OUT -> ball_out,
 *                                team = the side that put the ball out
 *   a row with subtype GOAL KICK (PASS, BALL LOST or BALL OUT: the kick itself; or SET PIECE) -> goal_kick
 *                                (id `<index>:goal_kick`), then the row as what it also is (a pass, ...)
 *   SET PIECE PENALTY         -> penalty_awarded (data.taker; retaken when RETAKEN); the SHOT that
 *                                follows (same side, the ball not played meanwhile) takes it
 *   SET PIECE CORNER KICK     -> corner;  FREE KICK -> free_kick (data.kind direct|indirect);
 *             THROW IN -> throw_in;  KICK OFF -> kick_off (data.after_goal
 *             true only when a goal was scored since the period's previous kick-off: false for a
 *             period's first and for a kick-off taken again); RETAKEN sets data.retaken on each
 *   CARD YELLOW | RED         -> card (data.color), team = the carded player's
 *   FAULT RECEIVED            -> foul, team = the OTHER team (who committed it), data.fouled_team
 *   RECOVERY                  -> possession_change, team = the recovering team
 *   PASS                      -> pass; with OFFSIDE also offside (team = the passing side)
 *   BALL LOST OFFSIDE         -> offside, team = the side caught offside
 *   BALL LOST HAND BALL       -> hand_ball, team = the offending side
 *   CHALLENGE                 -> duel (one per pair of rows, see pairDuels), team = the winner's side
 *                                (null when the data names no winner), data.kind aerial|ground|
 *                                tackle|dribble, winner, loser, foul, advantage
 *   dropped: BALL LOST (other subtypes), CARRY; counted in `dropped`.
 * Around them: match_status live at the first kick-off; period_start at a period's
 * first event and period_end at its last event's end (or the metadata's end frame
 * when later); match_status break between periods; match_status ended and closed
 * (data.final_score) after the last period.
 * Penalties are marked by the SET PIECE PENALTY row before the shot; a goal
 * from it has data.penalty true, and so has the stored match result's goal.
 * data.minute/offset are the scoreboard minute (period-relative: the second half
 * starts at 46'), unlike clock_seconds, which follows Metrica's continuous time.
 *
 * Sample game 1 has three home goals from shots and one own goal (data row 1094,
 * BALL OUT "WOODWORK-GOAL" by home Player5 off an away corner, home kicks off
 * next): 3-1. Sample game 3 declares 0-2 in its metadata; the events agree.
 */
import type { FeedEvent, TeamSide } from '../../../domain/sports/events.js';
import { footballPeriodKey, FootballFeedBuilder, otherSide, scoreboardMinute, type FootballPeriod, type Score } from '../football-feed.js';
import { ImportDataError } from '../import-error.js';

export { summarizeFeed } from '../football-feed.js';

export interface MetricaImportOptions {
  /** Identifies the match inside provider_event_id; keep it stable across imports. */
  matchKey: string;
  kickoff: Date;
}

export interface MetricaImport {
  homeTeam: string;
  awayTeam: string;
  events: FeedEvent[];
  /** Source events not mapped to a canonical type, by Metrica type. */
  dropped: Record<string, number>;
  /** The final score the metadata declares (JSON format only), to cross-check the events. */
  declaredScore: Score | null;
}

/** One source event, format-independent. */
export interface RawEvent {
  index: number;
  side: TeamSide | null;
  type: string;
  subtypes: string[];
  period: number;
  start: number;
  end: number | null;
  from: string | null;
  to: string | null;
  x: number | null;
  y: number | null;
  endX: number | null;
  endY: number | null;
}

const upper = (s: string) => s.trim().toUpperCase();

function finite(v: unknown): number | null {
  const n = typeof v === 'string' ? Number(v.trim() === '' ? NaN : v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

/** Splits CSV text into rows of fields (RFC 4180 quoting; the sample has none, other exports may). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      if (row.some((f) => f !== '')) rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  row.push(field);
  if (row.some((f) => f !== '')) rows.push(row);
  return rows;
}

const CSV_COLUMNS = ['Team', 'Type', 'Subtype', 'Period', 'Start Time [s]', 'End Time [s]', 'From', 'To', 'Start X', 'Start Y', 'End X', 'End Y'] as const;

function csvSide(team: string, row: number): TeamSide {
  const t = team.trim().toLowerCase();
  if (t === 'home' || t === 'away') return t;
  throw new ImportDataError(`metrica csv row ${row}: Team is '${team}', expected Home or Away`);
}

/** Imports Metrica's CSV event format (`Team,Type,Subtype,Period,Start Frame,Start Time [s],...`). */
export function importMetricaCsv(text: string, opts: MetricaImportOptions): MetricaImport {
  const rows = parseCsv(text.replace(/^\uFEFF/, ''));
  const header = rows.shift();
  if (!header) throw new ImportDataError('metrica csv: the file is empty');
  const col = Object.fromEntries(CSV_COLUMNS.map((name) => [name, header.findIndex((h) => h.trim() === name)])) as Record<(typeof CSV_COLUMNS)[number], number>;
  const missing = CSV_COLUMNS.filter((name) => col[name] < 0);
  if (missing.length) throw new ImportDataError(`metrica csv: missing column(s) ${missing.join(', ')}`);
  const raw = rows.map((r, i): RawEvent => {
    const rowNo = i + 2;
    const get = (name: (typeof CSV_COLUMNS)[number]) => (r[col[name]] ?? '').trim();
    const period = finite(get('Period'));
    const start = finite(get('Start Time [s]'));
    if (period === null || start === null) throw new ImportDataError(`metrica csv row ${rowNo}: Period and Start Time [s] must be numbers`);
    const subtype = get('Subtype');
    return {
      index: i + 1,
      side: csvSide(get('Team'), rowNo),
      type: upper(get('Type')),
      subtypes: subtype ? subtype.split('-').map(upper) : [],
      period,
      start,
      end: finite(get('End Time [s]')),
      from: get('From') || null,
      to: get('To') || null,
      x: finite(get('Start X')),
      y: finite(get('Start Y')),
      endX: finite(get('End X')),
      endY: finite(get('End Y')),
    };
  });
  return { homeTeam: 'Home', awayTeam: 'Away', declaredScore: null, ...normalize(raw, opts, new Map()) };
}

interface EptsMetadata {
  teams: Array<{ id: string; name: string }>;
  localTeamId: string | null;
  visitingTeamId: string | null;
  score: Score | null;
  frameRate: number | null;
  params: Map<string, string>;
}

function decodeXml(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&amp;/g, '&')
    .trim();
}

/** Reads the few EPTS metadata fields the import needs; the file is regular enough for patterns. */
function parseEptsMetadata(xml: string): EptsMetadata {
  const teams = [...xml.matchAll(/<Team\s+id="([^"]+)"[^>]*>\s*<Name>([^<]*)<\/Name>/g)].map((m) => ({ id: decodeXml(m[1]!), name: decodeXml(m[2]!) }));
  const scoreTag = /<Score\s+([^>]*)>([\s\S]*?)<\/Score>/.exec(xml);
  const attr = (attrs: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(attrs)?.[1] ?? null;
  const tag = (body: string, name: string) => new RegExp(`<${name}>\\s*(\\d+)\\s*</${name}>`).exec(body)?.[1];
  const local = scoreTag?.[2] !== undefined ? tag(scoreTag[2], 'LocalTeamScore') : undefined;
  const visiting = scoreTag?.[2] !== undefined ? tag(scoreTag[2], 'VisitingTeamScore') : undefined;
  const params = new Map<string, string>();
  for (const m of xml.matchAll(/<ProviderParameter>\s*<Name>([^<]*)<\/Name>\s*<Value>([^<]*)<\/Value>\s*<\/ProviderParameter>/g)) {
    params.set(decodeXml(m[1]!), decodeXml(m[2]!));
  }
  return {
    teams,
    localTeamId: scoreTag ? attr(scoreTag[1]!, 'idLocalTeam') : null,
    visitingTeamId: scoreTag ? attr(scoreTag[1]!, 'idVisitingTeam') : null,
    score: local !== undefined && visiting !== undefined ? { home: Number(local), away: Number(visiting) } : null,
    frameRate: finite(/<FrameRate>([^<]*)<\/FrameRate>/.exec(xml)?.[1]),
    params,
  };
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const nameOf = (v: unknown): string | null => (isObject(v) && typeof v.name === 'string' ? v.name : null);

/** Imports Metrica's JSON event format with its FIFA EPTS metadata XML (teams, home side, periods). */
export function importMetricaJson(eventsJson: string | unknown, metadataXml: string, opts: MetricaImportOptions): MetricaImport {
  const doc: unknown = typeof eventsJson === 'string' ? JSON.parse(eventsJson) : eventsJson;
  if (!isObject(doc) || !Array.isArray(doc.data)) throw new ImportDataError('metrica json: expected an object with a data[] array');
  const meta = parseEptsMetadata(metadataXml);
  if (meta.teams.length < 2) throw new ImportDataError('metrica metadata: expected two <Team> entries');
  // The Score element names the local (home) team; without it the first team listed is home.
  const homeId = meta.localTeamId ?? meta.teams[0]!.id;
  const home = meta.teams.find((t) => t.id === homeId);
  const away = meta.teams.find((t) => t.id === (meta.visitingTeamId ?? meta.teams.find((x) => x.id !== homeId)?.id));
  if (!home || !away || home.id === away.id) throw new ImportDataError(`metrica metadata: cannot tell home from away (local team '${homeId}')`);
  const sideOf = (team: unknown): TeamSide | null => {
    if (!isObject(team)) return null;
    if (team.id === home.id || (team.id === undefined && team.name === home.name)) return 'home';
    if (team.id === away.id || (team.id === undefined && team.name === away.name)) return 'away';
    return null;
  };
  const raw = doc.data.map((e: unknown, i): RawEvent => {
    if (!isObject(e) || !isObject(e.start) || !isObject(e.type)) throw new ImportDataError(`metrica json: data[${i}] lacks type or start`);
    const start = finite(e.start.time);
    const period = finite(e.period);
    if (start === null || period === null) throw new ImportDataError(`metrica json: data[${i}] lacks start.time or period`);
    const subs = Array.isArray(e.subtypes) ? e.subtypes : e.subtypes ? [e.subtypes] : [];
    const end = isObject(e.end) ? e.end : {};
    return {
      index: finite(e.index) ?? i + 1,
      side: sideOf(e.team),
      type: upper(nameOf(e.type) ?? ''),
      subtypes: subs
        .map(nameOf)
        .filter((s): s is string => s !== null)
        .map(upper),
      period,
      start,
      end: finite(end.time),
      from: nameOf(e.from),
      to: nameOf(e.to),
      x: finite(e.start.x),
      y: finite(e.start.y),
      endX: finite(end.x),
      endY: finite(end.y),
    };
  });
  // Period ends from the metadata's frame ranges, when present.
  const periodEnds = new Map<number, number>();
  const names = ['first_half_end', 'second_half_end', 'first_extra_half_end', 'second_extra_half_end'];
  if (meta.frameRate) {
    names.forEach((n, i) => {
      const frame = finite(meta.params.get(n));
      if (frame !== null) periodEnds.set(i + 1, frame / meta.frameRate!);
    });
  }
  return { homeTeam: home.name, awayTeam: away.name, declaredScore: meta.score, ...normalize(raw, opts, periodEnds) };
}

const SHOT_OUTCOMES: Array<[string, string]> = [
  ['GOAL', 'goal'],
  ['WOODWORK', 'woodwork'],
  ['BLOCKED', 'blocked'],
  ['ON TARGET', 'on_target'],
  ['SAVED', 'on_target'],
  ['OFF TARGET', 'off_target'],
  ['OUT', 'off_target'],
];

function shotOutcome(subtypes: string[]): string {
  return SHOT_OUTCOMES.find(([token]) => subtypes.includes(token))?.[1] ?? 'off_target';
}

function cardColor(subtypes: string[]): 'yellow' | 'red' | null {
  if (subtypes.some((s) => s === 'RED' || s === 'SECOND YELLOW' || s === 'YELLOW RED')) return 'red';
  return subtypes.includes('YELLOW') ? 'yellow' : null;
}

/** A set piece's kind as shots taken straight from it record it. */
type SetPieceKind = 'penalty' | 'free_kick' | 'corner';

function setPieceKind(e: RawEvent): SetPieceKind | null {
  if (e.type !== 'SET PIECE') return null;
  if (e.subtypes.includes('PENALTY')) return 'penalty';
  if (e.subtypes.includes('FREE KICK')) return 'free_kick';
  if (e.subtypes.includes('CORNER KICK')) return 'corner';
  return null;
}

/** Rows that may stand between a set piece and the shot that takes it without the ball being played (bookings, fouls noted). */
const BETWEEN_SET_PIECE_AND_SHOT = new Set(['CARD', 'FAULT RECEIVED']);

const DUEL_KINDS: Array<[string, string]> = [
  ['AERIAL', 'aerial'],
  ['GROUND', 'ground'],
  ['TACKLE', 'tackle'],
  ['DRIBBLE', 'dribble'],
];

/** How far apart (seconds) the two CHALLENGE rows of one duel may be. */
const DUEL_PAIR_SECONDS = 2;

/** Duel kinds that can be the two sides of one duel: a tackle is the other side of a ground duel or of a dribble. */
function duelFamily(e: RawEvent): 'air' | 'ground' | null {
  if (e.subtypes.includes('AERIAL')) return 'air';
  return e.subtypes.some((s) => s === 'GROUND' || s === 'TACKLE' || s === 'DRIBBLE') ? 'ground' : null;
}

const duelOutcome = (e: RawEvent): 'WON' | 'LOST' | null => (e.subtypes.includes('WON') ? 'WON' : e.subtypes.includes('LOST') ? 'LOST' : null);

/**
 * The two halves of each duel. Metrica writes one CHALLENGE row per player, the winner's (WON) and the
 * loser's (LOST), not always side by side (a pass, a recovery or a ball out may come between them). Two
 * rows are one duel when they are of opposite sides, in the same period, at most DUEL_PAIR_SECONDS apart,
 * of compatible kinds (aerial with aerial; ground, tackle and dribble with each other) and outcomes (not
 * both won, nor both lost); the closest rows pair first (in time, then in the file), each row in one duel
 * at most. Returns each paired row's partner, by position in `raw`.
 */
export function pairDuels(raw: readonly RawEvent[]): Map<number, number> {
  const rows = [...raw.entries()].filter(([, e]) => e.type === 'CHALLENGE' && e.side !== null);
  const candidates: Array<{ a: number; b: number; dt: number }> = [];
  for (let x = 0; x < rows.length; x++) {
    const [a, ea] = rows[x]!;
    for (let y = x + 1; y < rows.length; y++) {
      const [b, eb] = rows[y]!;
      const dt = Math.abs(eb.start - ea.start);
      if (dt > DUEL_PAIR_SECONDS) {
        if (eb.start > ea.start) break;
        continue;
      }
      if (eb.side === ea.side || eb.period !== ea.period) continue;
      const [fa, fb] = [duelFamily(ea), duelFamily(eb)];
      if (fa && fb && fa !== fb) continue;
      const [oa, ob] = [duelOutcome(ea), duelOutcome(eb)];
      if (oa && ob && oa === ob) continue;
      candidates.push({ a, b, dt });
    }
  }
  candidates.sort((p, q) => p.dt - q.dt || p.b - p.a - (q.b - q.a) || p.a - q.a);
  const partner = new Map<number, number>();
  for (const { a, b } of candidates) {
    if (partner.has(a) || partner.has(b)) continue;
    partner.set(a, b).set(b, a);
  }
  return partner;
}

/** Rows a goal kick is written as: the kick itself (`PASS`; `BALL LOST` or `BALL OUT` when it went astray), or a `SET PIECE`. */
const GOAL_KICK_ROWS = new Set(['PASS', 'BALL LOST', 'BALL OUT', 'SET PIECE']);

function normalize(raw: RawEvent[], opts: MetricaImportOptions, metadataPeriodEnds: Map<number, number>): Pick<MetricaImport, 'events' | 'dropped'> {
  if (!opts.matchKey) throw new ImportDataError('matchKey is required');
  if (raw.length === 0) throw new ImportDataError('metrica: no events');
  const feed = new FootballFeedBuilder(`metrica:${opts.matchKey}`, opts.kickoff);
  const dropped: Record<string, number> = {};
  const drop = (e: RawEvent) => {
    const key = [e.type, ...e.subtypes.slice(0, 1)].join(' / ');
    dropped[key] = (dropped[key] ?? 0) + 1;
  };

  // Period boundaries in order of appearance.
  const periods: Array<{ n: number; key: FootballPeriod; start: number; end: number }> = [];
  for (const e of raw) {
    let p = periods.at(-1);
    if (!p || p.n !== e.period) {
      if (periods.some((q) => q.n === e.period)) throw new ImportDataError(`metrica: event ${e.index} returns to period ${e.period} after it ended`);
      p = { n: e.period, key: footballPeriodKey(e.period), start: e.start, end: e.start };
      periods.push(p);
    }
    p.end = Math.max(p.end, e.start, e.end ?? 0);
  }
  for (const p of periods) p.end = Math.max(p.end, metadataPeriodEnds.get(p.n) ?? 0);

  // The team taking the next kick-off conceded the goal before it.
  const nextKickOffSide: Array<TeamSide | null> = new Array(raw.length).fill(null);
  for (let i = raw.length - 1, next: TeamSide | null = null, period = NaN; i >= 0; i--) {
    const e = raw[i]!;
    if (e.period !== period) {
      next = null;
      period = e.period;
    }
    nextKickOffSide[i] = next;
    if (e.type === 'SET PIECE' && e.subtypes.includes('KICK OFF')) next = e.side;
  }

  // The set piece a shot is taken straight from: the taker's side shoots before the ball is played
  // by anyone (a penalty: the SET PIECE PENALTY row, then the SHOT that takes it).
  const shotFromSetPiece: Array<SetPieceKind | null> = new Array(raw.length).fill(null);
  for (let i = 0, open: { kind: SetPieceKind; side: TeamSide | null; period: number } | null = null; i < raw.length; i++) {
    const e = raw[i]!;
    const kind = setPieceKind(e);
    if (kind) {
      open = { kind, side: e.side, period: e.period };
      continue;
    }
    if (e.type === 'SHOT' && open && open.side === e.side && open.period === e.period) shotFromSetPiece[i] = open.kind;
    if (!BETWEEN_SET_PIECE_AND_SHOT.has(e.type)) open = null;
  }

  const duelPartner = pairDuels(raw);
  let setPieceGoalKick: RawEvent | null = null;

  const first = periods[0]!;
  feed.status('status:live', 'live', { period: first.key, atSeconds: first.start, clockSeconds: first.start });
  let pi = -1;
  // Goals of the shoot-out decide the winner; they are not goals of the match.
  const shootout = { home: 0, away: 0 };
  let shootoutTaken = false;
  // Goals since the last kick-off of the period: a kick-off restarts play after a goal only when there was one
  // (a retaken kick-off, or a period's first, follows none).
  let goalsSinceKickOff = 0;
  for (const [i, e] of raw.entries()) {
    if (pi < 0 || periods[pi]!.n !== e.period) {
      if (pi >= 0) endPeriod(feed, periods[pi]!, true);
      pi++;
      goalsSinceKickOff = 0;
      const p = periods[pi]!;
      feed.add({ id: `period:${p.key}:start`, type: 'period_start', period: p.key, atSeconds: p.start, clockSeconds: p.start, team: null });
    }
    const p = periods[pi]!;
    const base = { period: p.key, atSeconds: e.start, clockSeconds: e.start };
    const id = String(e.index);
    const side = e.side;
    if (side === null) {
      drop(e);
      continue;
    }
    const at = { x: e.x, y: e.y };
    const retaken = e.subtypes.includes('RETAKEN');
    // A goal kick is written as the kick itself (PASS / GOAL KICK, or BALL LOST / BALL OUT when it went astray):
    // the goal kick first, then the row as what it also is.
    if (e.subtypes.includes('GOAL KICK') && GOAL_KICK_ROWS.has(e.type)) {
      // An export that writes the set piece and then its kick has one goal kick, not two.
      const same = setPieceGoalKick && setPieceGoalKick.side === side && setPieceGoalKick.period === e.period && e.start - setPieceGoalKick.start <= 2;
      if (!same || e.type === 'SET PIECE')
        feed.add({ ...base, id: e.type === 'SET PIECE' ? id : `${id}:goal_kick`, type: 'goal_kick', team: side, data: { player: e.from, retaken } });
      setPieceGoalKick = e.type === 'SET PIECE' ? e : null;
      if (e.type === 'SET PIECE') continue;
    }
    switch (e.type) {
      case 'SHOT': {
        const outcome = shotOutcome(e.subtypes);
        const header = e.subtypes.includes('HEAD');
        const inShootout = p.key === 'pen';
        const setPiece: SetPieceKind | null = inShootout ? 'penalty' : shotFromSetPiece[i]!;
        const penalty = setPiece === 'penalty';
        feed.add({
          ...base,
          id,
          type: 'shot',
          team: side,
          data: { outcome, player: e.from, ...at, end_x: e.endX, end_y: e.endY, header, penalty, set_piece: setPiece, shootout: inShootout },
        });
        if (outcome === 'goal' && inShootout) {
          shootout[side] += 1;
          shootoutTaken = true;
        } else if (outcome === 'goal') {
          const { minute, offset } = scoreboardMinute(p.key, e.start - p.start);
          goalsSinceKickOff++;
          feed.addGoal({
            ...base,
            id: `${id}:goal`,
            team: side,
            data: { scorer: e.from, minute, offset, penalty, own_goal: false, header, set_piece: setPiece },
          });
        } else if (inShootout) shootoutTaken = true;
        break;
      }
      case 'BALL OUT':
        if (e.subtypes.includes('GOAL') && nextKickOffSide[i] === side && p.key !== 'pen') {
          const { minute, offset } = scoreboardMinute(p.key, e.start - p.start);
          goalsSinceKickOff++;
          feed.addGoal({
            ...base,
            id: `${id}:own_goal`,
            team: otherSide(side),
            data: { scorer: e.from, minute, offset, penalty: false, own_goal: true, header: e.subtypes.includes('HEAD'), set_piece: null },
          });
        } else {
          feed.add({
            ...base,
            id,
            type: 'ball_out',
            team: side,
            data: { player: e.from, kind: e.subtypes.length ? e.subtypes.join('-').toLowerCase() : null, ...at },
          });
        }
        break;
      case 'SET PIECE':
        if (e.subtypes.includes('PENALTY')) feed.add({ ...base, id, type: 'penalty_awarded', team: side, data: { taker: e.from, retaken, ...at } });
        else if (e.subtypes.includes('CORNER KICK')) feed.add({ ...base, id, type: 'corner', team: side, data: { player: e.from, retaken } });
        else if (e.subtypes.includes('FREE KICK')) {
          const kind = e.subtypes.includes('DIRECT') ? 'direct' : e.subtypes.includes('INDIRECT') ? 'indirect' : null;
          feed.add({ ...base, id, type: 'free_kick', team: side, data: { player: e.from, kind, retaken } });
        } else if (e.subtypes.includes('THROW IN')) feed.add({ ...base, id, type: 'throw_in', team: side, data: { player: e.from, retaken, ...at } });
        else if (e.subtypes.includes('KICK OFF')) {
          feed.add({ ...base, id, type: 'kick_off', team: side, data: { player: e.from, after_goal: goalsSinceKickOff > 0, retaken } });
          goalsSinceKickOff = 0;
        } else drop(e);
        break;
      case 'CARD': {
        const color = cardColor(e.subtypes);
        if (color) feed.add({ ...base, id, type: 'card', team: side, data: { color, player: e.from } });
        else drop(e);
        break;
      }
      case 'FAULT RECEIVED':
        feed.add({ ...base, id, type: 'foul', team: otherSide(side), data: { fouled_team: side, fouled_player: e.from, ...at } });
        break;
      case 'RECOVERY':
        feed.add({ ...base, id, type: 'possession_change', team: side, data: { player: e.from, via: e.subtypes[0]?.toLowerCase() ?? null, ...at } });
        break;
      case 'PASS': {
        feed.add({
          ...base,
          id,
          type: 'pass',
          team: side,
          data: { player: e.from, to: e.to, ...at, end_x: e.endX, end_y: e.endY, kind: e.subtypes.length ? e.subtypes.join('-').toLowerCase() : null },
        });
        // A pass whose receiver was caught offside: the offside is the passing side's.
        if (e.subtypes.includes('OFFSIDE'))
          feed.add({ ...base, id: `${id}:offside`, type: 'offside', team: side, data: { player: e.to, passer: e.from, ...at } });
        break;
      }
      case 'BALL LOST':
        if (e.subtypes.includes('OFFSIDE')) feed.add({ ...base, id, type: 'offside', team: side, data: { player: e.to, passer: e.from, ...at } });
        else if (e.subtypes.includes('HAND BALL')) feed.add({ ...base, id, type: 'hand_ball', team: side, data: { player: e.from, ...at } });
        else drop(e);
        break;
      case 'CHALLENGE': {
        const won = e.subtypes.includes('WON');
        const lost = e.subtypes.includes('LOST');
        const j = duelPartner.get(i);
        const partner = j === undefined ? null : raw[j]!;
        const partnerWon = Boolean(partner?.subtypes.includes('WON'));
        const partnerLost = Boolean(partner?.subtypes.includes('LOST'));
        // One duel per pair: written at the winner's row, else at the pair's first row (a lone row: at itself).
        if (partner && !won && (partnerWon || j! < i)) break;
        const kind = DUEL_KINDS.find(([token]) => e.subtypes.includes(token))?.[1] ?? null;
        const winner: TeamSide | null = won ? side : lost ? otherSide(side) : partnerLost ? side : null;
        feed.add({
          ...base,
          id,
          type: 'duel',
          team: winner,
          data: {
            kind,
            winner: won || partnerLost ? e.from : lost ? (partner?.from ?? null) : null,
            loser: won || partnerLost ? (partner?.from ?? null) : lost ? e.from : null,
            players: [e.from, partner?.from ?? null].filter((n): n is string => !!n),
            foul: e.subtypes.includes('FAULT') || Boolean(partner?.subtypes.includes('FAULT')),
            advantage: e.subtypes.includes('ADVANTAGE') || Boolean(partner?.subtypes.includes('ADVANTAGE')),
            ...at,
          },
        });
        break;
      }
      default:
        drop(e);
    }
  }
  const last = periods[pi]!;
  endPeriod(feed, last, false, shootoutTaken ? shootout : null);
  const at = { period: last.key, atSeconds: last.end, clockSeconds: last.end };
  feed.status('status:ended', 'ended', at);
  feed.close(at, shootoutTaken ? shootout : null);
  return { events: feed.events, dropped };
}

function endPeriod(
  feed: FootballFeedBuilder,
  p: { key: FootballPeriod; end: number },
  more: boolean,
  shootout: { home: number; away: number } | null = null,
): void {
  const at = { period: p.key, atSeconds: p.end, clockSeconds: p.end };
  feed.add({
    ...at,
    id: `period:${p.key}:end`,
    type: 'period_end',
    team: null,
    ...(p.key === 'pen' && shootout ? { data: { penalties: { ...shootout } } } : {}),
  });
  if (more) feed.status(`status:break:${p.key}`, 'break', { ...at, data: { after_period: p.key } });
}

/**
 * The rules that make the contract's examples one consistent story (what
 * `npm run mock` serves and `/docs` shows): every match id keeps its teams;
 * a question names only the teams of its own match (no "Team A" placeholder);
 * a match's period, clock and score fit its status; an issuance's outcome
 * fields fit its status; an answer's outcome fits its question's status and
 * its points; an open question sits on a match that can still take answers;
 * a points period spans the calendar period it names, and narrower periods
 * never hold more than wider ones. `storyProblems` walks any JSON value and
 * returns what breaks them.
 */

const MATCH_STATUSES = new Set(['scheduled', 'live', 'break', 'ended', 'closed', 'postponed', 'cancelled']);
const ISSUANCE_STATUSES = new Set(['open', 'locked', 'resolved', 'voided', 'revoked']);
const PLACEHOLDER_TEAMS = ['Team A', 'Team B'];
const HOUR = 3_600_000;
/** Hours a calendar period lasts, at least and at most (a day with a DST change is 23 or 25 hours). */
const PERIOD_HOURS: Record<string, [number, number]> = {
  today: [23, 25],
  this_week: [167, 169],
  this_month: [28 * 24 - 1, 31 * 24 + 1],
  this_year: [365 * 24 - 1, 366 * 24 + 1],
};
const PERIOD_ORDER = ['today', 'this_week', 'this_month', 'this_year'];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const has = (o: Obj, ...keys: string[]) => keys.every((k) => k in o);
const time = (v: Json | undefined) => (typeof v === 'string' ? Date.parse(v) : NaN);

/** Every object in the value, with its JSON path. */
function* objects(value: unknown, path = '$'): Generator<[Obj, string]> {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) yield* objects(value[i], `${path}[${i}]`);
  } else if (isObj(value)) {
    yield [value, path];
    for (const [k, v] of Object.entries(value)) yield* objects(v, `${path}.${k}`);
  }
}

/** Teams per match id, from anything that names both (matches, references, timelines). */
export type TeamBook = Map<string, [string, string]>;

export function collectTeams(value: unknown, book: TeamBook = new Map(), problems: string[] = [], where = ''): { book: TeamBook; problems: string[] } {
  for (const [o, path] of objects(value)) {
    if (typeof o.home_team !== 'string' || typeof o.away_team !== 'string') continue;
    const id = typeof o.match_id === 'string' ? o.match_id : typeof o.id === 'string' && (has(o, 'scheduled') || has(o, 'league')) ? o.id : null;
    if (!id) continue;
    const teams: [string, string] = [o.home_team, o.away_team];
    const known = book.get(id);
    if (known && (known[0] !== teams[0] || known[1] !== teams[1]))
      problems.push(`${where}${path}: match ${id} is ${teams.join(' vs ')} here but ${known.join(' vs ')} elsewhere`);
    else book.set(id, teams);
  }
  return { book, problems };
}

/** What breaks the story in `value` (teams looked up in `book`, which collectTeams filled from every example). */
export function storyProblems(value: unknown, book: TeamBook, where = ''): string[] {
  const problems: string[] = [];
  const fail = (path: string, message: string) => problems.push(`${where}${path}: ${message}`);
  const allTeams = new Set([...book.values()].flat());

  for (const [o, path] of objects(value)) {
    // A match's state fits its status.
    if (typeof o.status === 'string' && MATCH_STATUSES.has(o.status) && has(o, 'clock_seconds', 'home_score', 'away_score')) {
      const state = [o.period, o.clock_seconds, o.home_score, o.away_score];
      if (['scheduled', 'postponed', 'cancelled'].includes(o.status)) {
        if (state.some((v) => v !== null && v !== undefined)) fail(path, `a ${o.status} match has no period, clock or score (got ${JSON.stringify(state)})`);
        if (
          (typeof o.question_issuance_count === 'number' && o.question_issuance_count > 0) ||
          (typeof o.pivotal_moment_issuance_count === 'number' && o.pivotal_moment_issuance_count > 0)
        ) {
          fail(path, `a ${o.status} match has had no in-game questions`);
        }
      } else if (['live', 'break'].includes(o.status) && state.some((v) => v === null)) fail(path, `a ${o.status} match has a period, a clock and a score`);
      else if (['ended', 'closed'].includes(o.status) && (o.home_score === null || o.away_score === null)) fail(path, `an ${o.status} match has a score`);
    }

    // Questions name their own match's teams.
    if (typeof o.question_text === 'string') {
      const matchId = isObj(o.match) && typeof o.match.id === 'string' ? o.match.id : typeof o.match_id === 'string' ? o.match_id : null;
      const teams =
        (matchId && book.get(matchId)) || (isObj(o.match) && typeof o.match.home_team === 'string' ? [o.match.home_team, o.match.away_team as string] : null);
      const labels = Array.isArray(o.choices) ? o.choices.filter(isObj).map((c) => String(c.label)) : [];
      for (const text of [o.question_text, ...labels]) {
        for (const placeholder of PLACEHOLDER_TEAMS) if (text.includes(placeholder)) fail(path, `"${text}" names a placeholder team (${placeholder})`);
        if (!teams) continue;
        for (const team of allTeams)
          if (!teams.includes(team) && new RegExp(`\\b${team}\\b`).test(text)) fail(path, `"${text}" names ${team}, but its match is ${teams.join(' vs ')}`);
      }
    }

    // An issuance's outcome fits its status.
    if (typeof o.status === 'string' && ISSUANCE_STATUSES.has(o.status) && has(o, 'correct_answer_identifier', 'resolved_at', 'choices')) {
      const ids = Array.isArray(o.choices) ? o.choices.filter(isObj).map((c) => c.identifier) : [];
      if (['open', 'locked'].includes(o.status) && (o.correct_answer_identifier !== null || o.resolved_at !== null))
        fail(path, `an ${o.status} question has no correct answer and no resolved_at yet`);
      if (o.status === 'resolved' && (!ids.includes(o.correct_answer_identifier) || o.resolved_at === null))
        fail(path, 'a resolved question has a correct answer among its choices and a resolved_at');
      if (['voided', 'revoked'].includes(o.status) && (o.correct_answer_identifier !== null || o.resolved_at === null))
        fail(path, `a ${o.status} question has no correct answer, and a resolved_at`);
    }
    if (has(o, 'issued_at', 'closes_at') && time(o.closes_at) < time(o.issued_at)) fail(path, 'closes before it was issued');
    if (has(o, 'issued_at', 'resolved_at') && o.resolved_at !== null && time(o.resolved_at) < time(o.issued_at)) fail(path, 'resolved before it was issued');

    // An answer's outcome fits its question and its points.
    if (has(o, 'outcome', 'issuance_status', 'points_awarded')) {
      const status = String(o.issuance_status);
      const pending = o.outcome === 'pending';
      if (pending !== ['open', 'locked'].includes(status)) fail(path, `outcome ${o.outcome} does not fit a question that is ${status}`);
      if (pending && (o.points_awarded !== 0 || o.correct_answer_identifier !== null || o.resolved_at !== null))
        fail(path, 'a pending answer has no points, no correct answer and no resolved_at yet');
      if (o.outcome === 'correct' && (o.selected_answer_identifier !== o.correct_answer_identifier || o.points_awarded !== o.points_possible))
        fail(path, 'a correct answer picked the correct choice and scored the points possible');
      if (o.outcome === 'incorrect' && (o.selected_answer_identifier === o.correct_answer_identifier || o.points_awarded !== 0))
        fail(path, 'an incorrect answer picked another choice and scored nothing');
      if (o.outcome === 'void' && (!['voided', 'revoked'].includes(status) || o.points_awarded !== 0))
        fail(path, 'a void answer belongs to a voided or revoked question and scores nothing');
    }
    // The stream's resolution: the receiver's answer against the correct choice.
    if (o.type === 'resolution' && isObj(o.answer)) {
      const a = o.answer;
      const right = a.selected_answer_identifier === o.correct_answer_identifier;
      if (o.status === 'resolved' && (a.outcome !== (right ? 'correct' : 'incorrect') || a.points_awarded !== (right ? o.points_possible : 0)))
        fail(path, "the answer's outcome and points do not follow from the correct choice");
      if (o.status !== 'resolved' && (a.outcome !== 'void' || a.points_awarded !== 0))
        fail(path, `an answer to a ${o.status} question is void and scores nothing`);
    }

    // An open question sits on a match that still takes its answers.
    if (has(o, 'seconds_remaining', 'match', 'kind') && isObj(o.match)) {
      const status = String(o.match.status);
      if (o.kind === 'in_game' && !['live', 'break'].includes(status)) fail(path, `an open in-game question on a ${status} match`);
      if (o.kind === 'match' && !['scheduled', 'postponed'].includes(status)) fail(path, `an open Match question on a ${status} match (they lock at kick-off)`);
      if (typeof o.seconds_remaining === 'number' && o.seconds_remaining * 1000 > time(o.closes_at) - time(o.issued_at))
        fail(path, 'more seconds remaining than its answer window');
    }

    // Points periods span what they name; narrower periods hold no more than wider ones.
    if (typeof o.period === 'string' && o.period in PERIOD_HOURS && has(o, 'starts_at', 'ends_at')) {
      const hours = (time(o.ends_at) - time(o.starts_at)) / HOUR;
      const [min, max] = PERIOD_HOURS[o.period]!;
      if (!(hours >= min && hours <= max)) fail(path, `period ${o.period} spans ${hours} hours`);
    }
    if (isObj(o.all_time) && Array.isArray(o.periods)) {
      const byName = new Map(o.periods.filter(isObj).map((p) => [String(p.period), p]));
      const chain = [...PERIOD_ORDER.map((n) => byName.get(n)).filter((p): p is Obj => !!p), o.all_time];
      for (let i = 1; i < chain.length; i++) {
        for (const key of ['points', 'answered_count', 'resolved_count', 'correct_count']) {
          if (Number(chain[i - 1]![key]) > Number(chain[i]![key]))
            fail(path, `${key} of ${String(chain[i - 1]!.period)} exceeds that of ${String(chain[i]!.period ?? 'all_time')}`);
        }
      }
    }
  }
  return problems;
}

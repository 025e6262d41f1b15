/**
 * The live engine's core, as a decider: `decide(state, event, ctx)` says
 * what one feed event means (the decisions: consumed, match changed,
 * settled, state stored, issued, denied, warned) and `evolve(state,
 * decision)` folds a decision into the state. Both are pure: no I/O, no
 * clock, no randomness (the probability draw is a hash of the seed; time
 * enters as `ctx.now`, `ctx.feedFresh` and `ctx.stopping`). Expressions and
 * templates evaluate asynchronously but deterministically, so `decide` is
 * async.
 *
 * The listener runner applies all decisions of a batch of events in one
 * transaction together with those events' recording and its resume point,
 * so the database always holds the result of exactly the events up to the
 * resume point; `restoreState` rebuilds the state from those rows, and a
 * takeover continues from there as if nothing had happened.
 *
 * For each event, in order: the event store learns it; the match's live
 * fields follow it; final information resolves open questions (a timeout
 * first, then the rules in order); an event seen for the first time
 * triggers definitions (`store_state`, then the gates, see gates.ts); the
 * end of the match voids what is left; a deleted event voids the questions
 * it triggered.
 */
import type { QuestionDefinitionRow, ResolutionSpec } from '../modules/definitions/definitions.table.js';
import type { QuestionGroupRow } from '../modules/groups/groups.table.js';
import type { BrandSnapshot, IssuanceResolution, QuestionIssuanceRow } from '../modules/issuances/issuances.table.js';
import { periodsOfSport } from '../domain/sports/league-registry.js';
import type { LeagueRow } from '../modules/leagues/leagues.table.js';
import type { MatchRow } from '../modules/matches/matches.table.js';
import { evaluateExpression } from '../domain/language/expressions.js';
import type { FeedEvent } from '../domain/sports/events.js';
import { runGates, type DecisionStep, type GateId, type GateInput, type LaneState, type RegularCounts } from './gates.js';
import { applyStoreState, conditionHolds, type MatchContext } from '../domain/question-render.js';
import { inGameSettings, matchLevelSettings, type InGameSettings, type MatchLevelSettings } from '../domain/settings.js';
import { hasStarted, playOver, type MatchStatus } from '../domain/vocabulary.js';
import { inGameMatchContext } from '../domain/match-context.js';

/** What a listener runs a match with: reread while it runs (definitions, groups, overrides and the sponsor may be edited). */
export interface EngineCatalog {
  league: LeagueRow;
  /** The match row: its settings and teams (its live fields are the state's). */
  match: MatchRow;
  definitions: QuestionDefinitionRow[];
  groups: QuestionGroupRow[];
  matchSponsor: BrandSnapshot | null;
}

/** The explicit inputs of a decision besides the state and the event. */
export interface DecideContext {
  catalog: EngineCatalog;
  /** ENGINE_SEED: the probability gate's draws. */
  seed: string;
  /** The issue time of questions decided on this event. */
  now: Date;
  /** A heartbeat arrived within `staleAfterMs` (always true for a replay, which has none). */
  feedFresh: boolean;
  staleAfterMs: number;
  /** An operator asked the listener to stop. */
  stopping: boolean;
}

export interface LiveFields {
  status: MatchStatus;
  period: string | null;
  clockSeconds: number | null;
  /** Null before kick-off only (a started match stands 0-0 until a goal). */
  homeScore: number | null;
  awayScore: number | null;
  startedAt: Date | null;
}

/** What resolving an open question needs (a snapshot of its issuance). */
export interface OpenQuestion {
  key: string;
  definitionId: string;
  definitionName: string;
  questionNumber: number | null;
  lane: string;
  choices: string[];
  resolution: ResolutionSpec;
  triggerEventId: string;
  trigger: FeedEvent;
  /** Arrival position of the triggering event: only events first seen after it are later information. */
  triggerPosition: number;
  state: Record<string, unknown>;
  issuedAt: string;
  /** The fairness rule in force when it was issued: an outcome decided sooner (feed time) voids it. */
  minAnswerSeconds: number;
}

/** An in-game issuance's snapshot of its definition's rules (a Match question's has none: it is never in the engine's state). */
function inGameResolution(resolution: IssuanceResolution): ResolutionSpec {
  if ('rules' in resolution) return resolution;
  throw new Error('an in-game question without resolution rules: its issuance row is not an in-game one');
}

export interface EngineState {
  live: LiveFields;
  /** The state store (what definitions' `store_state` wrote). */
  store: Record<string, unknown>;
  /** Events consumed by this listener: the arrival position of the last one. */
  position: number;
  /** Provider event ids in the event store (deleted ones leave), with the position where each appeared. */
  known: ReadonlyMap<string, number>;
  /** Goals (score_change events) in the event store, in order of appearance: the result lists them. */
  goals: ReadonlyMap<string, FeedEvent>;
  open: ReadonlyMap<string, OpenQuestion>;
  lanes: ReadonlyMap<string, LaneState>;
  regular: RegularCounts;
  /** Triggers decided (issued or denied), `definition id|event id`: nothing is decided twice. */
  decided: ReadonlySet<string>;
  counters: { issued: number; denied: number; resolved: number };
}

export type MatchChange = Partial<Pick<MatchRow, 'status' | 'period' | 'clockSeconds' | 'homeScore' | 'awayScore' | 'startedAt' | 'result'>>;

export interface QuestionValues {
  definitionId: string;
  definitionName: string;
  groupId: string | null;
  lane: string;
  questionNumber: number | null;
  isPivotalMoment: boolean;
  questionText: string;
  choices: { identifier: string; label: string }[];
  choiceTemplates: QuestionDefinitionRow['choices'];
  state: Record<string, unknown>;
  resolution: ResolutionSpec;
  triggerEventId: string;
  triggerEvent: FeedEvent;
  triggerSeq: number;
  period: string | null;
  clockSeconds: number | null;
  issuedAt: Date;
  answerWindowSeconds: number;
  minAnswerSeconds: number;
  points: number;
  matchSponsorBrand: BrandSnapshot | null;
  decisionTrace: DecisionStep[];
}

export interface DenialValues {
  definitionId: string;
  definitionName: string;
  failedStep: GateId;
  detail: string;
  triggerEventId: string;
  triggerEventType: string;
  period: string | null;
  clockSeconds: number | null;
}

export type Decision =
  /** The event joins the event store at this arrival position (`first`: its provider id was not in the store). */
  | { type: 'consumed'; event: FeedEvent; position: number; first: boolean }
  | { type: 'match_changed'; values: MatchChange }
  | {
      type: 'settled';
      key: string;
      definitionId: string;
      triggerEventId: string;
      definitionName: string;
      questionNumber: number | null;
      status: 'resolved' | 'voided';
      correct: string | null;
      /** The deciding event. */
      eventId: string;
      eventSeq: number;
      reason: string;
    }
  | { type: 'state_stored'; definitionId: string; state: Record<string, unknown> }
  /** `earlierPeriods`: the sponsorship slot picker's best-effort periods. */
  | { type: 'issued'; key: string; question: QuestionValues; triggerPosition: number; earlierPeriods: string[] }
  | { type: 'denied'; key: string; denial: DenialValues }
  /** Something the operator should know (an expression that threw); changes nothing. */
  | { type: 'warned'; message: string };

const DEFAULT_LANE = 'default';

export const decisionKey = (definitionId: string, eventId: string): string => `${definitionId}|${eventId}`;

export function isOver(state: EngineState): boolean {
  return playOver.has(state.live.status);
}

/** Rows of the database → the state they stand for (a listener starting, or taking over after its resume point). */
export function restoreState(rows: {
  match: Pick<MatchRow, 'status' | 'period' | 'clockSeconds' | 'homeScore' | 'awayScore' | 'startedAt'>;
  store: Record<string, unknown>;
  counters: { issued: number; denied: number; resolved: number };
  /** What this listener consumed up to its resume point, in arrival order. */
  recording: readonly FeedEvent[];
  /** The match's in-game issuances (any listener's). */
  issuances: readonly QuestionIssuanceRow[];
  /** `definition id|event id` of the match's denials. */
  deniedKeys: readonly string[];
}): EngineState {
  let state: EngineState = {
    live: {
      status: rows.match.status,
      period: rows.match.period,
      clockSeconds: rows.match.clockSeconds,
      homeScore: rows.match.homeScore,
      awayScore: rows.match.awayScore,
      startedAt: rows.match.startedAt,
    },
    store: rows.store,
    position: 0,
    known: new Map(),
    goals: new Map(),
    open: new Map(),
    lanes: new Map(),
    regular: { total: 0, byPeriod: new Map(), byGroup: new Map(), byGroupPeriod: new Map() },
    decided: new Set(rows.deniedKeys),
    counters: { ...rows.counters },
  };
  for (const event of rows.recording) state = consume(state, event, state.position + 1);
  const known = state.known;
  // Issuances in issue order, so lanes and counts build up as they did.
  const ordered = [...rows.issuances].sort((a, b) => a.issuedAt.getTime() - b.issuedAt.getTime() || (a.questionNumber ?? 0) - (b.questionNumber ?? 0));
  for (const row of ordered) {
    if (!row.definitionId || !row.triggerEventId) continue;
    const trigger = row.triggerEvent ?? ({} as FeedEvent);
    const question: OpenQuestion = {
      key: decisionKey(row.definitionId, row.triggerEventId),
      definitionId: row.definitionId,
      definitionName: row.definitionName,
      questionNumber: row.questionNumber,
      lane: row.lane,
      choices: row.choices.map((c) => c.identifier),
      resolution: inGameResolution(row.resolution),
      triggerEventId: row.triggerEventId,
      trigger,
      // An issuance of an earlier listener of the match: whatever this one consumes is later.
      triggerPosition: known.get(row.triggerEventId) ?? 0,
      state: row.state,
      issuedAt: row.issuedAt.toISOString(),
      minAnswerSeconds: row.minAnswerSeconds,
    };
    state = countIssued(
      state,
      question,
      !row.isPivotalMoment,
      row.period,
      row.groupId,
      Date.parse(trigger.occurred_at ?? row.issuedAt.toISOString()),
      row.status === 'open' || row.status === 'locked',
    );
  }
  return state;
}

/** Folds one decision into the state (a new state; the old one is left as it was). */
export function evolve(state: EngineState, d: Decision): EngineState {
  switch (d.type) {
    case 'consumed':
      return consume(state, d.event, d.position);
    case 'match_changed': {
      const v = d.values;
      const live = { ...state.live };
      if (v.status !== undefined) live.status = v.status;
      if (v.period !== undefined) live.period = v.period;
      if (v.clockSeconds !== undefined) live.clockSeconds = v.clockSeconds;
      if (v.homeScore !== undefined && v.homeScore !== null) live.homeScore = v.homeScore;
      if (v.awayScore !== undefined && v.awayScore !== null) live.awayScore = v.awayScore;
      if (v.startedAt !== undefined) live.startedAt = v.startedAt;
      return { ...state, live };
    }
    case 'settled': {
      const q = state.open.get(d.key);
      const open = new Map(state.open);
      open.delete(d.key);
      const lanes = new Map(state.lanes);
      if (q) {
        const lane = lanes.get(q.lane);
        if (lane) lanes.set(q.lane, { ...lane, open: Math.max(0, lane.open - 1) });
      }
      return { ...state, open, lanes, counters: { ...state.counters, resolved: state.counters.resolved + 1 } };
    }
    case 'state_stored':
      return { ...state, store: d.state };
    case 'issued': {
      const q = d.question;
      const question: OpenQuestion = {
        key: d.key,
        definitionId: q.definitionId,
        definitionName: q.definitionName,
        questionNumber: q.questionNumber,
        lane: q.lane,
        choices: q.choices.map((c) => c.identifier),
        resolution: inGameResolution(q.resolution),
        triggerEventId: q.triggerEventId,
        trigger: q.triggerEvent,
        triggerPosition: d.triggerPosition,
        state: q.state,
        issuedAt: q.issuedAt.toISOString(),
        minAnswerSeconds: q.minAnswerSeconds,
      };
      const next = countIssued(
        state,
        question,
        !q.isPivotalMoment,
        q.period,
        q.groupId,
        Date.parse((q.triggerEvent as { occurred_at: string }).occurred_at),
        true,
      );
      return { ...next, counters: { ...next.counters, issued: next.counters.issued + 1 } };
    }
    case 'denied':
      return { ...state, decided: new Set(state.decided).add(d.key), counters: { ...state.counters, denied: state.counters.denied + 1 } };
    case 'warned':
      return state;
  }
}

function consume(state: EngineState, event: FeedEvent, position: number): EngineState {
  const id = event.provider_event_id;
  const known = new Map(state.known);
  let goals = state.goals;
  if (event.operation === 'delete') {
    known.delete(id);
    if (goals.has(id)) {
      goals = new Map(goals);
      (goals as Map<string, FeedEvent>).delete(id);
    }
  } else {
    if (!known.has(id)) known.set(id, position);
    if (event.type === 'score_change' || goals.has(id)) {
      goals = new Map(goals);
      if (event.type === 'score_change') (goals as Map<string, FeedEvent>).set(id, event);
      else (goals as Map<string, FeedEvent>).delete(id);
    }
  }
  return { ...state, position, known, goals };
}

function countIssued(
  state: EngineState,
  q: OpenQuestion,
  regular: boolean,
  period: string | null,
  groupId: string | null,
  triggerAt: number,
  open: boolean,
): EngineState {
  const lanes = new Map(state.lanes);
  const lane = { ...(lanes.get(q.lane) ?? { lastRegularAt: null, open: 0 }) };
  let openQuestions = state.open;
  if (open) {
    lane.open += 1;
    openQuestions = new Map(state.open).set(q.key, q);
  }
  let counts = state.regular;
  if (regular) {
    const inc = (m: ReadonlyMap<string, number>, k: string) => new Map(m).set(k, (m.get(k) ?? 0) + 1);
    counts = {
      total: counts.total + 1,
      byPeriod: period ? inc(counts.byPeriod, period) : counts.byPeriod,
      byGroup: groupId ? inc(counts.byGroup, groupId) : counts.byGroup,
      byGroupPeriod: groupId && period ? inc(counts.byGroupPeriod, `${groupId}:${period}`) : counts.byGroupPeriod,
    };
    if (lane.lastRegularAt === null || triggerAt > lane.lastRegularAt) lane.lastRegularAt = triggerAt;
  }
  lanes.set(q.lane, lane);
  return { ...state, lanes, open: openQuestions, regular: counts, decided: new Set(state.decided).add(q.key) };
}

interface Derived {
  level: MatchLevelSettings;
  groups: Map<string, QuestionGroupRow>;
  settings: Map<string, InGameSettings>;
  periods: readonly string[];
}

const derivedCache = new WeakMap<EngineCatalog, Derived>();

/** Settings of a catalog, computed once per catalog object. */
function derived(catalog: EngineCatalog): Derived {
  const cached = derivedCache.get(catalog);
  if (cached) return cached;
  const groups = new Map(catalog.groups.map((g) => [g.id, g]));
  const d: Derived = {
    level: matchLevelSettings(catalog.league, catalog.match),
    groups,
    settings: new Map(
      catalog.definitions.map((def) => [def.id, inGameSettings(catalog.league, def.groupId ? groups.get(def.groupId) : null, def, catalog.match)]),
    ),
    periods: periodsOfSport(catalog.league.sport),
  };
  derivedCache.set(catalog, d);
  return d;
}

function matchContext(state: EngineState, catalog: EngineCatalog): MatchContext {
  return inGameMatchContext(catalog.match, catalog.league.slug, state.live);
}

/** What one event means, given the state before it. */
export async function decide(state: EngineState, event: FeedEvent, ctx: DecideContext): Promise<Decision[]> {
  const out: Decision[] = [];
  let s = state;
  const emit = (d: Decision) => {
    out.push(d);
    s = evolve(s, d);
  };
  const first = !s.known.has(event.provider_event_id);
  emit({ type: 'consumed', event, position: s.position + 1, first });

  if (event.operation === 'delete') {
    // A withdrawn event: questions it triggered can no longer stand.
    for (const q of [...s.open.values()]) {
      if (q.triggerEventId === event.provider_event_id) {
        emit(settled(q, event, 'voided', null, `its triggering event ${event.provider_event_id} was withdrawn by the provider`));
      }
    }
    return out;
  }

  const changed = liveChange(s, event, ctx.catalog, first);
  if (changed) emit({ type: 'match_changed', values: changed });
  if (event.final) await resolve(s, event, ctx, emit, () => s);
  if (first) await trigger(event, ctx, emit, () => s);
  if (event.type === 'match_status' && playOver.has(String(event.data.status))) {
    for (const q of [...s.open.values()]) emit(settled(q, event, 'voided', null, 'the match ended before it resolved'));
  }
  return out;
}

function settled(q: OpenQuestion, event: FeedEvent, status: 'resolved' | 'voided', correct: string | null, reason: string): Decision {
  return {
    type: 'settled',
    key: q.key,
    definitionId: q.definitionId,
    triggerEventId: q.triggerEventId,
    definitionName: q.definitionName,
    questionNumber: q.questionNumber,
    status,
    correct,
    eventId: event.provider_event_id,
    eventSeq: event.seq,
    reason,
  };
}

/**
 * Events that can happen while play is stopped (at a break, before a restart): they say nothing
 * about play being on. Any other event, new and of the current period, is play.
 */
const STOPPED_PLAY_EVENTS = new Set(['match_status', 'period_end', 'substitution', 'card', 'timeout', 'pitching_change']);

/**
 * The match's status after an event, from everything the event implies (a feed need not send a
 * `match_status` at every change): an explicit status says it; a period starting means play is on;
 * a period ending means a break (until the next period, or the end the feed announces); play during
 * a break (or before kick-off) means play is on again (a suspension lifted, a feed that sends no
 * status at the restart). Nothing but an explicit status reopens a match that is over, and a
 * correction or a late event of an earlier period says nothing about now.
 */
function statusAfter(status: MatchStatus, event: FeedEvent, current: boolean): MatchStatus {
  if (event.type === 'match_status') {
    const said = String(event.data.status ?? '');
    return hasStarted.has(said) ? said : status;
  }
  if (playOver.has(status) || !current) return status;
  if (event.type === 'period_start') return 'live';
  if (event.type === 'period_end') return hasStarted.has(status) ? 'break' : status;
  if (hasStarted.has(status) && STOPPED_PLAY_EVENTS.has(event.type)) return status;
  return 'live';
}

/** True when `period` comes before `than` in the sport's order (unknown periods are never earlier). */
function periodBefore(periods: readonly string[], period: string, than: string | null): boolean {
  if (than === null) return false;
  const a = periods.indexOf(period);
  const b = periods.indexOf(than);
  return a >= 0 && b >= 0 && a < b;
}

function liveChange(s: EngineState, event: FeedEvent, catalog: EngineCatalog, first: boolean): MatchChange | null {
  const live = s.live;
  const next = { ...live };
  // A correction of an earlier event, or an event of a period already over arriving late, tells what happened then, not now.
  const late = event.period !== null && periodBefore(derived(catalog).periods, event.period, live.period);
  const current = first && !late;
  // A correction of the latest goal (its scorer's side, say) is the score now.
  const latestGoal = event.type === 'score_change' && [...s.goals.keys()].at(-1) === event.provider_event_id;
  if (current || event.type === 'match_status') {
    if (event.period && !late) next.period = event.period;
    if (event.clock_seconds !== null && event.clock_seconds !== undefined) next.clockSeconds = event.clock_seconds;
  }
  if ((current || latestGoal || event.type === 'match_status') && event.score) {
    next.homeScore = event.score.home;
    next.awayScore = event.score.away;
  }
  next.status = statusAfter(live.status, event, current);
  // Started, the match has a score: 0-0 until a goal, whatever event says it started.
  if (hasStarted.has(next.status)) {
    next.homeScore ??= 0;
    next.awayScore ??= 0;
  }
  const changed: MatchChange = {};
  if (next.status !== live.status) changed.status = next.status;
  if (next.period !== live.period) changed.period = next.period;
  if (next.homeScore !== live.homeScore || next.awayScore !== live.awayScore) Object.assign(changed, { homeScore: next.homeScore, awayScore: next.awayScore });
  if (next.clockSeconds !== live.clockSeconds) changed.clockSeconds = next.clockSeconds;
  if (next.status === 'live' && !live.startedAt) changed.startedAt = new Date(event.occurred_at);
  if (event.type === 'match_status' && event.data.status === 'closed') changed.result = closedResult(event, catalog.match, next, s.goals);
  return Object.keys(changed).length ? changed : null;
}

/** The final result stored on the match when it closes (Match questions resolve from it). */
function closedResult(event: FeedEvent, match: MatchRow, live: LiveFields, goals: ReadonlyMap<string, FeedEvent>): Record<string, unknown> {
  const final = (event.data.final_score ?? {}) as Record<string, unknown>;
  const home = typeof final.home === 'number' ? final.home : (live.homeScore ?? 0);
  const away = typeof final.away === 'number' ? final.away : (live.awayScore ?? 0);
  const winner = typeof final.winner === 'string' ? final.winner : home > away ? 'home' : home < away ? 'away' : 'draw';
  const list = [...goals.values()].map((e) => ({
    team: e.team,
    minute: e.data.minute ?? null,
    // Stoppage time: 45+2 is minute 45, offset 2 (0 when the feed says none).
    offset: typeof e.data.offset === 'number' ? e.data.offset : 0,
    player: e.data.scorer ?? null,
    penalty: Boolean(e.data.penalty),
    own_goal: Boolean(e.data.own_goal),
  }));
  return { home_score: home, away_score: away, winner, home_team: match.homeTeam, away_team: match.awayTeam, penalties: final.penalties ?? null, goals: list };
}

/**
 * The fairness rule: how long after the question was asked (feed time, the deciding event's occurred_at
 * minus the trigger's) its outcome was decided, when that is sooner than its minimum answer time; else null.
 */
function decidedTooSoon(q: OpenQuestion, event: FeedEvent): number | null {
  if (!(q.minAnswerSeconds > 0)) return null;
  const after = (Date.parse(event.occurred_at) - Date.parse(q.trigger.occurred_at)) / 1000;
  return Number.isFinite(after) && after < q.minAnswerSeconds ? after : null;
}

/** Later final information decides open questions: a timeout first, then the rules in order; an outcome decided too soon voids. */
async function resolve(start: EngineState, event: FeedEvent, ctx: DecideContext, emit: (d: Decision) => void, current: () => EngineState): Promise<void> {
  // A late final version of an event that began before the trigger is not later information.
  const firstPosition = start.known.get(event.provider_event_id) ?? start.position;
  for (const q of [...start.open.values()]) {
    if (q.triggerEventId === event.provider_event_id) continue;
    if (firstPosition <= q.triggerPosition) continue;
    const choices = new Set(q.choices);
    const tooSoon = decidedTooSoon(q, event);
    const unfair = (how: string) =>
      settled(
        q,
        event,
        'voided',
        null,
        `${how}, ${Math.round(tooSoon! * 10) / 10} s after it was asked: within its minimum answer time of ${q.minAnswerSeconds} s nobody could answer it fairly`,
      );
    const timeout = q.resolution.timeout;
    const triggerClock = q.trigger.clock_seconds;
    if (
      timeout &&
      event.clock_seconds !== null &&
      triggerClock !== null &&
      triggerClock !== undefined &&
      event.clock_seconds > triggerClock + timeout.after_seconds
    ) {
      const correct = timeout.correct_choice;
      emit(
        correct && choices.has(correct)
          ? tooSoon !== null
            ? unfair(`decided by its timeout`)
            : settled(q, event, 'resolved', correct, `timeout: ${timeout.after_seconds} s passed without a deciding event`)
          : settled(q, event, 'voided', null, 'timeout without a correct choice'),
      );
      continue;
    }
    const s = current();
    const input = {
      event,
      state: s.store,
      match: matchContext(s, ctx.catalog),
      issuance: { state: q.state, trigger: q.trigger, issued_at: q.issuedAt, question_number: q.questionNumber },
    };
    for (const [i, rule] of q.resolution.rules.entries()) {
      if (rule.event_type !== event.type) continue;
      try {
        if (!(await conditionHolds(`resolution.rules[${i}].condition`, rule.condition, input))) continue;
        const value = await evaluateExpression(`resolution.rules[${i}].correct_choice`, rule.correct_choice, input);
        const correct = typeof value === 'string' && choices.has(value) ? value : null;
        emit(
          correct
            ? tooSoon !== null
              ? unfair(`decided by rule ${i + 1} on ${event.type} ${event.provider_event_id}`)
              : settled(q, event, 'resolved', correct, `rule ${i + 1} on ${event.type} ${event.provider_event_id}`)
            : settled(q, event, 'voided', null, `rule ${i + 1} gave ${JSON.stringify(value ?? null)}, not a choice`),
        );
      } catch (err) {
        emit({ type: 'warned', message: `resolving '${q.definitionName}': ${(err as Error).message}` });
        continue;
      }
      break;
    }
  }
}

/** Every definition whose trigger the event matches: store_state, then the gates, then issue or deny. */
async function trigger(event: FeedEvent, ctx: DecideContext, emit: (d: Decision) => void, current: () => EngineState): Promise<void> {
  const { catalog } = ctx;
  const { level, groups, settings, periods } = derived(catalog);
  for (const def of catalog.definitions) {
    if (def.triggerEventType !== event.type) continue;
    let s = current();
    const input = { event, state: s.store, match: matchContext(s, catalog) };
    let holds: boolean;
    try {
      holds = await conditionHolds('trigger.condition', def.trigger.condition, input);
    } catch (err) {
      emit({ type: 'warned', message: `trigger of '${def.name}' on ${event.provider_event_id}: ${(err as Error).message}` });
      continue;
    }
    if (!holds) continue; // a silent miss: not recorded
    const key = decisionKey(def.id, event.provider_event_id);
    if (s.decided.has(key)) continue; // decided by an earlier listener of the match (a feed read again)
    try {
      const next = await applyStoreState(def.storeState, input);
      if (next !== s.store) emit({ type: 'state_stored', definitionId: def.id, state: next });
    } catch (err) {
      emit({ type: 'warned', message: `store_state of '${def.name}': ${(err as Error).message}` });
    }
    s = current();
    const group = def.groupId ? groups.get(def.groupId) : undefined;
    const laneKey = def.groupId ?? DEFAULT_LANE;
    const gateInput: GateInput = {
      def,
      settings: settings.get(def.id)!,
      level,
      group,
      laneKey,
      lane: s.lanes.get(laneKey) ?? { lastRegularAt: null, open: 0 },
      regular: s.regular,
      event,
      evalInput: { event, state: s.store, match: matchContext(s, catalog) },
      seed: ctx.seed,
      feedFresh: ctx.feedFresh,
      stopping: ctx.stopping,
      staleAfterMs: ctx.staleAfterMs,
    };
    const { trace, failed } = await runGates(gateInput, def.isPivotalMoment);
    if (failed) {
      emit({
        type: 'denied',
        key,
        denial: {
          definitionId: def.id,
          definitionName: def.name,
          failedStep: failed.step,
          detail: failed.detail,
          triggerEventId: event.provider_event_id,
          triggerEventType: event.type,
          period: event.period,
          clockSeconds: event.clock_seconds,
        },
      });
      continue;
    }
    const rendered = gateInput.rendered!;
    const st = gateInput.settings;
    const i = event.period ? periods.indexOf(event.period) : -1;
    emit({
      type: 'issued',
      key,
      triggerPosition: s.known.get(event.provider_event_id) ?? s.position,
      earlierPeriods: i > 0 ? periods.slice(0, i) : [],
      question: {
        definitionId: def.id,
        definitionName: def.name,
        groupId: def.groupId,
        lane: laneKey,
        questionNumber: def.isPivotalMoment ? null : s.regular.total + 1,
        isPivotalMoment: def.isPivotalMoment,
        questionText: rendered.questionText,
        choices: rendered.choices,
        choiceTemplates: def.choices,
        state: rendered.extract,
        resolution: def.resolution,
        triggerEventId: event.provider_event_id,
        triggerEvent: event,
        triggerSeq: event.seq,
        period: event.period,
        clockSeconds: event.clock_seconds,
        issuedAt: ctx.now,
        answerWindowSeconds: st.answer_window_seconds.value,
        minAnswerSeconds: st.min_answer_seconds.value,
        points: st.points.value,
        matchSponsorBrand: catalog.matchSponsor,
        decisionTrace: trace,
      },
    });
  }
}

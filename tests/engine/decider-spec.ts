/**
 * In-memory specifications of the engine's decider: given a catalogue (a
 * league, a match, definitions, groups) and the events before, when an event
 * arrives, then these decisions. No database, no feed, no worker: each spec
 * runs in milliseconds. `play` folds a whole feed through decide and evolve,
 * as the listener runner does, and sorts the decisions by kind.
 */
import {
  decide,
  evolve,
  restoreState,
  type Decision,
  type DecideContext,
  type EngineCatalog,
  type EngineState,
  type QuestionValues,
} from '../../src/engine/decider.js';
import type { FeedEvent } from '../../src/domain/sports/events.js';
import type { DecisionStep } from '../../src/engine/gates.js';
import type { QuestionDefinitionRow } from '../../src/modules/definitions/definitions.table.js';
import type { QuestionGroupRow } from '../../src/modules/groups/groups.table.js';
import type { BrandSnapshot } from '../../src/modules/issuances/issuances.table.js';
import { SUPPORTED_LEAGUES } from '../../src/domain/sports/league-registry.js';
import type { LeagueRow } from '../../src/modules/leagues/leagues.table.js';
import type { MatchRow } from '../../src/modules/matches/matches.table.js';

const T0 = new Date('2026-06-14T17:00:00Z');

let ids = 0;
/**
 * Ids in order of creation: a spec's probability draws (seeded by definition id) are the same on every run, as long
 * as each file starts the sequence anew (`beforeAll(resetSpecIds)`): test files share their process, and this module,
 * with whichever files ran before in it.
 */
const nextId = () => `00000000-0000-4000-8000-${(++ids).toString(16).padStart(12, '0')}`;

export function league(slug = 'wc', overrides: Partial<LeagueRow> = {}): LeagueRow {
  const l = SUPPORTED_LEAGUES.find((x) => x.slug === slug)!;
  return {
    id: nextId(),
    slug: l.slug,
    name: l.name,
    sport: l.sport,
    defaultQuestionMaxCount: l.defaults.questionMaxCount,
    defaultQuestionMinIntervalSeconds: l.defaults.questionMinIntervalSeconds,
    defaultQuestionPeriodDistribution: l.defaults.questionPeriodDistribution,
    defaultQuestionPoints: l.defaults.questionPoints,
    defaultAnswerWindowSeconds: l.defaults.answerWindowSeconds,
    defaultMinAnswerSeconds: l.defaults.minAnswerSeconds,
    defaultQuestionProbability: l.defaults.questionProbability,
    questionDefinitionAllowlist: null,
    matchQuestionDefinitionAllowlist: null,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

/** No cap, quota or interval in the way unless a spec sets one. */
export const OPEN_MATCH: Partial<MatchRow> = { questionMaxCount: 50, questionMinIntervalSeconds: 0, questionPeriodDistribution: {} };

export function match(leagueRow: LeagueRow, overrides: Partial<MatchRow> = {}): MatchRow {
  return {
    id: nextId(),
    srId: `sr:${nextId()}`,
    leagueId: leagueRow.id,
    homeTeam: 'Team A',
    awayTeam: 'Team B',
    scheduled: T0,
    status: 'scheduled',
    period: null,
    clockSeconds: null,
    homeScore: null,
    awayScore: null,
    venue: null,
    feedUrl: null,
    feedUrlByOperator: false,
    isTest: false,
    clonedFromMatchId: null,
    createdByUserId: null,
    listenerEventsArchived: false,
    autoDispatchListener: true,
    questionMaxCount: null,
    questionMinIntervalSeconds: null,
    questionPeriodDistribution: null,
    questionPoints: null,
    answerWindowSeconds: null,
    minAnswerSeconds: null,
    questionProbability: null,
    questionDefinitionAllowlist: null,
    matchQuestionDefinitionAllowlist: null,
    sponsorBrandId: null,
    stateStore: {},
    result: null,
    startedAt: null,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

let counter = 0;

/** Ids and names from the start of their sequences, as in a process that has built no spec yet. */
export function resetSpecIds() {
  ids = 0;
  counter = 0;
}

/** A group as the API would store it (snake_case body fields). */
export function group(leagueRow: LeagueRow, body: Record<string, unknown> = {}): QuestionGroupRow {
  const slug = (body.slug as string) ?? `g-${counter++}`;
  return {
    id: nextId(),
    leagueId: leagueRow.id,
    slug,
    name: (body.name as string) ?? slug,
    description: null,
    maxOpenQuestions: (body.max_open_questions as number) ?? 1,
    questionMaxCount: (body.question_max_count as number) ?? null,
    minIntervalSeconds: (body.min_interval_seconds as number) ?? null,
    periodDistribution: (body.period_distribution as Record<string, number>) ?? null,
    answerWindowSeconds: (body.answer_window_seconds as number) ?? null,
    minAnswerSeconds: (body.min_answer_seconds as number) ?? null,
    points: (body.points as number) ?? null,
    probability: (body.probability as number) ?? null,
    createdAt: T0,
    updatedAt: T0,
  } as QuestionGroupRow;
}

/** The body of a definition: a shot question whose rule waits for a card (so it stays open), with overrides. */
export function definitionBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: `Def ${counter++}`,
    trigger: { event_type: 'shot' },
    question_text_template: 'Shot by {{ event.team }}. Who is booked next?',
    choices: [
      { identifier: 'home', label_template: '{{ match.home_team }}' },
      { identifier: 'away', label_template: '{{ match.away_team }}' },
    ],
    resolution: { rules: [{ event_type: 'card', correct_choice: 'event.team' }] },
    ...overrides,
  };
}

/** An in-game definition row from an API-like body (see definitionBody), created in order. */
export function definition(leagueRow: LeagueRow, overrides: Record<string, unknown> = {}): QuestionDefinitionRow {
  const b = definitionBody(overrides);
  const trigger = b.trigger as QuestionDefinitionRow['trigger'];
  const n = counter++;
  return {
    id: nextId(),
    leagueId: leagueRow.id,
    name: b.name as string,
    description: null,
    isPivotalMoment: (b.is_pivotal_moment as boolean) ?? false,
    isActive: (b.is_active as boolean) ?? true,
    isArchived: false,
    groupId: (b.group_id as string) ?? null,
    trigger,
    triggerEventType: trigger.event_type,
    questionTextTemplate: b.question_text_template as string,
    choices: b.choices as QuestionDefinitionRow['choices'],
    issuanceStateExtract: (b.issuance_state_extract as Record<string, string>) ?? null,
    storeState: (b.store_state as Record<string, string>) ?? null,
    resolution: b.resolution as QuestionDefinitionRow['resolution'],
    answerWindowSeconds: (b.answer_window_seconds as number) ?? null,
    minAnswerSeconds: (b.min_answer_seconds as number) ?? null,
    points: (b.points as number) ?? null,
    probability: (b.probability as number) ?? null,
    createdAt: new Date(T0.getTime() + n),
    updatedAt: new Date(T0.getTime() + n),
  } as QuestionDefinitionRow;
}

const KICKOFF = Date.UTC(2026, 5, 14, 18, 0, 0);

/**
 * A feed event: `seq`, its type, and overrides. `at` is the feed time in
 * seconds after kick-off: it sets occurred_at and (unless given) the clock.
 * The provider event id defaults to `e<seq>`; events are final by default.
 */
export function ev(seq: number, type: string, overrides: Partial<FeedEvent> & { at?: number } = {}): FeedEvent {
  const { at = seq * 10, ...rest } = overrides;
  return {
    provider_event_id: `e${seq}`,
    seq,
    operation: 'create',
    type,
    period: '1',
    clock_seconds: at,
    occurred_at: new Date(KICKOFF + at * 1000).toISOString(),
    team: 'home',
    score: { home: 0, away: 0 },
    final: true,
    data: {},
    ...rest,
  };
}

/** A later message about an earlier event (same provider id): an `update` or a `delete`. */
export function revise(seq: number, of: FeedEvent, operation: 'update' | 'delete', overrides: Partial<FeedEvent> = {}): FeedEvent {
  return { ...of, seq, operation, ...overrides };
}

export interface SpecCatalog {
  league: LeagueRow;
  match: MatchRow;
  definitions: QuestionDefinitionRow[];
  groups: QuestionGroupRow[];
  matchSponsor?: BrandSnapshot | null;
}

export function catalogOf(c: SpecCatalog): EngineCatalog {
  return { league: c.league, match: c.match, definitions: c.definitions, groups: c.groups, matchSponsor: c.matchSponsor ?? null };
}

export function initialState(c: SpecCatalog): EngineState {
  return restoreState({
    match: c.match,
    store: c.match.stateStore,
    counters: { issued: 0, denied: 0, resolved: 0 },
    recording: [],
    issuances: [],
    deniedKeys: [],
  });
}

export type Inputs = Partial<Omit<DecideContext, 'catalog'>>;

export const context = (c: SpecCatalog, inputs: Inputs = {}): DecideContext => ({
  catalog: catalogOf(c),
  seed: '',
  now: new Date('2026-06-14T18:00:00Z'),
  feedFresh: true,
  staleAfterMs: 10_000,
  stopping: false,
  ...inputs,
});

/** The decisions of one event given the state before it (decide does not touch the state it is given). */
export async function when(state: EngineState, event: FeedEvent, c: SpecCatalog, inputs: Inputs = {}): Promise<Decision[]> {
  return decide(state, event, context(c, inputs));
}

export type Issued = QuestionValues & {
  key: string;
  status: 'open' | 'resolved' | 'voided';
  correct: string | null;
  resolvedBy: string | null;
  resolvedSeq: number | null;
};
export type Denied = Extract<Decision, { type: 'denied' }>['denial'];
export type Settled = Extract<Decision, { type: 'settled' }>;

export interface Played {
  state: EngineState;
  decisions: Decision[];
  /** Issued questions in order, with how they ended (open when nothing settled them). */
  issued: Issued[];
  denied: Denied[];
  settled: Settled[];
  warned: string[];
  /** The match fields as the engine left them (the match_changed decisions folded). */
  match: Partial<MatchRow>;
}

/**
 * Folds a feed through decide and evolve, as the listener runner does. `inputs` may be a
 * function of the event (a feed that goes stale at some point, say).
 */
export async function play(
  c: SpecCatalog,
  events: FeedEvent[],
  inputs: Inputs | ((e: FeedEvent) => Inputs) = {},
  from: EngineState = initialState(c),
): Promise<Played> {
  let state = from;
  const out: Played = { state, decisions: [], issued: [], denied: [], settled: [], warned: [], match: {} };
  const byKey = new Map<string, Issued>();
  for (const event of events) {
    const decisions = await decide(state, event, context(c, typeof inputs === 'function' ? inputs(event) : inputs));
    for (const d of decisions) {
      state = evolve(state, d);
      out.decisions.push(d);
      if (d.type === 'issued') {
        const row: Issued = { ...d.question, key: d.key, status: 'open', correct: null, resolvedBy: null, resolvedSeq: null };
        byKey.set(d.key, row);
        out.issued.push(row);
      } else if (d.type === 'denied') out.denied.push(d.denial);
      else if (d.type === 'settled') {
        out.settled.push(d);
        const row = byKey.get(d.key);
        if (row) Object.assign(row, { status: d.status, correct: d.correct, resolvedBy: d.eventId, resolvedSeq: d.eventSeq });
      } else if (d.type === 'warned') out.warned.push(d.message);
      else if (d.type === 'match_changed') Object.assign(out.match, d.values);
    }
  }
  out.state = state;
  return out;
}

/** The decision trace step of an issued question. */
export function step(q: { decisionTrace: DecisionStep[] }, id: string): DecisionStep | undefined {
  return q.decisionTrace.find((s) => s.step === id);
}

/** A catalogue for `wc` with an open match; definitions and groups added by the spec. */
export function wc(
  matchOverrides: Partial<MatchRow> = {},
  leagueOverrides: Partial<LeagueRow> = {},
): SpecCatalog & {
  define(overrides?: Record<string, unknown>): QuestionDefinitionRow;
  addGroup(body?: Record<string, unknown>): QuestionGroupRow;
} {
  const l = league('wc', leagueOverrides);
  const c: SpecCatalog = { league: l, match: match(l, { ...OPEN_MATCH, ...matchOverrides }), definitions: [], groups: [] };
  return Object.assign(c, {
    define(overrides: Record<string, unknown> = {}) {
      const d = definition(l, overrides);
      c.definitions.push(d);
      return d;
    },
    addGroup(body: Record<string, unknown> = {}) {
      const g = group(l, body);
      c.groups.push(g);
      return g;
    },
  });
}

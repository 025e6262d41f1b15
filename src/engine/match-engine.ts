/**
 * What a listener does with each feed event of one match: keep the match's
 * event store and live state, resolve open questions from later final
 * information, and try every definition whose trigger the event matches
 * through the ordered issuance gates.
 *
 * Gates, in order (their ids are stable; the first that closes is a denial's
 * failed_step):
 *   listener_running    the feed is fresh (heartbeats arrive) and the listener is not stopping
 *   definition_allowed  the definition is included on this match (allowlists, is_active)
 *   match_cap           regular questions below the match's cap and the group's cap
 *   period_quota        regular questions of this period below the match's and the group's distribution
 *   min_interval        enough feed time since the last regular question in the lane
 *   group_lane          fewer unresolved questions in the lane than its width
 *   probability         a deterministic draw (seeded) below the effective probability
 *   render              the state extract, question text and choice labels render
 * Pivotal moments skip match_cap, period_quota and min_interval: they are
 * counted apart from the capped regular questions.
 */
import { createHash } from 'node:crypto';
import type { QuestionDefinitionRow } from '../modules/definitions/definitions.table.js';
import type { QuestionGroupRow } from '../modules/groups/groups.table.js';
import type { QuestionIssuanceRow } from '../modules/issuances/issuances.table.js';
import type { LeagueRow } from '../modules/leagues/leagues.table.js';
import type { MatchRow } from '../modules/matches/matches.table.js';
import { periodsOfSport } from '../modules/leagues/league-registry.js';
import { evaluateExpression } from './expressions.js';
import type { FeedEvent } from './feed/events.js';
import { applyStoreState, conditionHolds, extractIssuanceState, isDefinitionError, renderQuestion, type MatchContext } from './question-render.js';
import { inGameSettings, matchLevelSettings, type InGameSettings, type MatchLevelSettings } from './settings.js';
import type { NewDenial, NewIssuance } from './store.js';

export const GATES = ['listener_running', 'definition_allowed', 'match_cap', 'period_quota', 'min_interval', 'group_lane', 'probability', 'render'] as const;
export type GateId = (typeof GATES)[number];

export interface DecisionStep {
  step: string;
  passed: boolean;
  detail: string;
}

/** What the engine asks its environment to do (the listener runner implements it on the store). */
export interface EngineEffects {
  issue(values: NewIssuance, earlierPeriods: string[]): Promise<QuestionIssuanceRow | undefined>;
  deny(values: NewDenial): Promise<void>;
  settle(issuance: QuestionIssuanceRow, outcome: { status: 'resolved' | 'voided'; correct: string | null; event: FeedEvent | null; reason: string }): Promise<boolean>;
  matchChanged(values: Partial<MatchRow>): Promise<void>;
  log(level: 'debug' | 'info' | 'warn' | 'error', message: string): void;
}

export interface EngineCatalog {
  league: LeagueRow;
  match: MatchRow;
  definitions: QuestionDefinitionRow[];
  groups: QuestionGroupRow[];
  matchSponsor: NewIssuance['matchSponsorBrand'];
}

interface LaneState {
  lastRegularAt: number | null;
  open: number;
}

const LIVE_STATUSES = new Set(['live', 'break']);
const DEFAULT_LANE = 'default';

export class MatchEngine {
  /** Latest version of every provider event seen (deletions removed). */
  readonly events = new Map<string, FeedEvent>();
  /** The seq where each of those events first appeared: its place in the feed, whatever later versions say. */
  private readonly firstSeq = new Map<string, number>();
  state: Record<string, unknown>;
  private catalog!: EngineCatalog;
  private settings = new Map<string, InGameSettings>();
  private level!: MatchLevelSettings;
  private groupsById = new Map<string, QuestionGroupRow>();
  private open = new Map<string, QuestionIssuanceRow>();
  private regularCount = 0;
  private regularByPeriod = new Map<string, number>();
  private regularByGroup = new Map<string, number>();
  private regularByGroupPeriod = new Map<string, number>();
  private lanes = new Map<string, LaneState>();
  /** Triggers already decided (issued or denied) by this or an earlier run: a replay repeats nothing. */
  private readonly decided = new Set<string>();
  private live: { status: string; period: string | null; clock: number | null; home: number; away: number };
  counters = { issued: 0, denied: 0, resolved: 0 };

  constructor(
    catalog: EngineCatalog,
    issuances: QuestionIssuanceRow[],
    private readonly effects: EngineEffects,
    private readonly options: { seed: string; listenerId: string | null; now: () => Date; state?: Record<string, unknown>; deniedKeys?: string[] },
  ) {
    for (const key of options.deniedKeys ?? []) this.decided.add(key);
    this.state = options.state ?? {};
    this.setCatalog(catalog);
    const m = catalog.match;
    this.live = { status: m.status, period: m.period, clock: m.clockSeconds, home: m.homeScore ?? 0, away: m.awayScore ?? 0 };
    for (const row of issuances) this.count(row);
  }

  /** New definitions, groups or settings take effect for later triggers; issued questions keep their snapshot. */
  setCatalog(catalog: EngineCatalog): void {
    this.catalog = catalog;
    this.groupsById = new Map(catalog.groups.map((g) => [g.id, g]));
    this.level = matchLevelSettings(catalog.league, catalog.match);
    this.settings = new Map(catalog.definitions.map((d) => [d.id, inGameSettings(catalog.league, d.groupId ? this.groupsById.get(d.groupId) : null, d, catalog.match)]));
  }

  get match(): MatchRow {
    return this.catalog.match;
  }

  get isOver(): boolean {
    return this.live.status === 'ended' || this.live.status === 'closed';
  }

  get status(): string {
    return this.live.status;
  }

  /** Rebuilds the event store from a recording (a takeover resumes where the last owner stopped). */
  restore(events: FeedEvent[]): void {
    for (const e of events) this.applyToStore(e);
  }

  private count(row: QuestionIssuanceRow): void {
    if (row.definitionId && row.triggerEventId) this.decided.add(`${row.definitionId}|${row.triggerEventId}`);
    const lane = this.lane(row.lane);
    if (row.status === 'open') {
      this.open.set(row.id, row);
      lane.open += 1;
    }
    if (row.isPivotalMoment) return;
    this.regularCount += 1;
    if (row.period) this.regularByPeriod.set(row.period, (this.regularByPeriod.get(row.period) ?? 0) + 1);
    if (row.groupId) {
      this.regularByGroup.set(row.groupId, (this.regularByGroup.get(row.groupId) ?? 0) + 1);
      if (row.period) this.regularByGroupPeriod.set(`${row.groupId}:${row.period}`, (this.regularByGroupPeriod.get(`${row.groupId}:${row.period}`) ?? 0) + 1);
    }
    const at = Date.parse(String((row.triggerEvent as { occurred_at?: string } | null)?.occurred_at ?? row.issuedAt.toISOString()));
    if (lane.lastRegularAt === null || at > lane.lastRegularAt) lane.lastRegularAt = at;
  }

  private lane(key: string): LaneState {
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { lastRegularAt: null, open: 0 };
      this.lanes.set(key, lane);
    }
    return lane;
  }

  private matchContext(): MatchContext {
    const m = this.catalog.match;
    return {
      id: m.id,
      league: this.catalog.league.slug,
      home_team: m.homeTeam,
      away_team: m.awayTeam,
      status: this.live.status,
      period: this.live.period,
      clock_seconds: this.live.clock,
      score: { home: this.live.home, away: this.live.away },
    };
  }

  private applyToStore(event: FeedEvent): boolean {
    const known = this.events.has(event.provider_event_id);
    if (event.operation === 'delete') {
      this.events.delete(event.provider_event_id);
      this.firstSeq.delete(event.provider_event_id);
    } else {
      this.events.set(event.provider_event_id, event);
      if (!known) this.firstSeq.set(event.provider_event_id, event.seq);
    }
    return known;
  }

  /** Handles one feed message. `feedFresh` is false while the feed is stale (no heartbeats). */
  async handle(event: FeedEvent, { feedFresh, stopping = false }: { feedFresh: boolean; stopping?: boolean }): Promise<void> {
    const known = this.applyToStore(event);
    if (event.operation === 'delete') {
      await this.withdrawn(event);
      return;
    }
    await this.updateLive(event);
    if (event.final) await this.resolve(event);
    if (!known) await this.trigger(event, feedFresh && !stopping);
    if (event.type === 'match_status' && ['ended', 'closed'].includes(String(event.data.status))) await this.endOfMatch(event);
  }

  private async updateLive(event: FeedEvent): Promise<void> {
    const next = { ...this.live };
    if (event.period) next.period = event.period;
    if (event.clock_seconds !== null && event.clock_seconds !== undefined) next.clock = event.clock_seconds;
    if (event.score) {
      next.home = event.score.home;
      next.away = event.score.away;
    }
    const status = event.type === 'match_status' ? String(event.data.status ?? '') : '';
    if (['live', 'break', 'ended', 'closed'].includes(status)) next.status = status;
    else if (!LIVE_STATUSES.has(next.status) && !['ended', 'closed'].includes(next.status) && event.type !== 'match_status') next.status = 'live';
    const changed: Partial<MatchRow> = {};
    if (next.status !== this.live.status) changed.status = next.status;
    if (next.period !== this.live.period) changed.period = next.period;
    if (next.home !== this.live.home || next.away !== this.live.away) Object.assign(changed, { homeScore: next.home, awayScore: next.away });
    if (next.clock !== this.live.clock) changed.clockSeconds = next.clock;
    this.live = next;
    if (status === 'live' && !this.catalog.match.startedAt) changed.startedAt = new Date(event.occurred_at);
    if (status === 'closed') changed.result = closedResult(event, this.catalog.match, this.live, [...this.events.values()]);
    if (Object.keys(changed).length) {
      Object.assign(this.catalog.match, changed);
      await this.effects.matchChanged(changed);
    }
  }

  /** An event withdrawn by the provider: questions it triggered can no longer stand. */
  private async withdrawn(event: FeedEvent): Promise<void> {
    for (const issuance of [...this.open.values()]) {
      if (issuance.triggerEventId === event.provider_event_id) {
        await this.settle(issuance, { status: 'voided', correct: null, event, reason: `its triggering event ${event.provider_event_id} was withdrawn by the provider` });
      }
    }
  }

  private async settle(issuance: QuestionIssuanceRow, outcome: { status: 'resolved' | 'voided'; correct: string | null; event: FeedEvent | null; reason: string }) {
    this.open.delete(issuance.id);
    const lane = this.lane(issuance.lane);
    lane.open = Math.max(0, lane.open - 1);
    if (await this.effects.settle(issuance, outcome)) {
      this.counters.resolved += 1;
      this.effects.log('info', `${outcome.status} '${issuance.definitionName}' #${issuance.questionNumber ?? 'pivotal'}: ${outcome.reason}`);
    }
  }

  /** Later final information decides open questions: a timeout first, then the rules in order. */
  private async resolve(event: FeedEvent): Promise<void> {
    // A late final version of an event that began before the trigger is not later information.
    const firstSeq = this.firstSeq.get(event.provider_event_id) ?? event.seq;
    for (const issuance of [...this.open.values()]) {
      if (issuance.triggerEventId === event.provider_event_id) continue;
      if (issuance.triggerSeq !== null && firstSeq <= issuance.triggerSeq) continue;
      const resolution = issuance.resolution as { rules: { event_type: string; condition?: string | null; correct_choice: string }[]; timeout?: { after_seconds: number; correct_choice: string | null } | null };
      const trigger = (issuance.triggerEvent ?? {}) as unknown as FeedEvent;
      const choices = new Set(issuance.choices.map((c) => c.identifier));
      if (resolution.timeout && event.clock_seconds !== null && trigger.clock_seconds !== null && trigger.clock_seconds !== undefined) {
        if (event.clock_seconds > trigger.clock_seconds + resolution.timeout.after_seconds) {
          const correct = resolution.timeout.correct_choice;
          await this.settle(issuance, correct && choices.has(correct)
            ? { status: 'resolved', correct, event, reason: `timeout: ${resolution.timeout.after_seconds} s passed without a deciding event` }
            : { status: 'voided', correct: null, event, reason: 'timeout without a correct choice' });
          continue;
        }
      }
      const input = { event, state: this.state, match: this.matchContext(), issuance: { state: issuance.state, trigger, issued_at: issuance.issuedAt.toISOString(), question_number: issuance.questionNumber } };
      for (const [i, rule] of resolution.rules.entries()) {
        if (rule.event_type !== event.type) continue;
        try {
          if (!(await conditionHolds(`resolution.rules[${i}].condition`, rule.condition, input))) continue;
          const value = await evaluateExpression(`resolution.rules[${i}].correct_choice`, rule.correct_choice, input);
          const correct = typeof value === 'string' && choices.has(value) ? value : null;
          await this.settle(issuance, correct
            ? { status: 'resolved', correct, event, reason: `rule ${i + 1} on ${event.type} ${event.provider_event_id}` }
            : { status: 'voided', correct: null, event, reason: `rule ${i + 1} gave ${JSON.stringify(value ?? null)}, not a choice` });
        } catch (err) {
          this.effects.log('warn', `resolving '${issuance.definitionName}': ${(err as Error).message}`);
          continue;
        }
        break;
      }
    }
  }

  /** The match is over: whatever the end event did not decide can no longer resolve. */
  private async endOfMatch(event: FeedEvent): Promise<void> {
    for (const issuance of [...this.open.values()]) {
      await this.settle(issuance, { status: 'voided', correct: null, event, reason: 'the match ended before it resolved' });
    }
  }

  private async trigger(event: FeedEvent, running: boolean): Promise<void> {
    const candidates = this.catalog.definitions.filter((d) => d.triggerEventType === event.type);
    for (const def of candidates) {
      const input = { event, state: this.state, match: this.matchContext() };
      let holds: boolean;
      try {
        holds = await conditionHolds('trigger.condition', def.trigger.condition, input);
      } catch (err) {
        this.effects.log('warn', `trigger of '${def.name}' on ${event.provider_event_id}: ${(err as Error).message}`);
        continue;
      }
      if (!holds) continue; // a silent miss: not recorded
      const key = `${def.id}|${event.provider_event_id}`;
      if (this.decided.has(key)) continue; // decided by an earlier run of this feed (takeover, replay)
      this.decided.add(key);
      try {
        this.state = await applyStoreState(def.storeState, input);
      } catch (err) {
        this.effects.log('warn', `store_state of '${def.name}': ${(err as Error).message}`);
      }
      await this.attempt(def, event, running);
    }
  }

  private async attempt(def: QuestionDefinitionRow, event: FeedEvent, running: boolean): Promise<void> {
    const settings = this.settings.get(def.id)!;
    const group = def.groupId ? this.groupsById.get(def.groupId) : undefined;
    const laneKey = def.groupId ?? DEFAULT_LANE;
    const lane = this.lane(laneKey);
    const regular = !def.isPivotalMoment;
    const at = Date.parse(event.occurred_at);
    const trace: DecisionStep[] = [];
    const gate = (step: GateId, passed: boolean, detail: string) => {
      trace.push({ step, passed, detail });
      return passed;
    };
    const deny = async () => {
      const failed = trace[trace.length - 1]!;
      this.counters.denied += 1;
      await this.effects.deny({
        matchId: this.catalog.match.id,
        listenerId: this.options.listenerId,
        definitionId: def.id,
        definitionName: def.name,
        failedStep: failed.step,
        detail: failed.detail,
        triggerEventId: event.provider_event_id,
        triggerEventType: event.type,
        period: event.period,
        clockSeconds: event.clock_seconds,
      });
      this.effects.log('debug', `denied '${def.name}' on ${event.provider_event_id} at ${failed.step}: ${failed.detail}`);
    };

    if (!gate('listener_running', running, running ? 'feed fresh' : 'the feed is stale (no heartbeat) or the listener is stopping')) return deny();
    if (!gate('definition_allowed', settings.included.value, `${settings.included.value ? 'included' : 'not included'} (${settings.included.source})`)) return deny();
    if (regular) {
      const cap = this.level.question_max_count.value;
      if (!gate('match_cap', this.regularCount < cap, `${this.regularCount} of ${cap} regular questions issued`)) return deny();
      if (group?.questionMaxCount !== null && group?.questionMaxCount !== undefined) {
        const n = this.regularByGroup.get(group.id) ?? 0;
        if (!gate('match_cap', n < group.questionMaxCount, `${n} of ${group.questionMaxCount} questions of group '${group.slug}' issued`)) return deny();
      }
      const period = event.period ?? '';
      const quota = this.level.period_distribution.value[period];
      const inPeriod = this.regularByPeriod.get(period) ?? 0;
      if (quota !== undefined && !gate('period_quota', inPeriod < quota, `${inPeriod} of ${quota} questions of period ${period} issued`)) return deny();
      const groupQuota = group?.periodDistribution?.[period];
      const groupInPeriod = group ? (this.regularByGroupPeriod.get(`${group.id}:${period}`) ?? 0) : 0;
      if (groupQuota !== undefined && !gate('period_quota', groupInPeriod < groupQuota, `${groupInPeriod} of ${groupQuota} questions of group '${group!.slug}' in period ${period} issued`)) return deny();
      if (quota === undefined && groupQuota === undefined) gate('period_quota', true, `period ${period || '(none)'} is not capped`);
      const min = settings.min_interval_seconds.value;
      const since = lane.lastRegularAt === null ? null : Math.round((at - lane.lastRegularAt) / 1000);
      if (!gate('min_interval', since === null || since >= min, since === null ? `first question in lane ${laneKey}` : `${since} s since the last question in lane ${laneKey} (minimum ${min} s)`)) return deny();
    }
    const width = group ? group.maxOpenQuestions : Infinity;
    if (!gate('group_lane', lane.open < width, `${lane.open} open in lane ${laneKey} (width ${Number.isFinite(width) ? width : 'unlimited'})`)) return deny();
    const p = settings.probability.value;
    const draw = this.draw(def.id, event.provider_event_id);
    if (!gate('probability', draw < p, `draw ${drawDigits(draw, p)} against ${p}`)) return deny();

    let rendered: { question_text: string; choices: { identifier: string; label: string }[] };
    let extract: Record<string, unknown>;
    try {
      const input = { event, state: this.state, match: this.matchContext() };
      extract = await extractIssuanceState(def.issuanceStateExtract, input);
      rendered = await renderQuestion({ question_text_template: def.questionTextTemplate, choices: def.choices }, { ...input, extract });
    } catch (err) {
      if (!isDefinitionError(err)) throw err;
      gate('render', false, (err as Error).message);
      return deny();
    }
    gate('render', true, 'rendered');

    const now = this.options.now();
    const issued = await this.effects.issue(
      {
        matchId: this.catalog.match.id,
        kind: 'in_game',
        definitionId: def.id,
        definitionName: def.name,
        groupId: def.groupId,
        lane: laneKey,
        questionNumber: regular ? this.regularCount + 1 : null,
        isPivotalMoment: def.isPivotalMoment,
        status: 'open',
        questionText: rendered.question_text,
        choices: rendered.choices,
        choiceTemplates: def.choices,
        state: extract,
        resolution: def.resolution as unknown as Record<string, unknown>,
        triggerEventId: event.provider_event_id,
        triggerEvent: event as unknown as Record<string, unknown>,
        triggerSeq: event.seq,
        period: event.period,
        clockSeconds: event.clock_seconds,
        issuedAt: now,
        closesAt: new Date(now.getTime() + settings.answer_window_seconds.value * 1000),
        points: settings.points.value,
        answerWindowSeconds: settings.answer_window_seconds.value,
        matchSponsorBrand: this.catalog.matchSponsor ?? null,
        listenerId: this.options.listenerId,
        decisionTrace: trace,
      },
      this.earlierPeriods(event.period),
    );
    if (!issued) return; // already issued by an earlier run of this feed
    this.counters.issued += 1;
    this.count(issued);
    this.effects.log('info', `issued '${def.name}'${regular ? ` #${issued.questionNumber}` : ' (pivotal)'} on ${event.type} ${event.provider_event_id}: ${issued.questionText}`);
  }

  private earlierPeriods(period: string | null): string[] {
    const all = periodsOfSport(this.catalog.league.sport);
    const i = period ? all.indexOf(period) : -1;
    return i > 0 ? all.slice(0, i) : [];
  }

  /**
   * A uniform draw in [0, 1) fixed by the seed, the definition and the event: replays draw the
   * same, and so does another match reading the same events (a test match replaying a recorded
   * one). Provider event ids already differ between matches; another engine seed draws anew.
   */
  private draw(definitionId: string, eventId: string): number {
    const h = createHash('sha256').update(`${this.options.seed}|${definitionId}|${eventId}`).digest();
    return h.readUInt32BE(0) / 2 ** 32;
  }
}

/** The final result stored on the match when it closes (Match questions resolve from it). */
function closedResult(event: FeedEvent, match: MatchRow, live: { home: number; away: number }, events: FeedEvent[]): Record<string, unknown> {
  const final = (event.data.final_score ?? {}) as Record<string, unknown>;
  const home = typeof final.home === 'number' ? final.home : live.home;
  const away = typeof final.away === 'number' ? final.away : live.away;
  const winner = typeof final.winner === 'string' ? final.winner : home > away ? 'home' : home < away ? 'away' : 'draw';
  const goals = events
    .filter((e) => e.type === 'score_change')
    .sort((a, b) => a.seq - b.seq)
    .map((e) => ({ team: e.team, minute: e.data.minute ?? null, player: e.data.scorer ?? null, penalty: Boolean(e.data.penalty), own_goal: Boolean(e.data.own_goal) }));
  return { home_score: home, away_score: away, winner, home_team: match.homeTeam, away_team: match.awayTeam, penalties: final.penalties ?? null, goals };
}

/**
 * The draw with three decimals, or as many more as it takes for the printed
 * number to compare with the probability the way the draw did (0.4996 against
 * 0.5 prints 0.4996, not 0.500), so a decision trace never contradicts itself.
 */
export function drawDigits(draw: number, probability: number): string {
  for (let digits = 3; digits < 17; digits++) {
    const text = draw.toFixed(digits);
    if (Number(text) < probability === draw < probability) return text;
  }
  return String(draw);
}

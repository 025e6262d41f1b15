/**
 * The issuance gates: ONE ordered table. A trigger that matched runs them in
 * this order; the first that closes is the denial's `failed_step` (and its
 * detail), and an issued question stores every step it passed as its
 * decision trace. The gate ids (`GATES`), the table in docs/engine.md
 * (`gatesMarkdownTable`, checked by a test) and the traces all come from
 * here. Checks are pure: everything they read is in their input (time
 * enters as `feedFresh` and `stopping`, decided by the listener runner).
 */
import { createHash } from 'node:crypto';
import type { QuestionDefinitionRow } from '../modules/definitions/definitions.table.js';
import type { QuestionGroupRow } from '../modules/groups/groups.table.js';
import type { FeedEvent } from '../domain/sports/events.js';
import { extractIssuanceState, isDefinitionError, renderQuestion, type EvalInput, type RenderedChoice } from '../domain/question-render.js';
import type { InGameSettings, MatchLevelSettings } from '../domain/settings.js';

export interface LaneState {
  /** Feed time (occurred_at, ms) of the trigger of the lane's last regular question. */
  lastRegularAt: number | null;
  /** Unresolved questions in the lane. */
  open: number;
}

/** The question counts the capped gates compare with (regular questions only; pivotal moments are counted apart). */
export interface RegularCounts {
  total: number;
  byPeriod: ReadonlyMap<string, number>;
  byGroup: ReadonlyMap<string, number>;
  /** Keyed `<group id>:<period>`. */
  byGroupPeriod: ReadonlyMap<string, number>;
}

export interface Rendered {
  questionText: string;
  choices: RenderedChoice[];
  extract: Record<string, unknown>;
}

/** What a gate sees: one definition triggered by one event, with the match's bookkeeping at that moment. */
export interface GateInput {
  def: QuestionDefinitionRow;
  settings: InGameSettings;
  level: MatchLevelSettings;
  group: QuestionGroupRow | undefined;
  laneKey: string;
  lane: LaneState;
  regular: RegularCounts;
  event: FeedEvent;
  /** What expressions and templates see (event, state store, match). */
  evalInput: EvalInput;
  seed: string;
  feedFresh: boolean;
  stopping: boolean;
  staleAfterMs: number;
  /** Set by the render gate: the question as it would be issued. */
  rendered?: Rendered;
}

export interface GateCheck {
  passed: boolean;
  detail: string;
}

export interface DecisionStep extends GateCheck {
  step: GateId;
}

interface GateSpec<Id extends string> {
  id: Id;
  /** When it closes, for people (docs/engine.md's table). */
  closesWhen: string;
  /** Pivotal moments skip it (they are counted apart from the capped regular questions). */
  regularOnly: boolean;
  /** The checks of this gate in order; the gate closes at the first that fails. */
  check(input: GateInput): GateCheck[] | Promise<GateCheck[]>;
}

const gate = <const Id extends string>(spec: GateSpec<Id>): GateSpec<Id> => spec;

export const GATE_TABLE = [
  gate({
    id: 'listener_running',
    closesWhen: 'the feed is stale (no heartbeat for `ENGINE_STALE_AFTER_MS`; events alone do not keep it fresh) or the listener is stopping',
    regularOnly: false,
    check: ({ feedFresh, stopping, staleAfterMs }) => [
      stopping
        ? { passed: false, detail: 'the listener is stopping' }
        : feedFresh
          ? { passed: true, detail: 'feed fresh' }
          : { passed: false, detail: `the feed is stale: no heartbeat for more than ${staleAfterMs / 1000} s` },
    ],
  }),
  gate({
    id: 'definition_allowed',
    closesWhen: 'the definition is not included on this match (allowlists, `is_active`)',
    regularOnly: false,
    check: ({ settings }) => [
      { passed: settings.included.value, detail: `${settings.included.value ? 'included' : 'not included'} (${settings.included.source})` },
    ],
  }),
  gate({
    id: 'match_cap',
    closesWhen: "the match's regular questions reached its cap (or the group's cap)",
    regularOnly: true,
    check: ({ level, group, regular }) => {
      const cap = level.question_max_count.value;
      const checks = [{ passed: regular.total < cap, detail: `${regular.total} of ${cap} regular questions issued` }];
      if (group?.questionMaxCount !== null && group?.questionMaxCount !== undefined) {
        const n = regular.byGroup.get(group.id) ?? 0;
        checks.push({ passed: n < group.questionMaxCount, detail: `${n} of ${group.questionMaxCount} questions of group '${group.slug}' issued` });
      }
      return checks;
    },
  }),
  gate({
    id: 'period_quota',
    closesWhen: "this period's regular questions reached the match's (or the group's) distribution",
    regularOnly: true,
    check: ({ level, group, regular, event }) => {
      const period = event.period ?? '';
      const checks: GateCheck[] = [];
      const quota = level.period_distribution.value[period];
      if (quota !== undefined) {
        const n = regular.byPeriod.get(period) ?? 0;
        checks.push({ passed: n < quota, detail: `${n} of ${quota} questions of period ${period} issued` });
      }
      const groupQuota = group?.periodDistribution?.[period];
      if (group && groupQuota !== undefined) {
        const n = regular.byGroupPeriod.get(`${group.id}:${period}`) ?? 0;
        checks.push({ passed: n < groupQuota, detail: `${n} of ${groupQuota} questions of group '${group.slug}' in period ${period} issued` });
      }
      return checks.length ? checks : [{ passed: true, detail: `period ${period || '(none)'} is not capped` }];
    },
  }),
  gate({
    id: 'min_interval',
    closesWhen: 'too little feed time (`occurred_at`) since the last regular question in the lane',
    regularOnly: true,
    check: ({ settings, lane, laneKey, event }) => {
      const min = settings.min_interval_seconds.value;
      if (lane.lastRegularAt === null) return [{ passed: true, detail: `first question in lane ${laneKey}` }];
      const since = Math.round((Date.parse(event.occurred_at) - lane.lastRegularAt) / 1000);
      return [{ passed: since >= min, detail: `${since} s since the last question in lane ${laneKey} (minimum ${min} s)` }];
    },
  }),
  gate({
    id: 'group_lane',
    closesWhen: 'the lane has as many unresolved questions as its width',
    regularOnly: false,
    check: ({ group, lane, laneKey }) => {
      const width = group ? group.maxOpenQuestions : Infinity;
      return [{ passed: lane.open < width, detail: `${lane.open} open in lane ${laneKey} (width ${Number.isFinite(width) ? width : 'unlimited'})` }];
    },
  }),
  gate({
    id: 'probability',
    closesWhen: 'the seeded draw (`ENGINE_SEED`, definition, event) is not below the effective probability',
    regularOnly: false,
    check: ({ settings, seed, def, event }) => {
      const p = settings.probability.value;
      const d = draw(seed, def.id, event.provider_event_id);
      return [{ passed: d < p, detail: `draw ${drawDigits(d, p)} against ${p}` }];
    },
  }),
  gate({
    id: 'render',
    closesWhen: 'the state extract, text or a choice label fails to render, or exceeds its evaluation budget',
    regularOnly: false,
    check: async (input) => {
      try {
        const extract = await extractIssuanceState(input.def.issuanceStateExtract, input.evalInput);
        const out = await renderQuestion(
          { question_text_template: input.def.questionTextTemplate, choices: input.def.choices },
          { ...input.evalInput, extract },
        );
        input.rendered = { questionText: out.question_text, choices: out.choices, extract };
        return [{ passed: true, detail: 'rendered' }];
      } catch (err) {
        // A definition that fails on this event is a denial; anything else is a fault of the engine.
        if (!isDefinitionError(err)) throw err;
        return [{ passed: false, detail: (err as Error).message }];
      }
    },
  }),
] as const;

export type GateId = (typeof GATE_TABLE)[number]['id'];

/** The gate ids in order: a denial's `failed_step` is one of them. */
export const GATES: readonly GateId[] = GATE_TABLE.map((g) => g.id);

/** Runs the gates in order: the trace of every step run, and the first failed step (if any). */
export async function runGates(input: GateInput, pivotal: boolean): Promise<{ trace: DecisionStep[]; failed: DecisionStep | null }> {
  const trace: DecisionStep[] = [];
  for (const g of GATE_TABLE) {
    if (pivotal && g.regularOnly) continue;
    for (const c of await g.check(input)) {
      const step = { step: g.id, passed: c.passed, detail: c.detail };
      trace.push(step);
      if (!c.passed) return { trace, failed: step };
    }
  }
  return { trace, failed: null };
}

/** docs/engine.md's table of the gates (a test keeps the docs equal to it). */
export function gatesMarkdownTable(): string {
  const rows = GATE_TABLE.map((g) => `| \`${g.id}\` | ${g.closesWhen} | ${g.regularOnly ? 'skipped' : 'checked'} |`);
  return ['| gate | closes when | pivotal moments |', '|---|---|---|', ...rows].join('\n');
}

/**
 * A uniform draw in [0, 1) fixed by the seed, the definition and the event: replays draw the
 * same, and so does another match reading the same events (a test match replaying a recorded
 * one). Provider event ids already differ between matches; another engine seed draws anew.
 */
export function draw(seed: string, definitionId: string, eventId: string): number {
  const h = createHash('sha256').update(`${seed}|${definitionId}|${eventId}`).digest();
  return h.readUInt32BE(0) / 2 ** 32;
}

/**
 * The draw with three decimals, or as many more as it takes for the printed
 * number to compare with the probability the way the draw did (0.4996 against
 * 0.5 prints 0.4996, not 0.500), so a decision trace never contradicts itself.
 */
export function drawDigits(d: number, probability: number): string {
  for (let digits = 3; digits < 17; digits++) {
    const text = d.toFixed(digits);
    if (Number(text) < probability === d < probability) return text;
  }
  return String(d);
}

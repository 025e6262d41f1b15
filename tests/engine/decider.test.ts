/**
 * The decider as a whole, in memory: the state a takeover rebuilds from the
 * rows a commit wrote (restoreState) is the state the decisions folded to,
 * at any event of a match; so a run cut anywhere and continued from its rows
 * decides exactly what an uncut run decides.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { decide, evolve, restoreState, type Decision, type EngineState } from '../../src/engine/decider.js';
import type { FeedEvent } from '../../src/domain/sports/events.js';
import { syntheticFootballMatch } from '../../src/engine/feed/synthetic.js';
import type { QuestionIssuanceRow } from '../../src/modules/issuances/issuances.table.js';
import { context, play, wc, type SpecCatalog, resetSpecIds } from './decider-spec.js';

// The specs' ids (and so their probability draws) as in a fresh process, whatever files ran before in this one.
beforeAll(resetSpecIds);

/** The rows a listener's commits leave for a run that consumed `events` (what restoreState reads back). */
function rowsOf(c: SpecCatalog, events: FeedEvent[], decisions: Decision[], state: EngineState) {
  const issuances = new Map<string, QuestionIssuanceRow>();
  const deniedKeys: string[] = [];
  for (const d of decisions) {
    if (d.type === 'issued') {
      const q = d.question;
      issuances.set(d.key, {
        ...q,
        id: d.key,
        matchId: c.match.id,
        kind: 'in_game',
        status: 'open',
        correctAnswerIdentifier: null,
        resolvedSeq: null,
        resolutionEventId: null,
      } as unknown as QuestionIssuanceRow);
    } else if (d.type === 'settled') {
      Object.assign(issuances.get(d.key)!, { status: d.status });
    } else if (d.type === 'denied') deniedKeys.push(d.key);
  }
  return {
    match: {
      status: state.live.status,
      period: state.live.period,
      clockSeconds: state.live.clockSeconds,
      homeScore: state.live.homeScore,
      awayScore: state.live.awayScore,
      startedAt: state.live.startedAt,
    },
    store: state.store,
    counters: state.counters,
    recording: events,
    issuances: [...issuances.values()],
    deniedKeys,
  };
}

/** The demo's kinds of definitions: one-question group lanes, a store_state counter shown in texts, timeouts, a pivotal moment. */
function demoCatalog() {
  const c = wc({ questionMaxCount: 14, questionMinIntervalSeconds: 0, questionPeriodDistribution: {} });
  const goals = c.addGroup({ slug: 'goals', max_open_questions: 1, min_interval_seconds: 0 });
  const setPieces = c.addGroup({ slug: 'set-pieces', max_open_questions: 1, min_interval_seconds: 0 });
  const discipline = c.addGroup({ slug: 'discipline', max_open_questions: 1, min_interval_seconds: 0 });
  c.define({
    name: 'Next goal',
    group_id: goals.id,
    trigger: { event_type: 'score_change' },
    question_text_template: 'Goal number {{ state.goals }}! Who scores next?',
    choices: [
      { identifier: 'home', label_template: 'Home' },
      { identifier: 'away', label_template: 'Away' },
      { identifier: 'none', label_template: 'Nobody' },
    ],
    store_state: { goals: '(state.goals ? state.goals : 0) + 1' },
    resolution: {
      rules: [
        { event_type: 'score_change', correct_choice: 'event.team' },
        { event_type: 'match_status', condition: 'event.data.status = "ended"', correct_choice: '"none"' },
      ],
    },
  });
  c.define({
    name: 'Shot after a corner',
    group_id: setPieces.id,
    trigger: { event_type: 'corner' },
    question_text_template: 'Corner {{ state.corners }}. A shot within 5 minutes?',
    choices: [
      { identifier: 'yes', label_template: 'Yes' },
      { identifier: 'no', label_template: 'No' },
    ],
    issuance_state_extract: { team: 'event.team' },
    store_state: { corners: '(state.corners ? state.corners : 0) + 1' },
    resolution: {
      rules: [{ event_type: 'shot', condition: 'event.team = issuance.state.team', correct_choice: '"yes"' }],
      timeout: { after_seconds: 300, correct_choice: 'no' },
    },
  });
  c.define({
    name: 'Card',
    group_id: discipline.id,
    trigger: { event_type: 'foul' },
    probability: 0.6,
    question_text_template: 'Foul {{ state.fouls }}: a card next?',
    choices: [
      { identifier: 'yes', label_template: 'Yes' },
      { identifier: 'no', label_template: 'No' },
    ],
    store_state: { fouls: '(state.fouls ? state.fouls : 0) + 1' },
    resolution: { rules: [{ event_type: 'card', correct_choice: '"yes"' }], timeout: { after_seconds: 120, correct_choice: 'no' } },
  });
  c.define({
    name: 'Card before half-time',
    is_pivotal_moment: true,
    trigger: { event_type: 'period_start', condition: 'event.period = "1"' },
    question_text_template: 'Will anyone be booked before half-time?',
    choices: [
      { identifier: 'yes', label_template: 'Yes' },
      { identifier: 'no', label_template: 'No' },
    ],
    resolution: {
      rules: [
        { event_type: 'card', condition: 'event.period = "1"', correct_choice: '"yes"' },
        { event_type: 'period_end', condition: 'event.period = "1"', correct_choice: '"no"' },
      ],
    },
  });
  return c;
}

describe('a takeover', () => {
  it('rebuilds from the committed rows exactly the state the decisions folded to, and then decides what an uncut run decides', async () => {
    const c = demoCatalog();
    const { events } = syntheticFootballMatch({ seed: 7, homeTeam: 'Lions', awayTeam: 'Tigers', kickoff: new Date('2026-06-14T18:00:00Z') });
    const clean = await play(c, events, { seed: 'takeover' });
    // The match exercises what diverged before: lane denials, store_state counters in texts, resolutions.
    expect(new Set(clean.denied.map((d) => d.failedStep))).toEqual(new Set(['group_lane', 'probability', 'match_cap']));
    expect(clean.issued.length).toBeGreaterThan(8);
    expect(clean.settled.length).toBe(clean.issued.length);
    expect(clean.match.status).toBe('closed');

    // Cut the run at many points: rebuild from the rows, continue, compare.
    for (const cut of [1, 2, 40, 211, 500, 777, events.length - 3, events.length - 1]) {
      let state = restoreState({ match: c.match, store: {}, counters: { issued: 0, denied: 0, resolved: 0 }, recording: [], issuances: [], deniedKeys: [] });
      const before: Decision[] = [];
      for (const e of events.slice(0, cut)) {
        for (const d of await decide(state, e, context(c, { seed: 'takeover' }))) {
          state = evolve(state, d);
          before.push(d);
        }
      }
      const rebuilt = restoreState(rowsOf(c, events.slice(0, cut), before, state));
      expect(rebuilt, `state rebuilt at event ${cut}`).toEqual(state);
      const rest = await play(c, events.slice(cut), { seed: 'takeover' }, rebuilt);
      expect([...before, ...rest.decisions], `decisions after a cut at event ${cut}`).toEqual(clean.decisions);
    }
  });
});

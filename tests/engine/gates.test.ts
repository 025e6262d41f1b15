/**
 * The issuance gates, as in-memory specifications of the decider (no
 * database, feed or worker): each gate closes (the denial names it, with its
 * detail) and passes; trigger misses are not denials; pivotal moments bypass
 * the capped gates; settings are snapshotted at issue time; a trigger
 * already decided is not decided again. The table of gates is the one the
 * docs and the operator UI show.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { evolve } from '../../src/engine/decider.js';
import { drawDigits, GATE_TABLE, GATES, gatesMarkdownTable } from '../../src/engine/gates.js';
import { ev, initialState, play, step, when, wc, resetSpecIds } from './decider-spec.js';
import { atLanguageTimeScale } from '../helpers/language-time.js';

// The specs' ids (and so their probability draws) as in a fresh process, whatever files ran before in this one.
beforeAll(resetSpecIds);

const shots = (n: number, from = 1, overrides: Parameters<typeof ev>[2] = {}) => Array.from({ length: n }, (_, i) => ev(from + i, 'shot', overrides));
const denials = (p: { denied: { triggerEventId: string; failedStep: string; detail: string }[] }) =>
  p.denied.map((d) => [d.triggerEventId, d.failedStep, d.detail]);

describe('a trigger that passes every gate', () => {
  it('is issued with the whole trace in gate order; trigger misses are not recorded, closed gates are', async () => {
    const c = wc();
    const home = c.define({ trigger: { event_type: 'shot', condition: 'event.team = "home"' } });
    const away = c.define({ trigger: { event_type: 'shot', condition: 'event.team = "away"' }, probability: 0 });
    const out = await play(c, [
      ev(1, 'shot', { team: 'home' }),
      ev(2, 'shot', { team: 'away' }),
      ev(3, 'corner', { team: 'home' }),
      ev(4, 'corner', { team: 'away' }),
    ]);

    expect(out.issued).toHaveLength(1);
    const issued = out.issued[0]!;
    expect(issued).toMatchObject({
      definitionId: home.id,
      triggerEventId: 'e1',
      questionNumber: 1,
      status: 'open',
      lane: 'default',
      triggerSeq: 1,
      questionText: 'Shot by home. Who is booked next?',
    });
    expect(issued.decisionTrace.map((s) => s.step)).toEqual([...GATES]);
    expect(issued.decisionTrace.every((s) => s.passed)).toBe(true);
    expect(step(issued, 'listener_running')!.detail).toBe('feed fresh');
    // e1 misses `away`'s condition and e2 misses `home`'s; the corners trigger nothing: none is a denial.
    expect(out.denied.map((d) => ({ def: d.definitionId, trigger: d.triggerEventId, step: d.failedStep, type: d.triggerEventType }))).toEqual([
      { def: away.id, trigger: 'e2', step: 'probability', type: 'shot' },
    ]);
    expect(out.denied[0]).toMatchObject({ definitionName: away.name, period: '1', clockSeconds: 20 });
    expect(out.denied[0]!.detail).toMatch(/^draw 0\.\d{3} against 0$/);
    expect(out.state.counters).toEqual({ issued: 1, denied: 1, resolved: 0 });
  });
});

describe('listener_running', () => {
  it('closes while the feed is stale (no heartbeat), whatever events arrive, and opens again once it is fresh', async () => {
    const c = wc();
    const def = c.define();
    const staleFor = new Set(['e2', 'e3']);
    const out = await play(c, shots(4), (e) => ({ feedFresh: !staleFor.has(e.provider_event_id), staleAfterMs: 3000 }));
    expect(out.issued.map((i) => [i.triggerEventId, i.questionNumber])).toEqual([
      ['e1', 1],
      ['e4', 2],
    ]);
    expect(out.denied).toEqual([
      expect.objectContaining({
        definitionId: def.id,
        triggerEventId: 'e2',
        failedStep: 'listener_running',
        detail: 'the feed is stale: no heartbeat for more than 3 s',
      }),
      expect.objectContaining({ triggerEventId: 'e3' }),
    ]);
  });

  it('closes while the listener is stopping', async () => {
    const c = wc();
    c.define();
    const out = await play(c, shots(1), { stopping: true });
    expect(denials(out)).toEqual([['e1', 'listener_running', 'the listener is stopping']]);
  });
});

describe('definition_allowed', () => {
  it('closes for an inactive definition and passes for an active one', async () => {
    const c = wc();
    const active = c.define();
    const inactive = c.define({ is_active: false });
    const out = await play(c, [ev(1, 'shot')]);
    expect(out.issued.map((i) => i.definitionId)).toEqual([active.id]);
    expect(step(out.issued[0]!, 'definition_allowed')).toEqual({ step: 'definition_allowed', passed: true, detail: 'included (definition)' });
    expect(out.denied.map((d) => [d.definitionId, d.failedStep, d.detail])).toEqual([[inactive.id, 'definition_allowed', 'not included (definition)']]);
  });

  it("follows the league's allowlist, and a match's allowlist over the league's", async () => {
    const byLeague = wc();
    const listed = byLeague.define();
    const unlisted = byLeague.define();
    byLeague.league.questionDefinitionAllowlist = [listed.id];
    const a = await play(byLeague, [ev(1, 'shot')]);
    expect(a.issued.map((i) => i.definitionId)).toEqual([listed.id]);
    expect(step(a.issued[0]!, 'definition_allowed')!.detail).toBe('included (league)');
    expect(a.denied.map((d) => [d.definitionId, d.failedStep, d.detail])).toEqual([[unlisted.id, 'definition_allowed', 'not included (league)']]);

    byLeague.match.questionDefinitionAllowlist = [unlisted.id];
    const b = await play(byLeague, [ev(1, 'shot')]);
    expect(b.issued.map((i) => i.definitionId)).toEqual([unlisted.id]);
    expect(step(b.issued[0]!, 'definition_allowed')!.detail).toBe('included (match)');
    expect(b.denied.map((d) => [d.definitionId, d.failedStep, d.detail])).toEqual([[listed.id, 'definition_allowed', 'not included (match)']]);
  });
});

describe('match_cap', () => {
  it("closes at the league's default cap (10 for wc) and numbers the regular questions 1..10", async () => {
    const c = wc({ questionMaxCount: null });
    c.define();
    const out = await play(c, shots(11));
    expect(out.issued.map((i) => i.questionNumber)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(step(out.issued[9]!, 'match_cap')).toEqual({ step: 'match_cap', passed: true, detail: '9 of 10 regular questions issued' });
    expect(denials(out)).toEqual([['e11', 'match_cap', '10 of 10 regular questions issued']]);
  });

  it("closes at the match's override of the cap", async () => {
    const c = wc({ questionMaxCount: 3 });
    c.define();
    const out = await play(c, shots(4));
    expect(out.issued.map((i) => i.questionNumber)).toEqual([1, 2, 3]);
    expect(denials(out)).toEqual([['e4', 'match_cap', '3 of 3 regular questions issued']]);
  });

  it("closes at a group's question_max_count while other lanes go on", async () => {
    const c = wc();
    const g = c.addGroup({ question_max_count: 2, max_open_questions: 20 });
    const grouped = c.define({ group_id: g.id, trigger: { event_type: 'corner' } });
    const plain = c.define();
    const out = await play(c, [ev(1, 'corner'), ev(2, 'corner'), ev(3, 'corner'), ev(4, 'shot')]);
    expect(out.issued.map((i) => [i.definitionId, i.triggerEventId, i.questionNumber, i.lane])).toEqual([
      [grouped.id, 'e1', 1, g.id],
      [grouped.id, 'e2', 2, g.id],
      [plain.id, 'e4', 3, 'default'],
    ]);
    // Both checks of the gate are in the trace when both pass.
    expect(out.issued[1]!.decisionTrace.filter((s) => s.step === 'match_cap').map((s) => s.detail)).toEqual([
      '1 of 50 regular questions issued',
      `1 of 2 questions of group '${g.slug}' issued`,
    ]);
    expect(denials(out)).toEqual([['e3', 'match_cap', `2 of 2 questions of group '${g.slug}' issued`]]);
  });
});

describe('period_quota', () => {
  it("closes at the match's distribution for the period; a period it leaves out is not capped", async () => {
    const c = wc({ questionPeriodDistribution: { '1': 2 } });
    c.define();
    const out = await play(c, [...shots(3, 1), ev(4, 'shot', { period: '2' })]);
    expect(out.issued.map((i) => [i.triggerEventId, i.period, i.questionNumber])).toEqual([
      ['e1', '1', 1],
      ['e2', '1', 2],
      ['e4', '2', 3],
    ]);
    expect(step(out.issued[1]!, 'period_quota')!.detail).toBe('1 of 2 questions of period 1 issued');
    expect(step(out.issued[2]!, 'period_quota')!.detail).toBe('period 2 is not capped');
    expect(out.denied.map((d) => [d.triggerEventId, d.failedStep, d.detail, d.period])).toEqual([
      ['e3', 'period_quota', '2 of 2 questions of period 1 issued', '1'],
    ]);
  });

  it("closes at the league's default distribution when the match has none (5 per half for wc)", async () => {
    const c = wc({ questionPeriodDistribution: null });
    c.define();
    const out = await play(c, shots(6));
    expect(out.issued).toHaveLength(5);
    expect(denials(out)).toEqual([['e6', 'period_quota', '5 of 5 questions of period 1 issued']]);
  });

  it("closes at a group's distribution for its own questions only", async () => {
    const c = wc();
    const g = c.addGroup({ period_distribution: { '1': 1 }, max_open_questions: 20 });
    const grouped = c.define({ group_id: g.id, trigger: { event_type: 'corner' } });
    const plain = c.define();
    const out = await play(c, [ev(1, 'corner'), ev(2, 'corner'), ev(3, 'shot'), ev(4, 'corner', { period: '2' })]);
    expect(out.issued.map((i) => [i.definitionId, i.triggerEventId])).toEqual([
      [grouped.id, 'e1'],
      [plain.id, 'e3'],
      [grouped.id, 'e4'],
    ]);
    expect(denials(out)).toEqual([['e2', 'period_quota', `1 of 1 questions of group '${g.slug}' in period 1 issued`]]);
  });
});

describe('min_interval', () => {
  it("measures feed time (occurred_at) since the last question of the same lane, at the league's default (120 s)", async () => {
    const c = wc({ questionMinIntervalSeconds: null });
    const g = c.addGroup({ max_open_questions: 20 });
    c.define();
    c.define({ group_id: g.id, trigger: { event_type: 'corner' } });
    // The clock says nothing (always 600): only occurred_at counts.
    const at = (seq: number, type: string, seconds: number) => ev(seq, type, { at: seconds, clock_seconds: 600 });
    const out = await play(c, [
      at(1, 'shot', 0),
      at(2, 'corner', 30),
      at(3, 'shot', 60),
      at(4, 'corner', 90),
      at(5, 'shot', 120),
      at(6, 'corner', 150),
      at(7, 'shot', 200),
    ]);
    expect(out.issued.map((i) => i.triggerEventId)).toEqual(['e1', 'e2', 'e5', 'e6']);
    expect(step(out.issued[0]!, 'min_interval')!.detail).toBe('first question in lane default');
    expect(step(out.issued[1]!, 'min_interval')!.detail).toBe(`first question in lane ${g.id}`);
    expect(step(out.issued[2]!, 'min_interval')!.detail).toBe('120 s since the last question in lane default (minimum 120 s)');
    expect(denials(out)).toEqual([
      ['e3', 'min_interval', '60 s since the last question in lane default (minimum 120 s)'],
      ['e4', 'min_interval', `60 s since the last question in lane ${g.id} (minimum 120 s)`],
      ['e7', 'min_interval', '80 s since the last question in lane default (minimum 120 s)'],
    ]);
  });

  it("takes a group's override, and a match's override over the group's", async () => {
    const corners = [ev(1, 'corner', { at: 0 }), ev(2, 'corner', { at: 20 }), ev(3, 'corner', { at: 30 }), ev(4, 'corner', { at: 35 })];
    const byGroup = wc({ questionMinIntervalSeconds: null });
    const g = byGroup.addGroup({ min_interval_seconds: 30, max_open_questions: 20 });
    byGroup.define({ group_id: g.id, trigger: { event_type: 'corner' } });
    const a = await play(byGroup, corners);
    expect(a.issued.map((i) => i.triggerEventId)).toEqual(['e1', 'e3']);
    expect(a.denied.map((d) => [d.triggerEventId, d.detail])).toEqual([
      ['e2', `20 s since the last question in lane ${g.id} (minimum 30 s)`],
      ['e4', `5 s since the last question in lane ${g.id} (minimum 30 s)`],
    ]);
    byGroup.match.questionMinIntervalSeconds = 10;
    const b = await play(byGroup, corners);
    expect(b.issued.map((i) => i.triggerEventId)).toEqual(['e1', 'e2', 'e3']);
    expect(denials(b)).toEqual([['e4', 'min_interval', `5 s since the last question in lane ${g.id} (minimum 10 s)`]]);
  });
});

describe('group_lane', () => {
  it('lets as many questions be open in a lane as its width, and frees a place when one resolves', async () => {
    const c = wc();
    const g = c.addGroup({ max_open_questions: 2, min_interval_seconds: 0 });
    c.define({ group_id: g.id, trigger: { event_type: 'corner' }, resolution: { rules: [{ event_type: 'shot', correct_choice: 'event.team' }] } });
    const out = await play(c, [
      ev(1, 'corner'),
      ev(2, 'corner'),
      ev(3, 'corner'),
      ev(4, 'shot', { team: 'away' }),
      ev(5, 'corner'),
      ev(6, 'corner'),
      ev(7, 'corner'),
    ]);
    expect(out.issued.map((i) => [i.triggerEventId, i.status, i.correct])).toEqual([
      ['e1', 'resolved', 'away'],
      ['e2', 'resolved', 'away'],
      ['e5', 'open', null],
      ['e6', 'open', null],
    ]);
    expect(step(out.issued[1]!, 'group_lane')!.detail).toBe(`1 open in lane ${g.id} (width 2)`);
    expect(denials(out)).toEqual([
      ['e3', 'group_lane', `2 open in lane ${g.id} (width 2)`],
      ['e7', 'group_lane', `2 open in lane ${g.id} (width 2)`],
    ]);
  });

  it('a one-question lane: an event that resolves the open question frees the lane for the question it triggers', async () => {
    const c = wc();
    const g = c.addGroup({ max_open_questions: 1, min_interval_seconds: 0 });
    c.define({
      group_id: g.id,
      trigger: { event_type: 'score_change' },
      resolution: { rules: [{ event_type: 'score_change', correct_choice: 'event.team' }] },
    });
    const out = await play(c, [ev(1, 'score_change', { team: 'home' }), ev(2, 'score_change', { team: 'away' }), ev(3, 'score_change', { team: 'home' })]);
    expect(out.issued.map((i) => [i.triggerEventId, i.status, i.correct])).toEqual([
      ['e1', 'resolved', 'away'],
      ['e2', 'resolved', 'home'],
      ['e3', 'open', null],
    ]);
    expect(out.denied).toEqual([]);
  });
});

describe('probability', () => {
  it('denies every draw at 0 and issues every draw at 1', async () => {
    const c = wc();
    const never = c.define({ probability: 0 });
    const always = c.define({ probability: 1 });
    const out = await play(c, shots(6));
    expect(out.issued.map((i) => i.definitionId)).toEqual(Array(6).fill(always.id));
    for (const i of out.issued) expect(step(i, 'probability')!.detail).toMatch(/^draw 0\.\d{3} against 1$/);
    expect(out.denied).toHaveLength(6);
    for (const d of out.denied) {
      expect(d).toMatchObject({ definitionId: never.id, failedStep: 'probability' });
      expect(d.detail).toMatch(/^draw 0\.\d{3} against 0$/);
    }
  });

  it("draws the same with the same engine seed on two matches' identical feeds, and differently with another seed", async () => {
    const c = wc();
    const def = c.define({ probability: 0.5 });
    const other = wc();
    other.definitions.push(def);
    const feed = shots(16);
    const draws = (p: Awaited<ReturnType<typeof play>>) => {
      const out = new Map<string, { issued: boolean; draw: number }>();
      for (const i of p.issued) out.set(i.triggerEventId, { issued: true, draw: Number(/^draw (\S+) against 0.5$/.exec(step(i, 'probability')!.detail)![1]) });
      for (const d of p.denied) out.set(d.triggerEventId, { issued: false, draw: Number(/^draw (\S+) against 0.5$/.exec(d.detail)![1]) });
      return out;
    };
    const a = await play(c, feed, { seed: 'seed-one' });
    const b = await play(other, feed, { seed: 'seed-one' });
    const d = await play(c, feed, { seed: 'seed-two' });
    for (const p of [a, b, d]) {
      expect(p.issued.length + p.denied.length).toBe(16);
      expect(p.denied.every((x) => x.definitionId === def.id && x.failedStep === 'probability')).toBe(true);
      // Each decision is its draw against the probability.
      for (const { issued, draw } of draws(p).values()) expect(issued).toBe(draw < 0.5);
    }
    expect(draws(b)).toEqual(draws(a));
    expect([...draws(d).values()].map((x) => x.draw)).not.toEqual([...draws(a).values()].map((x) => x.draw));
  });

  it('prints the draw so that it compares with the probability as the draw did', () => {
    expect(drawDigits(0.123456, 0.5)).toBe('0.123');
    // Three decimals would round these across the probability and contradict the decision.
    expect(drawDigits(0.49961, 0.5)).toBe('0.4996');
    expect(Number(drawDigits(0.49961, 0.5)) < 0.5).toBe(true);
    for (const [draw, p] of [
      [0.33345, 0.3334],
      [0.2999999, 0.3],
      [0.3000001, 0.3],
      [0.0004, 0.0005],
    ] as const) {
      expect(Number(drawDigits(draw, p)) < p, `${draw} against ${p}`).toBe(draw < p);
    }
    expect(drawDigits(0.5, 0.5)).toBe('0.500');
  });
});

describe('render', () => {
  it('denies when an extract or a label fails at run time, without using up a question number', async () => {
    const c = wc();
    const extract = c.define({ issuance_state_extract: { n: '$number(event.data.label)' }, question_text_template: 'Label {{ extract.n }}?' });
    const label = c.define({
      trigger: { event_type: 'corner' },
      choices: [
        { identifier: 'yes', label_template: '{{ event.data.taker }}' },
        { identifier: 'no', label_template: 'No' },
      ],
      resolution: { rules: [{ event_type: 'card', correct_choice: '"no"' }] },
    });
    const out = await play(c, [
      ev(1, 'shot', { data: { label: '7' } }),
      ev(2, 'shot', { data: { label: 'seven' } }),
      ev(3, 'corner', { data: { taker: 'Kane' } }),
      ev(4, 'corner', { data: {} }),
      ev(5, 'shot', { data: { label: '8' } }),
    ]);
    expect(out.issued.map((i) => [i.definitionId, i.triggerEventId, i.questionNumber, i.questionText])).toEqual([
      [extract.id, 'e1', 1, 'Label 7?'],
      [label.id, 'e3', 2, 'Shot by home. Who is booked next?'],
      [extract.id, 'e5', 3, 'Label 8?'],
    ]);
    expect(out.issued[0]!.state).toEqual({ n: 7 });
    expect(out.issued[1]!.choices).toEqual([
      { identifier: 'yes', label: 'Kane' },
      { identifier: 'no', label: 'No' },
    ]);
    expect(step(out.issued[0]!, 'render')).toEqual({ step: 'render', passed: true, detail: 'rendered' });
    expect(out.denied.map((d) => [d.definitionId, d.triggerEventId, d.failedStep])).toEqual([
      [extract.id, 'e2', 'render'],
      [label.id, 'e4', 'render'],
    ]);
    expect(out.denied[0]!.detail).toMatch(/^issuance_state_extract\.n: failed: .*seven/);
    expect(out.denied[1]!.detail).toBe('choices[0].label_template: rendered to an empty text');
  });
});

describe('render, past the evaluation budget', () => {
  it('denies an extract or a text that exceeds its budget at render; a condition that does is a warned miss; the feed goes on', async () => {
    const c = wc();
    const stall = '$contains($pad("", 5000, "a"), /.*.*.*.*.*x/)';
    const extract = c.define({ issuance_state_extract: { n: stall } });
    const text = c.define({
      trigger: { event_type: 'corner' },
      question_text_template: '{% for i in (1..3000) %}{% for j in (1..3000) %}{% endfor %}{% endfor %}Q?',
    });
    const condition = c.define({ trigger: { event_type: 'card', condition: stall } });
    const fine = c.define({ trigger: { event_type: 'period_end' } });
    // At the real limits: the stalls overrun them on any machine, and take their 250 ms rather than the tests' 10 s.
    const out = await atLanguageTimeScale(1, () => play(c, [ev(1, 'shot'), ev(2, 'corner'), ev(3, 'card'), ev(4, 'period_end')]));
    expect(out.denied.map((d) => [d.definitionId, d.triggerEventId, d.failedStep, d.detail])).toEqual([
      [extract.id, 'e1', 'render', 'issuance_state_extract.n: failed: expression ran longer than 250 ms'],
      // Whichever of the budgets stops it first (on a busy machine, the sandbox's deadline).
      [
        text.id,
        'e2',
        'render',
        expect.stringMatching(/^question_text_template: failed to render: ((template render|memory alloc) limit exceeded|template ran longer than 250 ms)/),
      ],
    ]);
    expect(out.warned).toContainEqual(
      expect.stringMatching(new RegExp(`^trigger of '${condition.name}' on e3: trigger\\.condition: failed: expression ran longer than 250 ms`)),
    );
    expect(out.issued.map((i) => [i.definitionId, i.triggerEventId])).toEqual([[fine.id, 'e4']]);
  });
});

describe('pivotal moments', () => {
  it('skip match_cap, period_quota and min_interval, are not numbered, and leave the regular numbering 1..n', async () => {
    const c = wc({ questionMaxCount: 3, questionMinIntervalSeconds: null, questionPeriodDistribution: { '1': 5, '2': 0 } });
    const regularLane = c.addGroup({ min_interval_seconds: 0, max_open_questions: 20 });
    const pivotalLane = c.addGroup({ min_interval_seconds: 3600, max_open_questions: 20 });
    const regular = c.define({ group_id: regularLane.id });
    const pivotal = c.define({ group_id: pivotalLane.id, is_pivotal_moment: true, trigger: { event_type: 'corner' } });
    const out = await play(c, [
      ev(1, 'shot'),
      ev(2, 'corner'),
      ev(3, 'corner'),
      ev(4, 'shot'),
      ev(5, 'shot'),
      ev(6, 'shot'),
      ev(7, 'corner'),
      ev(8, 'corner', { period: '2' }),
      ev(9, 'shot', { period: '2' }),
    ]);
    expect(out.issued.map((i) => [i.definitionId, i.triggerEventId, i.questionNumber, i.isPivotalMoment])).toEqual([
      [regular.id, 'e1', 1, false],
      [pivotal.id, 'e2', null, true],
      [pivotal.id, 'e3', null, true],
      [regular.id, 'e4', 2, false],
      [regular.id, 'e5', 3, false],
      [pivotal.id, 'e7', null, true],
      [pivotal.id, 'e8', null, true],
    ]);
    // The pivotal questions 10 s apart in a 3600 s lane, past the cap, in a period with a quota of 0.
    for (const p of out.issued.filter((i) => i.isPivotalMoment)) {
      expect(p.decisionTrace.map((s) => s.step)).toEqual(GATE_TABLE.filter((g) => !g.regularOnly).map((g) => g.id));
      expect(p.decisionTrace.map((s) => s.step)).toEqual(['listener_running', 'definition_allowed', 'group_lane', 'probability', 'render']);
    }
    expect(out.denied.map((d) => [d.definitionId, d.triggerEventId, d.failedStep, d.detail])).toEqual([
      [regular.id, 'e6', 'match_cap', '3 of 3 regular questions issued'],
      [regular.id, 'e9', 'match_cap', '3 of 3 regular questions issued'],
    ]);
  });
});

describe('settings at issue time', () => {
  it('snapshots points and answer window inherited league < group < definition < match', async () => {
    const feed = [ev(1, 'corner'), ev(2, 'card'), ev(3, 'shot', { score: { home: 2, away: 1 } })];
    const setUp = (match: Parameters<typeof wc>[0]) => {
      const c = wc(match);
      const g = c.addGroup({ points: 15, answer_window_seconds: 45, max_open_questions: 20, min_interval_seconds: 0 });
      const ids = {
        ownPoints: c.define({ group_id: g.id, points: 20, trigger: { event_type: 'corner' } }).id,
        fromGroup: c.define({
          group_id: g.id,
          trigger: { event_type: 'card' },
          resolution: { rules: [{ event_type: 'period_end', correct_choice: '"home"' }] },
        }).id,
        fromLeague: c.define({
          question_text_template: '{{ match.home_team }} {{ event.score.home }}-{{ event.score.away }} {{ match.away_team }}: who shoots next?',
        }).id,
      };
      return { c, ids };
    };
    const settings = (p: Awaited<ReturnType<typeof play>>) => p.issued.map((i) => ({ def: i.definitionId, points: i.points, window: i.answerWindowSeconds }));
    const plain = setUp({ homeTeam: 'Lions', awayTeam: 'Tigers' });
    const a = await play(plain.c, feed);
    expect(settings(a)).toEqual([
      { def: plain.ids.ownPoints, points: 20, window: 45 },
      { def: plain.ids.fromGroup, points: 15, window: 45 },
      { def: plain.ids.fromLeague, points: 10, window: 60 },
    ]);
    expect(a.issued[2]!.questionText).toBe('Lions 2-1 Tigers: who shoots next?');
    expect(a.issued[2]!.choices).toEqual([
      { identifier: 'home', label: 'Lions' },
      { identifier: 'away', label: 'Tigers' },
    ]);
    const overridden = setUp({ questionPoints: 5, answerWindowSeconds: 30 });
    expect(settings(await play(overridden.c, feed))).toEqual([
      { def: overridden.ids.ownPoints, points: 5, window: 30 },
      { def: overridden.ids.fromGroup, points: 5, window: 30 },
      { def: overridden.ids.fromLeague, points: 5, window: 30 },
    ]);
  });

  it('issues with the catalogue of the moment: a definition changed between two events gives the second question its new text', async () => {
    const c = wc();
    const def = c.define({ question_text_template: 'Version one?' });
    const first = await play(c, [ev(1, 'shot')]);
    c.definitions[0] = { ...def, questionTextTemplate: 'Version two?', points: 40 };
    const second = await play(c, [ev(2, 'shot')], {}, first.state);
    expect([...first.issued, ...second.issued].map((i) => [i.questionText, i.points, i.questionNumber])).toEqual([
      ['Version one?', 10, 1],
      ['Version two?', 40, 2],
    ]);
  });
});

describe('a trigger already decided', () => {
  it('is not decided again (a feed read again by a later listener of the match), issued or denied', async () => {
    const c = wc({ questionMaxCount: 1 });
    c.define();
    const feed = shots(2);
    const first = await play(c, feed);
    expect(first.issued.map((i) => i.triggerEventId)).toEqual(['e1']);
    expect(first.denied.map((d) => d.triggerEventId)).toEqual(['e2']);
    // A new listener's state knows the decisions (issuances and denials) but none of the events.
    const again = { ...initialState(c), decided: first.state.decided, regular: first.state.regular };
    const replayed = await play(c, feed, {}, again);
    expect(replayed.issued).toEqual([]);
    expect(replayed.denied).toEqual([]);
  });
});

describe('decide', () => {
  it('is pure: the state it is given is left as it was, and the same inputs decide the same', async () => {
    const c = wc();
    c.define({ store_state: { shots: '(state.shots ? state.shots : 0) + 1' } });
    const before = (await play(c, shots(2))).state;
    const snapshot = structuredClone(before);
    const a = await when(before, ev(3, 'shot'), c);
    const b = await when(before, ev(3, 'shot'), c);
    expect(before).toEqual(snapshot);
    expect(b).toEqual(a);
    expect(a.map((d) => d.type)).toEqual(['consumed', 'match_changed', 'state_stored', 'issued']);
    expect(a.reduce(evolve, before).store).toEqual({ shots: 3 });
  });
});

describe('the table of gates', () => {
  const root = path.resolve(import.meta.dirname, '../..');
  it('is the table docs/engine.md shows', () => {
    const docs = fs.readFileSync(path.join(root, 'docs/engine.md'), 'utf8');
    expect(docs, 'docs/engine.md must contain gatesMarkdownTable() (src/engine/gates.ts) verbatim').toContain(gatesMarkdownTable());
  });

  it('gives the ids the contract and the operator UI list', () => {
    const contract = fs.readFileSync(path.join(root, 'openapi/openapi.yaml'), 'utf8');
    const listed = /`failed_step` is the id of the first closed gate:([^.]+)\./.exec(contract.replace(/\s+/g, ' '))![1]!;
    expect([...listed.matchAll(/`(\w+)`/g)].map((m) => m[1])).toEqual([...GATES]);
    const ui = fs.readFileSync(path.join(root, 'src/admin/ui/components/match/denials.tsx'), 'utf8');
    expect(
      /export const GATES = \[([^\]]+)\]/
        .exec(ui)![1]!
        .match(/'(\w+)'/g)!
        .map((s) => s.slice(1, -1)),
    ).toEqual([...GATES]);
  });
});

/**
 * The issuance gates of the live engine, end to end: definitions created
 * through the API, a match with a feed URL, a small hand-built feed served as
 * a live NDJSON push feed, and an in-process worker running the listener.
 * Each gate closes (the denial names it, with its detail) and passes; trigger
 * misses are not denials; pivotal moments bypass the capped gates; settings
 * and sponsorship slots are stamped at issue time; a replayed feed issues
 * nothing twice.
 */
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { drawDigits, GATES } from '../../src/engine/match-engine.js';
import { brands } from '../../src/modules/brands/brands.table.js';
import { questionSponsorships } from '../../src/modules/sponsorships/sponsorships.table.js';
import { startPushFeedServer } from '../../src/engine/feed/push-server.js';
import { startWorker, waitFor } from '../helpers/engine.js';
import { createMatch } from '../helpers/factories.js';
import { cleanup, define, definitionBody, ev, group, listenerDone, OPEN_MATCH, produced, runFeed, runFeeds, startHarness, startLive, step, unique, type Harness } from './engine-scenario.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterEach(() => cleanup(h));
afterAll(() => h?.app.close());

const shots = (n: number, from = 1, overrides: Parameters<typeof ev>[2] = {}) => Array.from({ length: n }, (_, i) => ev(from + i, 'shot', overrides));

describe('a trigger that passes every gate', () => {
  it('is issued with the whole trace in gate order; trigger misses are not recorded, closed gates are', async () => {
    const home = await define(h, { trigger: { event_type: 'shot', condition: 'event.team = "home"' } });
    const away = await define(h, { trigger: { event_type: 'shot', condition: 'event.team = "away"' }, probability: 0 });
    const out = await runFeed(h, [
      ev(1, 'shot', { team: 'home' }),
      ev(2, 'shot', { team: 'away' }),
      ev(3, 'corner', { team: 'home' }),
      ev(4, 'corner', { team: 'away' }),
    ]);

    expect(out.issuances).toHaveLength(1);
    const issued = out.issuances[0]!;
    // Left open when the feed ended (before the match closed), it was voided then.
    expect(issued).toMatchObject({ definitionId: home.id, triggerEventId: 'e1', questionNumber: 1, status: 'voided', lane: 'default', triggerSeq: 1 });
    expect(issued.decisionTrace.map((s) => s.step)).toEqual([...GATES]);
    expect(issued.decisionTrace.every((s) => s.passed)).toBe(true);
    expect(step(issued, 'listener_running')!.detail).toBe('feed fresh');

    // e1 misses `away`'s condition and e2 misses `home`'s; the corners trigger nothing: none is a denial.
    expect(out.denials.map((d) => ({ def: d.definitionId, trigger: d.triggerEventId, step: d.failedStep, type: d.triggerEventType }))).toEqual([
      { def: away.id, trigger: 'e2', step: 'probability', type: 'shot' },
    ]);
    expect(out.denials[0]).toMatchObject({ definitionName: away.name, listenerId: out.listener.id, period: '1', clockSeconds: 20 });

    expect(out.listener).toMatchObject({ status: 'completed', eventsConsumed: 4, issuedCount: 1, deniedCount: 1, lastSeq: 4 });
    expect(out.log).toContainEqual(expect.stringMatching(new RegExp(`^info issued '${home.name}' #1 on shot e1: Shot by home\\. Who is booked next\\?$`)));
    expect(out.log).toContainEqual(expect.stringMatching(new RegExp(`^debug denied '${away.name}' on e2 at probability: draw 0\\.\\d{3} against 0$`)));
  });
});

describe('listener_running', () => {
  it('closes while the feed is stale (no heartbeats) and opens again once it is fresh', async () => {
    const def = await define(h);
    const live = await startLive(h, { worker: { staleAfterMs: 300 }, feed: { heartbeatMs: 50 } });
    try {
      await live.push(ev(1, 'shot'));
      live.feed.pauseHeartbeats();
      await live.logged(/^feed stale: nothing for \d+ s; not issuing until it resumes$/);
      await live.push(ev(2, 'shot'));
      live.feed.resumeHeartbeats();
      await live.logged(/^feed fresh again$/);
      await live.push(ev(3, 'shot'));
      const out = await live.finish();
      expect(out.issuances.map((i) => [i.triggerEventId, i.questionNumber])).toEqual([
        ['e1', 1],
        ['e3', 2],
      ]);
      expect(out.denials).toHaveLength(1);
      expect(out.denials[0]).toMatchObject({
        definitionId: def.id,
        triggerEventId: 'e2',
        failedStep: 'listener_running',
        detail: 'the feed is stale (no heartbeat) or the listener is stopping',
      });
    } finally {
      await live.close();
    }
  });
});

describe('definition_allowed', () => {
  it('closes for an inactive definition and passes for an active one', async () => {
    const active = await define(h);
    const inactive = await define(h, { is_active: false });
    const out = await runFeed(h, [ev(1, 'shot')]);
    expect(out.issuances.map((i) => i.definitionId)).toEqual([active.id]);
    expect(step(out.issuances[0]!, 'definition_allowed')).toEqual({ step: 'definition_allowed', passed: true, detail: 'included (definition)' });
    expect(out.denials.map((d) => [d.definitionId, d.failedStep, d.detail])).toEqual([[inactive.id, 'definition_allowed', 'not included (definition)']]);
  });

  it("follows the league's allowlist, and a match's allowlist over the league's", async () => {
    const listed = await define(h);
    const unlisted = await define(h);
    const patched = await h.app.request('PATCH', '/api/leagues/wc', { token: h.admin.token, body: { question_definition_allowlist: [listed.id] } });
    expect(patched.status).toBe(200);
    const [byLeague, byMatch] = await runFeeds(h, [{ events: [ev(1, 'shot')] }, { events: [ev(1, 'shot')], match: { questionDefinitionAllowlist: [unlisted.id] } }]);

    expect(byLeague!.issuances.map((i) => i.definitionId)).toEqual([listed.id]);
    expect(step(byLeague!.issuances[0]!, 'definition_allowed')!.detail).toBe('included (league)');
    expect(byLeague!.denials.map((d) => [d.definitionId, d.failedStep, d.detail])).toEqual([[unlisted.id, 'definition_allowed', 'not included (league)']]);

    expect(byMatch!.issuances.map((i) => i.definitionId)).toEqual([unlisted.id]);
    expect(step(byMatch!.issuances[0]!, 'definition_allowed')!.detail).toBe('included (match)');
    expect(byMatch!.denials.map((d) => [d.definitionId, d.failedStep, d.detail])).toEqual([[listed.id, 'definition_allowed', 'not included (match)']]);
  });
});

describe('match_cap', () => {
  it("closes at the league's default cap (10 for wc) and numbers the regular questions 1..10", async () => {
    await define(h);
    const out = await runFeed(h, shots(11), { questionMaxCount: null });
    expect(out.issuances.map((i) => i.questionNumber)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(step(out.issuances[9]!, 'match_cap')).toEqual({ step: 'match_cap', passed: true, detail: '9 of 10 regular questions issued' });
    expect(out.denials.map((d) => [d.triggerEventId, d.failedStep, d.detail])).toEqual([['e11', 'match_cap', '10 of 10 regular questions issued']]);
  });

  it("closes at the match's override of the cap", async () => {
    await define(h);
    const out = await runFeed(h, shots(4), { questionMaxCount: 3 });
    expect(out.issuances.map((i) => i.questionNumber)).toEqual([1, 2, 3]);
    expect(out.denials.map((d) => [d.triggerEventId, d.failedStep, d.detail])).toEqual([['e4', 'match_cap', '3 of 3 regular questions issued']]);
  });

  it("closes at a group's question_max_count while other lanes go on", async () => {
    const g = await group(h, { question_max_count: 2, max_open_questions: 20 });
    const grouped = await define(h, { group_id: g.id, trigger: { event_type: 'corner' } });
    const plain = await define(h);
    const out = await runFeed(h, [ev(1, 'corner'), ev(2, 'corner'), ev(3, 'corner'), ev(4, 'shot')]);
    expect(out.issuances.map((i) => [i.definitionId, i.triggerEventId, i.questionNumber, i.lane])).toEqual([
      [grouped.id, 'e1', 1, g.id],
      [grouped.id, 'e2', 2, g.id],
      [plain.id, 'e4', 3, 'default'],
    ]);
    expect(out.denials.map((d) => [d.triggerEventId, d.failedStep, d.detail])).toEqual([['e3', 'match_cap', `2 of 2 questions of group '${g.slug}' issued`]]);
  });
});

describe('period_quota', () => {
  it("closes at the match's distribution for the period; a period it leaves out is not capped", async () => {
    await define(h);
    const out = await runFeed(h, [...shots(3, 1), ev(4, 'shot', { period: '2' })], { questionPeriodDistribution: { '1': 2 } });
    expect(out.issuances.map((i) => [i.triggerEventId, i.period, i.questionNumber])).toEqual([
      ['e1', '1', 1],
      ['e2', '1', 2],
      ['e4', '2', 3],
    ]);
    expect(step(out.issuances[1]!, 'period_quota')!.detail).toBe('1 of 2 questions of period 1 issued');
    expect(step(out.issuances[2]!, 'period_quota')!.detail).toBe('period 2 is not capped');
    expect(out.denials.map((d) => [d.triggerEventId, d.failedStep, d.detail, d.period])).toEqual([['e3', 'period_quota', '2 of 2 questions of period 1 issued', '1']]);
  });

  it("closes at the league's default distribution when the match has none (5 per half for wc)", async () => {
    await define(h);
    const out = await runFeed(h, shots(6), { questionPeriodDistribution: null });
    expect(out.issuances).toHaveLength(5);
    expect(out.denials.map((d) => [d.triggerEventId, d.failedStep, d.detail])).toEqual([['e6', 'period_quota', '5 of 5 questions of period 1 issued']]);
  });

  it("closes at a group's distribution for its own questions only", async () => {
    const g = await group(h, { period_distribution: { '1': 1 }, max_open_questions: 20 });
    const grouped = await define(h, { group_id: g.id, trigger: { event_type: 'corner' } });
    const plain = await define(h);
    const out = await runFeed(h, [ev(1, 'corner'), ev(2, 'corner'), ev(3, 'shot'), ev(4, 'corner', { period: '2' })]);
    expect(out.issuances.map((i) => [i.definitionId, i.triggerEventId])).toEqual([
      [grouped.id, 'e1'],
      [plain.id, 'e3'],
      [grouped.id, 'e4'],
    ]);
    expect(out.denials.map((d) => [d.triggerEventId, d.failedStep, d.detail])).toEqual([['e2', 'period_quota', `1 of 1 questions of group '${g.slug}' in period 1 issued`]]);
  });
});

describe('min_interval', () => {
  it("measures feed time (occurred_at) since the last question of the same lane, at the league's default (120 s)", async () => {
    const g = await group(h, { max_open_questions: 20 });
    await define(h);
    await define(h, { group_id: g.id, trigger: { event_type: 'corner' } });
    // All delivered within milliseconds; the clock says nothing (always 600): only occurred_at counts.
    const at = (seq: number, type: string, seconds: number) => ev(seq, type, { at: seconds, clock_seconds: 600 });
    const out = await runFeed(h, [at(1, 'shot', 0), at(2, 'corner', 30), at(3, 'shot', 60), at(4, 'corner', 90), at(5, 'shot', 120), at(6, 'corner', 150), at(7, 'shot', 200)], {
      questionMinIntervalSeconds: null,
    });
    expect(out.issuances.map((i) => i.triggerEventId)).toEqual(['e1', 'e2', 'e5', 'e6']);
    expect(step(out.issuances[0]!, 'min_interval')!.detail).toBe('first question in lane default');
    expect(step(out.issuances[1]!, 'min_interval')!.detail).toBe(`first question in lane ${g.id}`);
    expect(step(out.issuances[2]!, 'min_interval')!.detail).toBe('120 s since the last question in lane default (minimum 120 s)');
    expect(out.denials.map((d) => [d.triggerEventId, d.failedStep, d.detail])).toEqual([
      ['e3', 'min_interval', '60 s since the last question in lane default (minimum 120 s)'],
      ['e4', 'min_interval', `60 s since the last question in lane ${g.id} (minimum 120 s)`],
      ['e7', 'min_interval', '80 s since the last question in lane default (minimum 120 s)'],
    ]);
  });

  it("takes a group's override, and a match's override over the group's", async () => {
    const g = await group(h, { min_interval_seconds: 30, max_open_questions: 20 });
    await define(h, { group_id: g.id, trigger: { event_type: 'corner' } });
    const corners = [ev(1, 'corner', { at: 0 }), ev(2, 'corner', { at: 20 }), ev(3, 'corner', { at: 30 }), ev(4, 'corner', { at: 35 })];
    const [byGroup, byMatch] = await runFeeds(h, [
      { events: corners, match: { questionMinIntervalSeconds: null } },
      { events: corners, match: { questionMinIntervalSeconds: 10 } },
    ]);
    expect(byGroup!.issuances.map((i) => i.triggerEventId)).toEqual(['e1', 'e3']);
    expect(byGroup!.denials.map((d) => [d.triggerEventId, d.detail])).toEqual([
      ['e2', `20 s since the last question in lane ${g.id} (minimum 30 s)`],
      ['e4', `5 s since the last question in lane ${g.id} (minimum 30 s)`],
    ]);
    expect(byMatch!.issuances.map((i) => i.triggerEventId)).toEqual(['e1', 'e2', 'e3']);
    expect(byMatch!.denials.map((d) => [d.triggerEventId, d.failedStep, d.detail])).toEqual([['e4', 'min_interval', `5 s since the last question in lane ${g.id} (minimum 10 s)`]]);
  });
});

describe('group_lane', () => {
  it('lets as many questions be open in a lane as its width, and frees a place when one resolves', async () => {
    const g = await group(h, { max_open_questions: 2, min_interval_seconds: 0 });
    await define(h, { group_id: g.id, trigger: { event_type: 'corner' }, resolution: { rules: [{ event_type: 'shot', correct_choice: 'event.team' }] } });
    const out = await runFeed(h, [ev(1, 'corner'), ev(2, 'corner'), ev(3, 'corner'), ev(4, 'shot', { team: 'away' }), ev(5, 'corner'), ev(6, 'corner'), ev(7, 'corner')]);
    expect(out.issuances.map((i) => [i.triggerEventId, i.status, i.correctAnswerIdentifier])).toEqual([
      ['e1', 'resolved', 'away'],
      ['e2', 'resolved', 'away'],
      // Still open when the feed ended before the match closed: voided then.
      ['e5', 'voided', null],
      ['e6', 'voided', null],
    ]);
    expect(step(out.issuances[1]!, 'group_lane')!.detail).toBe(`1 open in lane ${g.id} (width 2)`);
    expect(out.denials.map((d) => [d.triggerEventId, d.failedStep, d.detail])).toEqual([
      ['e3', 'group_lane', `2 open in lane ${g.id} (width 2)`],
      ['e7', 'group_lane', `2 open in lane ${g.id} (width 2)`],
    ]);
  });
});

describe('probability', () => {
  it('denies every draw at 0 and issues every draw at 1', async () => {
    const never = await define(h, { probability: 0 });
    const always = await define(h, { probability: 1 });
    const out = await runFeed(h, shots(6));
    expect(out.issuances.map((i) => i.definitionId)).toEqual(Array(6).fill(always.id));
    for (const i of out.issuances) expect(step(i, 'probability')!.detail).toMatch(/^draw 0\.\d{3} against 1$/);
    expect(out.denials).toHaveLength(6);
    for (const d of out.denials) {
      expect(d).toMatchObject({ definitionId: never.id, failedStep: 'probability' });
      expect(d.detail).toMatch(/^draw 0\.\d{3} against 0$/);
    }
  });

  it("draws the same with the same engine seed on two matches' identical feeds, and differently with another seed", async () => {
    const def = await define(h, { probability: 0.5 });
    const feed = shots(16);
    const draws = (p: Awaited<ReturnType<typeof runFeed>>) => {
      const out = new Map<string, { issued: boolean; draw: number }>();
      for (const i of p.issuances) out.set(i.triggerEventId!, { issued: true, draw: Number(/^draw (\S+) against 0.5$/.exec(step(i, 'probability')!.detail)![1]) });
      for (const d of p.denials) out.set(d.triggerEventId, { issued: false, draw: Number(/^draw (\S+) against 0.5$/.exec(d.detail)![1]) });
      return out;
    };
    const [a, b] = await runFeeds(h, [{ events: feed }, { events: feed }], { seed: 'seed-one' });
    const [c] = await runFeeds(h, [{ events: feed }], { seed: 'seed-two' });
    for (const p of [a!, b!, c!]) {
      expect(p.issuances.length + p.denials.length).toBe(16);
      expect(p.denials.every((d) => d.definitionId === def.id && d.failedStep === 'probability')).toBe(true);
      // Each decision is its draw against the probability.
      for (const { issued, draw } of draws(p).values()) expect(issued).toBe(draw < 0.5);
    }
    expect(draws(b!)).toEqual(draws(a!));
    expect([...draws(c!).values()].map((d) => d.draw)).not.toEqual([...draws(a!).values()].map((d) => d.draw));
  });
});

describe('probability trace', () => {
  it('prints the draw so that it compares with the probability as the draw did', () => {
    expect(drawDigits(0.123456, 0.5)).toBe('0.123');
    // Three decimals would round these across the probability and contradict the decision.
    expect(drawDigits(0.49961, 0.5)).toBe('0.4996');
    expect(Number(drawDigits(0.49961, 0.5)) < 0.5).toBe(true);
    for (const [draw, p] of [[0.33345, 0.3334], [0.2999999, 0.3], [0.3000001, 0.3], [0.0004, 0.0005]] as const) {
      expect(Number(drawDigits(draw, p)) < p, `${draw} against ${p}`).toBe(draw < p);
    }
    expect(drawDigits(0.5, 0.5)).toBe('0.500');
  });
});

describe('render', () => {
  it('denies when an extract or a label fails at run time, without using up a question number', async () => {
    const extract = await define(h, { issuance_state_extract: { n: '$number(event.data.label)' }, question_text_template: 'Label {{ extract.n }}?' });
    const label = await define(h, {
      trigger: { event_type: 'corner' },
      choices: [
        { identifier: 'yes', label_template: '{{ event.data.taker }}' },
        { identifier: 'no', label_template: 'No' },
      ],
      resolution: { rules: [{ event_type: 'card', correct_choice: '"no"' }] },
    });
    const out = await runFeed(h, [
      ev(1, 'shot', { data: { label: '7' } }),
      ev(2, 'shot', { data: { label: 'seven' } }),
      ev(3, 'corner', { data: { taker: 'Kane' } }),
      ev(4, 'corner', { data: {} }),
      ev(5, 'shot', { data: { label: '8' } }),
    ]);
    expect(out.issuances.map((i) => [i.definitionId, i.triggerEventId, i.questionNumber, i.questionText])).toEqual([
      [extract.id, 'e1', 1, 'Label 7?'],
      [label.id, 'e3', 2, 'Shot by home. Who is booked next?'],
      [extract.id, 'e5', 3, 'Label 8?'],
    ]);
    expect(out.issuances[0]!.state).toEqual({ n: 7 });
    expect(out.issuances[1]!.choices).toEqual([
      { identifier: 'yes', label: 'Kane' },
      { identifier: 'no', label: 'No' },
    ]);
    expect(step(out.issuances[0]!, 'render')).toEqual({ step: 'render', passed: true, detail: 'rendered' });
    expect(out.denials.map((d) => [d.definitionId, d.triggerEventId, d.failedStep])).toEqual([
      [extract.id, 'e2', 'render'],
      [label.id, 'e4', 'render'],
    ]);
    expect(out.denials[0]!.detail).toMatch(/^issuance_state_extract\.n: failed: .*seven/);
    expect(out.denials[1]!.detail).toBe('choices[0].label_template: rendered to an empty text');
  });
});

describe('render, past the evaluation budget', () => {
  it('denies an extract or a text that exceeds its budget at render; a condition that does is a logged miss; the listener goes on', async () => {
    const stall = '$contains($pad("", 5000, "a"), /.*.*.*.*.*x/)';
    const extract = await define(h, { issuance_state_extract: { n: stall } });
    const text = await define(h, { trigger: { event_type: 'corner' }, question_text_template: '{% for i in (1..3000) %}{% for j in (1..3000) %}{% endfor %}{% endfor %}Q?' });
    const condition = await define(h, { trigger: { event_type: 'card', condition: stall } });
    const fine = await define(h, { trigger: { event_type: 'period_end' } });
    const out = await runFeed(h, [ev(1, 'shot'), ev(2, 'corner'), ev(3, 'card'), ev(4, 'period_end')]);
    expect(out.denials.map((d) => [d.definitionId, d.triggerEventId, d.failedStep, d.detail])).toEqual([
      [extract.id, 'e1', 'render', 'issuance_state_extract.n: failed: expression ran longer than 250 ms'],
      [text.id, 'e2', 'render', expect.stringMatching(/^question_text_template: failed to render: (template render|memory alloc) limit exceeded/)],
    ]);
    expect(out.log).toContainEqual(`warn trigger of '${condition.name}' on e3: trigger.condition: failed: expression ran longer than 250 ms`);
    expect(out.issuances.map((i) => [i.definitionId, i.triggerEventId])).toEqual([[fine.id, 'e4']]);
  }, 30_000);
});

describe('pivotal moments', () => {
  it('skip match_cap, period_quota and min_interval, are not numbered, and leave the regular numbering 1..n', async () => {
    const regularLane = await group(h, { min_interval_seconds: 0, max_open_questions: 20 });
    const pivotalLane = await group(h, { min_interval_seconds: 3600, max_open_questions: 20 });
    const regular = await define(h, { group_id: regularLane.id });
    const pivotal = await define(h, { group_id: pivotalLane.id, is_pivotal_moment: true, trigger: { event_type: 'corner' } });
    const out = await runFeed(
      h,
      [ev(1, 'shot'), ev(2, 'corner'), ev(3, 'corner'), ev(4, 'shot'), ev(5, 'shot'), ev(6, 'shot'), ev(7, 'corner'), ev(8, 'corner', { period: '2' }), ev(9, 'shot', { period: '2' })],
      { questionMaxCount: 3, questionMinIntervalSeconds: null, questionPeriodDistribution: { '1': 5, '2': 0 } },
    );
    const rows = out.issuances.map((i) => [i.definitionId, i.triggerEventId, i.questionNumber, i.isPivotalMoment]);
    expect(rows).toEqual([
      [regular.id, 'e1', 1, false],
      [pivotal.id, 'e2', null, true],
      [pivotal.id, 'e3', null, true],
      [regular.id, 'e4', 2, false],
      [regular.id, 'e5', 3, false],
      [pivotal.id, 'e7', null, true],
      [pivotal.id, 'e8', null, true],
    ]);
    // The pivotal questions 10 s apart in a 3600 s lane, past the cap, in a period with a quota of 0.
    for (const p of out.issuances.filter((i) => i.isPivotalMoment)) {
      expect(p.decisionTrace.map((s) => s.step)).toEqual(['listener_running', 'definition_allowed', 'group_lane', 'probability', 'render']);
    }
    expect(out.denials.map((d) => [d.definitionId, d.triggerEventId, d.failedStep, d.detail])).toEqual([
      [regular.id, 'e6', 'match_cap', '3 of 3 regular questions issued'],
      [regular.id, 'e9', 'match_cap', '3 of 3 regular questions issued'],
    ]);
  });
});

describe('settings at issue time', () => {
  it('snapshots points and answer window inherited league < group < definition < match', async () => {
    const g = await group(h, { points: 15, answer_window_seconds: 45, max_open_questions: 20, min_interval_seconds: 0 });
    const ownPoints = await define(h, { group_id: g.id, points: 20, trigger: { event_type: 'corner' } });
    const fromGroup = await define(h, { group_id: g.id, trigger: { event_type: 'card' }, resolution: { rules: [{ event_type: 'period_end', correct_choice: '"home"' }] } });
    const fromLeague = await define(h, {
      question_text_template: '{{ match.home_team }} {{ event.score.home }}-{{ event.score.away }} {{ match.away_team }}: who shoots next?',
    });
    const feed = [ev(1, 'corner'), ev(2, 'card'), ev(3, 'shot', { score: { home: 2, away: 1 } })];
    const [plain, overridden] = await runFeeds(h, [
      { events: feed, match: { homeTeam: 'Lions', awayTeam: 'Tigers' } },
      { events: feed, match: { questionPoints: 5, answerWindowSeconds: 30 } },
    ]);
    const settings = (p: typeof plain) =>
      p!.issuances.map((i) => ({ def: i.definitionId, points: i.points, window: i.answerWindowSeconds, closesAfter: (i.closesAt.getTime() - i.issuedAt.getTime()) / 1000 }));
    expect(settings(plain)).toEqual([
      { def: ownPoints.id, points: 20, window: 45, closesAfter: 45 },
      { def: fromGroup.id, points: 15, window: 45, closesAfter: 45 },
      { def: fromLeague.id, points: 10, window: 60, closesAfter: 60 },
    ]);
    expect(settings(overridden)).toEqual([
      { def: ownPoints.id, points: 5, window: 30, closesAfter: 30 },
      { def: fromGroup.id, points: 5, window: 30, closesAfter: 30 },
      { def: fromLeague.id, points: 5, window: 30, closesAfter: 30 },
    ]);
    expect(plain!.issuances[2]!.questionText).toBe('Lions 2-1 Tigers: who shoots next?');
    expect(plain!.issuances[2]!.choices).toEqual([
      { identifier: 'home', label: 'Lions' },
      { identifier: 'away', label: 'Tigers' },
    ]);
  });

  it('keeps what an issued question snapshotted when its definition changes; later questions take the change', async () => {
    // The scenario's shot question (its rule waits for a card), in a first version.
    const body = definitionBody({
      name: unique('Editable'),
      question_text_template: 'Version one: who is booked next?',
      choices: [
        { identifier: 'home', label_template: 'Home v1' },
        { identifier: 'away', label_template: 'Away v1' },
      ],
      points: 20,
    });
    const def = await define(h, body);
    const live = await startLive(h, { match: { answerWindowSeconds: 30 }, worker: { catalogRefreshMs: 100 } });
    try {
      await live.push(ev(1, 'shot'));
      const res = await h.app.request('PUT', `/api/question-definitions/${def.id}`, {
        token: h.admin.token,
        body: { ...body, question_text_template: 'Version two: who is booked next?', choices: [{ identifier: 'home', label_template: 'Home v2' }, { identifier: 'away', label_template: 'Away v2' }], points: 40 },
      });
      expect(res.status).toBe(200);
      // The listener rereads its catalog every 100 ms here: wait for a read that began after the change
      // (the wrapper only sees calls made once it is in place).
      const store = h.app.services.engine.store;
      const original = store.matchCatalog;
      let reads = 0;
      store.matchCatalog = async (...args) => {
        const ctx = await original.apply(store, args);
        reads += 1;
        return ctx;
      };
      try {
        await waitFor(async () => reads >= 1, { what: 'the listener to reread its catalog', timeoutMs: 10_000, intervalMs: 20 });
      } finally {
        store.matchCatalog = original;
      }
      await live.push(ev(2, 'shot'));
      const out = await live.finish();
      expect(out.issuances.map((i) => ({ text: i.questionText, labels: i.choices.map((c) => c.label), points: i.points, window: i.answerWindowSeconds }))).toEqual([
        { text: 'Version one: who is booked next?', labels: ['Home v1', 'Away v1'], points: 20, window: 30 },
        { text: 'Version two: who is booked next?', labels: ['Home v2', 'Away v2'], points: 40, window: 30 },
      ]);
    } finally {
      await live.close();
    }
  });
});

describe('sponsorship slots', () => {
  it('stamps a question number slot, else a definition slot, else a period slot, else an earlier best-effort period slot, else next_available; pivotal moments take only definition slots', async () => {
    const db = h.app.services.database.db;
    const targeted = await define(h);
    const untargeted = await define(h, { trigger: { event_type: 'corner' } });
    const pivotal = await define(h, { is_pivotal_moment: true, trigger: { event_type: 'card' }, resolution: { rules: [{ event_type: 'period_end', correct_choice: '"home"' }] } });
    const brand = async (name: string) => (await db.insert(brands).values({ name: unique(name), primaryColor: '#112233' }).returning())[0]!;
    const matchSponsor = await brand('Match sponsor');
    const slotBrands: Record<string, string> = {};
    const place = async (matchId: string, key: string, slot: Record<string, unknown>) => {
      const b = await brand(key);
      slotBrands[b.id] = key;
      const res = await h.app.request('POST', `/api/brands/${b.id}/question-sponsorships`, { token: h.admin.token, body: { match_ids: [matchId], slots: [slot] } });
      expect(res.status, res.text).toBe(200);
    };
    const p2 = { period: '2' };
    const [out] = await runFeeds(h, [
      {
        events: [
          ev(1, 'corner'),
          ev(2, 'shot'),
          ev(3, 'shot'),
          ev(4, 'card'),
          ev(5, 'card'),
          ev(6, 'corner', p2),
          ev(7, 'corner', p2),
          ev(8, 'corner', p2),
          ev(9, 'corner', p2),
        ],
        match: { sponsorBrandId: matchSponsor.id },
        // Created one after the other: among slots of equal rank the oldest goes first.
        prepare: async (m) => {
          await place(m.id, 'period 1 lapsing', { strategy: 'period', target: '1', best_effort: false });
          await place(m.id, 'period 1 lapsing, unused', { strategy: 'period', target: '1', best_effort: false });
          await place(m.id, 'period 1 best effort', { strategy: 'period', target: '1', best_effort: true });
          await place(m.id, 'period 2', { strategy: 'period', target: '2' });
          await place(m.id, 'next available', { strategy: 'next_available' });
          await place(m.id, 'definition', { strategy: 'definition', target: targeted.id });
          await place(m.id, 'pivotal definition', { strategy: 'definition', target: pivotal.id });
          await place(m.id, 'number 2', { strategy: 'question_number', target: 2 });
        },
      },
    ]);
    const stamped = out!.issuances.map((i) => [i.triggerEventId, i.definitionId, i.questionNumber, i.sponsorBrandId ? slotBrands[i.sponsorBrandId] : null]);
    expect(stamped).toEqual([
      ['e1', untargeted.id, 1, 'period 1 lapsing'], // period before next_available
      ['e2', targeted.id, 2, 'number 2'], // number before definition and period
      ['e3', targeted.id, 3, 'definition'], // definition before period
      ['e4', pivotal.id, null, 'pivotal definition'],
      ['e5', pivotal.id, null, null], // period and next_available slots are free, but not for a pivotal moment
      ['e6', untargeted.id, 4, 'period 2'], // this period before an earlier one
      ['e7', untargeted.id, 5, 'period 1 best effort'], // an earlier best-effort period slot before next_available
      ['e8', untargeted.id, 6, 'next available'],
      ['e9', untargeted.id, 7, null], // the lapsed period-1 slot without best effort is never used
    ]);
    for (const i of out!.issuances) {
      expect(i.matchSponsorBrand).toEqual({ id: matchSponsor.id, name: matchSponsor.name, primary_color: '#112233', secondary_color: null, logo_url: null });
      if (i.sponsorBrandId) expect(i.sponsorBrand).toMatchObject({ id: i.sponsorBrandId, name: expect.stringContaining(slotBrands[i.sponsorBrandId]!) });
      else expect(i.sponsorBrand).toBeNull();
    }
    const slots = await db.select().from(questionSponsorships).where(eq(questionSponsorships.matchId, out!.match.id));
    const byIssuance = new Map(out!.issuances.map((i) => [i.id, i]));
    for (const s of slots) {
      if (slotBrands[s.brandId] === 'period 1 lapsing, unused') {
        expect(s.questionIssuanceId).toBeNull();
        continue;
      }
      expect(s.stampedAt).not.toBeNull();
      expect(byIssuance.get(s.questionIssuanceId!)!.sponsorBrandId).toBe(s.brandId);
    }
  });
});

describe('idempotency', () => {
  it('issues and denies nothing twice when a second listener of the match reads the same feed again', async () => {
    const db = h.app.services.database.db;
    const def = await define(h, { resolution: { rules: [{ event_type: 'card', correct_choice: 'event.team' }] } });
    const events = [...shots(4), ev(5, 'card', { team: 'away' }), ev(6, 'shot')];
    const feed = await startPushFeedServer({ events, speed: Infinity, heartbeatMs: 100 });
    try {
      const match = await createMatch(h.app, { scheduled: new Date(), feedUrl: feed.url, ...OPEN_MATCH, questionMaxCount: 3 });
      const first = startWorker(h.app);
      const firstListener = await listenerDone(h, match.id, 'the first listener to complete');
      await first.stop();
      const before = await produced(h, match.id, firstListener.id);
      expect(before.issuances.map((i) => [i.triggerEventId, i.questionNumber, i.status, i.correctAnswerIdentifier])).toEqual([
        ['e1', 1, 'resolved', 'away'],
        ['e2', 2, 'resolved', 'away'],
        ['e3', 3, 'resolved', 'away'],
      ]);
      expect(before.denials.map((d) => [d.triggerEventId, d.failedStep])).toEqual([
        ['e4', 'match_cap'],
        ['e6', 'match_cap'],
      ]);
      expect(before.listener).toMatchObject({ issuedCount: 3, deniedCount: 2, resolvedCount: 3 });

      // Another listener of the same match reads the whole feed again from its start.
      const { listener: second, created } = await h.app.services.engine.store.enqueue({ matchId: match.id, source: 'feed', feedUrl: feed.url });
      expect(created).toBe(true);
      const again = startWorker(h.app, { autoDispatch: false });
      try {
        await waitFor(async () => (await produced(h, match.id, second.id)).listener.status === 'completed', { what: 'the second listener to complete' });
      } finally {
        await again.stop();
      }
      const after = await produced(h, match.id, second.id);
      expect(after.listener).toMatchObject({ status: 'completed', eventsConsumed: events.length, issuedCount: 0, deniedCount: 0, resolvedCount: 0 });
      expect(after.issuances).toEqual(before.issuances);
      expect(after.denials).toEqual(before.denials);
      expect(after.log.some((l) => l.includes(`issued '${def.name}'`) || l.includes(`denied '${def.name}'`))).toBe(false);
    } finally {
      await feed.close();
    }
  });
});

/**
 * The fairness rule, as in-memory specifications of the decider: a question
 * whose outcome is decided sooner after it was asked than its minimum answer
 * time (feed time: the deciding event's occurred_at minus the trigger's) is
 * voided instead of resolved, since nobody could answer it in time. The
 * minimum inherits like the other per-question settings (league < group <
 * definition < match), is the one in force when the question was asked, and
 * gives the same decisions whenever the events arrive (a live feed, a replay
 * at any speed).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { FeedEvent } from '../../src/domain/sports/events.js';
import { ev, play, resetSpecIds, wc, type Played } from './decider-spec.js';

beforeAll(resetSpecIds);

const yesNo = [
  { identifier: 'yes', label_template: 'Yes' },
  { identifier: 'no', label_template: 'No' },
];

/** "A shot by the same side within a minute?" after a corner: a shot says yes, a minute without one says no. */
const cornerShot = (c: ReturnType<typeof wc>, overrides: Record<string, unknown> = {}) =>
  c.define({
    trigger: { event_type: 'corner' },
    question_text_template: 'Corner. A shot within a minute?',
    choices: yesNo,
    issuance_state_extract: { team: 'event.team' },
    resolution: {
      rules: [{ event_type: 'shot', condition: 'event.team = issuance.state.team', correct_choice: '"yes"' }],
      timeout: { after_seconds: 60, correct_choice: 'no' },
    },
    ...overrides,
  });

/** A corner at `at` and a shot by the same side `after` seconds later. */
const cornerThenShot = (seq: number, at: number, after: number): FeedEvent[] => [ev(seq, 'corner', { at }), ev(seq + 1, 'shot', { at: at + after })];

const outcomes = (out: Played) => out.issued.map((q) => [q.triggerEventId, q.status, q.correct]);

describe('the fairness rule', () => {
  it("voids a question decided sooner than the league's minimum answer time (10 s for wc) after it was asked, and resolves one decided at it or later", async () => {
    const c = wc();
    cornerShot(c);
    expect(c.league.defaultMinAnswerSeconds).toBe(10);
    const out = await play(c, [...cornerThenShot(1, 100, 3), ...cornerThenShot(3, 300, 10), ...cornerThenShot(5, 500, 9.9)]);
    expect(outcomes(out)).toEqual([
      ['e1', 'voided', null],
      ['e3', 'resolved', 'yes'],
      ['e5', 'voided', null],
    ]);
    expect(out.settled[0]!.reason).toBe(
      'decided by rule 1 on shot e2, 3 s after it was asked: within its minimum answer time of 10 s nobody could answer it fairly',
    );
  });

  it('voids a timeout that falls within the minimum answer time too', async () => {
    const c = wc();
    cornerShot(c, { resolution: { rules: [], timeout: { after_seconds: 5, correct_choice: 'no' } } });
    // The clock passes the timeout 6 s after the corner (feed time 6 s): too soon; 12 s after: fair.
    const out = await play(c, [
      ev(1, 'corner', { at: 100 }),
      ev(2, 'pass', { at: 106 }),
      ev(3, 'corner', { at: 200 }),
      ev(4, 'pass', { at: 203 }),
      ev(5, 'pass', { at: 212 }),
    ]);
    expect(outcomes(out)).toEqual([
      ['e1', 'voided', null],
      ['e3', 'resolved', 'no'],
    ]);
    expect(out.settled[0]!.reason).toMatch(/^decided by its timeout, 6 s after it was asked/);
  });

  it('inherits league < group < definition < match, and 0 turns it off', async () => {
    const feed = cornerThenShot(1, 100, 4);
    const run = async (setup: (c: ReturnType<typeof wc>) => void, match: Record<string, unknown> = {}, league: Record<string, unknown> = {}) => {
      const c = wc(match, league);
      setup(c);
      const out = await play(c, feed);
      return [out.issued[0]!.minAnswerSeconds, out.issued[0]!.status];
    };
    expect(await run((c) => cornerShot(c))).toEqual([10, 'voided']);
    expect(await run((c) => cornerShot(c), {}, { defaultMinAnswerSeconds: 3 })).toEqual([3, 'resolved']);
    expect(await run((c) => cornerShot(c, { group_id: c.addGroup({ min_answer_seconds: 2 }).id }))).toEqual([2, 'resolved']);
    expect(await run((c) => cornerShot(c, { group_id: c.addGroup({ min_answer_seconds: 2 }).id, min_answer_seconds: 5 }))).toEqual([5, 'voided']);
    expect(await run((c) => cornerShot(c, { min_answer_seconds: 30 }), { minAnswerSeconds: 0 })).toEqual([0, 'resolved']);
    expect(await run((c) => cornerShot(c, { min_answer_seconds: 0 }), { minAnswerSeconds: 4 })).toEqual([4, 'resolved']);
  });

  it('keeps the minimum in force when the question was asked, whatever the settings say when it is decided', async () => {
    const c = wc();
    cornerShot(c);
    const asked = await play(c, [ev(1, 'corner', { at: 100 })]);
    expect(asked.issued[0]!.minAnswerSeconds).toBe(10);
    // The operator turns the rule off on the match meanwhile: the question asked under it is still voided.
    const later = wc({ minAnswerSeconds: 0 });
    Object.assign(later, { league: c.league, definitions: c.definitions, groups: c.groups });
    const out = await play(later, [ev(2, 'shot', { at: 104 })], {}, asked.state);
    expect(out.settled.map((s) => [s.triggerEventId, s.status])).toEqual([['e1', 'voided']]);
  });

  it('decides the same whenever the events arrive: a live feed, a replay at x10 or as fast as it goes', async () => {
    const feed = [...cornerThenShot(1, 100, 3), ...cornerThenShot(3, 300, 20), ...cornerThenShot(5, 500, 70)];
    const results = [];
    for (const speed of [1, 10, 1e9]) {
      const c = wc();
      cornerShot(c);
      // The issue time is the moment each event is processed: its feed time divided by the replay's speed.
      const out = await play(c, feed, (e) => ({
        now: new Date(Date.parse('2026-06-14T18:00:00Z') + (Date.parse(e.occurred_at) - Date.parse(feed[0]!.occurred_at)) / speed),
      }));
      results.push(outcomes(out));
    }
    expect(results[0]).toEqual([
      ['e1', 'voided', null],
      ['e3', 'resolved', 'yes'],
      ['e5', 'resolved', 'no'],
    ]);
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
  });
});

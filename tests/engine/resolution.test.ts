/**
 * How the live engine resolves what it issued, as in-memory specifications
 * of the decider: only final information after the trigger resolves,
 * corrections before the final count, a withdrawn trigger voids, a resolved
 * question is never re-graded, a timeout decides before the rules, the rules
 * decide in order, an answer that is not a choice voids, the match end
 * voids the rest, and a feed that numbers its messages badly (jumps,
 * regressions, two messages sharing a seq) resolves by arrival, not by seq.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { importOpenfootballSchedule, openfootballEvents } from '../../src/engine/feed/importers/openfootball.js';
import { ev, play, revise, wc, type Issued, resetSpecIds } from './decider-spec.js';
import { readFixture } from './feed/helpers.js';

// The specs' ids (and so their probability draws) as in a fresh process, whatever files ran before in this one.
beforeAll(resetSpecIds);

const yesNo = [
  { identifier: 'yes', label_template: 'Yes' },
  { identifier: 'no', label_template: 'No' },
];

/** "Which team shoots next?" after a corner: the next final shot decides. */
const nextShot = (c: ReturnType<typeof wc>, overrides: Record<string, unknown> = {}) =>
  c.define({
    trigger: { event_type: 'corner' },
    question_text_template: 'Corner. Who shoots next?',
    resolution: { rules: [{ event_type: 'shot', correct_choice: 'event.team' }] },
    ...overrides,
  });

const outcome = (row: Issued | undefined) => row && { status: row.status, correct: row.correct, seq: row.resolvedSeq, by: row.resolvedBy };

describe('final information', () => {
  it('resolves at the final update of a non-final event, never at the first message nor at its own trigger', async () => {
    const c = wc();
    const shotDef = nextShot(c);
    const cardDef = c.define({
      trigger: { event_type: 'card' },
      question_text_template: 'Who is booked next?',
      resolution: { rules: [{ event_type: 'card', correct_choice: 'event.team' }] },
    });
    const shot = ev(2, 'shot', { team: 'away', final: false });
    const card = ev(3, 'card', { team: 'home', final: false });
    const out = await play(c, [
      ev(1, 'corner'),
      shot,
      card,
      revise(4, shot, 'update', { final: true }),
      revise(5, card, 'update', { final: true }),
      ev(6, 'card', { team: 'away' }),
      ev(7, 'corner'),
      ev(8, 'shot', { team: 'home', final: false }),
    ]);
    const [first, second] = out.issued.filter((i) => i.definitionId === shotDef.id);
    expect(outcome(first)).toEqual({ status: 'resolved', correct: 'away', seq: 4, by: 'e2' });
    // e8 is a shot, but not final information yet.
    expect(outcome(second)).toEqual({ status: 'open', correct: null, seq: null, by: null });
    // The card question is not resolved by the final version of its own trigger, but by the next card.
    expect(out.issued.filter((i) => i.definitionId === cardDef.id).map((i) => [i.triggerEventId, i.status, i.correct, i.resolvedSeq])).toEqual([
      ['e3', 'resolved', 'away', 6],
      ['e6', 'open', null, null],
    ]);
    expect(out.state.counters.resolved).toBe(2);
  });

  it('is not resolved by the final version of an event that began before its trigger', async () => {
    const c = wc();
    const def = nextShot(c);
    const early = ev(1, 'shot', { team: 'home', final: false });
    const out = await play(c, [early, ev(2, 'corner'), revise(3, early, 'update', { final: true }), ev(4, 'shot', { team: 'away' })]);
    expect(out.issued.map((i) => [i.definitionId, i.triggerEventId])).toEqual([[def.id, 'e2']]);
    expect(outcome(out.issued[0])).toEqual({ status: 'resolved', correct: 'away', seq: 4, by: 'e4' });
  });

  it('applies a correction that comes before the final, and does not trigger again on it', async () => {
    const c = wc();
    const next = nextShot(c, {
      resolution: { rules: [{ event_type: 'score_change', correct_choice: 'event.team' }] },
      question_text_template: 'Corner. Who scores next?',
    });
    const scored = c.define({
      trigger: { event_type: 'score_change' },
      question_text_template: '{{ match.home_team }} {{ event.score.home }}-{{ event.score.away }} {{ match.away_team }}. Next card?',
    });
    const goal = ev(2, 'score_change', { team: 'away', score: { home: 0, away: 1 }, final: false });
    const out = await play(c, [
      ev(1, 'corner'),
      goal,
      // The provider corrects the scorer's side, then confirms.
      revise(3, goal, 'update', { team: 'home', score: { home: 1, away: 0 } }),
      revise(4, goal, 'update', { team: 'home', score: { home: 1, away: 0 }, final: true }),
    ]);
    expect(outcome(out.issued.find((i) => i.definitionId === next.id && i.triggerEventId === 'e1'))).toEqual({
      status: 'resolved',
      correct: 'home',
      seq: 4,
      by: 'e2',
    });
    // One question on the goal, from its first message; the corrections do not ask it again or rewrite it.
    expect(out.issued.filter((i) => i.definitionId === scored.id).map((i) => [i.triggerEventId, i.triggerSeq, i.questionText])).toEqual([
      ['e2', 2, 'Team A 0-1 Team B. Next card?'],
    ]);
    expect(out.denied).toEqual([]);
    expect(out.match).toMatchObject({ homeScore: 1, awayScore: 0 });
  });
});

describe('withdrawn triggers', () => {
  it('voids the open question whose triggering event the provider deletes, and only that one', async () => {
    const c = wc();
    const def = nextShot(c);
    const first = ev(1, 'corner');
    const stray = ev(3, 'shot', { final: false });
    const out = await play(c, [first, ev(2, 'corner'), stray, revise(4, stray, 'delete'), revise(5, first, 'delete'), ev(6, 'shot', { team: 'away' })]);
    expect(out.issued.map((i) => [i.triggerEventId, i.questionNumber])).toEqual([
      ['e1', 1],
      ['e2', 2],
    ]);
    expect(outcome(out.issued[0])).toEqual({ status: 'voided', correct: null, seq: 5, by: 'e1' });
    expect(outcome(out.issued[1])).toEqual({ status: 'resolved', correct: 'away', seq: 6, by: 'e6' });
    expect(out.settled[0]).toMatchObject({ definitionName: def.name, questionNumber: 1, reason: 'its triggering event e1 was withdrawn by the provider' });
  });
});

describe('a resolved question', () => {
  it('is never re-graded: not by a correction of its deciding event, a later event, a withdrawn trigger or the match end', async () => {
    const c = wc();
    const def = nextShot(c);
    const corner = ev(1, 'corner');
    const shot = ev(2, 'shot', { team: 'away' });
    const out = await play(c, [
      corner,
      shot,
      revise(3, shot, 'update', { team: 'home' }),
      ev(4, 'shot', { team: 'home' }),
      revise(5, corner, 'delete'),
      ev(6, 'match_status', { data: { status: 'ended' } }),
    ]);
    expect(out.issued).toHaveLength(1);
    expect(out.issued[0]).toMatchObject({ definitionId: def.id, status: 'resolved', correct: 'away', resolvedSeq: 2, resolvedBy: 'e2' });
    expect(out.settled.map((s) => s.reason)).toEqual(['rule 1 on shot e2']);
    expect(out.state.counters.resolved).toBe(1);
  });
});

describe('timeouts and rules', () => {
  it('decide a timeout first, on the first final event past it: its choice, or void without one', async () => {
    const c = wc();
    const resolution = (timeoutChoice: string | null) => ({
      rules: [{ event_type: 'shot', condition: 'event.team = issuance.state.team', correct_choice: '"yes"' }],
      timeout: { after_seconds: 300, correct_choice: timeoutChoice },
    });
    const common = {
      trigger: { event_type: 'corner' },
      question_text_template: 'Shot within 5 minutes?',
      choices: yesNo,
      issuance_state_extract: { team: 'event.team' },
    };
    const withChoice = c.define({ ...common, resolution: resolution('no') });
    const voiding = c.define({ ...common, resolution: resolution(null) });
    const out = await play(c, [
      ev(1, 'corner', { at: 100, team: 'home' }),
      ev(2, 'shot', { at: 200, team: 'away' }), // the other team: no rule matches
      ev(3, 'card', { at: 450, final: false }), // past the timeout, but not final
      ev(4, 'shot', { at: 450, team: 'home' }), // a matching shot, but past the timeout: the timeout decides
      ev(5, 'corner', { at: 1000, team: 'away' }),
      ev(6, 'shot', { at: 1299, team: 'away' }), // within the timeout: the rule decides
    ]);
    const rows = (id: string) => out.issued.filter((i) => i.definitionId === id).map(outcome);
    expect(rows(withChoice.id)).toEqual([
      { status: 'resolved', correct: 'no', seq: 4, by: 'e4' },
      { status: 'resolved', correct: 'yes', seq: 6, by: 'e6' },
    ]);
    expect(rows(voiding.id)).toEqual([
      { status: 'voided', correct: null, seq: 4, by: 'e4' },
      { status: 'resolved', correct: 'yes', seq: 6, by: 'e6' },
    ]);
    expect(out.settled.filter((s) => s.eventId === 'e4').map((s) => [s.definitionName, s.questionNumber, s.reason])).toEqual([
      [withChoice.name, 1, 'timeout: 300 s passed without a deciding event'],
      [voiding.name, 2, 'timeout without a correct choice'],
    ]);
  });

  it('try the rules in order: a condition that fails or an expression that throws passes to the next rule', async () => {
    const c = wc();
    const def = nextShot(c, {
      resolution: {
        rules: [
          { event_type: 'shot', condition: 'event.team = "away"', correct_choice: '"away"' },
          { event_type: 'card', correct_choice: '"away"' },
          { event_type: 'shot', correct_choice: '$number(event.data.xg)' },
          { event_type: 'shot', correct_choice: 'event.team' },
          { event_type: 'shot', correct_choice: '"away"' },
        ],
      },
    });
    const out = await play(c, [ev(1, 'corner'), ev(2, 'shot', { team: 'home', data: { xg: 'high' } })]);
    expect(outcome(out.issued[0])).toEqual({ status: 'resolved', correct: 'home', seq: 2, by: 'e2' });
    expect(out.settled.map((s) => s.reason)).toEqual(['rule 4 on shot e2']);
    expect(out.warned).toEqual([expect.stringMatching(new RegExp(`^resolving '${def.name}': resolution\\.rules\\[2\\]\\.correct_choice: failed: `))]);
  });

  it('void when the deciding rule gives something that is not a choice', async () => {
    const c = wc();
    const notAChoice = nextShot(c, { resolution: { rules: [{ event_type: 'shot', correct_choice: 'event.data.outcome' }] } });
    const nothing = nextShot(c, { resolution: { rules: [{ event_type: 'shot', correct_choice: 'event.data.missing' }] } });
    const out = await play(c, [ev(1, 'corner'), ev(2, 'shot', { data: { outcome: 'blocked' } })]);
    expect(out.issued.map((i) => [i.definitionId, ...Object.values(outcome(i)!)])).toEqual([
      [notAChoice.id, 'voided', null, 2, 'e2'],
      [nothing.id, 'voided', null, 2, 'e2'],
    ]);
    expect(out.settled.map((s) => s.reason)).toEqual(['rule 1 gave "blocked", not a choice', 'rule 1 gave null, not a choice']);
  });
});

describe('the match end', () => {
  it('voids what the end event itself did not decide, and closes the match with its result', async () => {
    const c = wc();
    const shotDef = nextShot(c);
    const goalDef = nextShot(c, {
      question_text_template: 'Corner. Who scores next?',
      choices: [
        { identifier: 'home', label_template: 'Home' },
        { identifier: 'away', label_template: 'Away' },
        { identifier: 'none', label_template: 'Nobody' },
      ],
      resolution: {
        rules: [
          { event_type: 'score_change', correct_choice: 'event.team' },
          { event_type: 'match_status', condition: 'event.data.status = "ended"', correct_choice: '"none"' },
        ],
      },
    });
    const pivotal = nextShot(c, { is_pivotal_moment: true });
    const out = await play(c, [
      ev(1, 'corner'),
      ev(2, 'score_change', { team: 'away', score: { home: 0, away: 1 }, data: { minute: 1, scorer: 'Nine' } }),
      ev(3, 'corner', { score: { home: 0, away: 1 } }),
      ev(4, 'match_status', { score: { home: 0, away: 1 }, data: { status: 'ended' } }),
      ev(5, 'match_status', { score: { home: 0, away: 1 }, data: { status: 'closed' } }),
    ]);
    const of = (id: string) => out.issued.filter((i) => i.definitionId === id).map(outcome);
    expect(of(goalDef.id)).toEqual([
      { status: 'resolved', correct: 'away', seq: 2, by: 'e2' },
      { status: 'resolved', correct: 'none', seq: 4, by: 'e4' },
    ]);
    expect(of(shotDef.id)).toEqual([
      { status: 'voided', correct: null, seq: 4, by: 'e4' },
      { status: 'voided', correct: null, seq: 4, by: 'e4' },
    ]);
    expect(of(pivotal.id)[0]).toEqual({ status: 'voided', correct: null, seq: 4, by: 'e4' });
    expect(out.settled.find((s) => s.definitionName === shotDef.name)!.reason).toBe('the match ended before it resolved');
    expect(out.state.open.size).toBe(0);
    expect(out.match).toMatchObject({ status: 'closed', homeScore: 0, awayScore: 1 });
    expect(out.match.result).toEqual({
      home_score: 0,
      away_score: 1,
      winner: 'away',
      home_team: 'Team A',
      away_team: 'Team B',
      penalties: null,
      goals: [{ team: 'away', minute: 1, offset: 0, player: 'Nine', penalty: false, own_goal: false }],
    });
  });

  it("stores each goal of the result with its stoppage-time offset, as the feed gives it (Euro 2024's opener: 45+1', 90+3')", async () => {
    const [opener] = importOpenfootballSchedule(readFixture('feeds/openfootball/euro-2024-sample.json'), { season: 'euro2024', localUtcOffset: '+02:00' });
    const out = await play(wc(), openfootballEvents(opener!));
    expect((out.match.result as { goals: unknown[] }).goals).toEqual([
      { team: 'home', minute: 10, offset: 0, player: 'Wirtz', penalty: false, own_goal: false },
      { team: 'home', minute: 19, offset: 0, player: 'Musiala', penalty: false, own_goal: false },
      { team: 'home', minute: 45, offset: 1, player: 'Havertz', penalty: true, own_goal: false },
      { team: 'home', minute: 68, offset: 0, player: 'Füllkrug', penalty: false, own_goal: false },
      { team: 'away', minute: 87, offset: 0, player: 'Rüdiger', penalty: false, own_goal: true },
      { team: 'home', minute: 90, offset: 3, player: 'Can', penalty: false, own_goal: false },
    ]);
  });
});

describe('a feed that numbers badly', () => {
  it('resolves by arrival: a later event with a lower seq (a restarted numbering) is later information, an absurd seq is not "after" everything', async () => {
    const c = wc();
    nextShot(c);
    const out = await play(c, [
      ev(1, 'corner'),
      ev(2, 'corner', { seq: 2_000_000_000 }),
      // The provider restarted its numbering.
      ev(3, 'shot', { seq: 1, provider_event_id: 'r1', team: 'away' }),
      ev(4, 'corner', { seq: 2, provider_event_id: 'r2' }),
      ev(5, 'shot', { seq: 3, provider_event_id: 'r3', team: 'home' }),
    ]);
    expect(out.issued.map((i) => [i.triggerEventId, i.triggerSeq, ...Object.values(outcome(i)!)])).toEqual([
      ['e1', 1, 'resolved', 'away', 1, 'r1'],
      ['e2', 2_000_000_000, 'resolved', 'away', 1, 'r1'],
      ['r2', 2, 'resolved', 'home', 3, 'r3'],
    ]);
  });

  it('decides on both of two events that share a seq', async () => {
    const c = wc();
    nextShot(c);
    const out = await play(c, [ev(1, 'corner'), ev(2, 'corner', { seq: 1 }), ev(3, 'shot', { team: 'away' })]);
    expect(out.issued.map((i) => [i.triggerEventId, i.triggerSeq, i.status])).toEqual([
      ['e1', 1, 'resolved'],
      ['e2', 1, 'resolved'],
    ]);
  });
});

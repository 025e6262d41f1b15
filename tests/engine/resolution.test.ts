/**
 * How the live engine resolves what it issued, end to end (definitions
 * through the API, a hand-built NDJSON push feed, an in-process worker):
 * only final information after the trigger resolves, corrections before the
 * final count, a withdrawn trigger voids, a resolved question is never
 * re-graded, a timeout decides before the rules, the rules decide in order,
 * an answer that is not a choice voids, and the match end voids the rest.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { byTrigger, cleanup, define, ev, revise, runFeed, startHarness, type Harness } from './engine-scenario.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterEach(() => cleanup(h));
afterAll(() => h?.app.close());

const yesNo = [
  { identifier: 'yes', label_template: 'Yes' },
  { identifier: 'no', label_template: 'No' },
];

/** "Which team shoots next?" after a corner: the next final shot decides. */
const nextShot = (overrides: Record<string, unknown> = {}) =>
  define(h, { trigger: { event_type: 'corner' }, question_text_template: 'Corner. Who shoots next?', resolution: { rules: [{ event_type: 'shot', correct_choice: 'event.team' }] }, ...overrides });

const outcome = (row: { status: string; correctAnswerIdentifier: string | null; resolvedSeq: number | null; resolutionEventId: string | null } | undefined) =>
  row && { status: row.status, correct: row.correctAnswerIdentifier, seq: row.resolvedSeq, by: row.resolutionEventId };

describe('final information', () => {
  it('resolves at the final update of a non-final event, never at the first message nor at its own trigger', async () => {
    const shotDef = await nextShot();
    const cardDef = await define(h, { trigger: { event_type: 'card' }, question_text_template: 'Who is booked next?', resolution: { rules: [{ event_type: 'card', correct_choice: 'event.team' }] } });
    const shot = ev(2, 'shot', { team: 'away', final: false });
    const card = ev(3, 'card', { team: 'home', final: false });
    const out = await runFeed(h, [
      ev(1, 'corner'),
      shot,
      card,
      revise(4, shot, 'update', { final: true }),
      revise(5, card, 'update', { final: true }),
      ev(6, 'card', { team: 'away' }),
      ev(7, 'corner'),
      ev(8, 'shot', { team: 'home', final: false }),
    ]);
    const [first, second] = out.issuances.filter((i) => i.definitionId === shotDef.id);
    expect(outcome(first)).toEqual({ status: 'resolved', correct: 'away', seq: 4, by: 'e2' });
    // e8 is a shot, but not final information yet: still open when the feed ended before the match closed, so voided then.
    expect(outcome(second)).toEqual({ status: 'voided', correct: null, seq: null, by: null });
    // The card question is not resolved by the final version of its own trigger, but by the next card.
    const cards = out.issuances.filter((i) => i.definitionId === cardDef.id);
    expect(cards.map((i) => [i.triggerEventId, i.status, i.correctAnswerIdentifier, i.resolvedSeq])).toEqual([
      ['e3', 'resolved', 'away', 6],
      ['e6', 'voided', null, null],
    ]);
    expect(out.listener.resolvedCount).toBe(2);
  });

  it('is not resolved by the final version of an event that began before its trigger', async () => {
    const def = await nextShot();
    const early = ev(1, 'shot', { team: 'home', final: false });
    const out = await runFeed(h, [early, ev(2, 'corner'), revise(3, early, 'update', { final: true }), ev(4, 'shot', { team: 'away' })]);
    expect(out.issuances.map((i) => [i.definitionId, i.triggerEventId])).toEqual([[def.id, 'e2']]);
    expect(outcome(out.issuances[0])).toEqual({ status: 'resolved', correct: 'away', seq: 4, by: 'e4' });
  });

  it('applies a correction that comes before the final, and does not trigger again on it', async () => {
    const next = await nextShot({ resolution: { rules: [{ event_type: 'score_change', correct_choice: 'event.team' }] }, question_text_template: 'Corner. Who scores next?' });
    const scored = await define(h, {
      trigger: { event_type: 'score_change' },
      question_text_template: '{{ match.home_team }} {{ event.score.home }}-{{ event.score.away }} {{ match.away_team }}. Next card?',
    });
    const goal = ev(2, 'score_change', { team: 'away', score: { home: 0, away: 1 }, final: false });
    const out = await runFeed(h, [
      ev(1, 'corner'),
      goal,
      // The provider corrects the scorer's side, then confirms.
      revise(3, goal, 'update', { team: 'home', score: { home: 1, away: 0 } }),
      revise(4, goal, 'update', { team: 'home', score: { home: 1, away: 0 }, final: true }),
    ]);
    expect(outcome(byTrigger(out.issuances.filter((i) => i.definitionId === next.id), 'e1'))).toEqual({ status: 'resolved', correct: 'home', seq: 4, by: 'e2' });
    // One question on the goal, from its first message; the corrections do not ask it again or rewrite it.
    const onGoal = out.issuances.filter((i) => i.definitionId === scored.id);
    expect(onGoal.map((i) => [i.triggerEventId, i.triggerSeq, i.questionText])).toEqual([['e2', 2, 'Team A 0-1 Team B. Next card?']]);
    expect(out.denials).toEqual([]);
    expect(out.match).toMatchObject({ homeScore: 1, awayScore: 0 });
  });
});

describe('withdrawn triggers', () => {
  it('voids the open question whose triggering event the provider deletes, and only that one', async () => {
    const def = await nextShot();
    const first = ev(1, 'corner');
    const stray = ev(3, 'shot', { final: false });
    const out = await runFeed(h, [first, ev(2, 'corner'), stray, revise(4, stray, 'delete'), revise(5, first, 'delete'), ev(6, 'shot', { team: 'away' })]);
    expect(out.issuances.map((i) => [i.triggerEventId, i.questionNumber])).toEqual([
      ['e1', 1],
      ['e2', 2],
    ]);
    expect(outcome(out.issuances[0])).toEqual({ status: 'voided', correct: null, seq: 5, by: 'e1' });
    expect(outcome(out.issuances[1])).toEqual({ status: 'resolved', correct: 'away', seq: 6, by: 'e6' });
    expect(out.log).toContain(`info voided '${def.name}' #1: its triggering event e1 was withdrawn by the provider`);
  });
});

describe('a resolved question', () => {
  it('is never re-graded: not by a correction of its deciding event, a later event, a withdrawn trigger or the match end', async () => {
    const def = await nextShot();
    const corner = ev(1, 'corner');
    const shot = ev(2, 'shot', { team: 'away' });
    const out = await runFeed(h, [
      corner,
      shot,
      revise(3, shot, 'update', { team: 'home' }),
      ev(4, 'shot', { team: 'home' }),
      revise(5, corner, 'delete'),
      ev(6, 'match_status', { data: { status: 'ended' } }),
    ]);
    expect(out.issuances).toHaveLength(1);
    expect(out.issuances[0]).toMatchObject({ definitionId: def.id, status: 'resolved', correctAnswerIdentifier: 'away', resolvedSeq: 2, resolutionEventId: 'e2' });
    expect(out.listener.resolvedCount).toBe(1);
    expect(out.log.filter((l) => l.includes(`'${def.name}' #1:`))).toEqual([`info resolved '${def.name}' #1: rule 1 on shot e2`]);
  });
});

describe('timeouts and rules', () => {
  it('decide a timeout first, on the first final event past it: its choice, or void without one', async () => {
    const resolution = (timeoutChoice: string | null) => ({
      rules: [{ event_type: 'shot', condition: 'event.team = issuance.state.team', correct_choice: '"yes"' }],
      timeout: { after_seconds: 300, correct_choice: timeoutChoice },
    });
    const common = { trigger: { event_type: 'corner' }, question_text_template: 'Shot within 5 minutes?', choices: yesNo, issuance_state_extract: { team: 'event.team' } };
    const withChoice = await define(h, { ...common, resolution: resolution('no') });
    const voiding = await define(h, { ...common, resolution: resolution(null) });
    const out = await runFeed(h, [
      ev(1, 'corner', { at: 100, team: 'home' }),
      ev(2, 'shot', { at: 200, team: 'away' }), // the other team: no rule matches
      ev(3, 'card', { at: 450, final: false }), // past the timeout, but not final
      ev(4, 'shot', { at: 450, team: 'home' }), // a matching shot, but past the timeout: the timeout decides
      ev(5, 'corner', { at: 1000, team: 'away' }),
      ev(6, 'shot', { at: 1299, team: 'away' }), // within the timeout: the rule decides
    ]);
    const rows = (id: string) => out.issuances.filter((i) => i.definitionId === id).map(outcome);
    expect(rows(withChoice.id)).toEqual([
      { status: 'resolved', correct: 'no', seq: 4, by: 'e4' },
      { status: 'resolved', correct: 'yes', seq: 6, by: 'e6' },
    ]);
    expect(rows(voiding.id)).toEqual([
      { status: 'voided', correct: null, seq: 4, by: 'e4' },
      { status: 'resolved', correct: 'yes', seq: 6, by: 'e6' },
    ]);
    expect(out.log).toContain(`info resolved '${withChoice.name}' #1: timeout: 300 s passed without a deciding event`);
    expect(out.log).toContain(`info voided '${voiding.name}' #2: timeout without a correct choice`);
  });

  it('try the rules in order: a condition that fails or an expression that throws passes to the next rule', async () => {
    const def = await nextShot({
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
    const out = await runFeed(h, [ev(1, 'corner'), ev(2, 'shot', { team: 'home', data: { xg: 'high' } })]);
    expect(outcome(out.issuances[0])).toEqual({ status: 'resolved', correct: 'home', seq: 2, by: 'e2' });
    expect(out.log).toContain(`info resolved '${def.name}' #1: rule 4 on shot e2`);
    expect(out.log).toContainEqual(expect.stringMatching(new RegExp(`^warn resolving '${def.name}': resolution\\.rules\\[2\\]\\.correct_choice: failed: `)));
  });

  it('void when the deciding rule gives something that is not a choice', async () => {
    const notAChoice = await nextShot({ resolution: { rules: [{ event_type: 'shot', correct_choice: 'event.data.outcome' }] } });
    const nothing = await nextShot({ resolution: { rules: [{ event_type: 'shot', correct_choice: 'event.data.missing' }] } });
    const out = await runFeed(h, [ev(1, 'corner'), ev(2, 'shot', { data: { outcome: 'blocked' } })]);
    expect(out.issuances.map((i) => [i.definitionId, ...Object.values(outcome(i)!)])).toEqual([
      [notAChoice.id, 'voided', null, 2, 'e2'],
      [nothing.id, 'voided', null, 2, 'e2'],
    ]);
    expect(out.log).toContain(`info voided '${notAChoice.name}' #1: rule 1 gave "blocked", not a choice`);
    expect(out.log).toContain(`info voided '${nothing.name}' #2: rule 1 gave null, not a choice`);
  });
});

describe('the match end', () => {
  it('voids what the end event itself did not decide', async () => {
    const shotDef = await nextShot();
    const goalDef = await nextShot({
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
    const pivotal = await nextShot({ is_pivotal_moment: true });
    const out = await runFeed(h, [ev(1, 'corner'), ev(2, 'match_status', { data: { status: 'ended' } }), ev(3, 'match_status', { data: { status: 'closed' } })]);
    const of = (id: string) => outcome(out.issuances.find((i) => i.definitionId === id));
    expect(of(goalDef.id)).toEqual({ status: 'resolved', correct: 'none', seq: 2, by: 'e2' });
    expect(of(shotDef.id)).toEqual({ status: 'voided', correct: null, seq: 2, by: 'e2' });
    expect(of(pivotal.id)).toEqual({ status: 'voided', correct: null, seq: 2, by: 'e2' });
    expect(out.log).toContain(`info voided '${shotDef.name}' #1: the match ended before it resolved`);
    expect(out.match).toMatchObject({ status: 'closed', listenerEventsArchived: true });
  });
});

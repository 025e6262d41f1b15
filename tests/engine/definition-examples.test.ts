/**
 * The contract's examples of definitions are what frontend teams and Prism
 * mocks show operators: they must be valid on our own normalized events.
 */
import { describe, expect, it } from 'vitest';
import { contractDocument } from '../../src/http/contract.js';
import { matchAtEvent, sampleEvent, sampleMatch } from '../../src/domain/sports/sports.js';
import type { FeedEvent } from '../../src/domain/sports/events.js';
import {
  applyStoreState,
  checkInGameSyntax,
  conditionHolds,
  extractIssuanceState,
  renderQuestion,
  type InGameSyntax,
} from '../../src/domain/question-render.js';
import { evaluateExpression } from '../../src/domain/language/expressions.js';

type Schema = { example?: any; properties?: Record<string, { example?: any }> };
const schemas = (contractDocument() as { components: { schemas: Record<string, Schema> } }).components.schemas;
const prop = (schema: string, name: string) => schemas[schema]!.properties![name]!.example;

const football = (type: string): FeedEvent => sampleEvent('football', type)!;
const matchFor = (event: FeedEvent) => matchAtEvent(sampleMatch('wc', 'football'), event);

/** Trigger, store, extract and render for one event, as the engine does when a trigger fires. */
async function fire(def: InGameSyntax, event: FeedEvent, state: Record<string, unknown> = {}) {
  const match = matchFor(event);
  const fires = event.type === def.trigger.event_type && (await conditionHolds('trigger.condition', def.trigger.condition, { event, state, match }));
  const nextState = await applyStoreState(def.store_state, { event, state, match });
  const extract = await extractIssuanceState(def.issuance_state_extract, { event, state: nextState, match });
  const rendered = await renderQuestion(def, { event, state: nextState, match, extract });
  return { fires, state: nextState, extract, rendered };
}

/** Which choice the first matching resolution rule picks for a later event. */
async function resolve(def: InGameSyntax, trigger: FeedEvent, extract: Record<string, unknown>, later: FeedEvent): Promise<string | null> {
  const issuance = { state: extract, trigger, issued_at: trigger.occurred_at, question_number: 1 };
  for (const [i, rule] of def.resolution.rules.entries()) {
    if (rule.event_type !== later.type) continue;
    const input = { event: later, state: {}, match: matchFor(later), issuance };
    if (!(await conditionHolds(`resolution.rules[${i}].condition`, rule.condition, input))) continue;
    return (await evaluateExpression(`resolution.rules[${i}].correct_choice`, rule.correct_choice, input)) as string;
  }
  return null;
}

describe('contract examples of QuestionDefinitionInput', () => {
  const example = schemas.QuestionDefinitionInput!.example as InGameSyntax & { choices: { identifier: string }[] };

  it('the example compiles and renders on the corner sample', async () => {
    await expect(checkInGameSyntax(example)).resolves.toBeUndefined();
    const corner = football('corner');
    const { fires, state, extract, rendered } = await fire(example, corner);
    expect(fires).toBe(true);
    expect(state).toEqual({ corners: 1 });
    expect(extract).toEqual({ minute: Math.floor(corner.clock_seconds! / 60) + 1, team: 'home' });
    expect(rendered.question_text).toBe(`Corner for Brazil at ${extract.minute}'. Shot within 5 minutes?`);
    expect(rendered.choices).toEqual([
      { identifier: 'yes', label: 'Yes' },
      { identifier: 'no', label: 'No' },
    ]);
    expect((await fire(example, corner, state)).state).toEqual({ corners: 2 });
  });

  it('the example resolves from the shot sample, and its timeout names a choice', async () => {
    const corner = football('corner');
    const { extract } = await fire(example, corner);
    const shot = football('shot');
    expect(shot.clock_seconds! - corner.clock_seconds!).toBeLessThanOrEqual(300);
    expect(await resolve(example, corner, extract, shot)).toBe('yes');
    expect(await resolve(example, corner, extract, { ...shot, team: 'away' })).toBeNull();
    expect(await resolve(example, corner, extract, { ...shot, clock_seconds: corner.clock_seconds! + 301 })).toBeNull();
    expect(example.choices.map((c) => c.identifier)).toContain(example.resolution.timeout!.correct_choice);
  });

  it('the property examples form a definition that compiles and renders on the score_change sample', async () => {
    const def: InGameSyntax = {
      trigger: { event_type: 'score_change', condition: prop('Trigger', 'condition') },
      question_text_template: prop('QuestionDefinitionInput', 'question_text_template'),
      choices: prop('QuestionDefinitionInput', 'choices'),
      issuance_state_extract: prop('QuestionDefinitionInput', 'issuance_state_extract'),
      store_state: prop('QuestionDefinitionInput', 'store_state'),
      resolution: {
        rules: [
          {
            event_type: prop('ResolutionRule', 'event_type'),
            condition: prop('ResolutionRule', 'condition'),
            correct_choice: prop('ResolutionRule', 'correct_choice'),
          },
        ],
        timeout: { after_seconds: prop('ResolutionTimeout', 'after_seconds'), correct_choice: prop('ResolutionTimeout', 'correct_choice') },
      },
    };
    await expect(checkInGameSyntax(def)).resolves.toBeUndefined();
    const goal = football('score_change');
    const { fires, state, extract, rendered } = await fire(def, goal);
    expect(fires).toBe(true);
    expect(state).toEqual({ goals: 1 });
    expect(extract).toEqual({ score_at_issue: { home: 1, away: 0 } });
    expect(rendered.question_text).toBe('Brazil 1-0 Serbia. Who scores next?');
    expect(rendered.choices.map((c) => c.label)).toEqual(['Brazil', 'Serbia', 'No more goals']);
    // The Trigger example's event type is a football type, and its condition holds on football periods.
    expect(sampleEvent('football', prop('Trigger', 'event_type'))).toBeDefined();
    expect(sampleEvent('football', prop('ResolutionRule', 'event_type'))).toBeDefined();
    expect(
      await conditionHolds('trigger.condition', prop('Trigger', 'condition'), { event: football('corner'), state: {}, match: matchFor(football('corner')) }),
    ).toBe(true);
  });

  it('the preview request examples render the preview example text', async () => {
    const inline = schemas.SampleEventInput!.example as Partial<FeedEvent>;
    const event = { ...football(inline.type!), ...inline } as FeedEvent;
    const match = { ...matchFor(event), ...prop('QuestionPreviewRequest', 'match') };
    const state = prop('QuestionPreviewRequest', 'store_state');
    const extract = await extractIssuanceState(prop('QuestionPreviewRequest', 'issuance_state_extract'), { event, state, match });
    const rendered = await renderQuestion(
      { question_text_template: prop('QuestionPreviewRequest', 'question_text_template'), choices: prop('QuestionDefinitionInput', 'choices') },
      { event, state, match, extract },
    );
    expect(rendered.question_text).toBe(prop('QuestionPreview', 'question_text'));
    expect(rendered.choices.slice(0, 2)).toEqual(prop('QuestionPreview', 'choices'));
    expect(extract).toEqual(prop('QuestionPreview', 'extract'));
  });
});

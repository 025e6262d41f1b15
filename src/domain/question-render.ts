/**
 * What happens to a definition when its trigger fires, as one code path for
 * the live engine and the preview endpoint: update the state store, evaluate
 * the issuance extract, render the question text and choice labels.
 */
import { checkExpression, evaluateExpression, evaluateMap, ExpressionError, isTruthy } from './language/expressions.js';
import type { FeedEvent } from './sports/events.js';
import { checkTemplate, renderTemplate, TemplateError } from './language/templates.js';

export interface MatchContext {
  id: string;
  league: string;
  home_team: string;
  away_team: string;
  status: string;
  period: string | null;
  clock_seconds: number | null;
  score: { home: number; away: number };
  [key: string]: unknown;
}

export interface ChoiceTemplate {
  identifier: string;
  label_template: string;
}

export interface RenderedChoice {
  identifier: string;
  label: string;
}

export interface EvalInput {
  event: FeedEvent;
  state: Record<string, unknown>;
  match: MatchContext;
}

/** What `store_state` and `issuance_state_extract` see: the state store, and `match` (and `event` in game). */
type StateInput = { state: Record<string, unknown> };

export type DefinitionError = ExpressionError | TemplateError;
export const isDefinitionError = (err: unknown): err is DefinitionError => err instanceof ExpressionError || err instanceof TemplateError;

const MAX_SNAPSHOT_BYTES = 16 * 1024;

/** Runs `store_state`: each key's expression sees the store before this event; returns the new store. */
export async function applyStoreState<I extends StateInput>(storeState: Record<string, string> | null | undefined, input: I): Promise<Record<string, unknown>> {
  if (!storeState || !Object.keys(storeState).length) return input.state;
  const updates = await evaluateMap('store_state', storeState, { ...input });
  const next = { ...input.state, ...updates };
  if (JSON.stringify(next).length > MAX_SNAPSHOT_BYTES) throw new ExpressionError('store_state', `the state store would exceed ${MAX_SNAPSHOT_BYTES} bytes`);
  return next;
}

/** Runs `issuance_state_extract` (the snapshot stored on the issuance). */
export async function extractIssuanceState<I extends StateInput>(
  extract: Record<string, string> | null | undefined,
  input: I,
): Promise<Record<string, unknown>> {
  const out = await evaluateMap('issuance_state_extract', extract, { ...input });
  if (JSON.stringify(out).length > MAX_SNAPSHOT_BYTES) throw new ExpressionError('issuance_state_extract', `the snapshot exceeds ${MAX_SNAPSHOT_BYTES} bytes`);
  return out;
}

/** Renders the question text and every choice label. */
export async function renderQuestion(
  spec: { question_text_template: string; choices: ChoiceTemplate[] },
  context: Record<string, unknown>,
): Promise<{ question_text: string; choices: RenderedChoice[] }> {
  const question_text = await renderTemplate('question_text_template', spec.question_text_template, context);
  const choices: RenderedChoice[] = [];
  for (const [i, choice] of spec.choices.entries()) {
    choices.push({ identifier: choice.identifier, label: await renderTemplate(`choices[${i}].label_template`, choice.label_template, context) });
  }
  return { question_text, choices };
}

/** Evaluates a condition expression; null or absent means true. */
export async function conditionHolds(field: string, source: string | null | undefined, input: Record<string, unknown>): Promise<boolean> {
  if (source === null || source === undefined || source.trim() === '') return true;
  return isTruthy(await evaluateExpression(field, source, input));
}

export interface InGameSyntax {
  trigger: { event_type: string; condition?: string | null };
  question_text_template: string;
  choices: ChoiceTemplate[];
  issuance_state_extract?: Record<string, string> | null;
  store_state?: Record<string, string> | null;
  resolution: {
    rules: { event_type: string; condition?: string | null; correct_choice: string }[];
    timeout?: { after_seconds: number; correct_choice: string | null } | null;
  };
}

/**
 * Compiles every template and expression of an in-game definition; throws
 * the first error, naming its field. Compiling a definition's many sources
 * is sliced (slices.ts), and a source too costly to compile here goes to the
 * sandbox (expressions.ts), so a check never holds the event loop for long.
 */
export async function checkInGameSyntax(def: InGameSyntax): Promise<void> {
  if (def.trigger.condition) await checkExpression('trigger.condition', def.trigger.condition);
  await checkTemplate('question_text_template', def.question_text_template);
  for (const [i, c] of def.choices.entries()) await checkTemplate(`choices[${i}].label_template`, c.label_template);
  for (const [k, v] of Object.entries(def.issuance_state_extract ?? {})) await checkExpression(`issuance_state_extract.${k}`, v);
  for (const [k, v] of Object.entries(def.store_state ?? {})) await checkExpression(`store_state.${k}`, v);
  for (const [i, r] of def.resolution.rules.entries()) {
    if (r.condition) await checkExpression(`resolution.rules[${i}].condition`, r.condition);
    await checkExpression(`resolution.rules[${i}].correct_choice`, r.correct_choice);
  }
}

/** Compiles every template and expression of a Match question definition (as checkInGameSyntax). */
export async function checkMatchSyntax(def: {
  question_text_template: string;
  choices: ChoiceTemplate[];
  issuance_state_extract?: Record<string, string> | null;
  store_state?: Record<string, string> | null;
  resolution: { correct_choice: string };
}): Promise<void> {
  await checkTemplate('question_text_template', def.question_text_template);
  for (const [i, c] of def.choices.entries()) await checkTemplate(`choices[${i}].label_template`, c.label_template);
  for (const [k, v] of Object.entries(def.issuance_state_extract ?? {})) await checkExpression(`issuance_state_extract.${k}`, v);
  for (const [k, v] of Object.entries(def.store_state ?? {})) await checkExpression(`store_state.${k}`, v);
  await checkExpression('resolution.correct_choice', def.resolution.correct_choice);
}

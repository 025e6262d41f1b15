/**
 * The one expression language of definitions (trigger conditions, state
 * extracts, resolution rules): JSONata, compiled once per source text and
 * evaluated with a step, depth and time budget so a runaway expression fails
 * cleanly instead of stalling a listener.
 */
import jsonata from 'jsonata';
import { findUnsafeRegexLiteral, SafeRegExp } from './safe-regex.js';

export class ExpressionError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'ExpressionError';
  }
}

export interface Budget {
  maxSteps: number;
  maxDepth: number;
  timeoutMs: number;
}

export const DEFAULT_BUDGET: Budget = { maxSteps: 50_000, maxDepth: 200, timeoutMs: 250 };

interface Guard extends Budget {
  steps: number;
  depth: number;
  deadline: number;
}

/** Longest sequence (ranges included) and string an expression may build; far above what event data needs. */
const MAX_SEQUENCE = 100_000;
const MAX_STRING = 100_000;

const GUARD = '__qp_guard';
const cache = new Map<string, jsonata.Expression>();
const CACHE_MAX = 2000;

function guardOf(environment: { lookup(name: string): unknown }): Guard | undefined {
  return environment.lookup(GUARD) as Guard | undefined;
}

function compileRaw(source: string): jsonata.Expression {
  let expr = cache.get(source);
  if (!expr) {
    expr = jsonata(source, { RegexEngine: SafeRegExp as unknown as RegExpConstructor, sequence: MAX_SEQUENCE });
    const unsafe = findUnsafeRegexLiteral(expr.ast());
    if (unsafe) throw new Error(unsafe);
    expr.assign(Symbol.for('jsonata.__evaluate_entry') as unknown as string, (_e: unknown, _input: unknown, env: { lookup(name: string): unknown }) => {
      const g = guardOf(env);
      if (!g) return;
      g.steps += 1;
      g.depth += 1;
      if (g.steps > g.maxSteps) throw new Error(`expression took more than ${g.maxSteps} steps`);
      if (g.depth > g.maxDepth) throw new Error(`expression nested deeper than ${g.maxDepth} levels`);
      if ((g.steps & 255) === 0 && Date.now() > g.deadline) throw new Error(`expression ran longer than ${g.timeoutMs} ms`);
    });
    expr.assign(Symbol.for('jsonata.__evaluate_exit') as unknown as string, (_e: unknown, _input: unknown, env: { lookup(name: string): unknown }, result: unknown) => {
      const g = guardOf(env);
      if (!g) return;
      g.depth -= 1;
      // Strings that double on each step would exhaust memory long before the step budget.
      if (typeof result === 'string' && result.length > MAX_STRING) throw new Error(`expression built a text longer than ${MAX_STRING} characters`);
    });
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(source, expr);
  }
  return expr;
}

/** Compiles (and caches) an expression; throws ExpressionError naming the field on a syntax error. */
export function compileExpression(field: string, source: string): jsonata.Expression {
  try {
    return compileRaw(source);
  } catch (err) {
    const e = err as { message?: string; position?: number; token?: string };
    throw new ExpressionError(field, `does not compile: ${e.message ?? String(err)}${e.position !== undefined ? ` (at character ${e.position})` : ''}`);
  }
}

/** JSON-safe copy of a JSONata result (sequences become arrays, functions and undefined drop out). */
function toJson(value: unknown): unknown {
  if (value === undefined) return undefined;
  return JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === 'function' ? undefined : v)) ?? 'null');
}

/** Evaluates an expression against input; throws ExpressionError naming the field when it fails. */
export async function evaluateExpression(field: string, source: string, input: Record<string, unknown>, budget: Budget = DEFAULT_BUDGET): Promise<unknown> {
  const expr = compileExpression(field, source);
  const guard: Guard = { ...budget, steps: 0, depth: 0, deadline: Date.now() + budget.timeoutMs };
  try {
    return toJson(await expr.evaluate(input, { [GUARD]: guard }));
  } catch (err) {
    if (err instanceof RangeError) throw new ExpressionError(field, 'failed: recursion too deep');
    const e = err as { message?: string; code?: string };
    throw new ExpressionError(field, `failed: ${e.message ?? String(err)}`);
  }
}

/** JSONata truthiness as the trigger and rule conditions use it (empty and null are false). */
export function isTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(isTruthy);
  return Boolean(value);
}

/** Evaluates a map of named expressions; the results keep the map's keys. */
export async function evaluateMap(fieldPrefix: string, expressions: Record<string, string> | null | undefined, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [key, source] of Object.entries(expressions ?? {})) {
    const value = await evaluateExpression(`${fieldPrefix}.${key}`, source, input);
    out[key] = value === undefined ? null : value;
  }
  return out;
}

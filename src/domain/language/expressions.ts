/**
 * The one expression language of definitions (trigger conditions, state
 * extracts, resolution rules): JSONata, compiled once per source text and
 * evaluated within a hard bound, so that no expression stalls a listener,
 * a preview, or anything else the process serves.
 *
 * Two tiers. Every evaluation starts in this thread with small limits (a few
 * thousand steps, 10 ms, values of at most 100,000 characters and nodes,
 * sequences of 1,000, no regular expressions), checked at every step, and
 * with the built-ins whose cost is not linear in their input replaced by
 * ones that are: so one step costs little, and the thread is held ~10 ms at
 * most. What needs more goes to the sandbox (isolation.ts: worker threads,
 * src/runtime/sandbox/), which runs it with the full budget (50,000 steps, 250 ms, 100,000-element
 * sequences) and is terminated when it overruns, so even a step nobody
 * foresaw cannot hold anything but that worker. A definition's ordinary
 * expressions take tens of microseconds here and never reach the sandbox.
 *
 * Compiling is bounded the same way: a source is compiled here only when
 * its cost is known to be small (`compilesHere`: about a millisecond), and
 * a caller compiling or evaluating many yields between slices of them
 * (slices.ts); any other source is compiled and evaluated in the sandbox.
 */
import type jsonata from 'jsonata';
import { lazyRequire } from '../../lazy.js';

// Loaded on the first expression compiled, not at start-up.
const loadJsonata = lazyRequire<typeof jsonata>('jsonata');
import { clip } from '../../errors.js';
import { findUnsafeRegexLiteral, SafeRegExp } from './safe-regex.js';
import { isolate, SandboxError } from './isolation.js';
import { scaledMs } from './time-scale.js';
import { yieldIfBusy } from '../../slices.js';

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

/** The full budget: what an expression may take, in the sandbox. */
export const DEFAULT_BUDGET: Budget = { maxSteps: 50_000, maxDepth: 200, timeoutMs: 250 };

/** The limits of one tier of evaluation. */
export interface Tier extends Budget {
  /** Longest sequence (ranges included). */
  maxSequence: number;
  /** Longest text a step may build. */
  maxString: number;
  /** Largest value a step may build: nodes plus characters, shared parts counted each time they appear. */
  maxSize: number;
  /** Regular expressions run here (their cost cannot be bounded by their subject's length). */
  regex: boolean;
  /** Over a limit, hand the evaluation to the sandbox instead of failing. */
  escalate: boolean;
}

/** This thread: small enough that no step of it holds the thread for long. */
export const IN_PROCESS: Tier = {
  maxSteps: 5_000,
  maxDepth: 200,
  timeoutMs: 10,
  maxSequence: 1_000,
  maxString: 10_000,
  maxSize: 100_000,
  regex: false,
  escalate: true,
};
/** The sandbox: the full budget. */
export const IN_SANDBOX: Tier = { ...DEFAULT_BUDGET, maxSequence: 100_000, maxString: 100_000, maxSize: 1_000_000, regex: true, escalate: false };

/**
 * A limit of the in-process tier was reached: the evaluation moves to the
 * sandbox. `lasting`: the limit is one the same source and input would reach
 * again (steps, sizes, a regular expression), unlike the deadline (a busy
 * machine, a collection).
 */
class Escalate extends Error {
  constructor(
    message: string,
    readonly lasting = true,
  ) {
    super(message);
  }
}

interface Guard {
  tier: Tier;
  steps: number;
  depth: number;
  deadline: number;
  /** Logical sizes of the objects met in this evaluation. */
  sizes: WeakMap<object, number>;
}

const GUARD = '__qp_guard';

/** Stops the evaluation at a limit: in the in-process tier to try again in the sandbox, else for good. */
function overLimit(guard: Guard, message: string, lasting = true): never {
  if (guard.tier.escalate) throw new Escalate(message, lasting);
  throw new Error(message);
}

const guardOf = (environment: { lookup(name: string): unknown }) => environment.lookup(GUARD) as Guard | undefined;

/**
 * The size of a value as the limits count it: 1 per node, plus the length of
 * each text, with shared parts counted as often as they appear (so a value
 * built by doubling references is as large as its JSON). Stops counting past
 * `max`; memoized per evaluation.
 */
function sizeOf(value: unknown, guard: Guard, max: number, depth = 0): number {
  if (typeof value === 'string') return 1 + value.length;
  if (value === null || typeof value !== 'object') return 1;
  // A lambda or built-in: its closure (environment, syntax tree) is not a value it built.
  if ((value as { _jsonata_lambda?: boolean; _jsonata_function?: boolean })._jsonata_lambda || (value as { _jsonata_function?: boolean })._jsonata_function)
    return 1;
  const known = guard.sizes.get(value);
  if (known !== undefined) return known;
  if (depth > 1000) return max + 1;
  let size = 1;
  if (Array.isArray(value)) {
    for (const item of value) {
      size += sizeOf(item, guard, max, depth + 1);
      if (size > max) break;
    }
  } else {
    for (const key of Object.keys(value)) {
      size += key.length + sizeOf((value as Record<string, unknown>)[key], guard, max, depth + 1);
      if (size > max) break;
    }
  }
  guard.sizes.set(value, size);
  return size;
}

/** Canonical text of a value for $distinct: equal values (as JSONata's deep equality sees them) give equal keys. */
function distinctKey(value: unknown, identities: { ids: WeakMap<object, number>; next: number }): string {
  if (value === null) return 'n';
  switch (typeof value) {
    case 'string':
      return `s${JSON.stringify(value)}`;
    case 'number':
      return `d${value === 0 ? 0 : value}`;
    case 'boolean':
      return value ? 't' : 'f';
    case 'undefined':
      return 'u';
    case 'object': {
      if (Array.isArray(value)) return `[${value.map((v) => distinctKey(v, identities)).join(',')}]`;
      const keys = Object.getOwnPropertyNames(value).sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${distinctKey((value as Record<string, unknown>)[k], identities)}`).join(',')}}`;
    }
    default: {
      // Functions are equal only to themselves.
      let id = identities.ids.get(value as object);
      if (id === undefined) identities.ids.set(value as object, (id = identities.next++));
      return `f${id}`;
    }
  }
}

type Focus = { environment: { lookup(name: string): unknown }; createSequence?: () => unknown[] };

/**
 * Built-ins whose cost is not bounded by the size of their input (JSONata's
 * $distinct compares every pair, its $sort copies the rest of a list at each
 * element it merges, recursing as deep as the list is long; $pad, $join and
 * $replace can build a text many times longer than what they were given),
 * replaced by versions that are linear (n log n for the sort) or that check
 * the size of what they would build first.
 */
function boundedBuiltins(expr: jsonata.Expression): void {
  expr.registerFunction(
    'sort',
    // JSONata hands function arguments to built-ins as plain async functions.
    async function (this: Focus, arr: unknown[] | undefined, comparator?: (a: unknown, b: unknown) => Promise<unknown>) {
      if (arr === undefined) return undefined;
      if (arr.length <= 1) return arr;
      let before: (a: unknown, b: unknown) => Promise<boolean>;
      if (comparator === undefined) {
        if (!arr.every((v) => typeof v === 'number') && !arr.every((v) => typeof v === 'string')) throw { code: 'D3070', stack: new Error().stack, index: 1 };
        before = async (a, b) => (a as number) > (b as number);
      } else {
        before = async (a, b) => Boolean(await comparator(a, b));
      }
      // Bottom-up merge sort: stable, n log n comparisons, no recursion. The comparator says
      // whether its first argument goes after its second.
      let run: unknown[] = [...arr];
      for (let width = 1; width < run.length; width *= 2) {
        const next: unknown[] = [];
        for (let start = 0; start < run.length; start += 2 * width) {
          let i = start;
          let j = Math.min(start + width, run.length);
          const leftEnd = j;
          const rightEnd = Math.min(start + 2 * width, run.length);
          while (i < leftEnd && j < rightEnd) next.push((await before(run[i], run[j])) ? run[j++] : run[i++]);
          while (i < leftEnd) next.push(run[i++]);
          while (j < rightEnd) next.push(run[j++]);
        }
        run = next;
      }
      return run;
    },
    '<af?:a>',
  );
  expr.registerFunction(
    'distinct',
    function (this: Focus, arr: unknown) {
      if (!Array.isArray(arr) || arr.length <= 1) return arr;
      const seen = new Set<string>();
      const identities = { ids: new WeakMap<object, number>(), next: 0 };
      const out: unknown[] = [];
      for (const value of arr) {
        const key = distinctKey(value, identities);
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(value);
      }
      if ((arr as { sequence?: boolean }).sequence) (out as unknown as { sequence: boolean }).sequence = true;
      return out;
    },
    '<x:x>',
  );
  expr.registerFunction(
    'pad',
    function (this: Focus, str: string | undefined, width: number, char?: string) {
      if (str === undefined) return undefined;
      const guard = guardOf(this.environment);
      const fill = char === undefined || char.length === 0 ? ' ' : char;
      const target = Math.abs(Math.trunc(width));
      if (guard && target > guard.tier.maxString) overLimit(guard, `expression built a text longer than ${guard.tier.maxString} characters`);
      const padLength = target - Array.from(str).length;
      if (padLength <= 0) return str;
      const fillChars = Array.from(fill);
      let padding = fill.repeat(Math.ceil(padLength / fillChars.length));
      if (fillChars.length > 1) padding = Array.from(padding).slice(0, padLength).join('');
      return width > 0 ? str + padding : padding + str;
    },
    '<s-ns?:s>',
  );
  const builtinJoin = (strs: string[], separator = '') => strs.join(separator);
  expr.registerFunction(
    'join',
    function (this: Focus, strs: string[] | undefined, separator?: string) {
      if (strs === undefined) return undefined;
      const guard = guardOf(this.environment);
      if (guard) {
        let length = (separator?.length ?? 0) * Math.max(0, strs.length - 1);
        for (const s of strs) length += s.length;
        if (length > guard.tier.maxString) overLimit(guard, `expression built a text longer than ${guard.tier.maxString} characters`);
      }
      return builtinJoin(strs, separator);
    },
    '<a<s>s?:s>',
  );
  expr.registerFunction(
    'replace',
    async function (this: Focus, str: string | undefined, pattern: unknown, replacement: unknown, limit?: number) {
      const guard = guardOf(this.environment);
      if (guard && typeof str === 'string' && typeof pattern === 'string' && pattern !== '' && typeof replacement === 'string') {
        // Each `$0` of the replacement inserts the matched text.
        const perMatch = replacement.length * Math.max(1, pattern.length);
        let count = 0;
        for (let at = str.indexOf(pattern); at !== -1 && (limit === undefined || count < limit); at = str.indexOf(pattern, at + pattern.length)) count++;
        if (str.length + count * perMatch > guard.tier.maxString) overLimit(guard, `expression built a text longer than ${guard.tier.maxString} characters`);
      }
      return (await nativeReplace()).call(this, str, pattern, replacement, limit);
    },
    '<s-(sf)(sf)n?:s>',
  );
}

type Native = (this: unknown, ...args: unknown[]) => unknown;
let nativeReplacePromise: Promise<Native> | undefined;
/** JSONata's own $replace, read once from an expression that does not replace it. */
const nativeReplace = (): Promise<Native> =>
  (nativeReplacePromise ??= loadJsonata()('$replace')
    .evaluate({})
    .then((fn) => (fn as { implementation: Native }).implementation));

/** In the in-process tier a regular expression is never run: it may cost more than its subject's length says. */
class EscalatingRegExp {
  constructor(pattern: RegExp | string) {
    const source = typeof pattern === 'string' ? pattern : pattern.source;
    throw new Escalate(`regular expression /${clip(source, 40)}/ runs in the sandbox`);
  }
}

/**
 * Whether an expression can use a regular expression: a regex literal, or
 * `$eval` (which can build one from a text, and whose own errors hide ours).
 * Such an expression runs in the sandbox only.
 */
function usesRegex(ast: unknown): boolean {
  const seen = new Set<unknown>();
  const stack = [ast];
  while (stack.length) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    if (node instanceof RegExp) return true;
    const { type, value } = node as { type?: unknown; value?: unknown };
    if (type === 'regex' || (type === 'variable' && value === 'eval')) return true;
    stack.push(...(Array.isArray(node) ? node : Object.values(node)));
  }
  return false;
}

const sandboxOnly = new WeakSet<jsonata.Expression>();
/** Compiled expressions by what compiling depends on (the sequence limit, regular expressions or not), then by source. */
const caches = new Map<string, Map<string, jsonata.Expression>>();
const CACHE_MAX = 2000;

function compileFor(tier: Tier, source: string): jsonata.Expression {
  const compiledFor = `${tier.maxSequence}|${tier.regex}`;
  let cache = caches.get(compiledFor);
  if (!cache) caches.set(compiledFor, (cache = new Map()));
  let expr = cache.get(source);
  if (expr) return expr;
  expr = loadJsonata()(source, { RegexEngine: (tier.regex ? SafeRegExp : EscalatingRegExp) as unknown as RegExpConstructor, sequence: tier.maxSequence });
  const unsafe = findUnsafeRegexLiteral(expr.ast());
  if (unsafe) throw new Error(unsafe);
  if (!tier.regex && usesRegex(expr.ast())) sandboxOnly.add(expr);
  expr.assign(Symbol.for('jsonata.__evaluate_entry') as unknown as string, (_e: unknown, _input: unknown, env: { lookup(name: string): unknown }) => {
    const g = guardOf(env);
    if (!g) return;
    g.steps += 1;
    g.depth += 1;
    if (g.steps > g.tier.maxSteps) overLimit(g, `expression took more than ${g.tier.maxSteps} steps`);
    if (g.depth > g.tier.maxDepth) throw new Error(`expression nested deeper than ${g.tier.maxDepth} levels`);
    // Every step: a step costs little, so the deadline is never passed by much.
    if (Date.now() > g.deadline) overLimit(g, `expression ran longer than ${g.tier.timeoutMs} ms`, false);
  });
  expr.assign(
    Symbol.for('jsonata.__evaluate_exit') as unknown as string,
    (_e: unknown, _input: unknown, env: { lookup(name: string): unknown }, result: unknown) => {
      const g = guardOf(env);
      if (!g) return;
      g.depth -= 1;
      if (typeof result === 'string') {
        if (result.length > g.tier.maxString) overLimit(g, `expression built a text longer than ${g.tier.maxString} characters`);
      } else if (result !== null && typeof result === 'object' && sizeOf(result, g, g.tier.maxSize) > g.tier.maxSize) {
        overLimit(g, `expression built a value larger than ${g.tier.maxSize} (nodes and characters)`);
      }
    },
  );
  boundedBuiltins(expr);
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(source, expr);
  return expr;
}

/**
 * Whether an expression is compiled in the caller's thread. JSONata's parser
 * is linear in the length of its source but for paths, which it flattens
 * step by step, rescanning every step before (quadratic in the number of
 * steps): a 2,000-character path takes 10 to 40 ms of CPU to compile (a
 * definition has room for 141 of them), where any other shape of that
 * length takes about 1 ms. A path has no more steps than
 * the source has dots, so a source with at most COMPILE_HERE_MAX_DOTS of
 * them (any dot counts: in a string, a number, a regular expression) costs
 * about a millisecond to compile whatever it is. The rest are compiled, and
 * evaluated, only in the sandbox.
 */
export function compilesHere(source: string): boolean {
  let dots = 0;
  for (let at = source.indexOf('.'); at !== -1; at = source.indexOf('.', at + 1)) if (++dots > COMPILE_HERE_MAX_DOTS) return false;
  return true;
}
export const COMPILE_HERE_MAX_DOTS = 100;
/** Deadline of a compile in the sandbox (a 2,000-character path takes up to ~200 ms on a loaded machine). */
const COMPILE_TIMEOUT_MS = 2000;

/** The text of a compile error: JSONata's message and where. */
function compileErrorText(err: unknown): string {
  const e = err as { message?: string; position?: number; token?: string };
  return `does not compile: ${clip(e.message ?? String(err), 200)}${e.position !== undefined ? ` (at character ${e.position})` : ''}`;
}

/** Compiles (and caches) an expression in this thread, for a source that `compilesHere`; throws ExpressionError naming the field on a syntax error. */
function compileHere(field: string, source: string): jsonata.Expression {
  try {
    return compileFor(IN_PROCESS, source);
  } catch (err) {
    throw new ExpressionError(field, compileErrorText(err));
  }
}

/** The sandbox's compile of a source (src/runtime/sandbox/sandbox-worker.ts): throws the compile error's text. */
export function compileIn(tier: Tier, source: string): null {
  try {
    compileFor(tier, source);
    return null;
  } catch (err) {
    throw new Error(compileErrorText(err), { cause: err });
  }
}

/** Sources too costly to compile here that compiled in the sandbox. */
const compiledThere = new Set<string>();

/**
 * Checks that an expression compiles (its syntax, and no unsafe regular
 * expression literal); throws ExpressionError naming the field when it does
 * not. A source that `compilesHere` is compiled (and cached) in this thread,
 * and the thread yields after a slice of such work (slices.ts), so checking
 * a definition's many expressions never holds it for long; any other source
 * is compiled in the sandbox, in the caller's lane.
 */
export async function checkExpression(field: string, source: string): Promise<void> {
  if (compilesHere(source)) {
    compileHere(field, source);
    await yieldIfBusy();
    return;
  }
  if (compiledThere.has(source)) return;
  try {
    await isolate({ kind: 'compile', source, input: null }, COMPILE_TIMEOUT_MS);
  } catch (err) {
    if (err instanceof SandboxError)
      throw new ExpressionError(field, err.message.startsWith('does not compile') ? err.message : `does not compile: ${err.message}`);
    throw err;
  }
  if (compiledThere.size >= COSTLY_MAX) compiledThere.delete(compiledThere.values().next().value!);
  compiledThere.add(source);
}

/** JSON-safe copy of a JSONata result (sequences become arrays, functions and undefined drop out). */
function toJson(value: unknown): unknown {
  if (value === undefined) return undefined;
  return JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === 'function' ? undefined : v)) ?? 'null');
}

/** One evaluation in one tier; an Escalate error means the in-process tier gave up. */
export async function evaluateIn(tier: Tier, source: string, input: unknown): Promise<unknown> {
  const expr = compileFor(tier, source);
  if (sandboxOnly.has(expr)) throw new Escalate('regular expressions run in the sandbox');
  const guard: Guard = { tier, steps: 0, depth: 0, deadline: Date.now() + (tier.escalate ? tier.timeoutMs : scaledMs(tier.timeoutMs)), sizes: new WeakMap() };
  try {
    return toJson(await expr.evaluate(input, { [GUARD]: guard }));
  } catch (err) {
    if (err instanceof Escalate) throw err;
    if (err instanceof RangeError) throw new Error('recursion too deep', { cause: err });
    const e = err as { message?: string; code?: string };
    if (e.code === 'D2014' || e.code === 'D2015') return overLimit(guard, `expression built a sequence longer than ${tier.maxSequence} items`);
    throw new Error(clip(e.message ?? String(err), 300), { cause: err });
  }
}

/** Sources that needed the sandbox once: they go there directly, without spending this thread's tier first. */
const costly = new Set<string>();
const COSTLY_MAX = 500;

/** Evaluates an expression against input; throws ExpressionError naming the field when it fails or exceeds its budget. */
export async function evaluateExpression(field: string, source: string, input: Record<string, unknown>, budget: Budget = DEFAULT_BUDGET): Promise<unknown> {
  await checkExpression(field, source);
  if (compilesHere(source) && !costly.has(source)) {
    try {
      const value = await evaluateIn(IN_PROCESS, source, input);
      // One evaluation holds the thread ~10 ms at most; a caller evaluating many (a map, every definition on an event) is sliced.
      await yieldIfBusy();
      return value;
    } catch (err) {
      if (!(err instanceof Escalate)) throw new ExpressionError(field, `failed: ${(err as Error).message}`);
      if (err.lasting) {
        if (costly.size >= COSTLY_MAX) costly.delete(costly.values().next().value!);
        costly.add(source);
      }
    }
  }
  try {
    // A source compiled only there may need compiling again (in a new worker) before its deadline starts.
    return await isolate({ kind: 'expression', source, input, budget }, budget.timeoutMs + (compilesHere(source) ? 0 : COMPILE_TIMEOUT_MS));
  } catch (err) {
    if (err instanceof SandboxError) throw new ExpressionError(field, `failed: ${err.message}`);
    throw err;
  }
}

/** JSONata truthiness as the trigger and rule conditions use it (empty and null are false). */
export function isTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(isTruthy);
  return Boolean(value);
}

/** Evaluates a map of named expressions; the results keep the map's keys. */
export async function evaluateMap(
  fieldPrefix: string,
  expressions: Record<string, string> | null | undefined,
  input: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [key, source] of Object.entries(expressions ?? {})) {
    const value = await evaluateExpression(`${fieldPrefix}.${key}`, source, input);
    out[key] = value === undefined ? null : value;
  }
  return out;
}

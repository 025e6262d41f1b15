/**
 * The one template language of question texts, choice labels and push
 * messages: Liquid (LiquidJS), locked down: no file system or includes,
 * unknown filters are errors, own properties only, and parse, render and
 * memory limits.
 *
 * Like expressions (expressions.ts), two tiers: a render starts in this
 * thread with small limits (10 ms, 2,000 units of memory: the texts filters
 * work on and the items of ranges, so that no filter, not even one whose
 * cost grows faster than its input, holds the thread for long), and what
 * needs more is rendered in the sandbox (isolation.ts) with the full limits
 * (250 ms, 1,000,000), where an overrun terminates the worker. Both tiers
 * also count steps (template nodes run: 500 here, 10,000 there) and the
 * characters a render writes, what `capture` builds included (20,000 in
 * either: ten times what a rendered text may keep), so a template that
 * doubles a variable stops after a few doublings, here.
 */
import type { Context, Liquid as LiquidEngine, Template } from 'liquidjs';
import { lazyRequire } from '../../lazy.js';

// Loaded on the first template compiled, not at start-up.
const liquidjs = lazyRequire<typeof import('liquidjs')>('liquidjs');
import { clip } from '../../errors.js';
import { isolate, SandboxError } from './isolation.js';
import { languageTimeScale, scaledMs } from './time-scale.js';
import { yieldIfBusy } from '../../slices.js';

export class TemplateError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'TemplateError';
  }
}

export interface TemplateTier {
  renderLimitMs: number;
  memoryLimit: number;
  /** Template nodes a render may run (each node of each block, once per loop iteration). */
  maxSteps: number;
  /** Characters a render may write, what `capture` builds included. */
  maxOutput: number;
}

/** Characters a render may write before the spaces are collapsed: ten times what the result may keep. */
export const MAX_RENDERED = 20_000;
export const TEMPLATES_IN_PROCESS: TemplateTier = { renderLimitMs: 10, memoryLimit: 2_000, maxSteps: 500, maxOutput: MAX_RENDERED };
export const TEMPLATES_IN_SANDBOX: TemplateTier = { renderLimitMs: 250, memoryLimit: 1_000_000, maxSteps: 10_000, maxOutput: MAX_RENDERED };

const STEP_LIMIT = 'step limit exceeded';
const OUTPUT_LIMIT = 'output limit exceeded';

/** What one render has spent, shared by the blocks it renders (keyed by its memory limiter: one per render, shared with contexts it spawns). */
interface Spent {
  steps: number;
  output: number;
}

const text = (value: unknown): string => {
  const v = liquidjs().toValue(value);
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(text).join('');
  return String(v);
};

/** LiquidJS's emitter with a count: every write is charged to the render, whatever block (a capture's too) it is written in. */
class CountingEmitter {
  buffer = '';
  constructor(
    private readonly spent: Spent,
    private readonly tier: TemplateTier,
  ) {}

  write(html: unknown): void {
    const out = text(html);
    this.spent.output += out.length;
    if (this.spent.output > this.tier.maxOutput) throw new Error(OUTPUT_LIMIT);
    this.buffer += out;
  }
}

/**
 * Bounds every render of an engine by steps and output, in the one method
 * every block is rendered through (the template, each tag's body, each loop
 * iteration, each capture): LiquidJS's own limits count time, ranges and
 * what filters build, but not the text a template writes, and `capture`
 * doubling a variable builds a huge text from a few bytes of source.
 */
function boundRenders(liquid: LiquidEngine, tier: TemplateTier): void {
  const renderer = liquid.renderer as unknown as {
    renderTemplates(templates: Template[], ctx: Context, emitter?: unknown): Generator<unknown, string, unknown>;
  };
  const renderTemplates = renderer.renderTemplates.bind(renderer);
  const spentBy = new WeakMap<object, Spent>();
  renderer.renderTemplates = function* (templates, ctx, emitter) {
    let spent = spentBy.get(ctx.memoryLimit);
    if (!spent) spentBy.set(ctx.memoryLimit, (spent = { steps: 0, output: 0 }));
    spent.steps += templates.length;
    if (spent.steps > tier.maxSteps) throw new Error(STEP_LIMIT);
    return yield* renderTemplates(templates, ctx, emitter instanceof CountingEmitter ? emitter : new CountingEmitter(spent, tier));
  };
}

const engines = new Map<TemplateTier, LiquidEngine>();
/** The time scale the engines and parsed templates were made with (time-scale.ts): a new scale makes them anew. */
let enginesScale = languageTimeScale();
function engineFor(tier: TemplateTier): LiquidEngine {
  if (enginesScale !== languageTimeScale()) {
    engines.clear();
    caches.clear();
    enginesScale = languageTimeScale();
  }
  let liquid = engines.get(tier);
  if (!liquid) {
    liquid = new (liquidjs().Liquid)({
      // In-memory template store with nothing in it: include, render and layout find nothing.
      templates: {},
      strictFilters: true,
      strictVariables: false,
      ownPropertyOnly: true,
      parseLimit: 20_000,
      // This thread's limit is never scaled (time-scale.ts): going past it only hands the render to the sandbox.
      renderLimit: tier === TEMPLATES_IN_PROCESS ? tier.renderLimitMs : scaledMs(tier.renderLimitMs),
      memoryLimit: tier.memoryLimit,
      cache: false,
    });
    boundRenders(liquid, tier);
    engines.set(tier, liquid);
  }
  return liquid;
}

const MAX_OUTPUT = 2000;
const caches = new Map<TemplateTier, Map<string, Template[]>>();

function parseFor(tier: TemplateTier, source: string): Template[] {
  let cache = caches.get(tier);
  if (!cache) caches.set(tier, (cache = new Map()));
  let parsed = cache.get(source);
  if (!parsed) {
    parsed = engineFor(tier).parse(source);
    if (cache.size >= 2000) cache.delete(cache.keys().next().value!);
    cache.set(source, parsed);
  }
  return parsed;
}

/** Parses (and caches) a template; throws TemplateError naming the field on a syntax error. */
export function compileTemplate(field: string, source: string): Template[] {
  try {
    return parseFor(TEMPLATES_IN_PROCESS, source);
  } catch (err) {
    throw new TemplateError(field, `does not parse: ${clip((err as Error).message, 200)}`);
  }
}

/** compileTemplate, then a yield when this turn of the event loop has run long (slices.ts): for checks of many templates. */
export async function checkTemplate(field: string, source: string): Promise<void> {
  compileTemplate(field, source);
  await yieldIfBusy();
}

/** A limit of the in-process tier was reached: the render moves to the sandbox (`lasting`: memory or steps, not time). */
class Escalate extends Error {
  constructor(readonly lasting: boolean) {
    super('escalate');
  }
}

type Limit = 'render' | 'memory' | 'steps' | 'output';
const LIMITS: [RegExp, Limit][] = [
  [/render limit exceeded/, 'render'],
  [/memory alloc limit exceeded/, 'memory'],
  [new RegExp(STEP_LIMIT), 'steps'],
  [new RegExp(OUTPUT_LIMIT), 'output'],
];

/** Which limit stopped a render, if one did. */
const limitOf = (err: unknown): Limit | undefined => {
  for (let e = err as { message?: string; originalError?: unknown } | undefined, i = 0; e && i < 4; e = e.originalError as typeof e, i++) {
    for (const [pattern, limit] of LIMITS) if (pattern.test(e.message ?? '')) return limit;
  }
  return undefined;
};

const fmt = (n: number) => n.toLocaleString('en-US');

/** One render in one tier; throws Escalate when the in-process tier's limits are reached, else the failure as text. */
export async function renderIn(tier: TemplateTier, source: string, context: Record<string, unknown>): Promise<string> {
  const parsed = parseFor(tier, source);
  try {
    return await engineFor(tier).render(parsed, context);
  } catch (err) {
    const limit = limitOf(err);
    // Writing more than a result may hold fails in either tier: more time or memory would not help.
    if (limit === 'output') throw new Error(`failed to render: it wrote more than ${fmt(tier.maxOutput)} characters`, { cause: err });
    if (limit && tier === TEMPLATES_IN_PROCESS) throw new Escalate(limit !== 'render');
    if (limit === 'steps') throw new Error(`failed to render: it took more than ${fmt(tier.maxSteps)} steps`, { cause: err });
    throw new Error(`failed to render: ${clip((err as Error).message, 200)}`, { cause: err });
  }
}

/** Sources that needed the sandbox once: they go there directly. */
const costly = new Set<string>();
const COSTLY_MAX = 500;

/** Renders a template; throws TemplateError naming the field when rendering fails or exceeds its limits. */
export async function renderTemplate(field: string, source: string, context: Record<string, unknown>): Promise<string> {
  compileTemplate(field, source);
  let out: string | undefined;
  if (!costly.has(source)) {
    try {
      out = await renderIn(TEMPLATES_IN_PROCESS, source, context);
    } catch (err) {
      if (!(err instanceof Escalate)) throw new TemplateError(field, (err as Error).message);
      if (err.lasting) {
        if (costly.size >= COSTLY_MAX) costly.delete(costly.values().next().value!);
        costly.add(source);
      }
    }
  }
  if (out === undefined) {
    try {
      out = (await isolate({ kind: 'template', source, input: context }, TEMPLATES_IN_SANDBOX.renderLimitMs)) as string;
    } catch (err) {
      if (err instanceof SandboxError)
        throw new TemplateError(field, err.message.startsWith('failed to render') ? err.message : `failed to render: ${err.message}`);
      throw err;
    }
  }
  out = out.replace(/\s+/g, ' ').trim();
  if (!out) throw new TemplateError(field, 'rendered to an empty text');
  if (out.length > MAX_OUTPUT) throw new TemplateError(field, `rendered to more than ${MAX_OUTPUT} characters`);
  await yieldIfBusy();
  return out;
}

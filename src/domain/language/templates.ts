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
 * needs more is rendered in the sandbox (sandbox.ts) with the full limits
 * (250 ms, 1,000,000), where an overrun terminates the worker.
 */
import type { Liquid as LiquidEngine, Template } from 'liquidjs';
import { lazyRequire } from '../../lazy.js';

// Loaded on the first template compiled, not at start-up.
const liquidjs = lazyRequire<typeof import('liquidjs')>('liquidjs');
import { clip } from '../../errors.js';
import { isolate, SandboxError } from './sandbox.js';

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
}

export const TEMPLATES_IN_PROCESS: TemplateTier = { renderLimitMs: 10, memoryLimit: 2_000 };
export const TEMPLATES_IN_SANDBOX: TemplateTier = { renderLimitMs: 250, memoryLimit: 1_000_000 };

const engines = new Map<TemplateTier, LiquidEngine>();
function engineFor(tier: TemplateTier): LiquidEngine {
  let liquid = engines.get(tier);
  if (!liquid) {
    liquid = new (liquidjs().Liquid)({
      // In-memory template store with nothing in it: include, render and layout find nothing.
      templates: {},
      strictFilters: true,
      strictVariables: false,
      ownPropertyOnly: true,
      parseLimit: 20_000,
      renderLimit: tier.renderLimitMs,
      memoryLimit: tier.memoryLimit,
      cache: false,
    });
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

/** A limit of the in-process tier was reached: the render moves to the sandbox (`lasting`: memory, not time). */
class Escalate extends Error {
  constructor(readonly lasting: boolean) {
    super('escalate');
  }
}

/** Which of LiquidJS's limits stopped a render, if one did. */
const limitOf = (err: unknown): 'render' | 'memory' | undefined => {
  for (let e = err as { message?: string; originalError?: unknown } | undefined, i = 0; e && i < 4; e = e.originalError as typeof e, i++) {
    const m = /(render|memory alloc) limit exceeded/.exec(e.message ?? '');
    if (m) return m[1] === 'render' ? 'render' : 'memory';
  }
  return undefined;
};

/** One render in one tier; throws Escalate when the in-process tier's limits are reached, else the failure as text. */
export async function renderIn(tier: TemplateTier, source: string, context: Record<string, unknown>): Promise<string> {
  const parsed = parseFor(tier, source);
  try {
    return await engineFor(tier).render(parsed, context);
  } catch (err) {
    const limit = tier === TEMPLATES_IN_PROCESS ? limitOf(err) : undefined;
    if (limit) throw new Escalate(limit === 'memory');
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
  return out;
}

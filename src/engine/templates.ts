/**
 * The one template language of question texts, choice labels and push
 * messages: Liquid (LiquidJS), locked down: no file system or includes,
 * unknown filters are errors, own properties only, and parse, render and
 * memory limits.
 */
import { Liquid, type Template } from 'liquidjs';

export class TemplateError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'TemplateError';
  }
}

const liquid = new Liquid({
  // In-memory template store with nothing in it: include, render and layout find nothing.
  templates: {},
  strictFilters: true,
  strictVariables: false,
  ownPropertyOnly: true,
  parseLimit: 20_000,
  renderLimit: 200,
  memoryLimit: 1_000_000,
  cache: false,
});

const MAX_OUTPUT = 2000;
const cache = new Map<string, Template[]>();

/** Parses (and caches) a template; throws TemplateError naming the field on a syntax error. */
export function compileTemplate(field: string, source: string): Template[] {
  let parsed = cache.get(source);
  if (!parsed) {
    try {
      parsed = liquid.parse(source);
    } catch (err) {
      throw new TemplateError(field, `does not parse: ${(err as Error).message}`);
    }
    if (cache.size >= 2000) cache.delete(cache.keys().next().value!);
    cache.set(source, parsed);
  }
  return parsed;
}

/** Renders a template; throws TemplateError naming the field when rendering fails. */
export async function renderTemplate(field: string, source: string, context: Record<string, unknown>): Promise<string> {
  const parsed = compileTemplate(field, source);
  let out: string;
  try {
    out = await liquid.render(parsed, context);
  } catch (err) {
    throw new TemplateError(field, `failed to render: ${(err as Error).message}`);
  }
  out = out.replace(/\s+/g, ' ').trim();
  if (!out) throw new TemplateError(field, 'rendered to an empty text');
  if (out.length > MAX_OUTPUT) throw new TemplateError(field, `rendered to more than ${MAX_OUTPUT} characters`);
  return out;
}

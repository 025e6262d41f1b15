/**
 * The contract at run time: the generated JSON document and an operation
 * matcher compiled once at start (openapi-backend's own router filters every
 * operation and compiles a regular expression per operation on each request).
 */
import fs from 'node:fs';
import path from 'node:path';
import { paths } from '../paths.js';

const generatedDir = paths.generated;

export interface ContractOperation {
  operationId: string;
  method: string;
  path: string;
  summary?: string;
  requestBody?: { content: Record<string, { schema?: Record<string, unknown> }>; required?: boolean };
  [key: string]: unknown;
}

let cachedDocument: Record<string, unknown> | undefined;
let cachedText: string | undefined;

/** The contract document (parsed once per process). */
export function contractDocument(): Record<string, unknown> {
  if (!cachedDocument) {
    cachedText = fs.readFileSync(path.join(generatedDir, 'openapi.json'), 'utf8');
    const { ['x-generated']: _banner, ...doc } = JSON.parse(cachedText) as Record<string, unknown>;
    cachedDocument = doc;
    cachedText = JSON.stringify(doc);
  }
  return cachedDocument;
}

type Json = Record<string, unknown>;
const METHODS = new Set(['get', 'put', 'post', 'patch', 'delete', 'head', 'options', 'trace']);

/**
 * The part of the contract that requests are routed, parsed, authorized and validated by: a new document (the
 * contract's own objects are not changed) with every operation but without its responses, descriptions and
 * examples, and the components those parts refer to, transitively (no response-only schema, no examples). What
 * openapi-backend is given: its start deep-copies and dereferences the document it gets, and the responses and
 * examples were most of the contract (measured: a copy and a dereference of the whole contract, ~20 ms of a start).
 * Schemas themselves are kept whole (a property named `description` is a field, not prose).
 */
export function requestContract(document: Json): Json {
  const strip = (o: Json | undefined, keys: string[]) => (o ? Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k))) : o);
  const paths: Json = {};
  for (const [route, item] of Object.entries(document.paths as Record<string, Json>)) {
    const kept: Json = {};
    for (const [key, value] of Object.entries(item)) {
      if (key === 'parameters') kept[key] = (value as Json[]).map((p) => strip(p, ['description', 'example', 'examples']));
      else if (!METHODS.has(key)) continue;
      else {
        const op = strip(value as Json, ['responses', 'description', 'tags', 'externalDocs'])!;
        if (op.parameters) op.parameters = (op.parameters as Json[]).map((p) => strip(p, ['description', 'example', 'examples']));
        const body = op.requestBody as Json | undefined;
        if (body?.content) {
          op.requestBody = {
            ...strip(body, ['description']),
            content: Object.fromEntries(
              Object.entries(body.content as Record<string, Json>).map(([type, media]) => [type, strip(media, ['example', 'examples'])]),
            ),
          };
        }
        kept[key] = op;
      }
    }
    paths[route] = kept;
  }
  // The components the kept parts refer to, and those they refer to in turn.
  const components = (document.components ?? {}) as Record<string, Json>;
  const used: Record<string, Json> = {};
  const pending: unknown[] = [paths];
  while (pending.length) {
    const node = pending.pop();
    if (Array.isArray(node)) pending.push(...node);
    else if (node && typeof node === 'object') {
      const ref = (node as Json).$ref;
      if (typeof ref === 'string') {
        const m = /^#\/components\/([^/]+)\/([^/]+)$/.exec(ref);
        if (!m) throw new Error(`the contract refers to ${ref}: only #/components/<kind>/<name> references are supported`);
        const [, kind, name] = m as unknown as [string, string, string];
        if (!used[kind]?.[name]) {
          const target = components[kind]?.[name];
          if (target === undefined) throw new Error(`the contract refers to ${ref}, which it does not define`);
          (used[kind] ??= {})[name] = target;
          pending.push(target);
        }
      }
      for (const value of Object.values(node)) if (value && typeof value === 'object') pending.push(value);
    }
  }
  if (components.securitySchemes) used.securitySchemes = components.securitySchemes;
  return {
    ...strip(document, ['paths', 'components', 'tags', 'info', 'externalDocs']),
    info: { title: 'request contract', version: '0' },
    paths,
    components: used,
  };
}

/** The contract as the JSON text served at /openapi.json. */
export function contractJson(): string {
  contractDocument();
  return cachedText!;
}

/** Operations whose summary starts with `[Admin]` need an admin key: a player's key gets 403. */
export const isAdminOperation = (op: { summary?: string }) => Boolean(op.summary?.startsWith('[Admin]'));

/** `params`: the path parameters as they appear in the path (still percent-encoded). */
export type MatchResult<T> =
  { kind: 'ok'; operation: T; params: Record<string, string> } | { kind: 'not-found' } | { kind: 'method-not-allowed'; allowed: string[] };

interface Template<T> {
  regex: RegExp;
  names: string[];
  literalLength: number;
  byMethod: Map<string, T>;
}

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** Matches method + path to an operation with a table built once. */
export class OperationMatcher<T extends { method: string; path: string }> {
  private readonly exact = new Map<string, Map<string, T>>();
  private readonly templates: Template<T>[] = [];

  constructor(operations: T[]) {
    const templatesByPath = new Map<string, Template<T>>();
    for (const op of operations) {
      const method = op.method.toLowerCase();
      if (!op.path.includes('{')) {
        const byMethod = this.exact.get(op.path) ?? new Map<string, T>();
        byMethod.set(method, op);
        this.exact.set(op.path, byMethod);
        continue;
      }
      let tpl = templatesByPath.get(op.path);
      if (!tpl) {
        const pattern = op.path
          .split(/\{[^}]+\}/)
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('([^/]+)');
        const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
        tpl = { regex: new RegExp(`^${pattern}$`), names, literalLength: op.path.replace(/\{[^}]+\}/g, '').length, byMethod: new Map() };
        templatesByPath.set(op.path, tpl);
        this.templates.push(tpl);
      }
      tpl.byMethod.set(method, op);
    }
    // Most specific first, as openapi-backend orders them.
    this.templates.sort((a, b) => b.literalLength - a.literalLength);
  }

  match(method: string, rawPath: string): MatchResult<T> {
    const m = method.toLowerCase();
    const p = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
    const allowed = new Set<string>();
    const exact = this.exact.get(p);
    if (exact) {
      const op = exact.get(m);
      if (op) return { kind: 'ok', operation: op, params: NO_PARAMS };
      for (const k of exact.keys()) allowed.add(k);
    }
    for (const tpl of this.templates) {
      const found = tpl.regex.exec(p);
      if (!found) continue;
      const op = tpl.byMethod.get(m);
      if (op) return { kind: 'ok', operation: op, params: Object.fromEntries(tpl.names.map((name, i) => [name, found[i + 1]!])) };
      for (const k of tpl.byMethod.keys()) allowed.add(k);
    }
    return allowed.size ? { kind: 'method-not-allowed', allowed: [...allowed].map((x) => x.toUpperCase()) } : { kind: 'not-found' };
  }
}

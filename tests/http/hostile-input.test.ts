/**
 * Every operation of the contract, fed hostile input: malformed and unknown
 * path parameters, query values of the wrong kind, bodies of the wrong shape
 * and type, overlong and deeply nested values, with and without a key. Not
 * one answer may be a 5xx, and every answer must be one the contract declares
 * for the operation (the harness validates each response against it).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

type Schema = {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  format?: string;
  enum?: unknown[];
  nullable?: boolean;
  pattern?: string;
  example?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
};
type Parameter = { $ref?: string; name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema?: Schema; example?: unknown };
type Operation = { operationId: string; parameters?: Parameter[]; requestBody?: { content: Record<string, { schema?: Schema }> } };

const contract = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../generated/openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, Operation | Parameter[]>>;
  components: { schemas: Record<string, Schema>; parameters: Record<string, Parameter> };
};

const resolve = (schema: Schema | undefined): Schema | undefined => {
  let s = schema;
  for (let i = 0; s?.$ref && i < 10; i++) s = contract.components.schemas[s.$ref.split('/').pop()!];
  if (s?.allOf) {
    const parts = s.allOf.map(resolve);
    return { type: 'object', properties: Object.assign({}, ...parts.map((p) => p?.properties ?? {})) };
  }
  if (s?.oneOf || s?.anyOf) return resolve((s.oneOf ?? s.anyOf)![0]);
  return s;
};

const parameter = (p: Parameter): Parameter => (p.$ref ? contract.components.parameters[p.$ref.split('/').pop()!]! : p);

/**
 * A value at the edge of what the schema admits: the longest strings (of
 * two-byte characters), the largest (or smallest) numbers, the longest
 * arrays, every optional property. Where the schema sets no bound, one far
 * past what a database column of the obvious type holds (a 32-bit integer,
 * an indexed text), which the service must refuse with a 4xx, not a 500.
 * `odd`: values that some validators take and PostgreSQL refuses (a uuid in
 * URN form, the year 0000, an instant in the year 10000 once in UTC).
 */
function edge(schema: Schema | undefined, mode: 'max' | 'min' | 'odd', depth = 0): unknown {
  const s = resolve(schema);
  if (!s || depth > 6) return null;
  if (mode === 'min' && s.nullable && depth > 0) return null;
  if (s.enum) return mode === 'max' ? s.enum[s.enum.length - 1] : s.enum[0];
  switch (s.type) {
    case 'string': {
      if (s.format === 'uuid') return mode === 'odd' ? URN_UUID : randomUUID();
      if (s.format === 'date-time') return mode === 'max' ? '9999-12-31T23:59:59.999Z' : mode === 'min' ? '0001-01-01T00:00:00Z' : '9999-12-31T23:59:59-05:00';
      if (s.format === 'date') return mode === 'max' ? '9999-12-31' : mode === 'min' ? '0001-01-01' : '0000-01-01';
      if (s.format === 'email') return `${'a'.repeat(Math.max(1, Math.min(60, (s.maxLength ?? 254) - 12)))}@example.com`;
      if (s.format === 'uri') return `https://example.com/${'a'.repeat(mode === 'max' ? 1000 : 0)}`;
      if (s.pattern) return s.example ?? 'x';
      const length = mode === 'max' ? (s.maxLength ?? 10_000) : (s.minLength ?? 0);
      return 'ü'.repeat(length);
    }
    case 'integer':
      return mode === 'max' ? (s.maximum ?? 2 ** 33) : (s.minimum ?? -(2 ** 33));
    case 'number':
      return mode === 'max' ? (s.maximum ?? 1e300) : (s.minimum ?? -1e300);
    case 'boolean':
      return mode === 'max';
    case 'array': {
      const n = mode === 'max' ? Math.min(s.maxItems ?? 50, 200) : (s.minItems ?? 0);
      return Array.from({ length: n }, () => edge(s.items, mode, depth + 1));
    }
    default: {
      if (s.properties) return Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, edge(v, mode, depth + 1)]));
      if (s.additionalProperties && typeof s.additionalProperties === 'object') return { key: edge(s.additionalProperties, mode, depth + 1) };
      return {};
    }
  }
}

/** Required query parameters with a workable value (their example, else a value at the edge). */
const requiredQuery = (params: Parameter[]) =>
  Object.fromEntries(
    params.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, String(p.example ?? p.schema?.example ?? edge(p.schema, 'min'))]),
  );

/** A value of the wrong JSON type for the schema. */
function wrongType(schema: Schema | undefined): unknown {
  switch (resolve(schema)?.type) {
    case 'string':
      return 12345;
    case 'integer':
    case 'number':
      return 'not a number';
    case 'boolean':
      return 'yes';
    case 'array':
      return { not: 'an array' };
    case 'object':
      return ['not', 'an', 'object'];
    default:
      return { unexpected: [null] };
  }
}

/** Every property of the body with a value of the wrong type. */
function wrongTypes(schema: Schema | undefined): Record<string, unknown> {
  const props = resolve(schema)?.properties ?? {};
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, wrongType(v)]));
}

/** Every string property overlong, every number huge, every array long. */
function extremes(schema: Schema | undefined): Record<string, unknown> {
  const props = resolve(schema)?.properties ?? {};
  return Object.fromEntries(
    Object.entries(props).map(([k, v]) => {
      const t = resolve(v)?.type;
      return [
        k,
        t === 'string'
          ? 'x'.repeat(20_000)
          : t === 'integer' || t === 'number'
            ? 1e308
            : t === 'array'
              ? Array.from({ length: 2000 }, () => 'x')
              : t === 'boolean'
                ? true
                : { deep: 'x'.repeat(1000) },
      ];
    }),
  );
}

const deep = (levels: number): unknown => (levels ? { a: deep(levels - 1) } : 'bottom');

// A uuid in URN form is a uuid to some validators but not to PostgreSQL.
const URN_UUID = `urn:uuid:${randomUUID()}`;
const PATH_VALUES = ['not-a-uuid', randomUUID(), URN_UUID, 'x'.repeat(3000), '%F0%9F%92%A5', '..%2F..%2Fetc', '00000000-0000-0000-0000-000000000000'];
const QUERY_VALUES = [
  'zzz',
  '-1',
  '2147483648',
  '99999999999999999999999',
  '',
  URN_UUID,
  'x'.repeat(5000),
  '2026-13-45T99:99:99Z',
  '0000-06-01T00:00:00Z',
  '9999-12-31T23:59:59-05:00',
];

const operations = Object.entries(contract.paths)
  .filter(([p]) => p.startsWith('/api/') || p.startsWith('/admin/'))
  .flatMap(([template, item]) => {
    const shared = (item.parameters as Parameter[] | undefined) ?? [];
    return Object.entries(item)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, op]) => ({
        method: method.toUpperCase(),
        template,
        op: op as Operation,
        params: [...shared, ...((op as Operation).parameters ?? [])].map(parameter),
      }));
  })
  // Logout revokes the key the rest of the run uses: last.
  .sort((a, b) => Number(a.op.operationId === 'logoutUser') - Number(b.op.operationId === 'logoutUser'));

async function hammer(app: TestApp, token: string, { method, template, op, params }: (typeof operations)[number]): Promise<string[]> {
  const problems: string[] = [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const fill = (value: string) => template.replace(/\{([^}]+)\}/g, () => (value.includes('%') ? value : encodeURIComponent(value)));
  const validPath = fill(randomUUID());
  const content = op.requestBody ? Object.keys(op.requestBody.content)[0] : undefined;
  const schema = content ? op.requestBody!.content[content]!.schema : undefined;

  const attempts: { what: string; path: string; opts: Parameters<TestApp['request']>[2] }[] = [];
  attempts.push({ what: 'no key', path: validPath, opts: {} });
  if (pathParams.length) for (const v of PATH_VALUES) attempts.push({ what: `path ${v.slice(0, 20)}`, path: fill(v), opts: { token } });
  for (const q of queryParams)
    for (const v of QUERY_VALUES) attempts.push({ what: `query ${q.name}=${v.slice(0, 20)}`, path: validPath, opts: { token, query: { [q.name]: v } } });
  attempts.push({ what: 'unknown query parameter', path: validPath, opts: { token, query: { bogus: '1' } } });
  if (content === 'application/json' || (!content && method !== 'GET' && method !== 'DELETE')) {
    for (const [what, body] of [
      ['body null', null],
      ['body array', []],
      ['body string', 'text'],
      ['body {}', {}],
      ['body wrong types', wrongTypes(schema)],
      ['body extremes', extremes(schema)],
      ['body deep', deep(500)],
    ] as const) {
      attempts.push({ what, path: validPath, opts: { token, body } });
    }
    attempts.push({ what: 'body not JSON', path: validPath, opts: { token, raw: { body: '{"a":', contentType: 'application/json' } } });
    // Schema-shaped bodies at the edges, with the required query filled in, so they reach the handlers.
    for (const mode of ['max', 'min', 'odd'] as const)
      attempts.push({ what: `body at the ${mode} edge`, path: validPath, opts: { token, query: requiredQuery(params), body: edge(schema, mode) } });
  }
  if (!content) {
    for (const mode of ['max', 'min', 'odd'] as const) {
      // Strings capped at 200 characters and lists at 10: all of them at their maximum together
      // would pass Node's 16 KiB limit on the request head, which answers 431 before the service
      // sees the request.
      const capped = (v: unknown): unknown => (typeof v === 'string' ? v.slice(0, 200) : Array.isArray(v) ? v.slice(0, 10).map(capped) : v);
      const query = {
        ...requiredQuery(params),
        ...Object.fromEntries(queryParams.filter((q) => !q.required).map((q) => [q.name, capped(edge(q.schema, mode)) as string])),
      };
      attempts.push({ what: `query at the ${mode} edge`, path: validPath, opts: { token, query } });
    }
  }
  if (content === 'multipart/form-data') {
    const empty = new FormData();
    const junk = new FormData();
    for (const [k, v] of Object.entries(wrongTypes(schema))) junk.set(k, JSON.stringify(v));
    junk.set('file', new Blob([Buffer.from('\u0000\u0001 not what you think')]), 'x.bin');
    junk.set('logo', new Blob([Buffer.alloc(10, 0xff)]), '../../etc/passwd');
    attempts.push({ what: 'form empty', path: validPath, opts: { token, form: empty } });
    attempts.push({ what: 'form junk', path: validPath, opts: { token, form: junk } });
    attempts.push({ what: 'form as JSON', path: validPath, opts: { token, body: wrongTypes(schema) } });
  }

  for (const a of attempts) {
    try {
      const res = await app.request(method, a.path, a.opts);
      if (res.status >= 500) problems.push(`${op.operationId} ${a.what}: ${res.status} ${res.text.slice(0, 200)}`);
    } catch (err) {
      problems.push(`${op.operationId} ${a.what}: ${(err as Error).message.slice(0, 300)}`);
    }
  }
  return problems;
}

describe('hostile input on every operation', () => {
  const { app, admin } = useTestApp();

  it('never answers 5xx and always answers as the contract declares', async () => {
    expect(operations.length).toBeGreaterThanOrEqual(82);
    const problems: string[] = [];
    for (const operation of operations) problems.push(...(await hammer(app, admin.token, operation)));
    expect(problems).toEqual([]);
  });
});

/**
 * src/http/request-parse.ts replaces openapi-backend's request parse with a
 * cheaper one that must give the same result: compared here with the
 * library's own, on every operation of the contract, for the shapes of
 * request api.ts hands it (express's query object, the validator's coerced
 * copy, bodies of every kind, cookies) and for shapes it leaves to the
 * library.
 */
import { inspect, isDeepStrictEqual } from 'node:util';
import { OpenAPIBackend, type OpenAPIRouter, type Request as ApiRequest } from 'openapi-backend';
import { beforeAll, describe, expect, it } from 'vitest';
import { contractDocument } from '../../src/http/contract.js';
import { installRequestParse } from '../../src/http/request-parse.js';

interface Operation {
  operationId: string;
  path: string;
  method: string;
  parameters?: { name: string; in: string; schema?: { type?: string } }[];
}

let library: OpenAPIRouter;
let fast: OpenAPIRouter;
let operations: Operation[];

beforeAll(async () => {
  const routerOf = async () => {
    const backend = new OpenAPIBackend({ definition: structuredClone(contractDocument()) as never, quick: true, validate: false });
    await backend.init();
    return backend.router;
  };
  library = await routerOf();
  fast = await routerOf();
  installRequestParse(fast, () => false);
  operations = library.getOperations() as unknown as Operation[];
});

/** A null-prototype object, as express's simple query parser (node:querystring) makes. */
const nullProto = (entries: [string, unknown][]) => Object.assign(Object.create(null) as Record<string, unknown>, Object.fromEntries(entries));

/** The operation's path with its parameters filled (one of them with characters that are encoded). */
const concretePath = (op: Operation, i: number) =>
  op.path.replace(/\{[^}]+\}/g, (_, k: number) => (i % 2 ? `a%2Fb%20c-${k}` : `00000000-0000-4000-8000-00000000000${k % 10}`));

function queries(op: Operation): Record<string, unknown>[] {
  const declared = (op.parameters ?? []).filter((p) => p.in === 'query');
  const string = nullProto(declared.map((p) => [p.name, p.schema?.type === 'array' ? 'x,y%2Cz' : '12']));
  const arrays = nullProto(declared.map((p) => [p.name, ['1', '2']]));
  const single = nullProto(declared.map((p) => [p.name, ['only']]));
  const coerced = Object.fromEntries(declared.map((p, i) => [p.name, [5, true, null, 'x', [1, 2]][i % 5]]));
  const empty = nullProto(declared.map((p) => [p.name, '']));
  return [
    nullProto([]),
    string,
    arrays,
    single,
    coerced,
    empty,
    nullProto([
      ['unknown', 'v'],
      ['__proto__', 'p'],
      ['constructor', ['a', 'b']],
    ]),
    // Shapes left to the library: nested objects, a query string.
    { nested: { a: '1' } },
    { withObject: [{ a: 1 }] },
  ];
}

const bodies: unknown[] = [undefined, { a: 1, b: [1, 2] }, '{"a":1}', '"text"', '123', 'not json', '', null, 0, Buffer.from('{"b":2}')];

const headerSets: Record<string, string | string[]>[] = [
  { host: 'x' },
  { host: 'x', cookie: 'qp_admin_session=abc; other=1', authorization: 'Bearer k' },
  { 'content-type': 'application/json', cookie: 'a=1', 'x-many': ['1', '2'] },
];

function same(op: Operation, req: ApiRequest, withOperation: boolean): void {
  // Each side parses its own copy: the parse must not depend on (or leave) changes to its input.
  const copy = (r: ApiRequest): ApiRequest => ({ ...r, query: structuredCopy(r.query) as ApiRequest['query'], headers: { ...r.headers } });
  const a = library.parseRequest(copy(req), withOperation ? (op as never) : undefined);
  const b = fast.parseRequest(copy(req), withOperation ? (op as never) : undefined);
  // node's strict deep equality (prototypes included); vitest's would compare a query's own `constructor` key as a type.
  const what = `${op.operationId} ${withOperation ? 'with' : 'without'} the operation: ${JSON.stringify(req)}`;
  expect(isDeepStrictEqual(b, a), `${what}\nlibrary: ${inspect(a)}\nfast: ${inspect(b)}`).toBe(true);
  expect(Object.keys(b.query), what).toEqual(Object.keys(a.query));
  expect(Object.keys(b), what).toEqual(Object.keys(a));
}

/** A copy that keeps null prototypes and `__proto__` own keys (structuredClone does not). */
function structuredCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(structuredCopy);
  if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
    const out = Object.create(Object.getPrototypeOf(value) as object | null) as Record<string, unknown>;
    for (const k of Object.keys(value))
      Object.defineProperty(out, k, { value: structuredCopy((value as Record<string, unknown>)[k]), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}

describe("the request parse gives the library's result", () => {
  it('for every operation, with and without the operation, for every query, body and header shape', () => {
    let compared = 0;
    operations.forEach((op, i) => {
      const requests = [
        ...queries(op).flatMap((query) => headerSets.map((headers) => ({ query, headers, body: undefined }))),
        ...bodies.flatMap((body) => headerSets.map((headers) => ({ query: nullProto([['q', 'v']]), headers, body }))),
      ];
      for (const { query, headers, body } of requests) {
        const req = { method: op.method.toUpperCase(), path: concretePath(op, i), query, headers, body } as ApiRequest;
        same(op, req, true);
        same(op, req, false);
        compared += 2;
      }
    });
    expect(operations.length).toBeGreaterThan(80);
    expect(compared).toBeGreaterThan(9_000);
  });

  it('turns the declared query parameters of each style as the library does', () => {
    for (const op of operations) {
      const declared = (op.parameters ?? []).filter((p) => p.in === 'query');
      for (const p of declared) {
        for (const value of ['a,b', 'a%2Cb', 'a b', 'a|b', '{"x":1}', '{bad', ['a,b'], ['a', 'b']]) {
          same(op, { method: 'GET', path: concretePath(op, 0), query: nullProto([[p.name, value]]), headers: {} } as ApiRequest, true);
        }
      }
    }
  });

  it('and for the parameter styles the contract does not use yet (non-exploded, pipe and space delimited, JSON content)', () => {
    const op = {
      operationId: 'styles',
      path: '/api/styles/{id}',
      method: 'get',
      parameters: [
        { name: 'form', in: 'query', explode: false, schema: { type: 'array' } },
        { name: 'pipe', in: 'query', style: 'pipeDelimited', explode: false },
        { name: 'space', in: 'query', style: 'spaceDelimited', explode: false },
        { name: 'json', in: 'query', content: { 'application/json': { schema: { type: 'object' } } } },
        // The first declaration of a name is the one that counts.
        { name: 'form', in: 'query', content: { 'application/json': {} } },
        { name: 'id', in: 'path' },
      ],
    } as Operation;
    for (const value of ['a,b', 'a%2Cb', 'a b', 'a%20b', 'a|b', 'a%7Cb', '{"x":1}', '{bad', '', ['a,b'], ['a', 'b'], [5], 5, true, null]) {
      for (const name of ['form', 'pipe', 'space', 'json', 'other']) {
        same(op, { method: 'GET', path: '/api/styles/7', query: nullProto([[name, value]]), headers: {} } as ApiRequest, true);
      }
    }
  });

  it('keeps a path template compiled once, whatever the requests', () => {
    const op = operations.find((o) => o.path.includes('{'))!;
    const first = fast.parseRequest({ method: 'GET', path: concretePath(op, 0), headers: {}, query: {} } as ApiRequest, op as never);
    const second = fast.parseRequest({ method: 'GET', path: concretePath(op, 1), headers: {}, query: {} } as ApiRequest, op as never);
    expect(first.params).not.toEqual(second.params);
    expect(second.params).toEqual(library.parseRequest({ method: 'GET', path: concretePath(op, 1), headers: {}, query: {} } as ApiRequest, op as never).params);
  });
});

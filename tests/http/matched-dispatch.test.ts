/**
 * src/http/matched-dispatch.ts replaces openapi-backend's handleRequest for
 * the operations the express layer matched: the same requests, on every
 * operation of the contract, go through both, and every outcome must be the
 * same: what the operation's handler received (parameters, coerced query,
 * body, files, caller), or the error it ended with (401, 403, 422 with its
 * issues, the security check's own failure), and how often the body was
 * read.
 */
import type { Request as ExpressRequest } from 'express';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApi, type Api, type DispatchContext } from '../../src/http/api.js';
import type { ContractOperation } from '../../src/http/contract.js';
import type { Handlers } from '../../src/http/handler-types.js';
import type { Services } from '../../src/services.js';

const USER = { user: { id: 'u1', isAdmin: false } };
const ADMIN = { user: { id: 'a1', isAdmin: true } };

/** Keys: `user` and `admin` are valid, `down` fails the check (the database is out of reach), anything else is unknown. */
const services = {
  auth: {
    authenticate: async (token: string) => {
      if (token === 'down') throw Object.assign(new Error('database out of reach'), { status: 503, code: 'database.unavailable' });
      return token === 'user' ? USER : token === 'admin' ? ADMIN : undefined;
    },
  },
} as unknown as Services;

let library: Api;
let matched: Api;
let operations: ContractOperation[];

/** Handlers that answer what they received. */
const echo = (ops: ContractOperation[]) =>
  Object.fromEntries(
    ops.map((op) => [
      op.operationId,
      async (r: { operationId: string; params: unknown; query: unknown; body: unknown; files: unknown; auth: unknown }) => ({
        status: 200,
        body: { operationId: r.operationId, params: r.params, query: r.query, body: r.body, files: r.files, auth: r.auth },
      }),
    ]),
  ) as unknown as Handlers;

beforeAll(async () => {
  const probe = await createApi({ services, handlers: {} as Handlers, dispatchThrough: 'library' });
  operations = probe.backend.router.getOperations() as unknown as ContractOperation[];
  library = await createApi({ services, handlers: echo(operations), dispatchThrough: 'library' });
  matched = await createApi({ services, handlers: echo(operations), dispatchThrough: 'matched' });
});

interface Case {
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  body?: unknown;
  /** admit() fails (a body that cannot be read, a path parameter that does not decode). */
  admitFails?: boolean;
}

async function outcome(api: Api, op: ContractOperation, c: Case) {
  let admitted = 0;
  const ctx: DispatchContext = {
    req: { headers: c.headers } as unknown as ExpressRequest,
    admit: async () => {
      admitted++;
      if (c.admitFails) throw Object.assign(new Error('unreadable body'), { status: 400 });
      return { body: c.body, files: [] };
    },
  };
  // As the express layer: a fresh query object each time (express parses it on every access).
  const request = { method: op.method.toUpperCase(), path: c.path, query: structuredClone(c.query), headers: { ...c.headers }, body: undefined };
  try {
    return { admitted, result: await api.dispatch(request, op, ctx) };
  } catch (err) {
    const e = err as Error & { status?: number; code?: string; issues?: unknown; body?: unknown };
    return { admitted, error: { name: e.name, message: e.message, status: e.status, code: e.code, issues: e.issues, body: e.body } };
  }
}

const concretePath = (op: ContractOperation, value: string) => op.path.replace(/\{[^}]+\}/g, value);

function cases(op: ContractOperation): Case[] {
  const declared = ((op.parameters ?? []) as { name: string; in: string; schema?: { type?: string; items?: { type?: string } } }[]).filter(
    (p) => p.in === 'query',
  );
  const valueFor = (p: (typeof declared)[number], kind: number): string | string[] => {
    const t = p.schema?.type === 'array' ? p.schema.items?.type : p.schema?.type;
    const one = [t === 'integer' || t === 'number' ? '3' : t === 'boolean' ? 'true' : 'wc', 'not-a-number', ''][kind % 3]!;
    return p.schema?.type === 'array' ? [one, one] : one;
  };
  const queries: Record<string, string | string[]>[] = [
    {},
    Object.fromEntries(declared.map((p) => [p.name, valueFor(p, 0)])),
    Object.fromEntries(declared.map((p) => [p.name, valueFor(p, 1)])),
    Object.fromEntries(declared.map((p) => [p.name, valueFor(p, 2)])),
    Object.fromEntries(declared.map((p) => [p.name, ['a', 'b']])),
    // One value for every parameter, arrays included.
    Object.fromEntries(declared.map((p) => [p.name, 'wc'])),
    { unknown_parameter: 'x' },
  ];
  const auths: Record<string, string>[] = [
    {},
    { authorization: 'Bearer user' },
    { authorization: 'Bearer admin' },
    { authorization: 'Bearer nobody' },
    { authorization: 'Bearer down' },
    { cookie: 'qp_admin_session=abc' },
    { authorization: 'Bearer admin', cookie: 'qp_admin_session=abc', 'content-type': 'application/json' },
  ];
  const bodies: { body?: unknown; admitFails?: boolean }[] = [
    {},
    { body: {} },
    { body: { name: 'x', league: 'wc' } },
    { body: 'text' },
    { body: 7 },
    { admitFails: true },
  ];
  const paths = [concretePath(op, '00000000-0000-4000-8000-000000000001'), concretePath(op, 'wc'), concretePath(op, 'a%20b')];
  const out: Case[] = [];
  for (const headers of auths) {
    for (const query of queries) out.push({ path: paths[0]!, query, headers });
    for (const b of bodies) out.push({ path: paths[0]!, query: {}, headers: { ...headers, 'content-type': 'application/json' }, ...b });
    for (const path of paths.slice(1)) out.push({ path, query: queries[1]!, headers, body: { name: 'x' } });
  }
  return out;
}

describe("the matched dispatch ends every request as openapi-backend's handleRequest does", () => {
  it('on every operation: the same handler input, or the same error; the body read as often', async () => {
    let compared = 0;
    const outcomes = new Set<string>();
    for (const op of operations) {
      for (const c of cases(op)) {
        const [a, b] = [await outcome(library, op, c), await outcome(matched, op, c)];
        expect(b, `${op.operationId} ${JSON.stringify(c)}`).toEqual(a);
        outcomes.add(a.error ? `${a.error.status ?? a.error.name}` : 'handled');
        compared++;
      }
    }
    expect(operations.length).toBeGreaterThan(80);
    expect(compared).toBeGreaterThan(5_000);
    // The cases reach every ending: handled, unauthorized, forbidden, invalid, the check's own failure, an unreadable body.
    expect([...outcomes].sort()).toEqual(expect.arrayContaining(['400', '401', '403', '422', '503', 'handled']));
  });

  it('refuses an openapi-backend hook it does not run', async () => {
    const api = await createApi({ services, handlers: echo(operations), dispatchThrough: 'library' });
    api.backend.register('preOperationHandler', () => undefined);
    const { createMatchedDispatch } = await import('../../src/http/matched-dispatch.js');
    expect(() => createMatchedDispatch(api.backend)).toThrow(/preOperationHandler/);
  });
});

describe('the generated request validators', () => {
  it('are not loaded by making the API; the first request waits for them and is validated by them, on every operation', async () => {
    const { requestValidators } = await import('../../generated/request-validators.js');
    for (const dispatchThrough of ['matched', 'library'] as const) {
      const api = await createApi({ services, handlers: echo(operations), dispatchThrough });
      const installed = api.backend.validator.requestValidators as Record<string, unknown>;
      // Nothing installed yet: openapi-backend would compile validators of its own for a request validated now.
      expect(operations.filter((op) => installed[op.operationId] !== undefined)).toEqual([]);
      const op = operations.find((o) => o.operationId === 'upsertQuestionAnswer')!;
      const first = await outcome(api, op, { path: op.path, query: {}, headers: { authorization: 'Bearer user' }, body: { answer: 7 } });
      expect(first.error?.status, dispatchThrough).toBe(422);
      for (const o of operations) expect(installed[o.operationId], o.operationId).toBe((requestValidators as Record<string, unknown>)[o.operationId]);
    }
  });
});

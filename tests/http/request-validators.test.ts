/**
 * The API's dispatch (src/http/api.ts, openapi-backend's handleRequest for a
 * matched operation) validates with the generated validators, loaded after
 * the start: never with validators openapi-backend would compile itself.
 */
import type { Request as ExpressRequest } from 'express';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApi, type Api, type DispatchContext } from '../../src/http/api.js';
import type { ContractOperation } from '../../src/http/contract.js';
import type { Handlers } from '../../src/http/handler-types.js';
import type { Services } from '../../src/services.js';

const USER = { user: { id: 'u1', isAdmin: false } };

/** The key `user` is valid, any other unknown. */
const services = {
  auth: { authenticate: async (token: string) => (token === 'user' ? USER : undefined) },
} as unknown as Services;

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
  const probe = await createApi({ services, handlers: {} as Handlers });
  operations = probe.backend.router.getOperations() as unknown as ContractOperation[];
});

interface Case {
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  body?: unknown;
}

async function outcome(api: Api, op: ContractOperation, c: Case) {
  let admitted = 0;
  const ctx: DispatchContext = {
    req: { headers: c.headers } as unknown as ExpressRequest,
    admit: async () => {
      admitted++;
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

describe('the generated request validators', () => {
  it('are not loaded by making the API; the first request waits for them and is validated by them, on every operation', async () => {
    const { requestValidators } = await import('../../generated/request-validators.js');
    const api = await createApi({ services, handlers: echo(operations) });
    const installed = api.backend.validator.requestValidators as Record<string, unknown>;
    // Nothing installed yet: openapi-backend would compile validators of its own for a request validated now.
    expect(operations.filter((op) => installed[op.operationId] !== undefined)).toEqual([]);
    const op = operations.find((o) => o.operationId === 'upsertQuestionAnswer')!;
    const first = await outcome(api, op, { path: op.path, query: {}, headers: { authorization: 'Bearer user' }, body: { answer: 7 } });
    expect(first.error?.status).toBe(422);
    for (const o of operations) expect(installed[o.operationId], o.operationId).toBe((requestValidators as Record<string, unknown>)[o.operationId]);
  });
});

import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OpenAPIRouter } from 'openapi-backend';
import { httpErrors } from '../../src/http/http.errors.js';
import { createHandlers } from '../../src/http/registry.js';
import { authErrors } from '../../src/modules/auth/auth.errors.js';
import { expectError } from '../helpers/errors.js';
import { registerUser, startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
const secret = 'password=hunter2 at db-host-7';

beforeAll(async () => {
  app = await startTestApp({
    config: { jsonBodyLimitBytes: 4096 },
    handlers: (services) => ({
      ...createHandlers(services),
      listLeagues: async () => {
        throw new Error(`connection failed: ${secret}`);
      },
      // A rejection without a reason.
      getQuestionSampleCatalog: () => Promise.reject(undefined),
    }),
  });
});
afterAll(() => app?.close());

describe("error mapping: every failure is the contract's error body with the right status", () => {
  it('answers 404 with a detail for unknown routes under /api and elsewhere', async () => {
    const res = await app.request('GET', '/api/nothing-here');
    expectError(res, httpErrors.routeNotFound);
    // The message names the method and the path.
    expect(res.body.detail).toBe("no route for GET '/api/nothing-here'");
    const other = await app.request('GET', '/nowhere');
    expectError(other, httpErrors.routeNotFound);
    expect(other.body.detail).toContain('/nowhere');
  });

  it('sends the stable code of every error in X-Error-Code (the harness checks it on every error a test receives)', async () => {
    const invalid = await app.request('GET', '/api/matches', { query: { scheduled_from: 'yesterday' } });
    expect(invalid.status).toBe(422);
    expect(invalid.headers.get('x-error-code')).toBe('request.invalid');
    const unknownLeague = await app.request('GET', '/api/leagues/xfl');
    expect(unknownLeague.status).toBe(404);
    expect(unknownLeague.headers.get('x-error-code')).toBe('league.not_found');
    const noKey = await app.request('GET', '/api/users/me');
    expect(noKey.status).toBe(401);
    expect(noKey.headers.get('x-error-code')).toBe('auth.unauthorized');
    // Successes carry none.
    expect((await app.request('GET', '/api/matches')).headers.get('x-error-code')).toBeNull();
  });

  it('answers 405 with Allow for a known path and an unsupported method', async () => {
    const res = await app.request('DELETE', '/api/leagues');
    expectError(res, httpErrors.methodNotAllowed);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(res.body.detail).toMatch(/allowed: GET, HEAD/);
    const post = await fetch(`${app.url}/api/auth/login`, { method: 'HEAD' });
    expectError(post, httpErrors.methodNotAllowed);
    expect(post.headers.get('allow')).toBe('POST');
  });

  it('answers HEAD as the GET it stands for, headers and status alike, without a body', async () => {
    const get = await fetch(`${app.url}/api/matches`);
    const head = await fetch(`${app.url}/api/matches`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(get.status).toBe(200);
    for (const name of ['content-type', 'content-length', 'etag']) expect(head.headers.get(name), name).toBe(get.headers.get(name));
    expect(await head.text()).toBe('');
    // Authorized like the GET: no key, no answer.
    expectError(await fetch(`${app.url}/api/users/me`, { method: 'HEAD' }), authErrors.unauthorized);
  });

  it('answers 413 for a JSON body over the limit', async () => {
    const res = await app.request('POST', '/api/auth/login', { body: { username: 'x'.repeat(5000), password: 'y' } });
    expectError(res, httpErrors.tooLarge);
    // The message states the limit.
    expect(res.body.detail).toMatch(/exceeds the limit of 4096 bytes/);
  });

  it('answers 422 with the detail list for malformed JSON and for a wrong content type', async () => {
    const malformed = await app.request('POST', '/api/auth/register', { raw: { body: '{"username":', contentType: 'application/json' } });
    expectError(malformed, httpErrors.invalid);
    expect(malformed.body.detail).toEqual([expect.objectContaining({ loc: ['body'], type: 'json_invalid', msg: expect.stringMatching(/^malformed JSON: /) })]);
    // JSON, but not an object or array: said as such, not as "malformed".
    for (const [text, kind] of [
      ['null', 'null'],
      ['"text"', 'a JSON string'],
      ['42', 'a JSON number'],
      ['true', 'a JSON boolean'],
    ]) {
      const scalar = await app.request('POST', '/api/auth/register', { raw: { body: text!, contentType: 'application/json' } });
      expectError(scalar, httpErrors.invalid);
      expect(scalar.body.detail).toEqual([{ loc: ['body'], msg: `the body must be a JSON object or array, not ${kind}`, type: 'json_invalid' }]);
    }
    const form = await app.request('POST', '/api/auth/register', { raw: { body: 'username=a', contentType: 'application/x-www-form-urlencoded' } });
    expectError(form, httpErrors.invalid);
    expect(form.body.detail[0]).toMatchObject({ loc: ['body'], type: 'content_type' });
    const none = await app.request('POST', '/api/auth/register');
    expectError(none, httpErrors.invalid);
    expect(none.body.detail[0]).toMatchObject({ loc: ['body'], msg: 'request body is required' });
  });

  it('answers 422 for path and query parameters that break the contract, naming them', async () => {
    const path = await app.request('GET', '/api/brands/not-a-uuid');
    expectError(path, httpErrors.invalid);
    expect(path.body.detail).toEqual([expect.objectContaining({ loc: ['path', 'brand_id'], type: 'format' })]);
    const unknownQuery = await app.request('GET', '/api/brands', { query: { colour: 'red' } });
    expectError(unknownQuery, httpErrors.invalid);
    expect(unknownQuery.body.detail[0]).toMatchObject({ loc: ['query', 'colour'], type: 'extra_forbidden' });
  });

  it('answers 422 for U+0000 anywhere in a body, the query or a path parameter (PostgreSQL cannot store it)', async () => {
    const body = await app.request('POST', '/api/auth/register', {
      body: { username: 'nul_user', password: 'long enough', email: 'nul@example.com', first_name: 'a\u0000b' },
    });
    expectError(body, httpErrors.invalid);
    expect(body.body.detail).toEqual([{ loc: ['body', 'first_name'], msg: 'text must not contain the NUL character (U+0000)', type: 'nul_character' }]);
    const query = await app.request('GET', '/api/brands', { query: { q: '\u0000' } });
    expect(query.body.detail[0]).toMatchObject({ loc: ['query', 'q'], type: 'nul_character' });
    const login = await app.request('POST', '/api/auth/register', { body: { username: 'nul_user', password: 'long enough', email: 'nul@example.com' } });
    const path = await app.request('DELETE', '/api/users/me/devices/a%00b', { token: login.body.api_key });
    expectError(path, httpErrors.invalid);
    expect(path.body.detail[0]).toMatchObject({ loc: ['path', 'device_id'], type: 'nul_character' });
  });

  it('answers 422 for JSON nested deeper than 64 levels, at once and without a 500 (no key needed to send one)', async () => {
    for (const depth of [65, 2_000]) {
      const body = `${'['.repeat(depth)}${']'.repeat(depth)}`;
      const started = Date.now();
      const res = await app.request('POST', '/api/auth/login', { raw: { body, contentType: 'application/json' } });
      expectError(res, httpErrors.invalid);
      expect(res.body.detail[0]).toMatchObject({ type: 'too_deep', msg: 'nested more than 64 levels deep' });
      // Not a parse whose cost grows with the depth (a generous bound: a busy machine takes seconds over milliseconds).
      expect(Date.now() - started).toBeLessThan(60_000);
    }
    // 64 levels are read (and then checked against the schema as usual).
    const ok = await app.request('POST', '/api/auth/login', { raw: { body: `${'['.repeat(64)}${']'.repeat(64)}`, contentType: 'application/json' } });
    expectError(ok, httpErrors.invalid);
    expect(ok.body.detail[0].type).not.toBe('too_deep');
  });

  it('answers 422 for a date-time a Date cannot hold (a leap second)', async () => {
    const res = await app.request('GET', '/api/matches', { query: { scheduled_from: '2016-12-31T23:59:60Z', scheduled_to: '2017-01-02T00:00:00Z' } });
    expectError(res, httpErrors.invalid);
    expect(res.body.detail[0]).toMatchObject({ loc: ['query', 'scheduled_from'], type: 'format' });
  });

  it('answers 422 for dates and instants outside the years 0001 to 9999 (PostgreSQL cannot store them), and takes the edges', async () => {
    for (const [from, to] of [
      ['0000-06-01T00:00:00Z', '2026-01-01T00:00:00Z'],
      ['2026-01-01T00:00:00Z', '9999-12-31T23:59:59-05:00'],
    ]) {
      const res = await app.request('GET', '/api/matches', { query: { scheduled_from: from!, scheduled_to: to! } });
      expectError(res, httpErrors.invalid);
      expect(res.body.detail[0]).toMatchObject({ type: 'format' });
    }
    const edges = await app.request('GET', '/api/matches', { query: { scheduled_from: '0001-01-01T00:00:00Z', scheduled_to: '9999-12-31T23:59:59+00:00' } });
    expect(edges.status).toBe(200);

    const user = await registerUser(app);
    const year0 = await app.request('PATCH', '/api/users/me', { token: user.token, body: { date_of_birth: '0000-01-01' } });
    expectError(year0, httpErrors.invalid);
    expect(year0.body.detail[0]).toMatchObject({ loc: ['body', 'date_of_birth'], type: 'format' });
    const first = await app.request('PATCH', '/api/users/me', { token: user.token, body: { date_of_birth: '0001-01-01' } });
    expect(first.status).toBe(200);
    expect(first.body.date_of_birth).toBe('0001-01-01');
  });

  it('answers 500 without internals, and logs the cause', async () => {
    const spy = vi.spyOn(app.services.logger, 'error');
    // Raw fetch: a 500 is never part of the contract, so the contract client would reject it.
    const res = await fetch(`${app.url}/api/leagues`);
    expectError(res, httpErrors.internal);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ detail: 'internal server error; the incident has been logged' });
    expect(text).not.toContain('hunter2');
    expect(spy.mock.calls.some(([fields]) => String((fields as { err?: Error }).err?.message).includes('hunter2'))).toBe(true);
    spy.mockRestore();
  });
});

describe('routing', () => {
  it("matches with the precompiled table, never with openapi-backend's per-request router scan", async () => {
    const scan = vi.spyOn(app.api.backend.router, 'getOperations');
    for (const path of ['/api/brands', '/api/leagues/wc', '/api/users/me', '/api/brands/00000000-0000-4000-8000-000000000000']) await app.request('GET', path);
    expect(scan).not.toHaveBeenCalled();
    scan.mockRestore();
  });

  it('prefers literal paths over templates and ignores a trailing slash', async () => {
    expect(app.api.matcher.match('GET', '/api/question-definitions/export')).toMatchObject({
      kind: 'ok',
      operation: { operationId: 'exportQuestionDefinitions' },
    });
    expect(app.api.matcher.match('GET', '/api/question-definitions/2c5e7a90-1b3d-4f6a-8c2e-9d0f1a2b3c4d')).toMatchObject({
      operation: { operationId: 'getQuestionDefinition' },
    });
    expect(app.api.matcher.match('GET', '/api/leagues/')).toMatchObject({ operation: { operationId: 'listLeagues' } });
    expect(app.api.matcher.match('POST', '/api/leagues')).toEqual({ kind: 'method-not-allowed', allowed: ['GET'] });
    expect((await app.request('GET', '/api/brands/')).status).toBe(200);
  });
});

/** The whole response to one request on its own connection, as sent (the Date header blanked). */
function rawExchange(url: string, head: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(Number(port), hostname, () => socket.write(`${head}\r\nHost: x\r\nConnection: close\r\n\r\n`));
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () =>
      resolve(
        Buffer.concat(chunks)
          .toString('latin1')
          .replace(/^Date: .*$/m, 'Date: -'),
      ),
    );
  });
}

describe('API requests outside express router', () => {
  it('answer a handler that rejects without a reason with 500, not as if nothing had answered (404)', async () => {
    // Raw fetch: a 500 is never part of the contract.
    const res = await fetch(`${app.url}/api/question-definitions/sample-catalog?league=wc`);
    expectError(res, httpErrors.internal);
  });
});

describe('JSON replies written without express res.send', () => {
  it('send the bytes res.send sends (it still writes the replies to conditional requests: compared with one)', async () => {
    const fresh = await startTestApp();
    try {
      for (const path of ['/api/leagues', '/api/leagues/wc']) {
        const direct = await rawExchange(fresh.url, `GET ${path} HTTP/1.1`);
        // An If-None-Match that matches nothing: the reply goes through res.send and is otherwise the same request.
        const viaSend = await rawExchange(fresh.url, `GET ${path} HTTP/1.1\r\nIf-None-Match: "nothing"`);
        expect(direct).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
        expect(direct).toContain('\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ');
        expect(direct).toBe(viaSend);
        // HEAD: the same head, no body.
        const head = await rawExchange(fresh.url, `HEAD ${path} HTTP/1.1`);
        expect(head).toBe(direct.slice(0, direct.indexOf('\r\n\r\n') + 4));
      }
    } finally {
      await fresh.close();
    }
  });

  it('keep answering If-None-Match: * with 304 and no body, as res.send does', async () => {
    const res = await rawExchange(app.url, 'GET /api/leagues/wc HTTP/1.1\r\nIf-None-Match: *');
    expect(res).toMatch(/^HTTP\/1\.1 304 Not Modified\r\n/);
    expect(res.endsWith('\r\n\r\n')).toBe(true);
    expect(res).not.toContain('Content-Length');
  });
});

describe('openapi-backend per request', () => {
  it("never parses a pre-matched request before routing, and parses the others with the cheaper equivalent of the library's parse", async () => {
    const library = vi.spyOn(OpenAPIRouter.prototype, 'parseRequest');
    const fresh = await startTestApp();
    const parse = vi.spyOn(fresh.api.backend.router, 'parseRequest');
    try {
      library.mockClear();
      expect((await fresh.request('GET', '/api/leagues')).status).toBe(200);
      expect((await fresh.request('GET', '/api/matches', { query: { league: 'wc' } })).status).toBe(200);
      const withOperation = parse.mock.calls.filter((call) => call[1] !== undefined);
      expect(withOperation.length).toBeGreaterThan(0);
      // Before routing (no operation): handed back as it came, unread.
      parse.mock.calls.forEach((call, i) => {
        if (call[1] === undefined) expect(parse.mock.results[i]!.value).toBe(call[0]);
      });
      // The library's own parse (src/http/request-parse.ts falls back to it for shapes express does not make) is not used.
      expect(library.mock.contexts.filter((router) => router === fresh.api.backend.router)).toEqual([]);
    } finally {
      parse.mockRestore();
      library.mockRestore();
      await fresh.close();
    }
  });
});

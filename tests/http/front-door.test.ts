/**
 * One pipeline: the front door (src/http/front-door.ts) answers the API with
 * the steps and the answer express runs, byte for byte. The same raw requests
 * go to the service's server (the front door) and to a server on the express
 * application alone; every response must be the same bytes but its Date.
 */
import { createServer, type Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Request, Response } from 'express';
import { createFrontDoor, createFrontDoorServer, runSteps } from '../../src/http/front-door.js';
import { registerUser, startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let expressOnly: Server;
let token: string;

beforeAll(async () => {
  app = await startTestApp({ config: { jsonBodyLimitBytes: 4096 } });
  expressOnly = createServer(app.express).listen(0, '127.0.0.1');
  await new Promise((resolve) => expressOnly.once('listening', resolve));
  ({ token } = await registerUser(app));
});
afterAll(async () => {
  expressOnly?.closeAllConnections();
  await new Promise((resolve) => expressOnly?.close(resolve));
  await app?.close();
});

/** The bytes a server answers to one raw request (the connection closed after it), its Date header blanked. */
async function exchange(port: number, request: string): Promise<string> {
  const socket = net.connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  socket.write(request);
  await new Promise((resolve, reject) => {
    socket.once('close', resolve);
    socket.once('error', reject);
  });
  return Buffer.concat(chunks)
    .toString('latin1')
    .replace(/\r\nDate: [^\r]*/i, '\r\nDate: -');
}

const raw = (method: string, path: string, headers: Record<string, string> = {}, body = '') =>
  [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join('\r\n') +
  '\r\n\r\n' +
  body;

describe('the front door and express answer the API alike', () => {
  it("makes node:http's requests and responses with express's prototypes (none is changed per request)", async () => {
    const door = app.express.request;
    let seen: [boolean, boolean] | undefined;
    const server = createFrontDoorServer({
      listener: (req, res) => {
        seen = [Object.getPrototypeOf(Object.getPrototypeOf(req)) === door, Object.getPrototypeOf(Object.getPrototypeOf(res)) === app.express.response];
        res.end();
      },
      serverOptions: createFrontDoor({ app: app.express, isApiPath: () => true, steps: [], answer: () => {}, fail: () => {} }).serverOptions,
    }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/x`);
    server.close();
    expect(seen).toEqual([true, true]);
  });

  const cases = (): [string, string][] => {
    const auth = { Authorization: `Bearer ${token}` };
    const json = (text: string) => ({ ...auth, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)) });
    return [
      ['a public list', raw('GET', '/api/leagues')],
      ['HEAD of it', raw('HEAD', '/api/leagues')],
      ['a public list, cross-origin', raw('GET', '/api/leagues', { Origin: 'https://elsewhere.example' })],
      ['a preflight', raw('OPTIONS', '/api/users/me', { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'PATCH' })],
      ['a conditional request', raw('GET', '/api/leagues', { 'If-None-Match': '*' })],
      ['a secured read', raw('GET', '/api/users/me', auth)],
      ['a secured read without a key', raw('GET', '/api/users/me')],
      ['an unknown key', raw('GET', '/api/users/me', { Authorization: 'Bearer qp_nobody-000000000000000000000000' })],
      ['an unknown route', raw('GET', '/api/nothing-here')],
      ['a method not allowed', raw('DELETE', '/api/leagues')],
      ['a query that fails validation', raw('GET', '/api/matches?scheduled_from=yesterday', auth)],
      ['a query that is not UTF-8', raw('GET', '/api/matches?league=%ff', auth)],
      ['a path parameter that is not UTF-8', raw('GET', '/api/leagues/%ff')],
      ['a body that is not JSON', raw('PATCH', '/api/users/me', json('{nope'), '{nope')],
      ['a body over the limit, refused unread', raw('PATCH', '/api/users/me', { ...auth, 'Content-Type': 'application/json', 'Content-Length': '100000' })],
      ['a body that fails validation', raw('PATCH', '/api/users/me', json('{"timezone":5}'), '{"timezone":5}')],
      ['the admin session without a cookie', raw('POST', '/admin/api-session')],
      ['a page', raw('GET', '/docs')],
      ['a probe', raw('GET', '/healthz')],
    ];
  };

  it('sends the same bytes for every request (but the Date)', async () => {
    const front = (app.url.match(/:(\d+)$/) ?? [])[1]!;
    const plain = (expressOnly.address() as AddressInfo).port;
    for (const [name, request] of cases()) {
      const [a, b] = [await exchange(Number(front), request), await exchange(plain, request)];
      expect(a, name).toBe(b);
      expect(a.length, name).toBeGreaterThan(0);
    }
  });
});

describe('runSteps', () => {
  const req = {} as Request;
  const res = {} as Response;

  it('runs the steps in order, then the answer', () => {
    const seen: string[] = [];
    runSteps(
      ['a', 'b'].map((name) => (_q: Request, _s: Response, next: () => void) => (seen.push(name), next())),
      req,
      res,
      () => seen.push('done'),
      () => seen.push('failed'),
    );
    expect(seen).toEqual(['a', 'b', 'done']);
  });

  it('stops at the first failure, passed on or thrown', () => {
    for (const failing of [
      (_q: Request, _s: Response, next: (err?: unknown) => void) => next(new Error('no')),
      () => {
        throw new Error('no');
      },
    ]) {
      const seen: string[] = [];
      runSteps(
        [failing, () => seen.push('after')],
        req,
        res,
        () => seen.push('done'),
        (err) => seen.push(`failed: ${(err as Error).message}`),
      );
      expect(seen).toEqual(['failed: no']);
    }
  });

  it('fails the request when a step returns a promise that rejects, as express 5 does', async () => {
    const seen: string[] = [];
    const failed = new Promise<void>((resolve) =>
      runSteps(
        [() => Promise.reject(new Error('no')), () => seen.push('after')],
        req,
        res,
        () => seen.push('done'),
        (err) => {
          seen.push(`failed: ${(err as Error).message}`);
          resolve();
        },
      ),
    );
    await failed;
    expect(seen).toEqual(['failed: no']);
  });

  it('lets a step answer without going on', () => {
    const seen: string[] = [];
    runSteps(
      [() => seen.push('answered')],
      req,
      res,
      () => seen.push('done'),
      () => seen.push('failed'),
    );
    expect(seen).toEqual(['answered']);
  });
});

it('hands every other path to express', async () => {
  const handled: string[] = [];
  const door = createFrontDoor({
    app: Object.assign((q: Request) => void handled.push(`express ${q.url}`), { request: {}, response: {} }) as never,
    isApiPath: () => false,
    steps: [],
    answer: () => handled.push('api'),
    fail: () => handled.push('failed'),
  });
  const req = Object.create(null, { url: { value: '/docs' }, path: { value: '/docs' } }) as never;
  door.listener(req, {} as never);
  expect(handled).toEqual(['express /docs']);
});

/**
 * A body over its route's limit is answered 413 at once, on raw sockets: a
 * declared Content-Length over the limit before any of the body is read
 * (a login declaring 1 GiB and sending nothing was held for the whole
 * request timeout, then answered 408), a chunked or compressed body as soon
 * as it passes the limit; the connection closes after the answer. Every
 * route that reads a body: JSON operations, multipart operations, the
 * operator UI's sign-in form. The request timeout here is short, so a body
 * held until it runs out shows as 408 rather than as a slow test.
 */
import net from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpErrors } from '../../src/http/http.errors.js';
import { authErrors } from '../../src/modules/auth/auth.errors.js';
import { assertMatchesContract } from '../helpers/contract.js';
import { expectError } from '../helpers/errors.js';
import { createAdmin, registerUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app.js';

const JSON_LIMIT = 1024;
const GIB = 1024 * 1024 * 1024;

let app: TestApp;
let admin: TestUser;
let player: TestUser;

beforeAll(async () => {
  app = await startTestApp({
    config: { jsonBodyLimitBytes: JSON_LIMIT, http: { headersTimeoutMs: 2000, requestTimeoutMs: 2000, keepAliveTimeoutMs: 1000, checkIntervalMs: 50 } },
  });
  admin = await createAdmin(app);
  player = await registerUser(app);
});
afterAll(() => app?.close());

interface RawAnswer {
  status: number;
  head: string;
  body: string;
  header(name: string): string | undefined;
}

/**
 * Writes the head (and `body`, if any) on a raw connection, never ending it, and resolves with what the server
 * sends once the server closes the connection.
 */
function send(method: string, path: string, headers: Record<string, string>, body: Buffer | string = ''): Promise<RawAnswer> {
  const url = new URL(app.url);
  const head = `${method} ${path} HTTP/1.1\r\nHost: x\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(Buffer.concat([Buffer.from(head), Buffer.from(body)])));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const [headText = '', text = ''] = raw.split('\r\n\r\n');
      const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(headText)?.[1]?.trim();
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(headText)?.[1] ?? 0), head: headText, body: text, header });
    });
  });
}

/** A raw answer as expectError reads it. */
const asResponse = (res: RawAnswer) => ({
  status: res.status,
  headers: new Headers([...res.head.matchAll(/^([\w-]+): (.*)$/gm)].map((m): [string, string] => [m[1]!, m[2]!.trim()])),
});

/** The answer is the operation's documented 413, and the server closed the connection (this resolved at all). */
function expectTooLarge(res: RawAnswer, method: string, path: string | null) {
  expectError(asResponse(res), httpErrors.tooLarge);
  expect(res.header('connection')).toMatch(/close/i);
  expect(JSON.parse(res.body).detail).toMatch(/exceeds the limit of \d+ bytes/);
  if (path)
    assertMatchesContract({
      method,
      path,
      status: res.status,
      contentType: res.header('content-type') ?? '',
      body: JSON.parse(res.body),
      text: res.body,
      header: res.header,
    });
}

const json = { 'Content-Type': 'application/json' };
const bearer = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });
const multipart = { 'Content-Type': 'multipart/form-data; boundary=----x' };

describe('a declared Content-Length over the limit', () => {
  const cases: { name: string; method: string; path: string; headers: () => Record<string, string>; contract: boolean }[] = [
    { name: 'login (JSON, open)', method: 'POST', path: '/api/auth/login', headers: () => json, contract: true },
    { name: 'register (JSON, open)', method: 'POST', path: '/api/auth/register', headers: () => json, contract: true },
    { name: 'answering (JSON, a player)', method: 'PUT', path: '/api/question-answers', headers: () => ({ ...json, ...bearer(player) }), contract: true },
    {
      name: 'updating a league (JSON, an admin)',
      method: 'PATCH',
      path: '/api/leagues/00000000-0000-4000-8000-000000000000',
      headers: () => ({ ...json, ...bearer(admin) }),
      contract: true,
    },
    {
      name: 'creating a brand (multipart, an admin)',
      method: 'POST',
      path: '/api/brands',
      headers: () => ({ ...multipart, ...bearer(admin) }),
      contract: true,
    },
    {
      name: 'importing definitions (multipart CSV, an admin)',
      method: 'POST',
      path: '/api/question-definitions/import',
      headers: () => ({ ...multipart, ...bearer(admin) }),
      contract: true,
    },
    {
      name: 'the operator UI sign-in form',
      method: 'POST',
      path: '/admin/login',
      headers: () => ({ 'Content-Type': 'application/x-www-form-urlencoded' }),
      contract: false,
    },
  ];

  for (const c of cases) {
    it(`is answered 413 at once, before any of the body is read: ${c.name}`, async () => {
      const res = await send(c.method, c.path, { ...c.headers(), 'Content-Length': String(GIB) });
      expectTooLarge(res, c.method, c.contract ? c.path : null);
    });
  }

  it('is refused from one byte over the JSON limit, whatever the Content-Type; a body within it that never comes times out (408)', async () => {
    expectTooLarge(await send('POST', '/api/auth/login', { ...json, 'Content-Length': String(JSON_LIMIT + 1) }), 'POST', '/api/auth/login');
    expectTooLarge(await send('POST', '/api/auth/login', { 'Content-Type': 'text/plain', 'Content-Length': String(GIB) }), 'POST', '/api/auth/login');
    const within = await send('POST', '/api/auth/login', { ...json, 'Content-Length': String(JSON_LIMIT) });
    expectError(asResponse(within), httpErrors.requestTimeout);
  });

  it('comes after the caller: an admin operation answers 401 without a key and 403 to a player, as at once', async () => {
    const path = '/api/brands';
    // Connection: close, so the server ends the connection after its answer (the body it did not read is not waited for).
    expectError(asResponse(await send('POST', path, { ...multipart, 'Content-Length': String(GIB), Connection: 'close' })), authErrors.unauthorized);
    expectError(
      asResponse(await send('POST', path, { ...multipart, ...bearer(player), 'Content-Length': String(GIB), Connection: 'close' })),
      authErrors.forbidden,
    );
  });
});

describe('a body that passes the limit as it arrives', () => {
  it('is answered 413 as soon as a chunked body passes the limit, the rest never read', async () => {
    const chunk = Buffer.from(`{"username":"${'a'.repeat(JSON_LIMIT)}`);
    const res = await send(
      'POST',
      '/api/auth/login',
      { ...json, 'Transfer-Encoding': 'chunked' },
      Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]),
    );
    expectTooLarge(res, 'POST', '/api/auth/login');
  });

  it('counts a compressed body by what it decompresses to', async () => {
    const packed = gzipSync(JSON.stringify({ username: 'a'.repeat(JSON_LIMIT * 4), password: 'x' }));
    expect(packed.length).toBeLessThan(JSON_LIMIT);
    const res = await send('POST', '/api/auth/login', { ...json, 'Content-Encoding': 'gzip', 'Content-Length': String(packed.length) }, packed);
    expectTooLarge(res, 'POST', '/api/auth/login');
  });

  it('leaves bodies within the limit alone', async () => {
    const body = JSON.stringify({ username: player.username, password: player.password });
    const res = await send('POST', '/api/auth/login', { ...json, 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' }, body);
    expect(res.status).toBe(200);
  });
});

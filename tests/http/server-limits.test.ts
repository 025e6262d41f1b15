/**
 * Connection-level limits (src/http/server-limits.ts), applied by the test
 * harness as by the process entry: requests that trickle in are cut with
 * 408, malformed ones answer 400 and oversized headers 431, all with the
 * error body, and the connection closes.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { httpErrors } from '../../src/http/http.errors.js';
import { assertMatchesContract } from '../helpers/contract.js';
import { expectError } from '../helpers/errors.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ config: { http: { headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 1000, checkIntervalMs: 50 } } });
});
afterAll(() => app?.close());

/** Writes `text` on a raw connection and resolves with everything the server sends until it closes. */
function exchange(text: string): Promise<{ status: number; headers: string; body: string }> {
  const url = new URL(app.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(text));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = raw.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers: head, body });
    });
  });
}

/** A raw answer's status and headers, as expectError reads them. */
const answer = (res: { status: number; headers: string }) => ({
  status: res.status,
  headers: new Headers([...res.headers.matchAll(/^([\w-]+): (.*)$/gm)].map((m): [string, string] => [m[1]!, m[2]!.trim()])),
});

describe('HTTP server limits', () => {
  it('answers 408 with the error body when the headers do not arrive in time, and closes', async () => {
    const res = await exchange('GET /api/leagues HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    expectError(answer(res), httpErrors.requestTimeout);
    expect(res.headers).toMatch(/connection: close/i);
    expect(JSON.parse(res.body).detail).toMatch(/did not arrive in time/);
  });

  it('answers 408 when a body stops short of its length; the operation declares it', async () => {
    const res = await exchange('POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"username":');
    expect(res.status).toBe(408);
    const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(res.headers)?.[1]?.trim();
    assertMatchesContract({
      method: 'POST',
      path: '/api/auth/login',
      status: 408,
      contentType: 'application/json',
      body: JSON.parse(res.body),
      text: res.body,
      header,
    });
    expectError(answer(res), httpErrors.requestTimeout);
  });

  it('answers 400 for a request that is not HTTP, and 431 for headers over the limit', async () => {
    const garbage = await exchange('HELLO THERE\r\n\r\n');
    expectError(answer(garbage), httpErrors.malformed);
    expect(JSON.parse(garbage.body)).toEqual({ detail: 'malformed HTTP request' });
    const huge = await exchange(`GET /api/leagues HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expectError(answer(huge), httpErrors.headersTooLarge);
    expect(JSON.parse(huge.body)).toEqual({ detail: 'the request headers are too large' });
  });

  it('still serves requests that arrive in time, and closes idle keep-alive connections', async () => {
    const res = await exchange('GET /api/leagues HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(res.status).toBe(200);
  });

  it('takes its settings from HTTP_* variables, checking that the headers fit in the request time', () => {
    expect(loadConfig({ APP_ENV: 'test' }).http).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 60_000,
      keepAliveTimeoutMs: 5000,
      checkIntervalMs: 1000,
    });
    expect(
      loadConfig({ APP_ENV: 'test', HTTP_HEADERS_TIMEOUT_SECONDS: '1', HTTP_REQUEST_TIMEOUT_SECONDS: '2', HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '3' }).http,
    ).toEqual({
      headersTimeoutMs: 1000,
      requestTimeoutMs: 2000,
      keepAliveTimeoutMs: 3000,
      checkIntervalMs: 500,
    });
    expect(() => loadConfig({ APP_ENV: 'test', HTTP_HEADERS_TIMEOUT_SECONDS: '30', HTTP_REQUEST_TIMEOUT_SECONDS: '20' })).toThrow(
      /HTTP_REQUEST_TIMEOUT_SECONDS \(20\) must be at least HTTP_HEADERS_TIMEOUT_SECONDS \(30\)/,
    );
  });
});

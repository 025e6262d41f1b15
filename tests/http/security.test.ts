/**
 * Security headers on every response and CORS on the JSON API
 * (src/http/security.ts).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import type { RequestHandler } from 'express';
import { apiCors, constantWrites, corsFor, helmetFor, securityHeaders } from '../../src/http/security.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

describe('security headers', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ config: { trustProxy: 1 } });
  });
  afterAll(() => app?.close());

  it("forbid framing and sniffing everywhere, with a policy that admits only this origin's scripts", async () => {
    for (const path of ['/api/leagues', '/docs', '/redoc', '/admin/login', '/openapi.json', '/api/nowhere']) {
      const res = await fetch(`${app.url}${path}`);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).toContain("object-src 'none'");
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), path).toBe('no-referrer');
    }
    // Swagger UI and ReDoc need inline styles; the operator UI does not get them.
    expect((await fetch(`${app.url}/docs`)).headers.get('content-security-policy')).toContain("style-src 'self' 'unsafe-inline'");
    expect((await fetch(`${app.url}/admin/login`)).headers.get('content-security-policy')).toContain("style-src 'self';");
  });

  it('pins HTTPS (HSTS) only on requests that arrived over TLS', async () => {
    expect((await fetch(`${app.url}/api/leagues`)).headers.get('strict-transport-security')).toBeNull();
    const tls = await fetch(`${app.url}/api/leagues`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(tls.headers.get('strict-transport-security')).toBe('max-age=15552000');
  });
});

describe('CORS of the JSON API', () => {
  let any: TestApp;
  let listed: TestApp;
  beforeAll(async () => {
    any = await startTestApp();
    listed = await startTestApp({ config: { corsOrigins: ['https://play.example.com', 'http://localhost:3000'] } });
  });
  afterAll(async () => {
    await any?.close();
    await listed?.close();
  });

  const preflight = (app: TestApp, path: string, origin: string, method: string) =>
    fetch(`${app.url}${path}`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization,content-type' },
    });

  it('lets any origin call the API with a Bearer key by default, and answers preflights', async () => {
    const res = await any.request('GET', '/api/leagues', { headers: { origin: 'https://frontend.example.org' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toBe('Retry-After,Content-Disposition,WWW-Authenticate,Allow,X-Error-Code');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();

    const pre = await preflight(any, '/api/question-answers', 'https://frontend.example.org', 'PUT');
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-methods')).toBe('GET,POST,PUT,PATCH,DELETE');
    expect(pre.headers.get('access-control-allow-headers')).toBe('Authorization,Content-Type');
    expect(pre.headers.get('access-control-max-age')).toBe('600');
    // The contract, too: frontend tools load it cross-origin.
    expect((await fetch(`${any.url}/openapi.json`, { headers: { origin: 'https://frontend.example.org' } })).headers.get('access-control-allow-origin')).toBe(
      '*',
    );
  });

  it('keeps the operator UI (cookie sessions) same-origin', async () => {
    const res = await fetch(`${any.url}/admin/login`, { headers: { origin: 'https://evil.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const pre = await preflight(any, '/admin/api-session', 'https://evil.example', 'POST');
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers only the listed origins when CORS_ORIGINS names them', async () => {
    const ok = await listed.request('GET', '/api/leagues', { headers: { origin: 'http://localhost:3000' } });
    expect(ok.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    expect(ok.headers.get('vary')).toMatch(/Origin/);
    const other = await listed.request('GET', '/api/leagues', { headers: { origin: 'https://evil.example' } });
    expect(other.status).toBe(200);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect((await preflight(listed, '/api/leagues', 'https://play.example.com', 'GET')).headers.get('access-control-allow-origin')).toBe(
      'https://play.example.com',
    );
  });

  it('reads CORS_ORIGINS: unset or * any, a list of origins, empty none; anything else is a clear error', () => {
    expect(loadConfig({ APP_ENV: 'test' }).corsOrigins).toBe('*');
    expect(loadConfig({ APP_ENV: 'test', CORS_ORIGINS: '*' }).corsOrigins).toBe('*');
    expect(loadConfig({ APP_ENV: 'test', CORS_ORIGINS: ' https://a.example , http://localhost:3000 ' }).corsOrigins).toEqual([
      'https://a.example',
      'http://localhost:3000',
    ]);
    expect(loadConfig({ APP_ENV: 'test', CORS_ORIGINS: '' }).corsOrigins).toEqual([]);
    for (const bad of ['a.example', 'https://a.example/', 'https://a.example/path', 'ftp://a.example']) {
      expect(() => loadConfig({ APP_ENV: 'test', CORS_ORIGINS: bad })).toThrow(ConfigError);
    }
    expect(() => loadConfig({ APP_ENV: 'test', CORS_ORIGINS: 'a.example' })).toThrow(/give scheme, host and port only/);
  });

  it('sends no CORS headers at all when CORS_ORIGINS is empty', async () => {
    const none = await startTestApp({ config: { corsOrigins: [] } });
    try {
      const res = await none.request('GET', '/api/leagues', { headers: { origin: 'https://frontend.example.org' } });
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await none.close();
    }
  });
});

describe('constant header writes, recorded once and replayed', () => {
  const samples: { method: string; path: string; headers: Record<string, string> }[] = [
    { method: 'GET', path: '/api/leagues', headers: {} },
    { method: 'PUT', path: '/admin/x', headers: { origin: 'https://one.example' } },
  ];
  const res = (writes: unknown[]) => ({
    setHeader: (n: string, v: string) => writes.push(['set', n, v]),
    removeHeader: (n: string) => writes.push(['remove', n]),
  });

  it("keeps helmet's and CORS's writes (for any origin, outside preflights): the same calls in the same order as the middleware itself", () => {
    const recorded = (middleware: RequestHandler, sample: (typeof samples)[number]) => {
      const writes: unknown[] = [];
      const next = vi.fn();
      middleware({ ...sample, url: sample.path, secure: false } as never, res(writes) as never, next);
      expect(next).toHaveBeenCalledWith();
      return writes;
    };
    for (const sample of samples) {
      const own = recorded(helmetFor(["'self'", "'unsafe-inline'"]), sample);
      expect(own.length).toBeGreaterThan(10);
      if (!sample.path.startsWith('/admin')) expect(recorded(securityHeaders(), sample)).toEqual(own);
      expect(recorded(apiCors('*')!, sample)).toEqual(recorded(corsFor('*'), sample));
    }
    expect(recorded(securityHeaders(), samples[1]!)).toEqual(recorded(helmetFor(["'self'"]), samples[1]!));
    const writes = constantWrites((_req, r, next) => {
      r.setHeader('A', '1');
      r.removeHeader('B');
      next();
    }, samples);
    expect(writes).toEqual([
      ['set', 'A', '1'],
      ['remove', 'B'],
    ]);
  });

  it('leaves a middleware whose writes depend on the request, fail, or use anything else to run as itself', () => {
    expect(constantWrites((req, r, next) => (r.setHeader('Vary', String(req.headers.origin)), next()), samples)).toBeNull();
    expect(constantWrites((req, r, next) => (r.setHeader('Access-Control-Allow-Origin', String(req.headers.origin)), next()), samples)).toBeNull();
    expect(constantWrites((_req, _r, next) => next(new Error('no')), samples)).toBeNull();
    expect(constantWrites((_req, r) => void r.status(204), samples)).toBeNull();
    expect(constantWrites(() => undefined, samples)).toBeNull();
    // CORS for listed origins reflects the caller's origin: not constant.
    expect(constantWrites(apiCors(['https://one.example'])!, samples)).toBeNull();
  });
});

/**
 * Browser-facing protections of every response, and cross-origin access to
 * the JSON API.
 *
 * Headers (helmet): a Content-Security-Policy that allows only this origin's
 * scripts (Swagger UI, ReDoc and the operator UI load theirs from here, none
 * inline), this origin's styles (plus inline ones outside `/admin`: Swagger
 * UI and ReDoc set them; the operator UI does not), images from anywhere (brand
 * logos live in the object store) and no framing at all (the operator UI
 * cannot be clickjacked); nosniff, no referrer, same-origin opener. HSTS only
 * on requests that arrived over TLS (directly, or per X-Forwarded-Proto with
 * TRUST_PROXY), so a plain-HTTP development server never pins a host.
 *
 * CORS: the JSON API (`/api/...`) and `/openapi.json` answer cross-origin
 * requests from the origins in `CORS_ORIGINS` (default `*`). Keys travel in
 * the Authorization header, never in cookies, so no credentials mode is
 * needed and `*` exposes nothing a page could not already fetch with a key it
 * holds. The operator UI (`/admin`, cookie sessions) is same-origin only.
 */
import cors from 'cors';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import type { Config } from '../config.js';

/** helmet with this service's policy (`styleSrc` differs for the operator UI). */
export const helmetFor = (styleSrc: string[]) =>
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc,
        imgSrc: ["'self'", 'data:', 'blob:', 'https:', 'http:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
  });

type Write = ['set', string, string | number | readonly string[]] | ['remove', string];

/**
 * The header writes of a middleware whose writes do not depend on the request (helmet with fixed
 * directives; CORS for any origin, outside preflights): it runs on recording responses for a few unlike
 * requests, and its writes (setHeader, removeHeader, in order) are kept if they are the same each time
 * and it called next() at once without an error. Null when not (it then runs as itself).
 */
export function constantWrites(middleware: RequestHandler, samples: { method: string; path: string; headers: Record<string, string> }[]): Write[] | null {
  const recordings: Write[][] = [];
  for (const sample of samples) {
    const writes: Write[] = [];
    const res = {
      setHeader: (name: string, value: string | number | readonly string[]) => void writes.push(['set', name, value]),
      removeHeader: (name: string) => void writes.push(['remove', name]),
    };
    let nexts = 0;
    let failed = false;
    try {
      middleware({ ...sample, url: sample.path } as unknown as Request, res as unknown as Response, (err?: unknown) => {
        nexts++;
        if (err !== undefined) failed = true;
      });
    } catch {
      return null;
    }
    if (failed || nexts !== 1) return null;
    recordings.push(writes);
  }
  const first = JSON.stringify(recordings[0]);
  return recordings.every((r) => JSON.stringify(r) === first) ? recordings[0]! : null;
}

/** A middleware that makes `writes` and goes on. */
const replaying =
  (writes: Write[]): RequestHandler =>
  (_req, res, next) => {
    for (const write of writes) {
      if (write[0] === 'set') res.setHeader(write[1], write[2]);
      else res.removeHeader(write[1]);
    }
    next();
  };

/** Requests unlike each other, for constantWrites. */
const SAMPLES: { method: string; path: string; headers: Record<string, string> }[] = [
  { method: 'GET', path: '/api/leagues', headers: {} },
  { method: 'PUT', path: '/admin/x', headers: { origin: 'https://one.example', 'access-control-request-method': 'PUT', authorization: 'Bearer x' } },
  { method: 'HEAD', path: '/docs', headers: { origin: 'http://localhost:3000', cookie: 'a=b' } },
];

/** `middleware`, replayed when its writes are constant (see constantWrites). */
const replayedIfConstant = (middleware: RequestHandler): RequestHandler => {
  const writes = constantWrites(middleware, SAMPLES);
  return writes ? replaying(writes) : middleware;
};

export function securityHeaders(): RequestHandler {
  // Swagger UI and ReDoc set inline styles; the operator UI does not and gets the stricter policy.
  // helmet's headers do not depend on the request here: recorded once and replayed (the same writes, in order).
  const inlineStyles = replayedIfConstant(helmetFor(["'self'", "'unsafe-inline'"]));
  const strict = replayedIfConstant(helmetFor(["'self'"]));
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.secure) res.setHeader('Strict-Transport-Security', 'max-age=15552000');
    (req.path === '/admin' || req.path.startsWith('/admin/') ? strict : inlineStyles)(req, res, next);
  };
}

/** CORS of the JSON API; null when CORS_ORIGINS is empty (same-origin only). */
export function apiCors(origins: Config['corsOrigins']): RequestHandler | null {
  if (origins !== '*' && !origins.length) return null;
  const middleware = corsFor(origins);
  // Outside preflights, the headers for any origin do not depend on the request: recorded once and replayed.
  const actual = origins === '*' ? replayedIfConstant(middleware) : middleware;
  return actual === middleware ? middleware : (req, res, next) => (req.method === 'OPTIONS' ? middleware(req, res, next) : actual(req, res, next));
}

/** The cors package with this service's settings. */
export function corsFor(origins: Config['corsOrigins']): RequestHandler {
  return cors({
    origin: origins === '*' ? '*' : origins,
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type'],
    exposedHeaders: ['Retry-After', 'Content-Disposition', 'WWW-Authenticate', 'Allow', 'X-Error-Code'],
    maxAge: 600,
  });
}

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

const helmetFor = (styleSrc: string[]) =>
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

export function securityHeaders(): RequestHandler {
  // Swagger UI and ReDoc set inline styles; the operator UI does not and gets the stricter policy.
  const inlineStyles = helmetFor(["'self'", "'unsafe-inline'"]);
  const strict = helmetFor(["'self'"]);
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.secure) res.setHeader('Strict-Transport-Security', 'max-age=15552000');
    (req.path === '/admin' || req.path.startsWith('/admin/') ? strict : inlineStyles)(req, res, next);
  };
}

/** CORS of the JSON API; null when CORS_ORIGINS is empty (same-origin only). */
export function apiCors(origins: Config['corsOrigins']): RequestHandler | null {
  if (origins !== '*' && !origins.length) return null;
  return cors({
    origin: origins === '*' ? '*' : origins,
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type'],
    exposedHeaders: ['Retry-After', 'Content-Disposition', 'WWW-Authenticate', 'Allow', 'X-Error-Code'],
    maxAge: 600,
  });
}

/**
 * GET /metrics on the service's own port: served only when METRICS_TOKEN is
 * set, to `Authorization: Bearer <METRICS_TOKEN>` (compared in constant
 * time); otherwise it is not there (404, like any unknown path). The
 * internal OPS_PORT serves it without a token (src/http/ops-server.ts).
 */
import { timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { scrape } from './metrics.js';

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

export function metricsMiddleware(token: string | null) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD') || token === null) return next();
    const m = /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '');
    if (!m || !sameSecret(m[1]!, token)) {
      res
        .status(401)
        .set('WWW-Authenticate', 'Bearer realm="metrics"')
        .type('application/json')
        .send(JSON.stringify({ detail: 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>' }));
      return;
    }
    scrape().then(
      ({ contentType, body }) => res.set('Cache-Control', 'no-store').type(contentType).send(body),
      (err: unknown) => next(err),
    );
  };
}

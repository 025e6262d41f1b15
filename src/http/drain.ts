/**
 * Graceful shutdown of the HTTP side: counts requests in flight, and once
 * draining starts, answers every new request with 503, Retry-After and
 * `Connection: close` (clients of keep-alive connections go elsewhere
 * instead of being cut), and asks for `Connection: close` on the responses
 * still to come. A request in flight is never cut by it: its handler
 * finishes, and its response (a login's new key, say) is delivered.
 */
import type { NextFunction, Request, Response } from 'express';
import { retryLater } from '../errors.js';

export interface Drain {
  /** Express middleware; install it first. */
  middleware(req: Request, res: Response, next: NextFunction): void;
  /** Starts draining: new requests are refused from now on. */
  start(): void;
  readonly draining: boolean;
  /** Requests whose response has not finished yet. */
  readonly inFlight: number;
  /** Resolves when no request is in flight (at once when none is). */
  idle(): Promise<void>;
}

export function createDrain(): Drain {
  const open = new Set<Response>();
  let draining = false;
  const waiters: (() => void)[] = [];

  const settle = (res: Response) => {
    if (!open.delete(res) || open.size) return;
    for (const wake of waiters.splice(0)) wake();
  };

  return {
    get draining() {
      return draining;
    },
    get inFlight() {
      return open.size;
    },
    middleware(req, res, next) {
      if (draining) {
        const refusal = retryLater('service.shutting_down', 'the server is shutting down');
        res
          .status(refusal.status)
          .set({ ...refusal.headers, Connection: 'close' })
          .type('application/json')
          .send(JSON.stringify({ detail: refusal.message }));
        // Whatever the client still sends on this connection is not read.
        req.resume();
        return;
      }
      open.add(res);
      res.once('close', () => settle(res));
      next();
    },
    start() {
      if (draining) return;
      draining = true;
      for (const res of open) if (!res.headersSent) res.setHeader('Connection', 'close');
    },
    idle() {
      if (!open.size) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
  };
}

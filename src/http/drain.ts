/**
 * Graceful shutdown of the HTTP side: counts requests in flight, and once
 * draining starts, answers every new request with 503, Retry-After and
 * `Connection: close` (clients of keep-alive connections go elsewhere
 * instead of being cut), and asks for `Connection: close` on the responses
 * still to come. A request in flight is never cut by it: its handler
 * finishes, and its response (a login's new key, say) is delivered.
 */
import type { Server } from 'node:http';
import net from 'node:net';
import type { NextFunction, Request, Response } from 'express';
import { retryLater } from '../errors.js';
import { ERROR_CODE_HEADER } from './error-mapping.js';

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

/** `onStart` runs when draining starts (readiness turns to 503 then). */
export function createDrain({ onStart }: { onStart?: () => void } = {}): Drain {
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
          .set({ ...refusal.headers, [ERROR_CODE_HEADER]: refusal.code, Connection: 'close' })
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
      onStart?.();
      for (const res of open) if (!res.headersSent) res.setHeader('Connection', 'close');
    },
    idle() {
      if (!open.size) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
  };
}

/**
 * Shuts the HTTP side down: stops accepting connections, drains (see
 * createDrain) until no request is in flight or `timeoutMs` passed, gives
 * open keep-alive connections a moment to get their 503 and close, then
 * closes whatever is left. Resolves with the number of requests cut (in
 * flight at the timeout).
 *
 * The listener is closed as a plain net.Server: http.Server#close would also
 * drop idle keep-alive connections at once, resetting a request a client is
 * sending on one at that moment, where a 503 with Connection: close tells it
 * to go elsewhere.
 */
export async function shutDownHttp(server: Server, drain: Drain, { timeoutMs, graceMs = 1000 }: { timeoutMs: number; graceMs?: number }): Promise<number> {
  drain.start();
  net.Server.prototype.close.call(server);
  const until = (ms: number) => new Promise<false>((resolve) => setTimeout(() => resolve(false), ms).unref());
  const drained = await Promise.race([drain.idle().then(() => true), until(timeoutMs)]);
  const cut = drained ? 0 : drain.inFlight;
  const graceEnd = Date.now() + graceMs;
  while (Date.now() < graceEnd && (await openConnections(server)) > 0) await until(25);
  server.closeAllConnections();
  return cut;
}

const openConnections = (server: Server) => new Promise<number>((resolve) => server.getConnections((err, count) => resolve(err ? 0 : count)));

/**
 * Every error the HTTP layer itself answers with (routing, request reading
 * and validation, the connection, the process): its status, its stable code
 * (X-Error-Code) and its message. Authentication's are in the auth module.
 */
import { errorFactory, quote, type ValidationIssue } from '../errors.js';

/** Seconds a client is told to wait (Retry-After) when the database is out of reach or the process is shutting down. */
export const RETRY_AFTER_SECONDS = 2;

/** 503 with Retry-After: try again shortly (the key stays valid; nothing to fix on the client's side). */
const retryLater = (reason: string) => `the service is temporarily unavailable (${reason}); retry after ${RETRY_AFTER_SECONDS} seconds`;
const RETRY_AFTER = () => ({ headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } });

export const httpErrors = {
  /** No route: `request` (method and path) is named when the request reached the router. */
  routeNotFound: errorFactory(404, 'route.not_found', (request?: { method: string; path: string }) =>
    request ? `no route for ${request.method} ${quote(request.path)}` : 'no route matches this request',
  ),
  /** A known path and another method; `allowed` (also sent in Allow) when the router knows it. */
  methodNotAllowed: errorFactory(
    405,
    'route.method_not_allowed',
    (refused?: { method: string; path: string; allowed: string }) =>
      refused ? `${refused.method} is not allowed on ${quote(refused.path)}; allowed: ${refused.allowed}` : 'method not allowed on this route',
    (refused?: { allowed: string }) => (refused ? { headers: { Allow: refused.allowed } } : {}),
  ),
  /** The request does not match the contract: the issues are the 422 body's `detail`. */
  invalid: errorFactory(
    422,
    'request.invalid',
    (issues: ValidationIssue[]) => issues.map((i) => i.msg).join('; '),
    (issues: ValidationIssue[]) => ({ issues }),
  ),
  /**
   * `what` says which limit: the whole body, a form field, the number of parts. The rest of the body is not
   * read, so the connection closes after the answer.
   */
  tooLarge: errorFactory(
    413,
    'request.too_large',
    (what: string) => what,
    () => ({ headers: { Connection: 'close' } }),
  ),
  notImplemented: errorFactory(501, 'operation.not_implemented', (operationId: string | undefined) => `${operationId} is not implemented yet`),
  databaseUnavailable: errorFactory(503, 'database.unavailable', () => retryLater('database unreachable'), RETRY_AFTER),
  /** Every database connection stayed busy (the database answering): overload, not an outage. Nothing was carried out. */
  overloaded: errorFactory(
    503,
    'service.overloaded',
    () => `the service is overloaded (every database connection is busy); nothing was done; retry after ${RETRY_AFTER_SECONDS} seconds`,
    RETRY_AFTER,
  ),
  /** COMMIT went unanswered: the change may have been stored. Not "nothing was done". */
  outcomeUnknown: errorFactory(
    503,
    'database.outcome_unknown',
    () =>
      `the database did not confirm the change in time: it may have been stored; read it back before repeating it (retry after ${RETRY_AFTER_SECONDS} seconds)`,
    RETRY_AFTER,
  ),
  shuttingDown: errorFactory(503, 'service.shutting_down', () => retryLater('the server is shutting down'), RETRY_AFTER),
  /** Anything unexpected: the cause goes to the log only. */
  internal: errorFactory(500, 'internal.error', () => 'internal server error; the incident has been logged'),
  // The connection-level answers (server-limits.ts), written to the socket before a request exists.
  requestTimeout: errorFactory(
    408,
    'request.timeout',
    (headersSeconds: number, requestSeconds: number) =>
      `the request did not arrive in time (headers within ${headersSeconds} s, the whole request within ${requestSeconds} s)`,
  ),
  headersTooLarge: errorFactory(431, 'request.headers_too_large', () => 'the request headers are too large'),
  malformed: errorFactory(400, 'request.malformed', () => 'malformed HTTP request'),
};

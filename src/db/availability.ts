/**
 * "The database could not be asked" as opposed to "the database said no":
 * a connection refused, reset or timed out, a server shutting down or
 * starting up, a statement cancelled for running out of time, or a wait that
 * outlived its budget (src/db/bounded-client.ts). Callers turn these into a
 * retryable answer (HTTP 503 with Retry-After, WebSocket close 1013), never
 * into "not authorized" or "not found".
 */

/** A statement, transaction or connection wait that ran out of its budget. */
export class DatabaseUnavailableError extends Error {
  readonly code = 'DATABASE_UNAVAILABLE';
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseUnavailableError';
  }
}

/** postgres.js's own connection errors, and the socket errors it passes on. */
const DRIVER_CODES = new Set([
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that cannot serve now: admin_shutdown,
 * crash_shutdown, cannot_connect_now (starting up or shutting down),
 * query_canceled (statement_timeout), too_many_connections,
 * idle_in_transaction_session_timeout; and class 08, connection exceptions.
 */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '57014', '53300', '25P03']);

/** Whether err (or an error it wraps: drizzle wraps driver errors in `cause`) means the database could not be reached in time. */
export function isDatabaseUnavailable(err: unknown): boolean {
  let cur: unknown = err;
  for (let depth = 0; depth < 5 && cur && typeof cur === 'object'; depth++) {
    if (cur instanceof DatabaseUnavailableError) return true;
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string' && (DRIVER_CODES.has(code) || SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    // A connection refused to every address of a host arrives as an AggregateError of socket errors.
    if (cur instanceof AggregateError && cur.errors.length && cur.errors.every((e) => isDatabaseUnavailable(e))) return true;
    cur = (cur as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Errors of a connection attempt, before any statement was sent on it: the
 * statement that asked for the connection can be sent again safely.
 */
const CONNECT_CODES = new Set(['ECONNREFUSED', 'CONNECT_TIMEOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', '57P03', '53300']);

/** Whether err (or what it wraps) is the failure of a connection attempt (nothing was sent on it). */
export function isConnectFailure(err: unknown): boolean {
  let cur: unknown = err;
  for (let depth = 0; depth < 5 && cur && typeof cur === 'object'; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string' && CONNECT_CODES.has(code)) return true;
    if (cur instanceof AggregateError && cur.errors.length && cur.errors.every((e) => isConnectFailure(e))) return true;
    cur = (cur as { cause?: unknown }).cause;
  }
  return false;
}

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
  readonly code: string = 'DATABASE_UNAVAILABLE';
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'DatabaseUnavailableError';
  }
}

/**
 * No connection of the pool became free in time while the database went on
 * answering: the process has more work than connections (overload), the
 * database is up. Retryable like an outage, and reported apart from one.
 */
export class DatabaseBusyError extends DatabaseUnavailableError {
  override readonly code: string = 'DATABASE_BUSY';
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseBusyError';
  }
}

/**
 * COMMIT was sent and no answer came (none in time, or the connection was
 * lost before it): the transaction may have committed or not, and only
 * reading the data tells. Never to be reported as "nothing was done".
 */
export class CommitOutcomeUnknownError extends DatabaseUnavailableError {
  override readonly code: string = 'COMMIT_OUTCOME_UNKNOWN';
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CommitOutcomeUnknownError';
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

/** The first error in err's chain (drizzle wraps driver errors in `cause`) that is an instance of `kind`. */
function inChain<E>(err: unknown, kind: abstract new (...args: never[]) => E): E | undefined {
  let cur: unknown = err;
  for (let depth = 0; depth < 5 && cur && typeof cur === 'object'; depth++) {
    if (cur instanceof kind) return cur;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Whether err (or what it wraps) says the pool was saturated while the database answered (overload, not an outage). */
export const isDatabaseBusy = (err: unknown): boolean => inChain(err, DatabaseBusyError) !== undefined;

/** Whether err (or what it wraps) says a COMMIT went unanswered: the change may be stored. */
export const isCommitOutcomeUnknown = (err: unknown): boolean => inChain(err, CommitOutcomeUnknownError) !== undefined;

/**
 * Whether a failure of COMMIT leaves its outcome unknown: the connection
 * was lost or went silent (the server may have committed before it could
 * answer). A server's own error answer (a statement timeout cancelling
 * COMMIT, a deferred constraint) means it did not commit.
 */
export function commitOutcomeUnknown(err: unknown): boolean {
  if (!isDatabaseUnavailable(err)) return false;
  let cur: unknown = err;
  for (let depth = 0; depth < 5 && cur && typeof cur === 'object'; depth++) {
    if ((cur as { code?: unknown }).code === '57014') return false;
    cur = (cur as { cause?: unknown }).cause;
  }
  return true;
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

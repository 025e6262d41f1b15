/**
 * One error model end to end: each module declares its errors once, in its
 * `<module>.errors.ts`, as named factories (errorFactory: a status, a stable
 * dotted code, a message); services throw them (an AppError); the HTTP layer
 * turns it into the contract's `{"detail": ...}` body and sends the code in
 * X-Error-Code. Only the errors files build errors (ESLint refuses AppError
 * and errorFactory elsewhere).
 */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  /** Extra body fields beside `detail` (for example the import preview on a refused import). */
  readonly body: Record<string, unknown> | undefined;
  readonly issues: ValidationIssue[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    status: number,
    code: string,
    message: string,
    extra: { body?: Record<string, unknown>; issues?: ValidationIssue[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.body = extra.body;
    this.issues = extra.issues;
    this.headers = extra.headers;
  }
}

/** True when `err` is an AppError (a declared error, whatever its module). */
export const isAppError = (err: unknown): err is AppError => err instanceof AppError;

/** How much of a client's text an error message quotes. */
export const QUOTE_MAX = 64;

/** `text` cut to at most `max` characters (an ellipsis says it was), never ending on half of a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let head = text.slice(0, max);
  if (/[\ud800-\udbff]$/.test(head)) head = head.slice(0, -1);
  return `${head}…`;
}

/**
 * A client's text as an error message quotes it: in single quotes, at most
 * `max` characters of it (a long one is cut and its length said), so a
 * message never echoes what was sent whole.
 */
export const quote = (text: string, max = QUOTE_MAX): string => (text.length <= max ? `'${text}'` : `'${clip(text, max)}' (${text.length} characters)`);

/**
 * A named error of an area: calling it builds the AppError (the message from
 * its arguments); `code` and `status` are on the factory itself, so a test
 * can expect exactly that error (`expectError(res, brandErrors.nameTaken)`).
 * Each module declares its errors once, in `<module>.errors.ts`.
 */
export interface ErrorFactory<A extends unknown[] = []> {
  (...args: A): AppError;
  readonly code: string;
  readonly status: number;
  /** True when `err` is this error (an AppError with its code). */
  is(err: unknown): err is AppError;
}

export interface ErrorExtras {
  body?: Record<string, unknown>;
  issues?: ValidationIssue[];
  headers?: Record<string, string>;
}

/** Declares one error: its status, its stable code, its message (and body or headers) from the factory's arguments. */
export function errorFactory<A extends unknown[] = []>(
  status: number,
  code: string,
  message: (...args: A) => string,
  extras?: (...args: A) => ErrorExtras,
): ErrorFactory<A> {
  const build = (...args: A) => new AppError(status, code, message(...args), extras ? extras(...args) : {});
  return Object.assign(build, { code, status, is: (err: unknown): err is AppError => err instanceof AppError && err.code === code });
}

/** True when err is a PostgreSQL unique violation (optionally on the named constraint or index). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = findPgError(err);
  return !!e && e.code === '23505' && (!constraint || e.constraint === constraint || e.constraint_name === constraint);
}

export function isForeignKeyViolation(err: unknown): boolean {
  return findPgError(err)?.code === '23503';
}

/** The driver's `detail` of a PostgreSQL error (which key clashed, say), when it has one. */
export function pgErrorDetail(err: unknown): string | undefined {
  const detail = (findPgError(err) as { detail?: unknown } | undefined)?.detail;
  return typeof detail === 'string' ? detail : undefined;
}

interface PgErrorLike {
  code?: string;
  constraint?: string;
  constraint_name?: string;
}

function findPgError(err: unknown): PgErrorLike | undefined {
  // drizzle wraps driver errors in `cause`; postgres.js and PGlite both carry `code`.
  let cur: unknown = err;
  for (let i = 0; i < 4 && cur; i++) {
    const c = cur as PgErrorLike & { cause?: unknown };
    if (typeof c.code === 'string' && /^[0-9A-Z]{5}$/.test(c.code)) return c;
    cur = c.cause;
  }
  return undefined;
}

/** The one place where any failure becomes the contract's error body. */
import { isCommitOutcomeUnknown, isDatabaseBusy, isDatabaseUnavailable } from '../db/availability.js';
import { clip, isAppError, type ValidationIssue } from '../errors.js';
import { httpErrors } from './http.errors.js';
import type { Logger } from '../logger.js';
import { ISSUE_MSG_MAX } from '../validation-issues.js';

/** The response header that carries an error's stable code (the contract's `ErrorCode` header). */
export const ERROR_CODE_HEADER = 'X-Error-Code';

export interface ErrorResponse {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

/** Longest `detail` text, and longest `msg` and `loc` part of a 422 issue, an answer carries. */
export const DETAIL_MAX = 1000;
const LOC_PART_MAX = 64;
const ISSUES_MAX = 50;

/*
 * The last guard against echoing a client's input whole: messages quote what
 * was sent through `quote`, and whatever still comes out long (a key, or a
 * message built from one) is cut here.
 */
const boundedIssues = (issues: ValidationIssue[]): ValidationIssue[] =>
  issues
    .slice(0, ISSUES_MAX)
    .map((i) => ({ loc: i.loc.map((p) => (typeof p === 'string' ? clip(p, LOC_PART_MAX) : p)), msg: clip(i.msg, ISSUE_MSG_MAX), type: i.type }));

/**
 * AppError -> its status and detail; a database out of reach, every
 * connection busy, or a COMMIT unanswered -> 503 with Retry-After, each with
 * its own code; anything else -> 500 with a generic detail (the cause goes
 * to the log only).
 */
export function toErrorResponse(err: unknown, logger: Logger, context: Record<string, unknown> = {}): ErrorResponse {
  if (!isAppError(err) && isDatabaseUnavailable(err)) {
    const [out, what] = isDatabaseBusy(err)
      ? [httpErrors.overloaded(), 'database connections all busy']
      : isCommitOutcomeUnknown(err)
        ? [httpErrors.outcomeUnknown(), 'COMMIT unconfirmed']
        : [httpErrors.databaseUnavailable(), 'database unavailable'];
    logger.warn({ err: (err as Error).message, ...context }, what);
    return { status: out.status, body: { detail: out.message }, headers: { ...out.headers, [ERROR_CODE_HEADER]: out.code } };
  }
  if (isAppError(err)) {
    const body = err.issues ? { detail: boundedIssues(err.issues) } : { ...(err.body ?? {}), detail: clip(err.message, DETAIL_MAX) };
    if (err.status === 501) logger.warn({ code: err.code, ...context }, err.message);
    else if (err.status >= 500) logger.error({ err, code: err.code, ...context }, err.message);
    return { status: err.status, body, headers: { ...err.headers, [ERROR_CODE_HEADER]: err.code } };
  }
  logger.error({ err, ...context }, 'unhandled error');
  const internal = httpErrors.internal();
  return { status: internal.status, body: { detail: internal.message }, headers: { [ERROR_CODE_HEADER]: internal.code } };
}

/** The one place where any failure becomes the contract's error body. */
import type { ErrorObject } from 'ajv';
import { isDatabaseUnavailable } from '../db/availability.js';
import { clip, isAppError, quote, type ValidationIssue } from '../errors.js';
import { httpErrors } from './http.errors.js';
import type { Logger } from '../logger.js';

const LOC_ROOTS: Record<string, string> = { requestBody: 'body', query: 'query', path: 'path', header: 'header', cookie: 'cookie' };

/** ajv errors of openapi-backend's request validators -> `{loc, msg, type}` issues. */
export function ajvErrorsToIssues(errors: ErrorObject[]): ValidationIssue[] {
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const e of errors) {
    // anyOf/oneOf report their branches' errors too; the branch errors say more.
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf' || e.keyword === 'if') continue;
    const parts = e.instancePath
      .split('/')
      .slice(1)
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    let msg = clip(e.message ?? 'invalid value', ISSUE_MSG_MAX);
    let type: string = e.keyword;
    if (e.keyword === 'required') {
      const prop = (e.params as { missingProperty: string }).missingProperty;
      parts.push(prop);
      msg = prop === 'requestBody' ? 'request body is required' : 'field required';
      type = 'missing';
    } else if (e.keyword === 'additionalProperties') {
      const prop = (e.params as { additionalProperty: string }).additionalProperty;
      parts.push(prop);
      msg = `unknown field ${quote(prop)} (not in the contract, or not settable here)`;
      type = 'extra_forbidden';
    } else if (e.keyword === 'parse') {
      msg = `malformed JSON: ${msg}`;
      type = 'json_invalid';
    }
    const head = parts[0] === undefined ? 'body' : (LOC_ROOTS[parts[0]] ?? parts[0]);
    const loc: (string | number)[] = [head, ...parts.slice(1).map((p) => (/^\d+$/.test(p) ? Number(p) : p))];
    const key = `${loc.join('.')}|${msg}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({ loc, msg, type });
  }
  return issues.length ? issues : [{ loc: ['body'], msg: 'invalid request', type: 'invalid' }];
}

/** The response header that carries an error's stable code (the contract's `ErrorCode` header). */
export const ERROR_CODE_HEADER = 'X-Error-Code';

export interface ErrorResponse {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

/** Longest `detail` text, and longest `msg` and `loc` part of a 422 issue, an answer carries. */
export const DETAIL_MAX = 1000;
const ISSUE_MSG_MAX = 300;
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
 * AppError -> its status and detail; a database out of reach -> 503 with
 * Retry-After; anything else -> 500 with a generic detail (the cause goes to
 * the log only).
 */
export function toErrorResponse(err: unknown, logger: Logger, context: Record<string, unknown> = {}): ErrorResponse {
  if (!isAppError(err) && isDatabaseUnavailable(err)) {
    logger.warn({ err: (err as Error).message, ...context }, 'database unavailable');
    const out = httpErrors.databaseUnavailable();
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

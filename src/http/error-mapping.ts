/** The one place where any failure becomes the contract's error body. */
import type { ErrorObject } from 'ajv';
import { isDatabaseUnavailable } from '../db/availability.js';
import { AppError, databaseUnavailable, type ValidationIssue } from '../errors.js';
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
    let msg = e.message ?? 'invalid value';
    let type: string = e.keyword;
    if (e.keyword === 'required') {
      const prop = (e.params as { missingProperty: string }).missingProperty;
      parts.push(prop);
      msg = prop === 'requestBody' ? 'request body is required' : 'field required';
      type = 'missing';
    } else if (e.keyword === 'additionalProperties') {
      const prop = (e.params as { additionalProperty: string }).additionalProperty;
      parts.push(prop);
      msg = `unknown field '${prop}' (not in the contract, or not settable here)`;
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

export interface ErrorResponse {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

/**
 * AppError -> its status and detail; a database out of reach -> 503 with
 * Retry-After; anything else -> 500 with a generic detail (the cause goes to
 * the log only).
 */
export function toErrorResponse(err: unknown, logger: Logger, context: Record<string, unknown> = {}): ErrorResponse {
  if (!(err instanceof AppError) && isDatabaseUnavailable(err)) {
    logger.warn({ err: (err as Error).message, ...context }, 'database unavailable');
    const out = databaseUnavailable();
    return { status: out.status, body: { detail: out.message }, headers: out.headers ?? {} };
  }
  if (err instanceof AppError) {
    const body = err.issues ? { detail: err.issues } : { ...(err.body ?? {}), detail: err.message };
    if (err.status === 501) logger.warn({ code: err.code, ...context }, err.message);
    else if (err.status >= 500) logger.error({ err, code: err.code, ...context }, err.message);
    return { status: err.status, body, headers: err.headers ?? {} };
  }
  logger.error({ err, ...context }, 'unhandled error');
  return { status: 500, body: { detail: 'internal server error; the incident has been logged' }, headers: {} };
}

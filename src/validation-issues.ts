/**
 * What the contract's generated validators (ajv) report, as the `{loc, msg,
 * type}` issues of a 422 body: the HTTP layer answers a request with them,
 * and the CSV import reports a row's cells with them.
 */
import type { ErrorObject } from 'ajv';
import { clip, quote, type ValidationIssue } from './errors.js';

/** Longest `msg` of an issue. */
export const ISSUE_MSG_MAX = 300;

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

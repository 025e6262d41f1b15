/**
 * Asserting on an error, not on its prose: a test names the declared error
 * (`expectError(res, brandErrors.nameTaken)`) and gets its status and its
 * stable code, the one a client branches on (the X-Error-Code header).
 */
import { expect } from 'vitest';

export interface ErrorAnswer {
  status: number;
  headers: Headers;
  /** The body, when the caller read it (a test client's response); a fetch Response's is not read here. */
  text?: unknown;
}

/** The answer is exactly this declared error: its status, and its code in X-Error-Code. */
export function expectError(res: ErrorAnswer, error: { readonly status: number; readonly code: string }): void {
  const got = { status: res.status, code: res.headers.get('x-error-code') };
  const body = typeof res.text === 'string' ? res.text.slice(0, 300) : '';
  expect(got, `expected ${error.status} ${error.code}; the answer: ${body}`).toEqual({ status: error.status, code: error.code });
}

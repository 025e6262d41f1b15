/**
 * The request validators generated from the contract (generated/request-validators.js: ajv's standalone code,
 * 1.2 MB), loaded once on first need instead of by every start: parsing them was about 20 ms of a start's CPU.
 * The API loads them right after the process is ready; a request that comes first waits for them.
 */
import type { ValidateFunction } from 'ajv';

/** Validators per operationId, in the order openapi-backend builds them ([requestBody?, params]). */
export type RequestValidators = Readonly<Record<string, ValidateFunction[] | undefined>>;

let loading: Promise<RequestValidators> | undefined;

export function loadRequestValidators(): Promise<RequestValidators> {
  return (loading ??= import('../generated/request-validators.js').then((m) => m.requestValidators as RequestValidators));
}

// DO NOT EDIT: generated from openapi/openapi.yaml by `npm run generate`.
import type { ValidateFunction } from 'ajv';
import type { operations } from './api-types.js';

/** JSON response validators per operationId and status code. */
export declare const responseValidators: Record<keyof operations, Record<string, ValidateFunction>>;

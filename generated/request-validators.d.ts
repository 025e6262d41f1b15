// DO NOT EDIT: generated from openapi/openapi.yaml by `npm run generate`.
import type { ValidateFunction } from 'ajv';
import type { operations } from './api-types.js';

/** Validators per operationId, in the order openapi-backend builds them ([requestBody?, params]). */
export declare const requestValidators: Record<keyof operations, ValidateFunction[]>;

/** What the shared helpers of the modules say; each module declares the error (its code) under which they say it. */
import { errorFactory, type ErrorFactory } from '../../errors.js';

/** The message of a time range given by half (`<name>_from` without `<name>_to`, or the reverse). */
export const halfRangeMessage = (name: string) => `${name}_from and ${name}_to must be given together (from inclusive, to exclusive)`;

/**
 * The error of a half-given range under a code the caller names: only for
 * the definitions catalogue, until it declares its own errors file (it is
 * converted next); every other module passes its declared error.
 */
export const halfRangeUnderCode = (code: string): ErrorFactory<[name: string]> => errorFactory(400, code, halfRangeMessage);

/**
 * What the shared helpers of the modules say; each module declares the error
 * (its code) under which they say it (`invalidRange: errorFactory(400,
 * 'match.invalid_range', halfRangeMessage)`).
 */

/** The message of a time range given by half (`<name>_from` without `<name>_to`, or the reverse). */
export const halfRangeMessage = (name: string) => `${name}_from and ${name}_to must be given together (from inclusive, to exclusive)`;

/**
 * The least time a wait of the test helpers (waitFor, a stream client's take, the mail catcher's take) waits for
 * anything, whatever bound its caller wrote: those are written for a quiet machine, and a busy one (a load of 20-30 on
 * 2 cores) takes 10-15 times as long. A bound only decides how long a wait for an event that never comes takes to fail.
 */
export const MIN_WAIT_BOUND_MS = 60_000;

/** The bound a wait applies for a caller's `timeoutMs`. */
export const waitBound = (timeoutMs: number) => Math.max(timeoutMs, MIN_WAIT_BOUND_MS);

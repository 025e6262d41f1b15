/**
 * Long work on the event loop, cut into slices. The loop is shared by every
 * player's request and socket, so work that goes over many items (rows of a
 * CSV import, the expressions of a definition, a map of extracts) calls
 * `yieldIfBusy()` between items: once the current turn of the loop has run
 * for more than a slice, it waits for the next turn (`setImmediate`), and
 * whatever else is ready (I/O, timers, other requests) runs first. Within a
 * slice it costs a clock read; ordinary requests never yield at all.
 */

/** How long one turn may run before work that slices itself yields. */
export const SLICE_MS = 10;

let turnStart: number | undefined;

/**
 * Milliseconds this turn of the event loop has run since work in it first
 * asked (the turn is taken to end when the next `setImmediate` runs).
 */
export function turnElapsed(): number {
  const now = performance.now();
  if (turnStart === undefined) {
    turnStart = now;
    setImmediate(() => {
      turnStart = undefined;
    });
  }
  return now - turnStart;
}

/** Yields to the event loop when this turn has run for more than `sliceMs`; else resolves at once. */
export async function yieldIfBusy(sliceMs = SLICE_MS): Promise<void> {
  if (turnElapsed() <= sliceMs) return;
  await new Promise<void>((resolve) => setImmediate(resolve));
}

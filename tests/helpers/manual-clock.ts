/**
 * A clock that moves only when the test says (advance): for a throttle of the service's that takes a ThrottleClock
 * (src/live/hub.ts), so the test, not the machine's speed, decides what falls inside an interval. Unlike vitest's fake
 * timers it touches no other timer of the process (postgres.js's pool waits on one of its own).
 */
import type { ThrottleClock } from '../../src/live/hub.js';

export interface ManualClock extends ThrottleClock {
  /** Moves the clock on by `ms` and runs, in time order, every timer due by then. */
  advance(ms: number): void;
  /** Timers waiting. */
  readonly pending: number;
}

export function manualClock(start = Date.now()): ManualClock {
  let now = start;
  const timers = new Set<{ at: number; fn: () => void }>();
  return {
    now: () => now,
    after(ms, fn) {
      const timer = { at: now + ms, fn };
      timers.add(timer);
      return () => void timers.delete(timer);
    },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const next = [...timers].filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
        if (!next) break;
        timers.delete(next);
        now = Math.max(now, next.at);
        next.fn();
      }
      now = until;
    },
    get pending() {
      return timers.size;
    },
  };
}

/**
 * Replays a recorded feed at a speed factor: what test matches (clones of
 * closed matches) and the demo push server run on. Events come out spaced by
 * their occurred_at differences divided by `speed`, with long gaps (half time)
 * capped so a replay never stalls; a takeover resumes with `skip` (what it
 * already consumed: a recording's order, not its seqs, which may jump, repeat
 * or restart).
 *
 * Stopping: when `signal` aborts, the iterator ends quietly (no throw), also
 * in the middle of a wait. Events are replayed in the order given (a
 * recording's order), and a gap that is negative (out-of-order times) is 0.
 */
import type { FeedEvent } from '../../domain/sports/events.js';

export interface ReplayOptions {
  /** 1 = real time, 10 = ten times faster; Infinity = no waiting. */
  speed: number;
  signal?: AbortSignal;
  /** Skip the first this many events (already consumed). */
  skip?: number;
  /** Longest gap, in recorded milliseconds, honoured between two events (default 30,000; divided by speed). */
  maxGapMs?: number;
}

/** Resolves after `ms`, or early (false) when the signal aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The wait before each event of `events` (ms, after speed and the cap); the first is 0. */
export function replayDelays(events: readonly FeedEvent[], speed: number, maxGapMs = 30_000): number[] {
  if (!(speed > 0)) throw new Error('speed must be a positive number');
  let previous: number | null = null;
  return events.map((e) => {
    const t = Date.parse(e.occurred_at);
    const gap = previous === null || Number.isNaN(t) ? 0 : Math.max(0, Math.min(t - previous, maxGapMs));
    if (!Number.isNaN(t)) previous = t;
    return speed === Infinity ? 0 : gap / speed;
  });
}

export async function* replay(events: readonly FeedEvent[], opts: ReplayOptions): AsyncGenerator<FeedEvent, void, undefined> {
  const remaining = events.slice(opts.skip ?? 0);
  const delays = replayDelays(remaining, opts.speed, opts.maxGapMs);
  for (const [i, event] of remaining.entries()) {
    if (opts.signal?.aborted) return;
    if (!(await abortableSleep(delays[i]!, opts.signal))) return;
    yield event;
  }
}

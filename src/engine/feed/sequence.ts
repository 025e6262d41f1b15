/**
 * The resume point of a feed: what a reconnect (`?after_seq=`) and a
 * takeover ask for. Providers number their messages, but numbers misbehave:
 * a jump (one message numbered 2,000,000,000), a regression (a provider that
 * restarted its numbering, or a late correction under an old number), two
 * messages sharing a number. The rules:
 *
 * - A message is never refused for its number: whether it is new is decided
 *   by its content (provider event id, operation, content; see dedupeKey).
 * - The resume point only advances through a contiguous run: the message
 *   numbered `resumeAfter + 1` moves it on, and on through the numbers
 *   already received above it. A jump is held above it (`ahead`) until the
 *   gap fills; a gap that never fills keeps the resume point where it was,
 *   and every reconnect then asks for the messages after it again (their
 *   content dedupes them).
 * - A message at or below the resume point is a regression: accepted if its
 *   content is new, the resume point stays. A NEW message numbered 1 while
 *   the resume point is above 1 is a restart of the numbering: the resume
 *   point restarts at 1, so a reconnect asks the provider's new numbering
 *   for what follows.
 */

export interface SequenceState {
  /** Every message numbered up to this one has arrived. */
  resumeAfter: number;
  /** Numbers received above `resumeAfter + 1` (held until the gap below them fills). */
  ahead: ReadonlySet<number>;
}

export type SequenceVerdict =
  /** The next number: the resume point moved on. */
  | 'next'
  /** Above the next number: held until the gap fills. */
  | 'jump'
  /** At or below the resume point. */
  | 'regression'
  /** A new message numbered 1: the provider restarted its numbering. */
  | 'restart';

/** Numbers held above the resume point, at most (a feed that only jumps does not grow it without bound). */
const MAX_AHEAD = 100_000;

export function startSequence(resumeAfter: number, received: Iterable<number> = []): SequenceState {
  let state: SequenceState = { resumeAfter, ahead: new Set() };
  for (const seq of received) if (seq > resumeAfter) state = observeSequence(state, seq, false).state;
  return state;
}

/**
 * One message numbered `seq` arrived (`isNew`: its content was not consumed
 * before). Returns the new state and what the number was.
 */
export function observeSequence(state: SequenceState, seq: number, isNew: boolean): { state: SequenceState; verdict: SequenceVerdict } {
  const r = state.resumeAfter;
  if (seq === r + 1) {
    let resumeAfter = seq;
    let ahead = state.ahead;
    if (ahead.has(resumeAfter + 1)) {
      const rest = new Set(ahead);
      while (rest.delete(resumeAfter + 1)) resumeAfter += 1;
      ahead = rest;
    }
    return { state: { resumeAfter, ahead }, verdict: 'next' };
  }
  if (seq > r + 1) {
    if (state.ahead.has(seq) || state.ahead.size >= MAX_AHEAD) return { state, verdict: 'jump' };
    return { state: { resumeAfter: r, ahead: new Set(state.ahead).add(seq) }, verdict: 'jump' };
  }
  if (isNew && seq === 1 && r > 1) return { state: { resumeAfter: 1, ahead: new Set() }, verdict: 'restart' };
  return { state, verdict: 'regression' };
}

import { describe, expect, it } from 'vitest';
import { observeSequence, startSequence, type SequenceState } from '../../../src/engine/feed/sequence.js';

const run = (start: SequenceState, seqs: [number, boolean][]) => {
  let state = start;
  const verdicts: string[] = [];
  for (const [seq, isNew] of seqs) {
    const out = observeSequence(state, seq, isNew);
    state = out.state;
    verdicts.push(`${seq}:${out.verdict}:${state.resumeAfter}`);
  }
  return verdicts;
};

describe('the resume point of a feed', () => {
  it('advances through contiguous numbers only; a jump waits above it until the gap fills', () => {
    expect(
      run(startSequence(0), [
        [1, true],
        [2, true],
        [5, true],
        [3, true],
        [4, true],
        [6, true],
      ]),
    ).toEqual(['1:next:1', '2:next:2', '5:jump:2', '3:next:3', '4:next:5', '6:next:6']);
  });

  it('never moves for an absurd number: the next contiguous one goes on', () => {
    expect(
      run(startSequence(10), [
        [2_000_000_000, true],
        [11, true],
        [12, true],
      ]),
    ).toEqual(['2000000000:jump:10', '11:next:11', '12:next:12']);
  });

  it('stays on a regression (new content below it) and counts a redelivery under the next number', () => {
    expect(
      run(startSequence(5), [
        [3, true],
        [6, false],
        [2, false],
      ]),
    ).toEqual(['3:regression:5', '6:next:6', '2:regression:6']);
  });

  it('restarts at 1 for new content numbered 1 (a provider that restarted its numbering), not for a redelivery of 1', () => {
    expect(
      run(startSequence(40), [
        [1, false],
        [1, true],
        [2, true],
      ]),
    ).toEqual(['1:regression:40', '1:restart:1', '2:next:2']);
  });

  it('two messages sharing a number: the second is a regression, both are kept by the reader', () => {
    expect(
      run(startSequence(0), [
        [1, true],
        [2, true],
        [2, true],
        [3, true],
      ]),
    ).toEqual(['1:next:1', '2:next:2', '2:regression:2', '3:next:3']);
  });

  it('starts from a saved resume point and what was received above it (a takeover)', () => {
    const s = startSequence(7, [1, 2, 7, 9, 10]);
    expect(s).toEqual({ resumeAfter: 7, ahead: new Set([9, 10]) });
    expect(run(s, [[8, false]])).toEqual(['8:next:10']);
  });
});

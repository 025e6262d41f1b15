import { describe, expect, it } from 'vitest';
import type { FeedEvent } from '../../../src/domain/sports/events.js';
import { replay, replayDelays } from '../../../src/engine/feed/replay.js';

const t0 = Date.parse('2030-01-01T12:00:00.000Z');
const ev = (seq: number, offsetMs: number): FeedEvent => ({
  provider_event_id: `r:${seq}`,
  seq,
  operation: 'create',
  type: 'pass',
  period: '1',
  clock_seconds: Math.floor(offsetMs / 1000),
  occurred_at: new Date(t0 + offsetMs).toISOString(),
  team: 'home',
  score: { home: 0, away: 0 },
  final: true,
  data: {},
});

async function timed(iter: AsyncIterable<FeedEvent>): Promise<Array<[number, number]>> {
  const start = performance.now();
  const out: Array<[number, number]> = [];
  for await (const e of iter) out.push([e.seq, performance.now() - start]);
  return out;
}

describe('replay', () => {
  it('computes waits from occurred_at gaps, divided by speed and capped', () => {
    const events = [ev(1, 0), ev(2, 1000), ev(3, 3000), ev(4, 2000), ev(5, 900_000)];
    expect(replayDelays(events, 1)).toEqual([0, 1000, 2000, 0, 30_000]);
    expect(replayDelays(events, 10)).toEqual([0, 100, 200, 0, 3000]);
    expect(replayDelays(events, 10, 5000)).toEqual([0, 100, 200, 0, 500]);
    expect(replayDelays(events, Infinity)).toEqual([0, 0, 0, 0, 0]);
    expect(() => replayDelays(events, 0)).toThrow(/speed/);
  });

  it('spaces events by their gaps at the given speed, capping the long gap', async () => {
    const events = [ev(1, 0), ev(2, 1000), ev(3, 2000), ev(4, 3_600_000)];
    const out = await timed(replay(events, { speed: 20, maxGapMs: 2000 }));
    expect(out.map(([seq]) => seq)).toEqual([1, 2, 3, 4]);
    const [, a] = out[1]!;
    const [, b] = out[2]!;
    const [, c] = out[3]!;
    expect(a).toBeGreaterThanOrEqual(45);
    expect(b - a).toBeGreaterThanOrEqual(45);
    expect(c - b).toBeGreaterThanOrEqual(95);
    expect(c).toBeLessThan(1000);
  });

  it('skips what was already consumed, by position in the recording (whatever its seqs)', async () => {
    const events = [ev(1, 0), ev(7, 10), ev(2, 20), ev(2, 30)];
    const seqs: number[] = [];
    for await (const e of replay(events, { speed: Infinity, skip: 2 })) seqs.push(e.seq);
    expect(seqs).toEqual([2, 2]);
  });

  it('stops promptly when aborted, also in the middle of a wait', async () => {
    const events = [ev(1, 0), ev(2, 60_000), ev(3, 120_000)];
    const abort = new AbortController();
    const seqs: number[] = [];
    const started = performance.now();
    setTimeout(() => abort.abort(), 50);
    for await (const e of replay(events, { speed: 1, signal: abort.signal })) seqs.push(e.seq);
    expect(seqs).toEqual([1]);
    // Not the minute's wait to the next event (half of it: a busy machine takes seconds over what takes milliseconds).
    expect(performance.now() - started).toBeLessThan(30_000);
    const none: number[] = [];
    for await (const e of replay(events, { speed: 1, signal: abort.signal })) none.push(e.seq);
    expect(none).toEqual([]);
  });
});

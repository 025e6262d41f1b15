import { describe, expect, it } from 'vitest';
import { summarizeFeed } from '../../../src/engine/feed/football-feed.js';
import { mulberry32, syntheticFootballMatch } from '../../../src/engine/feed/synthetic.js';
import { contractErrors, envelopeProblems } from './helpers.js';

const kickoff = new Date('2030-05-01T18:00:00.000Z');
const match = (seed: number, durationScale?: number) => syntheticFootballMatch({ seed, homeTeam: 'Lions', awayTeam: 'Tigers', kickoff, durationScale });

describe('syntheticFootballMatch', () => {
  it('is deterministic: same seed, same events; another seed, another match', () => {
    expect(match(42).events).toEqual(match(42).events);
    expect(match(43).events).not.toEqual(match(42).events);
    expect(mulberry32(7)()).toBe(mulberry32(7)());
  });

  it('produces contract-valid events with a clean envelope', () => {
    for (const seed of [1, 2, 3]) {
      const { events } = match(seed);
      expect(contractErrors(events)).toEqual([]);
      expect(envelopeProblems(events)).toEqual([]);
      expect(events[0]!.provider_event_id).toBe(`synthetic:seed-${seed}:status:live`);
    }
  });

  it('frames the match like a real one', () => {
    const { events } = match(5);
    const frame = events
      .filter((e) => ['match_status', 'period_start', 'period_end'].includes(e.type))
      .map((e) => (e.type === 'match_status' ? String(e.data.status) : `${e.type}:${e.period}`));
    expect(frame).toEqual(['live', 'period_start:1', 'period_end:1', 'break', 'period_start:2', 'period_end:2', 'ended', 'closed']);
    const end1 = events.find((e) => e.type === 'period_end' && e.period === '1')!;
    const start2 = events.find((e) => e.type === 'period_start' && e.period === '2')!;
    expect(Date.parse(start2.occurred_at) - Date.parse(end1.occurred_at)).toBe(15 * 60_000);
    expect(start2.clock_seconds).toBe(2700);
    expect(end1.clock_seconds).toBeGreaterThanOrEqual(2760);
    const end2 = events.find((e) => e.type === 'period_end' && e.period === '2')!;
    expect(end2.clock_seconds).toBeGreaterThanOrEqual(5580);
  });

  it('has plausible rates over many matches', () => {
    const n = 60;
    const totals: Record<string, number> = {};
    for (let seed = 1; seed <= n; seed++) {
      const summary = summarizeFeed(match(seed).events);
      for (const [type, count] of Object.entries(summary.byType)) totals[type] = (totals[type] ?? 0) + count;
      // Goals come from shots, and the close carries the running score.
      expect(summary.goals.length).toBe(summary.shotsByOutcome.goal ?? 0);
      expect(summary.finalScore.home + summary.finalScore.away).toBe(summary.goals.length);
    }
    const mean = (type: string) => (totals[type] ?? 0) / n;
    expect(mean('shot')).toBeGreaterThan(20);
    expect(mean('shot')).toBeLessThan(30);
    expect(mean('corner')).toBeGreaterThan(7);
    expect(mean('corner')).toBeLessThan(13);
    expect(mean('card')).toBeGreaterThan(1.5);
    expect(mean('card')).toBeLessThan(4.5);
    expect(mean('score_change')).toBeGreaterThan(1.8);
    expect(mean('score_change')).toBeLessThan(3.6);
    expect(mean('pass')).toBeGreaterThan(600);
    expect(mean('possession_change')).toBeGreaterThan(100);
    expect(mean('foul')).toBeGreaterThan(15);
    expect(mean('substitution')).toBeGreaterThan(5);
  });

  it('uses only canonical football types, with the team conventions', () => {
    const { events } = match(9);
    const canonical = new Set([
      'match_status',
      'period_start',
      'period_end',
      'score_change',
      'shot',
      'corner',
      'free_kick',
      'foul',
      'card',
      'substitution',
      'possession_change',
      'pass',
    ]);
    expect(events.filter((e) => !canonical.has(e.type))).toEqual([]);
    for (const e of events) {
      if (e.type === 'foul') expect(e.data.fouled_team).toBe(e.team === 'home' ? 'away' : 'home');
      if (e.type === 'card') expect(['yellow', 'red']).toContain(e.data.color);
      if (e.type === 'shot') expect(['goal', 'on_target', 'off_target', 'blocked', 'woodwork']).toContain(e.data.outcome);
    }
    const closed = events.at(-1)!;
    expect(closed.data.final_score).toMatchObject(closed.score);
  });

  it('shrinks wall time with durationScale but keeps the match clock', () => {
    const full = match(11).events;
    const short = match(11, 0.1).events;
    expect(short.map((e) => [e.type, e.clock_seconds, e.score])).toEqual(full.map((e) => [e.type, e.clock_seconds, e.score]));
    const span = (events: typeof full) => Date.parse(events.at(-1)!.occurred_at) - Date.parse(events[0]!.occurred_at);
    expect(span(short)).toBeCloseTo(span(full) * 0.1, -3);
    expect(() => syntheticFootballMatch({ seed: 1, homeTeam: 'a', awayTeam: 'b', kickoff, durationScale: 0 })).toThrow(/durationScale/);
  });
});

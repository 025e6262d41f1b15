/**
 * What a match's live fields say while its feed plays, in memory: the
 * status follows every event that implies it (a period starting, a period
 * ending, play during a break), not only `match_status` messages, so the
 * second half is `live` whatever feed or importer it comes from; and a
 * started match has a score (0-0 until a goal).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { decide, evolve, type EngineState } from '../../src/engine/decider.js';
import type { FeedEvent } from '../../src/domain/sports/events.js';
import type { MatchRow } from '../../src/modules/matches/matches.table.js';
import { importMetricaCsv, importMetricaJson } from '../../src/engine/feed/importers/metrica.js';
import { importOpenfootballSchedule, openfootballEvents } from '../../src/engine/feed/importers/openfootball.js';
import { replay } from '../../src/engine/feed/replay.js';
import { syntheticFootballMatch } from '../../src/engine/feed/synthetic.js';
import { context, ev, initialState, resetSpecIds, wc, type SpecCatalog } from './decider-spec.js';
import { readFixture } from './feed/helpers.js';

beforeAll(resetSpecIds);

interface Seen {
  event: FeedEvent;
  status: string;
  period: string | null;
  score: [number | null, number | null];
}

/** Folds a feed through the decider; what the match row (as the decisions write it) says after each event. */
async function fold(events: Iterable<FeedEvent> | AsyncIterable<FeedEvent>, c: SpecCatalog = wc()): Promise<Seen[]> {
  let state: EngineState = initialState(c);
  const row: Partial<MatchRow> = { ...c.match };
  const seen: Seen[] = [];
  for await (const event of events) {
    for (const d of await decide(state, event, context(c))) {
      state = evolve(state, d);
      if (d.type === 'match_changed') Object.assign(row, d.values);
    }
    seen.push({ event, status: row.status!, period: row.period ?? null, score: [row.homeScore ?? null, row.awayScore ?? null] });
  }
  return seen;
}

/** The (status, period) the match went through, each change once. */
function transitions(seen: Seen[]): string[] {
  const out: string[] = [];
  for (const s of seen) {
    const label = `${s.status} ${s.period}`;
    if (out.at(-1) !== label) out.push(label);
  }
  return out;
}

/**
 * Every period has play and is `live` from its start to its end; every gap between periods
 * is a `break`; a started match always has the score of the event in hand.
 */
function expectPlayedRight(seen: Seen[], where: string) {
  let inPeriod: string | null = null;
  for (const s of seen) {
    const e = s.event;
    if (e.type === 'period_start') inPeriod = e.period;
    const what = `${where}: ${e.type} ${e.provider_event_id}`;
    if (inPeriod !== null && e.type !== 'period_end' && e.type !== 'match_status') {
      expect(s.status, what).toBe('live');
      expect(s.period, what).toBe(inPeriod);
    }
    if (e.type === 'period_end') {
      expect(s.status, what).toBe('break');
      inPeriod = null;
    }
    // Started, the match has the score of the event in hand: 0-0 until the first goal, never null.
    if (s.status !== 'scheduled') expect(s.score, what).toEqual([e.score.home, e.score.away]);
  }
  expect(seen.at(-1)!.status, where).toBe('closed');
}

describe('the match status follows every event that implies it', () => {
  it('a feed with period markers only (no status messages, as StatsBomb-like feeds): halves, extra time, penalties', async () => {
    const events = [
      ev(1, 'period_start', { at: 0, period: '1', team: null }),
      ev(2, 'pass', { at: 5 }),
      ev(3, 'period_end', { at: 2760, period: '1', team: null }),
      ev(4, 'substitution', { at: 2761, period: '1' }),
      ev(5, 'card', { at: 2762, period: '1' }),
      ev(6, 'period_start', { at: 3600, period: '2', team: null }),
      ev(7, 'pass', { at: 3605, period: '2' }),
      ev(8, 'period_end', { at: 6500, period: '2', team: null }),
      ev(9, 'period_start', { at: 6800, period: 'et1', team: null }),
      ev(10, 'shot', { at: 6810, period: 'et1' }),
      ev(11, 'period_end', { at: 7800, period: 'et1', team: null }),
      ev(12, 'period_start', { at: 7920, period: 'et2', team: null }),
      ev(13, 'period_end', { at: 8900, period: 'et2', team: null }),
      ev(14, 'period_start', { at: 9100, period: 'pen', team: null }),
      ev(15, 'shot', { at: 9110, period: 'pen' }),
      ev(16, 'period_end', { at: 9500, period: 'pen', team: null }),
      ev(17, 'match_status', { at: 9501, period: 'pen', team: null, data: { status: 'ended' } }),
      ev(18, 'match_status', { at: 9502, period: 'pen', team: null, data: { status: 'closed' } }),
    ];
    const seen = await fold(events);
    expect(seen.map((s) => s.status)).toEqual([
      'live',
      'live',
      'break',
      'break',
      'break',
      'live',
      'live',
      'break',
      'live',
      'live',
      'break',
      'live',
      'break',
      'live',
      'live',
      'break',
      'ended',
      'closed',
    ]);
    expect(transitions(seen)).toEqual([
      'live 1',
      'break 1',
      'live 2',
      'break 2',
      'live et1',
      'break et1',
      'live et2',
      'break et2',
      'live pen',
      'break pen',
      'ended pen',
      'closed pen',
    ]);
  });

  it('a suspension: a break announced mid-period ends when play goes on, with or without a status message', async () => {
    const seen = await fold([
      ev(1, 'match_status', { at: 0, team: null, data: { status: 'live' } }),
      ev(2, 'pass', { at: 600 }),
      ev(3, 'match_status', { at: 610, team: null, data: { status: 'break' } }),
      ev(4, 'substitution', { at: 900 }),
      ev(5, 'free_kick', { at: 1500 }),
      ev(6, 'match_status', { at: 1510, team: null, data: { status: 'break' } }),
      ev(7, 'match_status', { at: 1800, team: null, data: { status: 'live' } }),
    ]);
    expect(seen.map((s) => `${s.status} ${s.period}`)).toEqual(['live 1', 'live 1', 'break 1', 'break 1', 'live 1', 'break 1', 'live 1']);
  });

  it('a correction, or a late event of a period already over, neither restarts play nor moves the period back', async () => {
    const pass = ev(2, 'pass', { at: 10 });
    const seen = await fold([
      ev(1, 'period_start', { at: 0, team: null }),
      pass,
      ev(3, 'period_end', { at: 2760, team: null }),
      { ...pass, seq: 4, operation: 'update', data: { corrected: true } },
      ev(5, 'period_start', { at: 3600, period: '2', team: null }),
      ev(6, 'period_end', { at: 6500, period: '2', team: null }),
      ev(7, 'shot', { at: 2700, period: '1' }),
      ev(8, 'match_status', { at: 6501, period: '2', team: null, data: { status: 'ended' } }),
      ev(9, 'pass', { at: 6502, period: '2' }),
    ]);
    expect(seen.map((s) => `${s.status} ${s.period}`)).toEqual([
      'live 1',
      'live 1',
      'break 1',
      'break 1',
      'live 2',
      'break 2',
      'break 2',
      'ended 2',
      'ended 2',
    ]);
  });

  it('a started match stands 0-0 until a goal, whichever event starts it; before kick-off it has no score', async () => {
    const c = wc();
    expect([c.match.homeScore, c.match.awayScore]).toEqual([null, null]);
    for (const first of [
      ev(1, 'match_status', { at: 0, team: null, data: { status: 'live' } }),
      ev(1, 'period_start', { at: 0, team: null }),
      ev(1, 'pass', { at: 0 }),
    ]) {
      const seen = await fold([first, ev(2, 'pass', { at: 20 }), ev(3, 'score_change', { at: 30, team: 'away', score: { home: 0, away: 1 } })], c);
      expect(
        seen.map((s) => [s.status, ...s.score]),
        first.type,
      ).toEqual([
        ['live', 0, 0],
        ['live', 0, 0],
        ['live', 0, 1],
      ]);
    }
  });

  it('the demo feed (synthetic): the whole second half is live', async () => {
    const { events } = syntheticFootballMatch({ seed: 7, homeTeam: 'A', awayTeam: 'B', kickoff: new Date('2026-06-14T18:00:00Z'), durationScale: 0.09 });
    const seen = await fold(events);
    expectPlayedRight(seen, 'synthetic');
    expect(transitions(seen)).toEqual(['live 1', 'break 1', 'live 2', 'break 2', 'ended 2', 'closed 2']);
  });

  it('Metrica CSV and JSON: both halves live, the break between them', async () => {
    const kickoff = new Date('2026-06-14T18:00:00Z');
    const csv = importMetricaCsv(readFixture('feeds/metrica/sample-game-1-events.csv'), { matchKey: 'g1', kickoff });
    const json = importMetricaJson(readFixture('feeds/metrica/sample-game-3-events.json'), readFixture('feeds/metrica/sample-game-3-metadata.xml'), {
      matchKey: 'g3',
      kickoff,
    });
    for (const [where, events] of [
      ['metrica csv', csv.events],
      ['metrica json', json.events],
    ] as const) {
      const seen = await fold(events);
      expectPlayedRight(seen, where);
      expect(transitions(seen), where).toEqual(['live 1', 'break 1', 'live 2', 'break 2', 'ended 2', 'closed 2']);
    }
  });

  it('openfootball: halves, extra time and the shoot-out of the 2022 final', async () => {
    const final = importOpenfootballSchedule(readFixture('feeds/openfootball/worldcup-2022.json'), { season: 2022 })[63]!;
    const seen = await fold(openfootballEvents(final));
    expectPlayedRight(seen, 'openfootball');
    expect(transitions(seen)).toEqual([
      'live 1',
      'break 1',
      'live 2',
      'break 2',
      'live et1',
      'break et1',
      'live et2',
      'break et2',
      'live pen',
      'break pen',
      'ended pen',
      'closed pen',
    ]);
  });

  it('a clone replaying a recording: the same statuses as the original', async () => {
    const { events } = syntheticFootballMatch({ seed: 11, homeTeam: 'A', awayTeam: 'B', kickoff: new Date('2026-06-14T18:00:00Z') });
    const original = await fold(events);
    const replayed = await fold(replay(events, { speed: Infinity }));
    expect(replayed.map((s) => [s.status, s.period, s.score])).toEqual(original.map((s) => [s.status, s.period, s.score]));
    expectPlayedRight(replayed, 'replay');
  });
});

/**
 * The producers (importers and the synthetic generator) emit exactly the data
 * fields the football catalog (sports.ts) documents to definition authors.
 */
import { describe, expect, it } from 'vitest';
import type { FeedEvent } from '../../../src/domain/sports/events.js';
import { importMetricaCsv, importMetricaJson } from '../../../src/engine/feed/importers/metrica.js';
import { importOpenfootballSchedule, openfootballEvents } from '../../../src/engine/feed/importers/openfootball.js';
import { sportCatalog } from '../../../src/domain/sports/sports.js';
import { syntheticFootballMatch } from '../../../src/engine/feed/synthetic.js';
import { readFixture } from './helpers.js';

const kickoff = new Date('2030-01-01T12:00:00.000Z');
const catalog = new Map(sportCatalog('football').map((t) => [t.type, new Set(t.data_fields.map((f) => f.name))]));
/** Types whose fields depend on the moment (status, shoot-out): only a subset is required. */
const PARTIAL = new Set(['match_status', 'period_start', 'period_end']);

function shapeProblems(events: FeedEvent[]): string[] {
  const problems = new Set<string>();
  for (const e of events) {
    const fields = catalog.get(e.type);
    if (!fields) {
      problems.add(`type ${e.type} is not in the football catalog`);
      continue;
    }
    const keys = Object.keys(e.data);
    for (const k of keys) if (!fields.has(k)) problems.add(`${e.type}.data.${k} is not documented`);
    if (!PARTIAL.has(e.type)) for (const f of fields) if (!keys.includes(f)) problems.add(`${e.type}.data.${f} is missing`);
  }
  return [...problems];
}

describe('producers match the football catalog', () => {
  it('synthetic', () => {
    expect(shapeProblems(syntheticFootballMatch({ seed: 8, homeTeam: 'A', awayTeam: 'B', kickoff }).events)).toEqual([]);
  });

  it('Metrica CSV and JSON, openfootball (fixtures)', () => {
    expect(shapeProblems(importMetricaCsv(readFixture('feeds/metrica/sample-game-1-events.csv'), { matchKey: 'g1', kickoff }).events)).toEqual([]);
    expect(
      shapeProblems(
        importMetricaJson(readFixture('feeds/metrica/sample-game-3-events.json'), readFixture('feeds/metrica/sample-game-3-metadata.xml'), {
          matchKey: 'g3',
          kickoff,
        }).events,
      ),
    ).toEqual([]);
    const wc = importOpenfootballSchedule(readFixture('feeds/openfootball/worldcup-2022.json'), { season: 2022 });
    expect(shapeProblems(wc.flatMap((m) => openfootballEvents(m)))).toEqual([]);
  });
});

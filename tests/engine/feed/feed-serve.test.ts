import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { feedKey, loadFeed, loadFeeds, parseFeedServeArgs, UsageError } from '../../../scripts/feed-serve.js';
import { summarizeFeed } from '../../../src/engine/feed/football-feed.js';
import { syntheticFootballMatch } from '../../../src/engine/feed/synthetic.js';
import { FIXTURES_DIR } from './helpers.js';

const now = new Date('2030-01-01T00:00:00.000Z');
const parse = (...argv: string[]) => parseFeedServeArgs(argv, now);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'feed-serve-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('feed:serve arguments', () => {
  it('reads a source and the options, with defaults', () => {
    expect(parse('--metrica-csv', 'a.csv')).toEqual({
      source: { kind: 'metrica-csv', file: 'a.csv' },
      sources: [{ kind: 'metrica-csv', file: 'a.csv' }],
      speed: 1,
      port: 0,
      kickoff: now,
      heartbeatMs: 1000,
      matchKey: null,
    });
    expect(parse('--openfootball', 'wc.json', '--match', '64', '--speed', '10', '--port', '4100', '--kickoff', '2030-02-01T12:00:00Z')).toMatchObject({
      source: { kind: 'openfootball', file: 'wc.json', match: 64, season: null, utcOffset: null },
      speed: 10,
      port: 4100,
      kickoff: new Date('2030-02-01T12:00:00Z'),
    });
    expect(parse('--metrica-json', 'e.json', '--metadata', 'm.xml').source).toEqual({ kind: 'metrica-json', file: 'e.json', metadata: 'm.xml' });
  });

  it('takes several matches: repeated files, or a list of openfootball matches, one feed each', () => {
    expect(parse('--events', 'a.json', '--events', 'b.json').sources).toEqual([
      { kind: 'events', file: 'a.json' },
      { kind: 'events', file: 'b.json' },
    ]);
    const wc = parse('--openfootball', 'wc.json', '--match', '1,2,64');
    expect(wc.sources.map((x) => (x.kind === 'openfootball' ? x.match : null))).toEqual([1, 2, 64]);
    expect(wc.sources.map((x) => feedKey(x))).toEqual(['wc-1', 'wc-2', 'wc-64']);
    expect(feedKey({ kind: 'events', file: '/tmp/my match.json' })).toBe('my-match');
  });

  it('explains what is wrong', () => {
    const fails = (argv: string[], message: RegExp) => {
      expect(() => parse(...argv)).toThrow(UsageError);
      expect(() => parse(...argv)).toThrow(message);
    };
    fails([], /missing a source/);
    fails(['--metrica-csv', 'a', '--events', 'b'], /choose one source, not --metrica-csv and --events/);
    fails(['--metrica-json', 'e.json'], /needs --metadata/);
    fails(['--openfootball', 'wc.json'], /needs --match/);
    fails(['--openfootball', 'wc.json', '--match', 'x'], /--match must be a non-negative integer/);
    fails(['--metrica-csv', 'a', '--speed', '0'], /--speed must be greater than 0/);
    fails(['--metrica-csv', 'a', '--speed', 'fast'], /--speed must be a positive number/);
    fails(['--metrica-csv', 'a', '--port', '70000'], /--port must be at most 65535/);
    fails(['--metrica-csv', 'a', '--kickoff', 'soon'], /--kickoff must be an ISO date/);
    fails(['--metrica-csv', 'a', '--match', '3'], /--match only applies to --openfootball/);
    fails(['--metrica-csv', 'a', '--verbose'], /Unknown option '--verbose'/);
    fails(['--openfootball', 'wc.json', '--match', '1,1'], /lists a match twice/);
    fails(['--events', 'a.json', '--events', 'a.json'], /names a file twice/);
    fails(['--events', 'a.json', '--events', 'b.json', '--match-key', 'k'], /--match-key names one match/);
  });

  it('loads a recording and rejects files that are not one', () => {
    const events = syntheticFootballMatch({ seed: 1, homeTeam: 'A', awayTeam: 'B', kickoff: now }).events.slice(0, 20);
    const file = path.join(tmp, 'rec.json');
    fs.writeFileSync(file, JSON.stringify({ listener_id: 'x', match_id: 'y', event_count: events.length, events }));
    expect(loadFeed(parse('--events', file)).events).toEqual(events);
    fs.writeFileSync(file, JSON.stringify([1, 2]));
    expect(() => loadFeed(parse('--events', file))).toThrow(/is not an event recording/);
    fs.writeFileSync(file, JSON.stringify({ events: [{ seq: 1 }] }));
    expect(() => loadFeed(parse('--events', file))).toThrow(/events\[0\] is not a feed event/);
    fs.writeFileSync(file, '{oops');
    expect(() => loadFeed(parse('--events', file))).toThrow(/is not JSON/);
    expect(() => loadFeed(parse('--events', path.join(tmp, 'missing.json')))).toThrow(/cannot read .*ENOENT/);
  });
});

describe('feed:serve sources from the fixtures', () => {
  const f = (p: string) => path.join(FIXTURES_DIR, p);

  it('imports each source kind, kicking off at --kickoff', () => {
    const csv = loadFeed(parse('--metrica-csv', f('feeds/metrica/sample-game-1-events.csv')));
    expect(csv.title).toBe('Home vs Away (Metrica CSV)');
    expect(csv.events[0]!.provider_event_id).toBe('metrica:sample-game-1-events:status:live');
    const json = loadFeed(
      parse('--metrica-json', f('feeds/metrica/sample-game-3-events.json'), '--metadata', f('feeds/metrica/sample-game-3-metadata.xml'), '--match-key', 'g3'),
    );
    expect(summarizeFeed(json.events).finalScore).toEqual({ home: 0, away: 2 });
    const wc = loadFeed(parse('--openfootball', f('feeds/openfootball/worldcup-2022.json'), '--match', '64'));
    expect(wc.title).toBe('Argentina vs France, Final (openfootball 2022)');
    expect(wc.events[0]!.occurred_at).toBe(now.toISOString());
    expect(() => loadFeed(parse('--openfootball', f('feeds/openfootball/worldcup-2022.json'), '--match', '65'))).toThrow(
      /--match 65: the file has no match of that number/,
    );
    // A file in the rounds layout (euro.json): matches by their number, listed out of order.
    const euro = loadFeed(parse('--openfootball', f('feeds/openfootball/euro-2024-sample.json'), '--match', '41', '--utc-offset', '+02:00'));
    expect(euro.title).toBe('Portugal vs Slovenia, Round of 16 (openfootball 2024)');
    expect(summarizeFeed(euro.events).penalties).toEqual({ home: 3, away: 0 });
    // Several matches from one command: one feed each, all kicking off at --kickoff.
    const several = loadFeeds(parse('--openfootball', f('feeds/openfootball/worldcup-2022.json'), '--match', '1,64'));
    expect(several.map((x) => [x.key, x.title])).toEqual([
      ['worldcup-2022-1', expect.stringMatching(/^Qatar vs Ecuador/)],
      ['worldcup-2022-64', 'Argentina vs France, Final (openfootball 2022)'],
    ]);
    expect(several.map((x) => x.events[0]!.occurred_at)).toEqual([now.toISOString(), now.toISOString()]);
    expect(new Set(several.flatMap((x) => x.events.map((e) => e.provider_event_id))).size).toBe(several[0]!.events.length + several[1]!.events.length);
  });
});

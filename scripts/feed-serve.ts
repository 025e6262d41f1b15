/**
 * `npm run feed:serve -- <source>... [--speed 10] [--port 0] [--kickoff <iso>] [--heartbeat-ms 1000]`
 * Serves recorded matches as live push feeds (NDJSON with heartbeats, see
 * src/engine/feed/push-server.ts) on loopback, so a listener or the push
 * client can be pointed at something that behaves like a provider. Sources:
 *   --metrica-csv <events.csv>       (repeatable: one feed per file)
 *   --metrica-json <events.json> --metadata <metadata.xml>
 *   --openfootball <worldcup.json or euro.json> --match <n>[,<n>...] [--season <year>] [--utc-offset +03:00]
 *   --events <recording.json>        (repeatable; an EventRecording: {"events": [FeedEvent, ...]})
 * Every match kicks off at --kickoff (default: now) and the feeds play relative
 * to it, whoever is connected: events are held until their time, and a feed
 * whose kick-off has passed (a restart mid-match) is where the match is now. One
 * match is served at /feed, several at /feeds/<key> (one URL each, printed).
 * Serves until Ctrl-C.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { FeedEvent } from '../src/domain/sports/events.js';
import { summarizeFeed } from '../src/engine/feed/football-feed.js';
import { importMetricaCsv, importMetricaJson } from '../src/engine/feed/importers/metrica.js';
import { importOpenfootballSchedule, openfootballEvents, utcOffsetProblem } from '../src/engine/feed/importers/openfootball.js';
import { startPushFeedServer } from '../src/engine/feed/push-server.js';
import { runCli, UsageError } from '../src/cli.js';

const USAGE = `usage: npm run feed:serve -- (--metrica-csv <file>... | --metrica-json <file> --metadata <xml> | --openfootball <file> --match <n>[,<n>...] [--season <year>] [--utc-offset <+hh:mm>] | --events <recording.json>...)
       [--speed <factor, default 1>] [--port <n, default 0 = any>] [--kickoff <iso date, default now>] [--heartbeat-ms <n, default 1000>] [--match-key <key>]`;

export { UsageError };

export type FeedSource =
  | { kind: 'metrica-csv'; file: string }
  | { kind: 'metrica-json'; file: string; metadata: string }
  | { kind: 'openfootball'; file: string; match: number; season: string | null; utcOffset: string | null }
  | { kind: 'events'; file: string };

export interface FeedServeArgs {
  /** The first (or only) match's source. */
  source: FeedSource;
  /** Every match's source (one feed each). */
  sources: FeedSource[];
  speed: number;
  port: number;
  kickoff: Date;
  heartbeatMs: number;
  matchKey: string | null;
}

function positiveNumber(value: string | undefined, flag: string, fallback: number, integer = false): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || (integer && !Number.isInteger(n)))
    throw new UsageError(`${flag} must be a ${integer ? 'non-negative integer' : 'positive number'}, got '${value}'`);
  return n;
}

/** Parses and checks the arguments; throws a UsageError whose message says what to fix. */
export function parseFeedServeArgs(argv: string[], now = new Date()): FeedServeArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        'metrica-csv': { type: 'string', multiple: true },
        'metrica-json': { type: 'string' },
        metadata: { type: 'string' },
        openfootball: { type: 'string' },
        match: { type: 'string' },
        season: { type: 'string' },
        'utc-offset': { type: 'string' },
        events: { type: 'string', multiple: true },
        speed: { type: 'string' },
        port: { type: 'string' },
        kickoff: { type: 'string' },
        'heartbeat-ms': { type: 'string' },
        'match-key': { type: 'string' },
      },
    }));
  } catch (err) {
    throw new UsageError((err as Error).message, USAGE);
  }
  const kinds = (['metrica-csv', 'metrica-json', 'openfootball', 'events'] as const).filter((k) => values[k] !== undefined);
  if (kinds.length !== 1) throw new UsageError(kinds.length ? `choose one source, not --${kinds.join(' and --')}` : 'missing a source', USAGE);
  const kind = kinds[0]!;
  let sources: FeedSource[];
  if (kind === 'metrica-json') {
    if (!values.metadata) throw new UsageError('--metrica-json needs --metadata <metadata.xml>', USAGE);
    sources = [{ kind, file: values['metrica-json']!, metadata: values.metadata }];
  } else if (kind === 'openfootball') {
    if (!values.match)
      throw new UsageError('--openfootball needs --match <n> (the match number: its `num`, else its 1-based position in the file; several: 1,2,64)', USAGE);
    const numbers = values.match.split(',').map((m) => positiveNumber(m, '--match', 0, true));
    if (numbers.some((m) => m < 1)) throw new UsageError('--match must be 1 or more');
    if (new Set(numbers).size !== numbers.length) throw new UsageError(`--match lists a match twice: ${values.match}`);
    const offsetProblem = values['utc-offset'] === undefined ? null : utcOffsetProblem(values['utc-offset']);
    if (offsetProblem) throw new UsageError(`--utc-offset ${offsetProblem}`, USAGE);
    sources = numbers.map((match) => ({ kind, file: values.openfootball!, match, season: values.season ?? null, utcOffset: values['utc-offset'] ?? null }));
  } else {
    const files = values[kind]!;
    if (new Set(files).size !== files.length) throw new UsageError(`--${kind} names a file twice`);
    sources = files.map((file) => ({ kind, file }));
  }
  if (sources.length > 1 && values['match-key'] !== undefined)
    throw new UsageError('--match-key names one match; with several, each feed is named after its file (or openfootball-<n>)');
  for (const [flag, used] of [
    ['--metadata', values.metadata !== undefined && kind !== 'metrica-json'],
    ['--match', values.match !== undefined && kind !== 'openfootball'],
    ['--season', values.season !== undefined && kind !== 'openfootball'],
    ['--utc-offset', values['utc-offset'] !== undefined && kind !== 'openfootball'],
  ] as const) {
    if (used) throw new UsageError(`${flag} only applies to ${flag === '--metadata' ? '--metrica-json' : '--openfootball'}`);
  }
  const speed = positiveNumber(values.speed, '--speed', 1);
  if (speed === 0) throw new UsageError('--speed must be greater than 0');
  const port = positiveNumber(values.port, '--port', 0, true);
  if (port > 65535) throw new UsageError('--port must be at most 65535');
  const heartbeatMs = positiveNumber(values['heartbeat-ms'], '--heartbeat-ms', 1000, true);
  if (heartbeatMs === 0) throw new UsageError('--heartbeat-ms must be greater than 0');
  const kickoff = values.kickoff === undefined ? now : new Date(values.kickoff);
  if (Number.isNaN(kickoff.getTime())) throw new UsageError(`--kickoff must be an ISO date, got '${values.kickoff}'`);
  return { source: sources[0]!, sources, speed, port, kickoff, heartbeatMs, matchKey: values['match-key'] ?? null };
}

function read(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** The key (URL path segment) of a source's feed. */
export function feedKey(source: FeedSource, matchKey: string | null = null): string {
  if (matchKey) return matchKey;
  const base = path
    .basename(source.file)
    .replace(/\.[^.]+$/, '')
    .replace(/[^A-Za-z0-9._:-]/g, '-');
  return source.kind === 'openfootball' ? `${base}-${source.match}` : base;
}

/** Loads the source (the first one, unless given) as normalized events and a title for the console. */
export function loadFeed(args: FeedServeArgs, source: FeedSource = args.source): { title: string; events: FeedEvent[] } {
  const { kickoff } = args;
  const key = args.matchKey ?? path.basename(source.file).replace(/\.[^.]+$/, '');
  switch (source.kind) {
    case 'metrica-csv': {
      const m = importMetricaCsv(read(source.file), { matchKey: key, kickoff });
      return { title: `${m.homeTeam} vs ${m.awayTeam} (Metrica CSV)`, events: m.events };
    }
    case 'metrica-json': {
      const m = importMetricaJson(read(source.file), read(source.metadata), { matchKey: key, kickoff });
      return { title: `${m.homeTeam} vs ${m.awayTeam} (Metrica JSON)`, events: m.events };
    }
    case 'openfootball': {
      const text = read(source.file);
      const season = source.season ?? /\b(\d{4})\b/.exec((JSON.parse(text) as { name?: unknown }).name?.toString() ?? '')?.[1];
      if (!season) throw new UsageError('cannot tell the season from the file name field; pass --season <year>');
      const matches = importOpenfootballSchedule(text, { season, ...(source.utcOffset ? { localUtcOffset: source.utcOffset } : {}) });
      const match = matches.find((m) => m.num === source.match);
      if (!match)
        throw new UsageError(`--match ${source.match}: the file has no match of that number (its ${matches.length} matches are numbered as their ids)`);
      if (!match.result) throw new UsageError(`match ${source.match} (${match.homeTeam} vs ${match.awayTeam}) has no result to replay`);
      return {
        title: `${match.homeTeam} vs ${match.awayTeam}, ${match.round} (openfootball ${season})`,
        events: openfootballEvents(match, { kickoff, matchKey: args.matchKey ?? undefined }),
      };
    }
    case 'events': {
      let doc: unknown;
      try {
        doc = JSON.parse(read(source.file));
      } catch (err) {
        if (err instanceof UsageError) throw err;
        throw new UsageError(`${source.file} is not JSON: ${(err as Error).message}`);
      }
      const events = typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? (doc as { events?: unknown }).events : undefined;
      if (!Array.isArray(events)) throw new UsageError(`${source.file} is not an event recording: expected {"events": [...]}`);
      events.forEach((e: unknown, i) => {
        const ok =
          typeof e === 'object' &&
          e !== null &&
          typeof (e as FeedEvent).provider_event_id === 'string' &&
          Number.isInteger((e as FeedEvent).seq) &&
          typeof (e as FeedEvent).occurred_at === 'string';
        if (!ok) throw new UsageError(`${source.file}: events[${i}] is not a feed event (provider_event_id, seq, occurred_at)`);
      });
      return { title: `recording ${path.basename(source.file)}`, events: events as FeedEvent[] };
    }
  }
}

/** The feeds to serve: one per source, keyed for its URL. */
export function loadFeeds(args: FeedServeArgs): { key: string; title: string; events: FeedEvent[] }[] {
  const feeds = args.sources.map((source) => ({ key: feedKey(source, args.sources.length === 1 ? args.matchKey : null), ...loadFeed(args, source) }));
  const seen = new Set<string>();
  for (const f of feeds) {
    if (seen.has(f.key)) throw new UsageError(`two feeds would be served at /feeds/${f.key}: rename one of the files`);
    seen.add(f.key);
  }
  return feeds;
}

async function main() {
  const args = parseFeedServeArgs(process.argv.slice(2));
  const feeds = loadFeeds(args);
  const single = feeds.length === 1;
  const server = await startPushFeedServer({
    ...(single ? { events: feeds[0]!.events } : { feeds: Object.fromEntries(feeds.map((f) => [f.key, f.events])) }),
    speed: args.speed,
    port: args.port,
    heartbeatMs: args.heartbeatMs,
    startAt: args.kickoff,
    onError: (err) => console.error(`feed server: ${err.message}`),
  });
  const when = args.kickoff.getTime() > Date.now() ? `kicks off at ${args.kickoff.toISOString()}` : `kicked off at ${args.kickoff.toISOString()}`;
  for (const f of feeds) {
    const summary = summarizeFeed(f.events);
    console.log(`${f.title}: ${f.events.length} events, final score ${summary.finalScore.home}-${summary.finalScore.away}, speed x${args.speed}, ${when}`);
    console.log(`  serving ${single ? server.url : server.urlFor(f.key)}`);
  }
  console.log('NDJSON with heartbeats; resume with ?after_seq=N; events play at their time after the kick-off, whoever is connected; Ctrl-C stops');
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

const invokedDirectly = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop()!);
if (invokedDirectly) {
  runCli('feed:serve', main, { missing_utc_offset: 'pass the offset of its local times, e.g. --utc-offset +03:00' });
}

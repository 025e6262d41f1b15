/**
 * `npm run schedule:sync -- --openfootball <file> --season <season> [--league wc] [--utc-offset +03:00] [--feed-url-template <url with {sr_id}>]`
 * Brings matches in from an openfootball results file through the schedule
 * provider adapter: upserts by sr_id, never overriding a match that started;
 * finished matches arrive closed with their final result (Match questions
 * resolve from it). Same database settings as the service. Matches it
 * closes or cancels are announced on the live bus, so players' open sockets
 * get `match_closed` (PostgreSQL only: an embedded database has no other
 * process to tell). `--utc-offset` gives the offset of kick-off times the
 * file writes without one (known hosts, such as 2022's, need none): one a
 * place uses, from -12:00 to +14:00 (`--utc-offset=-06:00` for a negative one).
 * `--feed-url-template` attaches a live feed to each match that has none,
 * `{sr_id}` replaced by its provider id (checked as PATCH checks a feed URL;
 * a match whose feed an operator set keeps it).
 */
import { parseArgs } from 'node:util';
import { runCli, UsageError } from '../src/cli.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { createLiveBus } from '../src/live/bus.js';
import { publishMatchStatus } from '../src/live/publishers.js';
import { createLogger } from '../src/logger.js';
import { openfootballProvider } from '../src/engine/schedule/openfootball-provider.js';
import { utcOffsetProblem } from '../src/engine/feed/importers/openfootball.js';
import { feedUrlTemplateProblem, withFeedUrlTemplate } from '../src/engine/schedule/feed-url-template.js';
import { syncSchedule } from '../src/engine/schedule/schedule-sync.js';
import { seedLeagues } from '../src/modules/leagues/leagues.repository.js';

const USAGE =
  'usage: npm run schedule:sync -- --openfootball <file.json> --season <e.g. 2022> [--league wc] [--utc-offset <+hh:mm>] [--feed-url-template <url with {sr_id}>]';

async function main() {
  const { values } = parseArgs({
    options: {
      openfootball: { type: 'string' },
      season: { type: 'string' },
      league: { type: 'string', default: 'wc' },
      'utc-offset': { type: 'string' },
      'feed-url-template': { type: 'string' },
    },
    strict: true,
  });
  const missing = (['openfootball', 'season'] as const).filter((k) => !values[k]);
  if (missing.length) throw new UsageError(`missing --${missing.join(' and --')}`, USAGE);
  const utcOffset = values['utc-offset'];
  const offsetProblem = utcOffset === undefined ? null : utcOffsetProblem(utcOffset);
  if (offsetProblem) throw new UsageError(`--utc-offset ${offsetProblem}`, USAGE);
  const config = loadConfig();
  const feedUrlPolicy = { allowPrivateAddresses: config.engine.feedAllowPrivateAddresses };
  const template = values['feed-url-template'];
  const templateProblem = template === undefined ? null : feedUrlTemplateProblem(template, feedUrlPolicy);
  if (templateProblem) throw new UsageError(`--feed-url-template ${templateProblem}`, USAGE);
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, maxConnections: 2 });
  const bus = createLiveBus({ database, logger: createLogger(config.logLevel, { role: 'schedule-sync' }) });
  try {
    await seedLeagues({ db: database.db });
    const provider = openfootballProvider({ file: values.openfootball!, season: values.season!, league: values.league!, ...(utcOffset ? { utcOffset } : {}) });
    const report = await syncSchedule({
      db: database.db,
      provider: template === undefined ? provider : withFeedUrlTemplate(provider, template),
      onStatusChanged: publishMatchStatus(bus),
      feedUrlPolicy,
    });
    console.log(
      `${report.provider}: ${report.received} matches read, ${report.written} written${report.unknownLeagues.length ? `; unknown leagues: ${report.unknownLeagues.join(', ')}` : ''}`,
    );
  } finally {
    await bus.close();
    await database.close();
  }
}

runCli('schedule:sync', main, { missing_utc_offset: 'pass the offset of its local times, e.g. --utc-offset +03:00' });

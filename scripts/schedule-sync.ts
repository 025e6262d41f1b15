/**
 * `npm run schedule:sync -- --openfootball <file> --season <season> [--league wc]`
 * Brings matches in from an openfootball results file through the schedule
 * provider adapter: upserts by sr_id, never overriding a match that started;
 * finished matches arrive closed with their final result (Match questions
 * resolve from it). Same database settings as the service. Matches it
 * closes or cancels are announced on the live bus, so players' open sockets
 * get `match_closed` (PostgreSQL only: an embedded database has no other
 * process to tell).
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../src/config.js';
import { DatabaseError, openDatabase } from '../src/db/client.js';
import { createLiveBus } from '../src/live/bus.js';
import { publishMatchStatus } from '../src/live/publishers.js';
import { createLogger } from '../src/logger.js';
import { openfootballProvider } from '../src/engine/schedule/openfootball-provider.js';
import { syncSchedule } from '../src/engine/schedule/schedule-sync.js';
import { seedLeagues } from '../src/modules/leagues/leagues.repository.js';

const USAGE = 'usage: npm run schedule:sync -- --openfootball <file.json> --season <e.g. 2022> [--league wc]';

async function main() {
  const { values } = parseArgs({ options: { openfootball: { type: 'string' }, season: { type: 'string' }, league: { type: 'string', default: 'wc' } }, strict: true });
  if (!values.openfootball || !values.season) throw new ConfigError(`missing --openfootball or --season\n${USAGE}`);
  const config = loadConfig();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, maxConnections: 2 });
  const bus = createLiveBus({ database, logger: createLogger(config.logLevel, { role: 'schedule-sync' }) });
  try {
    await seedLeagues({ db: database.db });
    const report = await syncSchedule({
      db: database.db,
      provider: openfootballProvider({ file: values.openfootball, season: values.season, league: values.league! }),
      onStatusChanged: publishMatchStatus(bus),
    });
    console.log(`${report.provider}: ${report.received} matches read, ${report.written} written${report.unknownLeagues.length ? `; unknown leagues: ${report.unknownLeagues.join(', ')}` : ''}`);
  } finally {
    await bus.close();
    await database.close();
  }
}

main().catch((err) => {
  const known = err instanceof ConfigError || err instanceof DatabaseError || (err as NodeJS.ErrnoException).code === 'ENOENT' || /Unknown option|Option/.test((err as Error).message);
  console.error(`schedule:sync: ${known ? (err as Error).message : (err as Error).stack}`);
  process.exit(1);
});

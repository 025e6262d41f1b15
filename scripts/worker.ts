/**
 * `npm run worker`: a process that runs only the live engine (no HTTP), for
 * scaling listeners out across processes. Same configuration as the service;
 * PostgreSQL is the coordination point, so run it with DATABASE_URL.
 */
import { runCli } from '../src/cli.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { createEngineWorker } from '../src/engine/start-worker.js';
import { createLogger } from '../src/logger.js';
import { createServices } from '../src/services.js';

async function main() {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, { role: 'worker' }, config.logFormat);
  if (!config.databaseUrl) logger.warn('no DATABASE_URL: this worker uses the embedded database, which no other process can share');
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, limits: config.database.engine, applicationName: 'question-play-engine' });
  const services = createServices({ database, config, logger });
  const worker = createEngineWorker(services);
  worker.start();
  const stop = async (signal: string) => {
    logger.info({ signal }, 'worker stopping: handing running listeners back to the queue');
    await worker.stop();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

runCli('question-play worker', main);

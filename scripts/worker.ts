/**
 * `npm run worker`: a process that runs only the live engine (no HTTP), for
 * scaling listeners out across processes. Same configuration as the service;
 * PostgreSQL is the coordination point, so run it with DATABASE_URL. With
 * OPS_PORT set it serves /healthz, /readyz (database, migrations, the engine
 * ticking) and /metrics on that port.
 */
import module from 'node:module';
import { runCli } from '../src/cli.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { createEngineWorker } from '../src/engine/start-worker.js';
import { createHealth, databaseChecks, engineCheck, engineStaleMs } from '../src/http/health.js';
import { startOpsServer } from '../src/http/ops-server.js';
import { createLogger } from '../src/logger.js';
import { guardUnhandledRejections } from '../src/observability/process-guards.js';
import { initTracing, stopTracing } from '../src/observability/tracing.js';
import { createServices } from '../src/services.js';

async function main() {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, { role: 'worker' }, config.logFormat);
  guardUnhandledRejections(logger);
  if (!config.databaseUrl) logger.warn('no DATABASE_URL: this worker uses the embedded database, which no other process can share');
  if (await initTracing({ otlpEndpoint: config.ops.otlpEndpoint, serviceName: `${config.ops.serviceName}-worker` }))
    logger.info('tracing: exporting spans over OTLP');
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    limits: config.database.engine,
    applicationName: 'question-play-engine',
  });
  const services = createServices({ database, config, logger });
  const worker = createEngineWorker(services);
  worker.start();
  // The compiled build turned Node's compile cache on (scripts/build.ts): written now, not only at exit.
  (module as { flushCompileCache?: () => void }).flushCompileCache?.();
  const health = createHealth([...databaseChecks(database), engineCheck(worker, engineStaleMs(config.engine.pollMs))]);
  const ops =
    config.ops.port === null
      ? null
      : await startOpsServer({
          health,
          port: config.ops.port,
          host: config.ops.host,
          onError: (err) => logger.error({ err }, 'the operations server failed to accept a connection'),
        });
  if (ops) logger.info({ port: ops.port }, `operations port: /healthz, /readyz and /metrics on ${config.ops.host}:${ops.port}`);
  const stop = async (signal: string) => {
    logger.info({ signal }, 'worker stopping: handing running listeners back to the queue');
    health.drain();
    await worker.stop();
    // What the engine published goes out before the process does (Redis: its outbox, a second at most).
    await services.liveBus.close();
    await database.close();
    await ops?.close();
    await stopTracing();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

runCli('question-play worker', main);

/** Process entry: configuration, database, HTTP server, graceful shutdown. */
import module from 'node:module';
import type { AddressInfo } from 'node:net';
import { ConfigError, loadConfig } from './config.js';
import { DatabaseError, openDatabase, redactUrl } from './db/client.js';
import { LiveDemo } from './demo/live-demo.js';
import { seedDemoData } from './demo/seed.js';
import { createEngineWorker } from './engine/start-worker.js';
import { createApp } from './http/app.js';
import { shutDownHttp } from './http/drain.js';
import { createFrontDoorServer } from './http/front-door.js';
import { busCheck, createHealth, databaseChecks, engineCheck, engineStaleMs } from './http/health.js';
import { startOpsServer } from './http/ops-server.js';
import { applyServerLimits } from './http/server-limits.js';
import { attachLiveStream } from './live/stream.js';
import { createLogger } from './logger.js';
import { seedLeagues } from './modules/leagues/leagues.public.js';
import { guardUnhandledRejections } from './observability/process-guards.js';
import { initTracing, stopTracing } from './observability/tracing.js';
import { createServices } from './services.js';

const startedAt = performance.now();

async function main() {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, {}, config.logFormat);
  guardUnhandledRejections(logger);
  // Before the services are made: they are wrapped in spans only when tracing runs.
  if (await initTracing({ otlpEndpoint: config.ops.otlpEndpoint, serviceName: config.ops.serviceName }))
    logger.info({ endpoint: config.ops.otlpEndpoint }, 'tracing: exporting spans over OTLP');
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, limits: config.database.api });
  logger.info(
    { database: database.kind, where: config.databaseUrl ? redactUrl(config.databaseUrl) : (config.dataDir ?? 'memory') },
    'database ready (migrations applied)',
  );
  // The engine has connections of its own, with a longer budget than requests: a database
  // outage makes requests fail fast while listeners wait it out and resume by themselves.
  // (PGlite has one connection, in this process: nothing to separate.) Opened while the rest starts.
  const openingEngineDatabase =
    config.engine.worker && database.kind === 'postgres'
      ? openDatabase({
          url: config.databaseUrl,
          migrate: false,
          maxConnections: 5,
          limits: config.database.engine,
          applicationName: 'question-play-engine',
        })
      : null;
  openingEngineDatabase?.catch(() => {}); // awaited below; a failure before then is not an unhandled rejection
  await seedLeagues({ db: database.db });
  const services = createServices({ database, config, logger });
  if (config.demoData) await seedDemoData(services);
  // Not ready until the start is complete: the server accepts connections before the bus listens and the engine runs.
  let starting = true;
  const health = createHealth([
    ...databaseChecks(database),
    {
      name: 'start',
      check() {
        if (starting) throw new Error('the process is starting');
      },
    },
  ]);
  const { frontDoor, api, drain } = await createApp({ services, health });

  // The API through the pipeline's front door (src/http/front-door.ts), every other request through express.
  const server = createFrontDoorServer(frontDoor);
  // Lasting: once it listens, a failed accept (out of file descriptors, say) is an 'error' too; it goes on listening.
  server.on('error', (err) => {
    if (server.listening) logger.error({ err }, 'the HTTP server failed to accept a connection');
  });
  server.listen(config.port, config.host);
  applyServerLimits(server, config.http);
  // WS /api/play/stream on the same server, from its first moment; LISTENs on the live bus.
  const attaching = attachLiveStream({ server, services });
  attaching.catch(() => {}); // awaited below; a failure before then is not an unhandled rejection
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const live = await attaching;
  const { port } = server.address() as AddressInfo;
  const base = `http://${config.host}:${port}`;
  logger.info({ url: base, ms: Math.round(performance.now() - startedAt), env: config.appEnv }, `listening on ${base} (docs at ${base}/docs)`);
  // A hint only: the start does not wait for it.
  services.users.list({ isAdmin: true, isActive: true, sortBy: 'created_at', sortDir: 'asc', offset: 0, limit: 1 }).then(
    ({ total }) => {
      if (!total) logger.info('no admin yet: create one with  npm run create-admin -- --username admin --password <password> --email admin@example.com');
    },
    (err: unknown) => logger.warn({ err }, 'could not check for an admin account'),
  );

  const engineDatabase = (await openingEngineDatabase) ?? database;
  const engineServices = engineDatabase === database ? services : createServices({ database: engineDatabase, config, logger });
  // The demo needs the worker: its live match is dispatched and run like any other.
  const demo =
    config.demoData && config.engine.worker
      ? new LiveDemo(engineServices, { feedPort: config.demoFeedPort, kickoffInSeconds: config.demoKickoffSeconds })
      : null;
  await demo?.start();
  const worker = config.engine.worker ? createEngineWorker(engineServices, demo ? [demo.task()] : []) : null;
  worker?.start();
  // Adding a check drops a result reused from before (src/http/health.ts): the next probe sees the process ready.
  starting = false;
  health.add(busCheck(services.liveBus));
  if (worker) health.add(engineCheck(worker, engineStaleMs(config.engine.pollMs)));
  // The compiled build turned Node's compile cache on (scripts/build.ts): written now, not only at exit, so a
  // process that never exits cleanly still leaves it for the next start. Elsewhere (Node 20, tsx) a no-op.
  (module as { flushCompileCache?: () => void }).flushCompileCache?.();
  // Loaded once the process is ready rather than by its start (src/request-validators.ts); a request before waits for them.
  api
    .loadValidators()
    .catch((err: unknown) => logger.error({ err }, 'loading the request validators failed: every API request fails until the build is mended'));
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

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, in_flight: drain.inFlight }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting anyway');
      process.exit(1);
    }, config.shutdownTimeoutMs + 10_000);
    force.unref();
    // No new connections; new requests on open keep-alive connections get 503 with Retry-After
    // and Connection: close; stream sockets get 1001 (clients reconnect elsewhere). Requests in
    // flight finish (their responses close their connections) within SHUTDOWN_TIMEOUT_MS.
    const closingLive = live.close().catch((err) => logger.error({ err }, 'closing the live stream failed'));
    const cut = await shutDownHttp(server, drain, { timeoutMs: config.shutdownTimeoutMs });
    if (cut) logger.warn({ cut }, 'requests still in flight at the shutdown timeout (SHUTDOWN_TIMEOUT_MS) were cut');
    await closingLive;
    // Running listeners go back to the queue, so another process continues them at once.
    await worker?.stop().catch((err) => logger.error({ err }, 'stopping the engine worker failed'));
    await demo?.stop();
    await services.leaderboards.close();
    if (engineServices !== services) await engineServices.leaderboards.close();
    // What the engine published goes out before the process does (Redis: its outbox, a second at most).
    if (engineServices !== services) await engineServices.liveBus.close();
    // Mails handed over by requests that finished are sent before the process goes.
    await services.mailer.close().catch((err) => logger.error({ err }, 'closing the mailer failed'));
    // The pools close last: nothing above uses them any more.
    if (engineDatabase !== database) await engineDatabase.close().catch((err) => logger.error({ err }, 'closing the engine database failed'));
    await database.close().catch((err) => logger.error({ err }, 'closing the database failed'));
    await ops?.close();
    await stopTracing();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof DatabaseError) {
    console.error(`question-play: ${err.message}`);
  } else if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    console.error(`question-play: ${(err as Error).message}: another process uses this port; set PORT to a free one`);
  } else {
    console.error(err);
  }
  process.exit(1);
});

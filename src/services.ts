/** Services of the application, built once per app and shared by handlers, the engine and scripts. */
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { Logger } from './logger.js';
import { createEngineStore } from './engine/store.js';
import { engineHooks } from './engine/subscribers.js';
import { createLeaderboardWriter } from './engine/leaderboard-writer.js';
import { connectRedis } from './redis/client.js';
import { createRedisBoards } from './modules/leaderboards/leaderboards.redis.js';
import { createDispatcher } from './events/dispatcher.js';
import { reactions } from './events/reactions.js';
import { lazy } from './lazy.js';
import { tracedObject, tracingEnabled } from './observability/tracing.js';
import type { BrandRow } from './modules/brands/brands.table.js';
import type { BrandSnapshot } from './modules/issuances/issuances.table.js';
import { createAccountService } from './modules/account/account.service.js';
import { createAdminSessionsService } from './modules/admin-sessions/admin-sessions.service.js';
import { createAnswersService } from './modules/answers/answers.service.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { createLoginThrottle } from './modules/auth/login-throttle.js';
import { createBrandsService } from './modules/brands/brands.service.js';
import { checkDefinitionAllowlist } from './modules/definitions/allowlists.js';
import { createDefinitionsService } from './modules/definitions/definitions.service.js';
import { IN_GAME } from './modules/definitions/in-game.kind.js';
import { MATCH } from './modules/definitions/match.kind.js';
import { createFeedbackService } from './modules/feedback/feedback.service.js';
import { createGroupsService } from './modules/groups/groups.service.js';
import { createInheritanceService } from './modules/inheritance/inheritance.service.js';
import { createIssuancesService } from './modules/issuances/issuances.service.js';
import { createLeaderboardsService } from './modules/leaderboards/leaderboards.service.js';
import { createLeagueListCache } from './modules/leagues/league-cache.js';
import { createLeaguesService } from './modules/leagues/leagues.service.js';
import { createListenersService } from './modules/listeners/listeners.service.js';
import { createMatchControlService } from './modules/match-control/match-control.service.js';
import { createMatchesService } from './modules/matches/matches.service.js';
import { createPlayerGroupsService } from './modules/player-groups/player-groups.service.js';
import { createPushService } from './modules/push/push.service.js';
import { createSponsorshipsService } from './modules/sponsorships/sponsorships.service.js';
import { createUsersService } from './modules/users/users.service.js';
import { createObjectStore, type ObjectStore } from './storage/object-store.js';
import { createMailer } from './mail/mailer.js';
import { createLiveBus, type LiveBus } from './live/bus.js';
import { createRedisLiveBus } from './live/redis-bus.js';
import { createKeyCache } from './modules/auth/key-cache.js';
import { passwordHashing } from './modules/auth/credentials.js';
import { installSandbox } from './runtime/sandbox/sandbox.js';
import { setLanguageTimeScale } from './domain/language/time-scale.js';

export interface ServiceDeps {
  database: Database;
  config: Config;
  logger: Logger;
  /** Defaults to the store the config describes. */
  storage?: ObjectStore | null;
}

export function createServices(deps: ServiceDeps) {
  // What the expression and template language cannot run in this thread runs in its worker threads (started on first need).
  installSandbox();
  const { db } = deps.database;
  const storage = deps.storage === undefined ? createObjectStore(deps.config.s3) : deps.storage;
  /**
   * Live delivery: issuance, match, follow and key events go on the cross-process bus, the stream listens when attached:
   * Redis streams carrying whole messages with REDIS_URL (src/live/redis-bus.ts), else LISTEN/NOTIFY carrying ids.
   */
  const liveBus: LiveBus = deps.config.redis
    ? createRedisLiveBus({ database: deps.database, config: deps.config.redis, logger: deps.logger })
    : createLiveBus({ database: deps.database, logger: deps.logger });
  /** What changed, said once by whoever changed it; who reacts is src/events/reactions.ts, installed below. */
  const events = createDispatcher({ logger: deps.logger });
  // The league list is kept while the bus listens: every change to the leagues table is announced on it by a trigger.
  const leagueCache = createLeagueListCache({ trusted: () => liveBus.listening });
  const leagues = createLeaguesService({ db, checkAllowlist: checkDefinitionAllowlist, cache: leagueCache, events });
  /** With REDIS_URL, boards are served from Redis (one connection for reads, bounded by its command budget; one for the writer). */
  const redis = deps.config.redis;
  const redisBoards = redis
    ? {
        boards: createRedisBoards({ redis: connectRedis(redis, { name: 'boards', logger: deps.logger, commandTimeoutMs: 250 }), prefix: redis.keyPrefix }),
        writer: createRedisBoards({
          redis: connectRedis(redis, { name: 'boards writer', logger: deps.logger, commandTimeoutMs: 10_000 }),
          prefix: redis.keyPrefix,
        }),
        onError: (err: unknown) => deps.logger.warn({ err }, 'leaderboards: a read from Redis failed; read from PostgreSQL (for a second)'),
      }
    : undefined;
  const leaderboards = createLeaderboardsService({
    redisBoards,
    db,
    leagues,
    chunkRows: deps.config.engine.leaderboardChunkRows,
    events,
    onBackgroundError: (err) =>
      deps.logger.warn(
        { err },
        'leaderboards: a background read failed (a points total copied, a board loaded into memory or brought up to date: reads are the SQL read meanwhile)',
      ),
  });
  const loginThrottle = createLoginThrottle({
    db,
    config: deps.config.loginThrottle,
    register: deps.config.registerThrottle,
    groupJoin: deps.config.playerGroups,
    mail: deps.config.mail,
    logger: deps.logger,
  });
  const mailer = createMailer({ config: deps.config.mail, appEnv: deps.config.appEnv, logger: deps.logger });
  const keyCache = createKeyCache({ ttlMs: deps.config.authCache.ttlMs, maxEntries: deps.config.authCache.maxEntries, trusted: () => liveBus.listening });
  const passwords = passwordHashing(deps.config.passwordHashCost);
  setLanguageTimeScale(deps.config.languageTimeScale);
  const auth = createAuthService({
    db,
    passwords,
    throttle: loginThrottle,
    events,
    keyCache,
    // The demo starts a match every ten minutes: its players follow without a daily quota (docs/decisions.md).
    registeredFollowQuota: deps.config.demoData ? null : undefined,
  });
  const brands = createBrandsService({ db, storage, logger: deps.logger });
  const brandSnapshot = (b: BrandRow): BrandSnapshot => ({
    id: b.id,
    name: b.name,
    primary_color: b.primaryColor,
    secondary_color: b.secondaryColor,
    logo_url: brands.publicLogoUrl(b),
  });
  const push = createPushService({ db, config: deps.config.push, logger: deps.logger });
  /** The live engine's persistence and hooks: both say what happened through `events` (settling in the transaction, issued, settled, matchChanged after it). */
  const engine = {
    store: createEngineStore({ db, brandSnapshot, events }),
    hooks: engineHooks(events),
    /** The boards' writers, tasks of the worker: the SQL applier of the settlements' queue, and with REDIS_URL the writer of the boards in Redis. */
    leaderboardWriters: [
      createLeaderboardWriter({
        name: 'leaderboard-apply',
        write: (o) => leaderboards.applyQueued(o),
        logger: deps.logger,
        everyMs: deps.config.engine.leaderboardApplyPollMs,
      }),
      ...(redisBoards
        ? [
            createLeaderboardWriter({
              name: 'leaderboard-redis',
              write: (o) => leaderboards.copyToRedis(o),
              logger: deps.logger,
              everyMs: deps.config.engine.leaderboardApplyPollMs,
            }),
          ]
        : []),
    ],
    brandSnapshot,
  };
  /** The engine's Match question issuance, for a test match's clone and restart (loaded on first use: the expression language comes with it). */
  const matchQuestions = lazy(async () =>
    (await import('./engine/match-questions.js')).createMatchQuestions({
      db,
      store: engine.store,
      hooks: engine.hooks,
      logger: deps.logger,
      brandSnapshot,
    }),
  );
  const listeners = createListenersService({ db, leagues, events });
  const answers = createAnswersService({ db });
  const playerGroups = createPlayerGroupsService({ db, config: deps.config.playerGroups, throttle: loginThrottle, leaderboards });
  const account = createAccountService({
    db,
    config: deps.config.mail,
    mailer,
    throttle: loginThrottle,
    auth,
    answers,
    leaderboards,
    playerGroups,
    events,
    passwords,
  });
  events.use(
    reactions({
      logger: deps.logger,
      bus: liveBus,
      keyCache,
      leagueCache,
      leaderboards,
      push: push.subscriber,
      leaderboardWriters: engine.leaderboardWriters,
      mailVerification: account.mailVerification,
    }),
  );
  events.listen(liveBus);
  return tracedServices({
    config: deps.config,
    database: deps.database,
    logger: deps.logger,
    storage,
    auth,
    keyCache,
    adminSessions: createAdminSessionsService({ db, auth, events }),
    loginThrottle,
    answers,
    users: createUsersService({
      db,
      events,
      throttle: loginThrottle,
      passwords,
    }),
    account,
    mailer,
    leaderboards,
    playerGroups,
    leagues,
    groups: createGroupsService({ db, leagues }),
    definitions: createDefinitionsService(IN_GAME, { db, leagues }),
    matchDefinitions: createDefinitionsService(MATCH, { db, leagues }),
    brands,
    sponsorships: createSponsorshipsService({ db }),
    matches: createMatchesService({
      db,
      leagues,
      checkAllowlist: checkDefinitionAllowlist,
      feedUrlPolicy: { allowPrivateAddresses: deps.config.engine.feedAllowPrivateAddresses },
      events,
    }),
    inheritance: createInheritanceService({ db, leagues }),
    issuances: createIssuancesService({ db }),
    listeners,
    feedback: createFeedbackService({ db }),
    push,
    liveBus,
    events,
    engine,
    matchControl: createMatchControlService({
      db,
      appEnv: deps.config.appEnv,
      listeners,
      events,
      issueMatchQuestions: async (matchId) => (await matchQuestions()).issueDue({ matchId }),
    }),
  });
}

/** The services requests call, each method in a span when tracing runs (see src/observability/tracing.ts). */
const TRACED_SERVICES = [
  'leaderboards',
  'playerGroups',
  'auth',
  'account',
  'adminSessions',
  'answers',
  'users',
  'leagues',
  'groups',
  'definitions',
  'matchDefinitions',
  'brands',
  'sponsorships',
  'matches',
  'inheritance',
  'issuances',
  'listeners',
  'feedback',
  'matchControl',
] as const;

function tracedServices<S extends Record<(typeof TRACED_SERVICES)[number], object>>(services: S): S {
  if (!tracingEnabled()) return services;
  const out = { ...services };
  for (const name of TRACED_SERVICES) (out as Record<string, object>)[name] = tracedObject(name, services[name]);
  return out;
}

export type Services = ReturnType<typeof createServices>;

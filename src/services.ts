/** Services of the application, built once per app and shared by handlers, the engine and scripts. */
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { Logger } from './logger.js';
import { createEngineStore } from './engine/store.js';
import { engineHooks, type EngineSubscriber } from './engine/subscribers.js';
import { tracedObject, tracingEnabled } from './observability/tracing.js';
import { scoreSettledIssuance } from './modules/answers/scoring.js';
import type { SettleInTx } from './modules/issuances/issuances.repository.js';
import type { BrandRow } from './modules/brands/brands.table.js';
import type { BrandSnapshot } from './modules/issuances/issuances.table.js';
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
import { createLiveBus } from './live/bus.js';
import { createKeyCache } from './modules/auth/key-cache.js';
import { liveEngineSubscriber, publishBoardChanged, publishFollowChange, publishKeysRevoked, publishMatchGone } from './live/publishers.js';

export interface ServiceDeps {
  database: Database;
  config: Config;
  logger: Logger;
  /** Defaults to the store the config describes. */
  storage?: ObjectStore | null;
}

/** A statement that changes users or API keys (the key cache keeps both). */
const WRITES_USERS_OR_KEYS = /^(update|delete from) "(users|api_keys)"/;
/** A statement that changes leagues (the league list cache keeps them). */
const WRITES_LEAGUES = /^(insert into|update|delete from) "leagues"/;

export function createServices(deps: ServiceDeps) {
  const { db } = deps.database;
  const storage = deps.storage === undefined ? createObjectStore(deps.config.s3) : deps.storage;
  /** Live delivery: issuance, match, follow and key events go on the cross-process bus (LISTEN/NOTIFY); the stream listens when attached. */
  const liveBus = createLiveBus({ database: deps.database, logger: deps.logger });
  // The league list is kept while the bus listens: every change to the leagues table is announced on it by a trigger.
  const leagueCache = createLeagueListCache({ trusted: () => liveBus.listening });
  const leagues = createLeaguesService({ db, checkAllowlist: checkDefinitionAllowlist, cache: leagueCache });
  const leaderboards = createLeaderboardsService({
    db,
    leagues,
    chunkRows: deps.config.engine.leaderboardChunkRows,
    onMatchBoardChanged: publishBoardChanged(liveBus),
    onBackgroundError: (err) =>
      deps.logger.warn(
        { err },
        'leaderboards: a background read failed (a points total copied, a board loaded into memory or brought up to date: reads are the SQL read meanwhile)',
      ),
    // Boards in memory while the bus listens: it announces users' changes (the trigger) and settlements at once.
    memoryBoards: deps.config.engine.leaderboardMemoryBoards
      ? { trusted: () => liveBus.listening, maxBoards: deps.config.engine.leaderboardMemoryBoards, maxRows: deps.config.engine.leaderboardMemoryRows }
      : undefined,
  });
  const onKeysRevoked = publishKeysRevoked(liveBus);
  const onFollowChanged = publishFollowChange(liveBus);
  const loginThrottle = createLoginThrottle({
    db,
    config: deps.config.loginThrottle,
    register: deps.config.registerThrottle,
    groupJoin: deps.config.playerGroups,
    logger: deps.logger,
  });
  const keyCache = createKeyCache({ ttlMs: deps.config.authCache.ttlMs, maxEntries: deps.config.authCache.maxEntries, trusted: () => liveBus.listening });
  // Other processes' changes (and this one's, once committed) arrive on the bus, announced by the database's trigger;
  // this process's own writes empty the cache at once, before they run, so its next request never sees the old row.
  liveBus.subscribe({
    onEvent: (e) => {
      if (e.k === 'user' || e.k === 'keys') keyCache.invalidateUser(e.u);
      else if (e.k === 'leagues') leagueCache.invalidate();
      // Cached leaderboard pages carry display names (their rows and ranks are versioned, names are not).
      if (e.k === 'user') {
        leaderboards.forgetPages();
        void leaderboards.memoryBoards?.userChanged(e.u);
      } else if (e.k === 'settled' || e.k === 'board') leaderboards.memoryBoards?.settled();
    },
    onResync: () => {
      keyCache.flush();
      leagueCache.invalidate();
      leaderboards.forgetPages();
      leaderboards.memoryBoards?.resync();
    },
  });
  deps.database.onQuery((query) => {
    if (WRITES_USERS_OR_KEYS.test(query)) {
      keyCache.flush();
      leaderboards.forgetPages();
    } else if (WRITES_LEAGUES.test(query)) leagueCache.invalidate();
  });
  const auth = createAuthService({ db, throttle: loginThrottle, onKeysRevoked, keyCache });
  const brands = createBrandsService({ db, storage, logger: deps.logger });
  const brandSnapshot = (b: BrandRow): BrandSnapshot => ({
    id: b.id,
    name: b.name,
    primary_color: b.primaryColor,
    secondary_color: b.secondaryColor,
    logo_url: brands.publicLogoUrl(b),
  });
  /**
   * The live engine's persistence and hooks: scoring runs inside each settling
   * transaction; subscribers (live delivery, push) run after commit.
   */
  const subscribers: EngineSubscriber[] = [];
  const push = createPushService({ db, config: deps.config.push, logger: deps.logger });
  subscribers.push(push.subscriber);
  subscribers.push(liveEngineSubscriber(liveBus));
  /**
   * What every settling transaction runs, whoever settles (the engine, an
   * operator's stop or revocation, the sweep of orphaned questions): the
   * answers are scored, and the settlement is queued for the leaderboards,
   * which the worker applies after the commit (docs/decisions.md#leaderboard-tables).
   */
  const settleTx: SettleInTx = async (tx, row) => {
    await scoreSettledIssuance(tx, row);
    await leaderboards.enqueueSettlement(tx, row);
  };
  const engine = {
    store: createEngineStore({ db, brandSnapshot, settleTx }),
    hooks: engineHooks({ logger: deps.logger, subscribers }),
    subscribers,
    brandSnapshot,
  };
  const listeners = createListenersService({ db, leagues, onSettle: settleTx, onSettled: (row) => engine.hooks.onSettled?.(row) });
  return tracedServices({
    config: deps.config,
    database: deps.database,
    logger: deps.logger,
    storage,
    auth,
    keyCache,
    adminSessions: createAdminSessionsService({ db, auth, onKeysRevoked }),
    loginThrottle,
    answers: createAnswersService({ db }),
    users: createUsersService({ db, onKeysRevoked, onLeaderboardInputsChanged: leaderboards.rebuildUser }),
    leaderboards,
    playerGroups: createPlayerGroupsService({ db, config: deps.config.playerGroups, throttle: loginThrottle, leaderboards }),
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
      onFollowChanged,
      onMatchDeleted: publishMatchGone(liveBus),
    }),
    inheritance: createInheritanceService({ db, leagues }),
    issuances: createIssuancesService({ db }),
    listeners,
    feedback: createFeedbackService({ db }),
    push,
    liveBus,
    engine,
    matchControl: createMatchControlService({ db, appEnv: deps.config.appEnv, listeners, onFollowChanged }),
  });
}

/** The services requests call, each method in a span when tracing runs (see src/observability/tracing.ts). */
const TRACED_SERVICES = [
  'leaderboards',
  'playerGroups',
  'auth',
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

/** Services of the application, built once per app and shared by handlers, the engine and scripts. */
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { Logger } from './logger.js';
import { createEngineStore } from './engine/store.js';
import { engineHooks, type EngineSubscriber } from './engine/subscribers.js';
import { scoreSettledIssuance } from './modules/answers/scoring.js';
import type { BrandRow } from './modules/brands/brands.table.js';
import type { BrandSnapshot } from './modules/issuances/issuances.table.js';
import { createAdminSessionsService } from './modules/admin-sessions/admin-sessions.service.js';
import { createAnswersService } from './modules/answers/answers.service.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { createBrandsService } from './modules/brands/brands.service.js';
import { checkDefinitionAllowlist } from './modules/definitions/allowlists.js';
import { createDefinitionsService } from './modules/definitions/definitions.service.js';
import { createFeedbackService } from './modules/feedback/feedback.service.js';
import { createGroupsService } from './modules/groups/groups.service.js';
import { createInheritanceService } from './modules/inheritance/inheritance.service.js';
import { createIssuancesService } from './modules/issuances/issuances.service.js';
import { createLeaguesService } from './modules/leagues/leagues.service.js';
import { createListenersService } from './modules/listeners/listeners.service.js';
import { createMatchDefinitionsService } from './modules/match-definitions/match-definitions.service.js';
import { createMatchControlService } from './modules/match-control/match-control.service.js';
import { createMatchesService } from './modules/matches/matches.service.js';
import { createPushService } from './modules/push/push.service.js';
import { createSponsorshipsService } from './modules/sponsorships/sponsorships.service.js';
import { createUsersService } from './modules/users/users.service.js';
import { createObjectStore, type ObjectStore } from './storage/object-store.js';
import { createLiveBus } from './live/bus.js';
import { liveEngineSubscriber, publishFollowChange } from './live/publishers.js';

export interface ServiceDeps {
  database: Database;
  config: Config;
  logger: Logger;
  /** Defaults to the store the config describes. */
  storage?: ObjectStore | null;
}

export function createServices(deps: ServiceDeps) {
  const { db } = deps.database;
  const storage = deps.storage === undefined ? createObjectStore(deps.config.s3) : deps.storage;
  const leagues = createLeaguesService({ db, checkAllowlist: checkDefinitionAllowlist });
  const auth = createAuthService({ db });
  const brands = createBrandsService({ db, storage, logger: deps.logger });
  const brandSnapshot = (b: BrandRow): BrandSnapshot => ({ id: b.id, name: b.name, primary_color: b.primaryColor, secondary_color: b.secondaryColor, logo_url: brands.publicLogoUrl(b) });
  /**
   * The live engine's persistence and hooks: scoring runs inside each settling
   * transaction; subscribers (live delivery, push) run after commit.
   */
  const subscribers: EngineSubscriber[] = [];
  const push = createPushService({ db, config: deps.config.push, logger: deps.logger });
  subscribers.push(push.subscriber);
  /** Live delivery: issuance, match and follow events go on the cross-process bus (LISTEN/NOTIFY); the stream listens when attached. */
  const liveBus = createLiveBus({ database: deps.database, logger: deps.logger });
  subscribers.push(liveEngineSubscriber(liveBus));
  const engine = {
    store: createEngineStore({ db, brandSnapshot }),
    hooks: engineHooks({ logger: deps.logger, subscribers, settleTx: scoreSettledIssuance }),
    subscribers,
    brandSnapshot,
  };
  return {
    config: deps.config,
    database: deps.database,
    logger: deps.logger,
    storage,
    auth,
    adminSessions: createAdminSessionsService({ db, auth }),
    answers: createAnswersService({ db }),
    users: createUsersService({ db }),
    leagues,
    groups: createGroupsService({ db, leagues }),
    definitions: createDefinitionsService({ db, leagues }),
    matchDefinitions: createMatchDefinitionsService({ db, leagues }),
    brands,
    sponsorships: createSponsorshipsService({ db }),
    matches: createMatchesService({ db, leagues, checkAllowlist: checkDefinitionAllowlist, onFollowChanged: publishFollowChange(liveBus) }),
    inheritance: createInheritanceService({ db, leagues }),
    issuances: createIssuancesService({ db }),
    listeners: createListenersService({ db, leagues }),
    feedback: createFeedbackService({ db }),
    push,
    liveBus,
    engine,
    matchControl: createMatchControlService({ db, appEnv: deps.config.appEnv, store: engine.store, hooks: engine.hooks }),
  };
}

export type Services = ReturnType<typeof createServices>;

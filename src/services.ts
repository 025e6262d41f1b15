/** Services of the application, built once per app and shared by handlers, the engine and scripts. */
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { Logger } from './logger.js';
import { createEngineStore } from './engine/store.js';
import type { EngineHooks } from './engine/listener-runner.js';
import type { BrandRow } from './modules/brands/brands.table.js';
import type { BrandSnapshot } from './modules/issuances/issuances.table.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { createBrandsService } from './modules/brands/brands.service.js';
import { checkDefinitionAllowlist } from './modules/definitions/allowlists.js';
import { createDefinitionsService } from './modules/definitions/definitions.service.js';
import { createGroupsService } from './modules/groups/groups.service.js';
import { createInheritanceService } from './modules/inheritance/inheritance.service.js';
import { createIssuancesService } from './modules/issuances/issuances.service.js';
import { createLeaguesService } from './modules/leagues/leagues.service.js';
import { createListenersService } from './modules/listeners/listeners.service.js';
import { createMatchDefinitionsService } from './modules/match-definitions/match-definitions.service.js';
import { createMatchControlService } from './modules/match-control/match-control.service.js';
import { createMatchesService } from './modules/matches/matches.service.js';
import { createSponsorshipsService } from './modules/sponsorships/sponsorships.service.js';
import { createUsersService } from './modules/users/users.service.js';
import { createObjectStore, type ObjectStore } from './storage/object-store.js';

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
  const brands = createBrandsService({ db, storage, logger: deps.logger });
  const brandSnapshot = (b: BrandRow): BrandSnapshot => ({ id: b.id, name: b.name, primary_color: b.primaryColor, secondary_color: b.secondaryColor, logo_url: brands.publicLogoUrl(b) });
  /** The live engine's persistence, and hooks later stages (scoring, live delivery) attach to. */
  const engine = { store: createEngineStore({ db, brandSnapshot }), hooks: {} as EngineHooks, brandSnapshot };
  return {
    config: deps.config,
    database: deps.database,
    logger: deps.logger,
    storage,
    auth: createAuthService({ db }),
    users: createUsersService({ db }),
    leagues,
    groups: createGroupsService({ db, leagues }),
    definitions: createDefinitionsService({ db, leagues }),
    matchDefinitions: createMatchDefinitionsService({ db, leagues }),
    brands,
    sponsorships: createSponsorshipsService({ db }),
    matches: createMatchesService({ db, leagues, checkAllowlist: checkDefinitionAllowlist }),
    inheritance: createInheritanceService({ db, leagues }),
    issuances: createIssuancesService({ db }),
    listeners: createListenersService({ db, leagues }),
    engine,
    matchControl: createMatchControlService({ db, appEnv: deps.config.appEnv, store: engine.store, hooks: engine.hooks }),
  };
}

export type Services = ReturnType<typeof createServices>;

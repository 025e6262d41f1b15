/** Services of the application, built once per app and shared by handlers, the engine and scripts. */
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { Logger } from './logger.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { createBrandsService } from './modules/brands/brands.service.js';
import { checkDefinitionAllowlist } from './modules/definitions/allowlists.js';
import { createDefinitionsService } from './modules/definitions/definitions.service.js';
import { createGroupsService } from './modules/groups/groups.service.js';
import { createInheritanceService } from './modules/inheritance/inheritance.service.js';
import { createLeaguesService } from './modules/leagues/leagues.service.js';
import { createMatchDefinitionsService } from './modules/match-definitions/match-definitions.service.js';
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
    brands: createBrandsService({ db, storage, logger: deps.logger }),
    sponsorships: createSponsorshipsService({ db }),
    inheritance: createInheritanceService({ db, leagues }),
  };
}

export type Services = ReturnType<typeof createServices>;

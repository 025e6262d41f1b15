/** Services of the application, built once per app and shared by handlers, the engine and scripts. */
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { badRequest } from './errors.js';
import type { Logger } from './logger.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { createBrandsService } from './modules/brands/brands.service.js';
import { createLeaguesService, type AllowlistChecker } from './modules/leagues/leagues.service.js';
import { createUsersService } from './modules/users/users.service.js';
import { createObjectStore, type ObjectStore } from './storage/object-store.js';

export interface ServiceDeps {
  database: Database;
  config: Config;
  logger: Logger;
  /** Defaults to the store the config describes. */
  storage?: ObjectStore | null;
}

// No definitions exist yet in this version of the catalog, so every listed id is unknown.
const checkAllowlist: AllowlistChecker = async ({ field, ids }) => {
  if (ids.length) throw badRequest('allowlist.unknown_definition', `${field}: unknown definition ids ${ids.join(', ')}`);
};

export function createServices(deps: ServiceDeps) {
  const { db } = deps.database;
  const storage = deps.storage === undefined ? createObjectStore(deps.config.s3) : deps.storage;
  return {
    config: deps.config,
    database: deps.database,
    logger: deps.logger,
    storage,
    auth: createAuthService({ db }),
    users: createUsersService({ db }),
    leagues: createLeaguesService({ db, checkAllowlist }),
    brands: createBrandsService({ db, storage, logger: deps.logger }),
  };
}

export type Services = ReturnType<typeof createServices>;

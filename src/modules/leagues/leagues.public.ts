/**
 * The leagues module's front door: what the rest of the service may read and
 * write of its tables (scripts/eslint/front-doors.js: its repositories are
 * its own). Each takes the connection or the caller's transaction.
 */
export {
  // A league by id (the definitions catalogue's checks).
  findLeague,
  // Schedule sync: which league a provider's slug names.
  leagueIdsBySlug,
  // The definitions catalogue: a deleted definition leaves the leagues' allowlists.
  removeFromLeagueAllowlists,
  // The process entry: the supported leagues, seeded at start.
  seedLeagues,
} from './leagues.repository.js';

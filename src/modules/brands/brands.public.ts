/**
 * The brands module's front door: what the rest of the service may read and
 * write of its tables (scripts/eslint/front-doors.js: its repositories are
 * its own). Each takes the connection or the caller's transaction.
 */
export {
  // The demo's brands.
  insertBrandsIfAbsent,
  // A brand by id (the engine's sponsor snapshot at issuance).
  findBrand,
} from './brands.repository.js';

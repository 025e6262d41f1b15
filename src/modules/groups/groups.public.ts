/**
 * The groups module's front door: what the rest of the service may read and
 * write of its tables (scripts/eslint/front-doors.js: its repositories are
 * its own). Each takes the connection or the caller's transaction.
 */
export {
  // A league's groups (settings inheritance, the catalog a listener runs a match with).
  listGroups,
} from './groups.repository.js';

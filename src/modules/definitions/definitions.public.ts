/**
 * The definitions module's front door: what the rest of the service may
 * read of its tables (scripts/eslint/front-doors.js: its repositories are its
 * own). Each statement takes the connection or the caller's transaction.
 */
export {
  // The catalog a listener runs a match with.
  activeInGameDefinitionsOfLeague,
} from './definitions.repository.js';

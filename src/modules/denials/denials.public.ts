/**
 * The denials module's front door: what the rest of the service may read and
 * write of its tables (scripts/eslint/front-doors.js: its repositories are
 * its own). Each takes the connection or the caller's transaction.
 */
export {
  // The live engine: denials written with its batch, and read back by a listener taking over.
  deniedOfMatch,
  insertDenials,
  type NewDenial,
  // Match control: a reset match loses its denials.
  deleteDenialsOfMatch,
} from './denials.repository.js';

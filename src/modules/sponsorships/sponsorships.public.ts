/**
 * The sponsorships module's front door: what the rest of the service may read and
 * write of its tables (scripts/eslint/front-doors.js: its repositories are
 * its own). Each takes the connection or the caller's transaction.
 */
export {
  // Match cloning and reset.
  copySlots,
  unstampSlotsOfMatch,
  // The engine: a slot picked and stamped at issuance.
  pickSlot,
  stampSlot,
  // The sponsor's brand columns, for the matches' views.
  sponsorBrandColumns,
} from './sponsorships.repository.js';

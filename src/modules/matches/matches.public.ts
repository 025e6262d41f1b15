/**
 * The matches module's front door: what the rest of the service may read
 * and write of its tables (scripts/eslint/front-doors.js: its repositories
 * are its own). Each statement takes the connection or the caller's
 * transaction.
 */
export {
  // The live engine: where play stands, saved with its batch; schedule sync's upsert.
  matchWithLeagueAndSponsor,
  saveMatchStateStore,
  updateMatchRow,
  // Match questions: the match's state store, locked while one of them issues.
  lockMatchStateStore,
  // Schedule sync: the statuses before its upsert, locked, and the upsert.
  lockStatusesBySrId,
  upsertScheduledMatches,
  // Match control: clone, follow, kick off, reset; the demo's cleanup.
  findMatchRow,
  insertFollow,
  insertMatch,
  kickOffNow,
  resetToKickOff,
  anyOpenWithSrIdPrefix,
  cancelMatchesWithSrIdPrefix,
  matchIdBySrId,
  // Listeners: a test match's play ends with its listener.
  endTestMatchPlay,
  // The definitions catalogue: a deleted definition leaves the matches' allowlists.
  removeFromMatchAllowlists,
  // A player's follows (their data copy and the account's deletion).
  deleteFollowsOfUser,
  followsOfUser,
  // The live stream: who follows what, and where play stands on many matches at once.
  followedMatchIds,
  followsOfUsers,
  matchStates,
  type MatchStateRow,
} from './matches.repository.js';

/**
 * The auth module's front door: what the rest of the service may read and
 * write of its tables (scripts/eslint/front-doors.js: its repositories are
 * its own). Each takes the connection or the caller's transaction.
 */
export {
  // A player's mailed links (the account module's lifecycle).
  deleteAccountTokens,
  deleteExpiredAccountTokens,
  replaceAccountToken,
  useAccountToken,
  // Keys: issued at a password reset, revoked with their user or admin session, swept when expired.
  deleteExpiredKeys,
  insertApiKey,
  revokeAdminSessionKeys,
  revokeUserApiKeys,
  // The live stream's re-check of its sockets' keys.
  validKeyIds,
} from './auth.repository.js';

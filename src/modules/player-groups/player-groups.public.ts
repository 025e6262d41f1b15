/**
 * The player-groups module's front door: what the rest of the service may read and
 * write of its tables (scripts/eslint/front-doors.js: its repositories are
 * its own). Each takes the connection or the caller's transaction.
 */
export { leaveEveryGroup } from './player-groups.repository.js';
export { isMember as isGroupMember, membersOfGroups as groupMembersForDelivery } from './player-groups.repository.js';

import type { components } from '../../../generated/api-types.js';
import { isoTimestamps } from '../shared/dto-fields.js';
import { leaderboardName } from './display-name.js';
import type { UserRow } from './users.table.js';

export type UserDto = components['schemas']['User'];

/** The one place a user row becomes the contract's User (no hash, no internals). */
export function toUserDto(row: UserRow): UserDto {
  return {
    id: row.id,
    username: row.username,
    display_name: row.displayName,
    display_name_locked: row.displayNameLocked,
    leaderboard_name: leaderboardName(row),
    email: row.email,
    email_verified: row.emailVerifiedAt !== null,
    first_name: row.firstName,
    last_name: row.lastName,
    postal_address: row.postalAddress,
    date_of_birth: row.dateOfBirth,
    match_follow_timezone: row.matchFollowTimezone,
    match_daily_follow_count: row.matchDailyFollowCount,
    notify_on_issuance: row.notifyOnIssuance,
    notify_on_resolve: row.notifyOnResolve,
    is_admin: row.isAdmin,
    is_active: row.isActive,
    hidden_from_leaderboards: row.hiddenFromLeaderboards,
    auth_provider: 'local_password',
    ...isoTimestamps(row),
    last_login_at: row.lastLoginAt ? row.lastLoginAt.toISOString() : null,
    deleted_at: row.deletedAt ? row.deletedAt.toISOString() : null,
  };
}

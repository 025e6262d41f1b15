import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { idColumn, timestamps, tstz } from '../../db/columns.js';

export const users = pgTable(
  'users',
  {
    id: idColumn(),
    username: text('username'),
    /** What leaderboards show (see display-name.ts); null: the username. */
    displayName: text('display_name'),
    /** An admin set the display name; the player cannot change it. */
    displayNameLocked: boolean('display_name_locked').notNull().default(false),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    postalAddress: text('postal_address'),
    dateOfBirth: date('date_of_birth', { mode: 'string' }),
    matchFollowTimezone: text('match_follow_timezone'),
    matchDailyFollowCount: integer('match_daily_follow_count').default(3),
    notifyOnIssuance: boolean('notify_on_issuance').notNull().default(true),
    notifyOnResolve: boolean('notify_on_resolve').notNull().default(true),
    isAdmin: boolean('is_admin').notNull().default(false),
    isActive: boolean('is_active').notNull().default(true),
    /** An admin took the user off every leaderboard (cheating); their history stays. */
    hiddenFromLeaderboards: boolean('hidden_from_leaderboards').notNull().default(false),
    authProvider: text('auth_provider').notNull().default('local_password'),
    ...timestamps(),
    lastLoginAt: tstz('last_login_at'),
  },
  (t) => [
    // Uniqueness without regard to case, settled by the database.
    uniqueIndex('users_username_lower_uq').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_uq').on(sql`lower(${t.email})`),
    index('users_created_at_idx').on(t.createdAt),
  ],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: idColumn(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the key, hex; the key itself is never stored. */
    keyDigest: text('key_digest').notNull(),
    /** First characters of the key, to tell keys apart in logs and support. */
    keyPrefix: text('key_prefix').notNull(),
    purpose: text('purpose').notNull().default('api'),
    /** The operator-UI session a key was issued to (`POST /admin/api-session`); signing out of it revokes the key. */
    adminSessionId: uuid('admin_session_id'),
    createdAt: tstz('created_at').notNull().defaultNow(),
    /** Keys of an operator-UI session expire with it; API keys of players do not expire. */
    expiresAt: tstz('expires_at'),
    revokedAt: tstz('revoked_at'),
  },
  (t) => [
    uniqueIndex('api_keys_digest_uq').on(t.keyDigest),
    index('api_keys_user_active_idx').on(t.userId).where(sql`${t.revokedAt} is null`),
    index('api_keys_admin_session_idx').on(t.adminSessionId).where(sql`${t.adminSessionId} is not null`),
    // The cleanup of expired operator-UI keys.
    index('api_keys_expires_idx').on(t.expiresAt).where(sql`${t.expiresAt} is not null`),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;

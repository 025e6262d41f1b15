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
    /** When the player proved the current email theirs (a verification link, or a password reset sent there); null: unverified. */
    emailVerifiedAt: tstz('email_verified_at'),
    /** The player deleted their account: the row stays, anonymised, for the history it holds (docs/decisions.md). */
    deletedAt: tstz('deleted_at'),
  },
  (t) => [
    // Uniqueness without regard to case, settled by the database.
    uniqueIndex('users_username_lower_uq').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_uq').on(sql`lower(${t.email})`),
    index('users_created_at_idx').on(t.createdAt),
  ],
);

export type UserRow = typeof users.$inferSelect;

/**
 * The names players are shown by, without regard to case: each user's
 * username and display name (once when they are the same). The primary key
 * makes them unique across users, so no two players look alike on a board.
 * Kept by a trigger on `users` (drizzle/0021_unique_names.sql), whatever
 * writes the row: the API, the operator UI, scripts, plain SQL.
 */
export const userNames = pgTable(
  'user_names',
  {
    /** lower(name). */
    nameKey: text('name_key').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [index('user_names_user_idx').on(t.userId)],
);

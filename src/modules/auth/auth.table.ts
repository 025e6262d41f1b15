/** API keys: the auth module issues, checks and revokes them (the only writer of api_keys). */
import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { idColumn, tstz } from '../../db/columns.js';
import { users } from '../users/users.table.js';

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
    index('api_keys_user_active_idx')
      .on(t.userId)
      .where(sql`${t.revokedAt} is null`),
    index('api_keys_admin_session_idx')
      .on(t.adminSessionId)
      .where(sql`${t.adminSessionId} is not null`),
    // The cleanup of expired operator-UI keys.
    index('api_keys_expires_idx')
      .on(t.expiresAt)
      .where(sql`${t.expiresAt} is not null`),
  ],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/**
 * Single-use links mailed to a player: a password reset or an email
 * verification. Stored as the token's SHA-256 digest only (as API keys), with
 * the address it was sent to (a verification is for that address), when it
 * stops working, and when it was used.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: idColumn(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<'password_reset' | 'email_verification'>().notNull(),
    tokenDigest: text('token_digest').notNull(),
    email: text('email').notNull(),
    createdAt: tstz('created_at').notNull().defaultNow(),
    expiresAt: tstz('expires_at').notNull(),
    usedAt: tstz('used_at'),
  },
  (t) => [uniqueIndex('account_tokens_digest_uq').on(t.tokenDigest), index('account_tokens_user_idx').on(t.userId, t.purpose)],
);

export type AccountTokenRow = typeof accountTokens.$inferSelect;

import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { idColumn, tstz } from '../../db/columns.js';
import { users } from '../users/users.table.js';

/**
 * Sessions of the operator UI (a cookie), stored in the database so any
 * process can serve them. The cookie carries a random token stored only as a
 * digest; each session has its own CSRF token.
 */
export const adminSessions = pgTable(
  'admin_sessions',
  {
    id: idColumn(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenDigest: text('token_digest').notNull(),
    csrfToken: text('csrf_token').notNull(),
    createdAt: tstz('created_at').notNull().defaultNow(),
    lastSeenAt: tstz('last_seen_at').notNull().defaultNow(),
    expiresAt: tstz('expires_at').notNull(),
  },
  (t) => [uniqueIndex('admin_sessions_token_uq').on(t.tokenDigest), index('admin_sessions_user_idx').on(t.userId)],
);

export type AdminSessionRow = typeof adminSessions.$inferSelect;

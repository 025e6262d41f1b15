import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { tstz } from '../../db/columns.js';

/**
 * Sign-in attempt counters (rate-limiter-flexible's Drizzle store): one row
 * per budget key, counted atomically by an upsert, so every process shares
 * them. `expire` ends the row's window.
 */
export const loginThrottle = pgTable(
  'login_throttle',
  {
    key: text('key').primaryKey(),
    points: integer('points').notNull(),
    expire: tstz('expire'),
  },
  (t) => [index('login_throttle_expire_idx').on(t.expire)],
);

/**
 * SQL of the sign-in counters. The counting itself is rate-limiter-flexible's
 * (RateLimiterDrizzle, given the table in login-throttle.ts); the cleanup is here.
 */
import { lt } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { loginThrottle } from './login-throttle.table.js';

/** Deletes counters whose window ended before `now`; returns how many. */
export async function deleteExpiredCounters({ db, now }: { db: DbOrTx; now: Date }): Promise<number> {
  const rows = await db.delete(loginThrottle).where(lt(loginThrottle.expire, now)).returning({ key: loginThrottle.key });
  return rows.length;
}

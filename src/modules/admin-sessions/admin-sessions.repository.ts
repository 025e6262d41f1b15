/** SQL of operator-UI sessions: the only writer of admin_sessions. */
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { users, type UserRow } from '../users/users.table.js';
import { adminSessions, type AdminSessionRow } from './admin-sessions.table.js';

export type NewAdminSession = typeof adminSessions.$inferInsert;

/** The unexpired session with this token digest, with its user. */
export async function findSessionByDigest({ db, digest }: { db: DbOrTx; digest: string }): Promise<{ session: AdminSessionRow; user: UserRow } | undefined> {
  const [row] = await db
    .select({ session: adminSessions, user: users })
    .from(adminSessions)
    .innerJoin(users, eq(users.id, adminSessions.userId))
    .where(and(eq(adminSessions.tokenDigest, digest), gt(adminSessions.expiresAt, new Date())));
  return row;
}

export async function insertSession({ db, values }: { db: DbOrTx; values: NewAdminSession }): Promise<AdminSessionRow> {
  const [row] = await db.insert(adminSessions).values(values).returning();
  return row!;
}

/** Marks the session as used now. */
export async function touchSession({ db, id }: { db: DbOrTx; id: string }): Promise<void> {
  await db
    .update(adminSessions)
    .set({ lastSeenAt: sql`now()` })
    .where(eq(adminSessions.id, id));
}

/** Deletes the session with this token digest; returns it (id and user), or undefined when there was none. */
export async function deleteSessionByDigest({ db, digest }: { db: DbOrTx; digest: string }): Promise<{ id: string; userId: string } | undefined> {
  const [row] = await db.delete(adminSessions).where(eq(adminSessions.tokenDigest, digest)).returning({ id: adminSessions.id, userId: adminSessions.userId });
  return row;
}

/** Deletes every session of the user (deactivated, deleted or demoted). */
export async function deleteSessionsOfUser({ db, userId }: { db: DbOrTx; userId: string }): Promise<void> {
  await db.delete(adminSessions).where(eq(adminSessions.userId, userId));
}

/** Deletes the sessions that ended before `now`; returns how many. */
export async function deleteExpiredSessions({ db, now }: { db: DbOrTx; now: Date }): Promise<number> {
  const rows = await db.delete(adminSessions).where(lt(adminSessions.expiresAt, now)).returning({ id: adminSessions.id });
  return rows.length;
}

import { and, asc, desc, eq, exists, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { containsPattern } from '../../db/sql-helpers.js';
import { matchFollows } from '../matches/matches.table.js';
import { users, type UserRow } from './users.table.js';

export type NewUser = typeof users.$inferInsert;

export async function insertUser({ db, values }: { db: DbOrTx; values: NewUser }): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning();
  return row!;
}

/** With `forUpdate`, the row stays locked until the transaction ends. */
export async function findUserById({ db, id, forUpdate = false }: { db: DbOrTx; id: string; forUpdate?: boolean }): Promise<UserRow | undefined> {
  const query = db.select().from(users).where(eq(users.id, id)).limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

/** A username or email as logins are compared: trimmed, lowercase. */
export const normalizeLogin = (login: string) => login.trim().toLowerCase();

/** By username or email, without regard to case. */
export async function findUserByLogin({ db, login }: { db: DbOrTx; login: string }): Promise<UserRow | undefined> {
  const l = normalizeLogin(login);
  const [row] = await db
    .select()
    .from(users)
    .where(or(sql`lower(${users.username}) = ${l}`, sql`lower(${users.email}) = ${l}`))
    // a username that equals another account's email: prefer the username match
    .orderBy(sql`(lower(${users.username}) = ${l}) desc nulls last`)
    .limit(1);
  return row;
}

/** By email, without regard to case. */
export async function findUserByEmail({ db, email }: { db: DbOrTx; email: string }): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${normalizeLogin(email)}`)
    .limit(1);
  return row;
}

export async function touchLastLogin({ db, userId }: { db: DbOrTx; userId: string }): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ lastLoginAt: sql`now()` })
    .where(eq(users.id, userId))
    .returning();
  return row!;
}

/** With `unlockedOnly`, a user whose display name an admin locked is left alone (undefined, as for an unknown id). */
export async function updateUser({
  db,
  id,
  values,
  unlockedOnly = false,
}: {
  db: DbOrTx;
  id: string;
  values: Partial<NewUser>;
  unlockedOnly?: boolean;
}): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ ...values, updatedAt: sql`now()` })
    .where(and(eq(users.id, id), unlockedOnly ? eq(users.displayNameLocked, false) : undefined))
    .returning();
  return row;
}

export interface UserListFilter {
  q?: string | undefined;
  isAdmin?: boolean | undefined;
  isActive?: boolean | undefined;
  followedMatchId?: string | undefined;
  sortBy: 'created_at' | 'username' | 'email' | 'last_login_at';
  sortDir: 'asc' | 'desc';
  offset: number;
  limit: number;
}

const SORT_COLUMNS = {
  created_at: users.createdAt,
  username: sql`lower(${users.username})`,
  email: users.email,
  last_login_at: users.lastLoginAt,
} as const;

/** One page and the filtered total (two statements, whatever the page size). */
export async function listUsers({ db, filter }: { db: DbOrTx; filter: UserListFilter }): Promise<{ rows: UserRow[]; total: number }> {
  const conditions: SQL[] = [];
  if (filter.q) {
    const p = containsPattern(filter.q);
    conditions.push(
      or(
        ilike(users.username, p),
        ilike(users.displayName, p),
        ilike(users.email, p),
        ilike(users.firstName, p),
        ilike(users.lastName, p),
        ilike(sql`${users.id}::text`, p),
      )!,
    );
  }
  if (filter.isAdmin !== undefined) conditions.push(eq(users.isAdmin, filter.isAdmin));
  if (filter.isActive !== undefined) conditions.push(eq(users.isActive, filter.isActive));
  if (filter.followedMatchId) {
    conditions.push(
      exists(
        db
          .select({ one: sql`1` })
          .from(matchFollows)
          .where(and(eq(matchFollows.userId, users.id), eq(matchFollows.matchId, filter.followedMatchId), eq(matchFollows.following, true))),
      ),
    );
  }
  const where = conditions.length ? and(...conditions) : undefined;
  const dir = filter.sortDir === 'asc' ? asc : desc;
  const column = SORT_COLUMNS[filter.sortBy];
  // Only last_login_at can be null (never signed in: listed first ascending, last descending); on the
  // others a NULLS clause would keep PostgreSQL from reading their index backwards.
  const nulls = filter.sortBy !== 'last_login_at' ? sql`` : filter.sortDir === 'asc' ? sql`nulls first` : sql`nulls last`;
  const rows = await db
    .select()
    .from(users)
    .where(where)
    .orderBy(sql`${dir(column)} ${nulls}`, dir(users.id))
    .offset(filter.offset)
    .limit(filter.limit);
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(where);
  return { rows, total: count?.n ?? 0 };
}

import { and, eq, gt, isNull, lt, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { prepared } from '../../db/prepared.js';
import { anyUuid } from '../../db/sql-helpers.js';
import type { DbOrTx, Tx } from '../../db/client.js';
import { accountTokens, apiKeys, type AccountTokenRow } from './auth.table.js';
import { users, type UserRow } from '../users/users.table.js';

/**
 * A key that authenticates: not revoked, not expired, its user active. For
 * queries of api_keys joined to users; the HTTP layer and the live stream's
 * re-checks use the same rule.
 */
export const keyAuthenticates = (): SQL =>
  and(isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql`now()`)), eq(users.isActive, true))!;

const keyLookup = (db: DbOrTx, digest: SQL.Aliased | SQL | Placeholder | string) =>
  db
    .select({ user: users, keyId: apiKeys.id, expiresAt: apiKeys.expiresAt })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(and(eq(apiKeys.keyDigest, digest as string), keyAuthenticates()))
    .limit(1);

/** The active user owning an unrevoked, unexpired key with this digest, in one query (built once per database: it runs on every request). */
export async function findActiveUserByKeyDigest({
  db,
  digest,
}: {
  db: DbOrTx;
  digest: string;
}): Promise<{ user: UserRow; keyId: string; expiresAt: Date | null } | undefined> {
  const query = prepared(db, 'auth_key_lookup', (root) => keyLookup(root, sql.placeholder('digest')).prepare('auth_key_lookup'));
  const rows = query ? await query.execute({ digest }) : await keyLookup(db, digest);
  return rows[0];
}

export interface NewApiKey {
  userId: string;
  digest: string;
  prefix: string;
  purpose?: string;
  /** The operator-UI session the key belongs to: the key expires with it and is revoked when it signs out. */
  adminSession?: { id: string; expiresAt: Date };
}

export async function insertApiKey({ db, userId, digest, prefix, purpose = 'api', adminSession }: NewApiKey & { db: DbOrTx }) {
  await db
    .insert(apiKeys)
    .values({ userId, keyDigest: digest, keyPrefix: prefix, purpose, adminSessionId: adminSession?.id ?? null, expiresAt: adminSession?.expiresAt ?? null });
}

/** Revokes the keys issued to an operator-UI session; returns how many. */
export const revokeAdminSessionKeys = ({ db, adminSessionId }: { db: DbOrTx; adminSessionId: string }) =>
  revokeKeysWhere(db, eq(apiKeys.adminSessionId, adminSessionId));

/** Revokes the active keys matching the condition; returns how many. */
async function revokeKeysWhere(db: DbOrTx, which: SQL): Promise<number> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(and(which, isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.length;
}

/** Revokes one key (idempotent). */
export const revokeApiKey = ({ db, keyId }: { db: DbOrTx; keyId: string }) => revokeKeysWhere(db, eq(apiKeys.id, keyId));

/** Revokes every active key of the user; returns how many. */
export const revokeUserApiKeys = ({ db, userId }: { db: DbOrTx; userId: string }) => revokeKeysWhere(db, eq(apiKeys.userId, userId));

/** Deletes the keys that expired before `now` (operator-UI keys; players' keys do not expire); returns how many. */
export async function deleteExpiredKeys({ db, now }: { db: DbOrTx; now: Date }): Promise<number> {
  const rows = await db.delete(apiKeys).where(lt(apiKeys.expiresAt, now)).returning({ id: apiKeys.id });
  return rows.length;
}

/** A new mailed link; earlier unused links of the same purpose stop working (only the latest mail's link works): one statement. */
export async function replaceAccountToken({
  db,
  userId,
  purpose,
  digest,
  email,
  expiresAt,
}: {
  db: DbOrTx;
  userId: string;
  purpose: AccountTokenRow['purpose'];
  digest: string;
  email: string;
  expiresAt: Date;
}): Promise<void> {
  await db.execute(sql`with earlier as (
      delete from ${accountTokens} where ${accountTokens.userId} = ${userId}::uuid and ${accountTokens.purpose} = ${purpose} and ${accountTokens.usedAt} is null
    )
    insert into ${accountTokens} (user_id, purpose, token_digest, email, expires_at)
    values (${userId}::uuid, ${purpose}, ${digest}, ${email}, ${expiresAt.toISOString()}::timestamptz)`);
}

/**
 * Uses a link: marks it used if it is unused and unexpired, in one statement
 * (two requests with one link: one wins), and answers it; undefined otherwise.
 */
export async function useAccountToken({
  tx,
  purpose,
  digest,
}: {
  tx: Tx;
  purpose: AccountTokenRow['purpose'];
  digest: string;
}): Promise<AccountTokenRow | undefined> {
  const [row] = await tx
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(eq(accountTokens.tokenDigest, digest), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt), gt(accountTokens.expiresAt, sql`now()`)),
    )
    .returning();
  return row;
}

/** Deletes a user's unused links (of one purpose, or all). */
export async function deleteAccountTokens({ tx, userId, purpose }: { tx: Tx; userId: string; purpose?: AccountTokenRow['purpose'] }): Promise<void> {
  await tx.delete(accountTokens).where(and(eq(accountTokens.userId, userId), purpose ? eq(accountTokens.purpose, purpose) : undefined));
}

/** Deletes links that expired before `now` (the worker's cleanup); returns how many. */
export async function deleteExpiredAccountTokens({ db, now }: { db: DbOrTx; now: Date }): Promise<number> {
  const rows = await db.delete(accountTokens).where(lt(accountTokens.expiresAt, now)).returning({ id: accountTokens.id });
  return rows.length;
}

/** Which of these keys still authenticate (the rule of authentication itself). */
export async function validKeyIds({ db, keyIds }: { db: DbOrTx; keyIds: string[] }): Promise<Set<string>> {
  if (!keyIds.length) return new Set();
  // One statement however many sockets a process holds: the ids travel as one parameter.
  const rows = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(and(anyUuid(apiKeys.id, keyIds), keyAuthenticates()));
  return new Set(rows.map((r) => r.id));
}

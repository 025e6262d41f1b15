import { and, eq, gt, isNull, lt, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { prepared } from '../../db/prepared.js';
import type { DbOrTx } from '../../db/client.js';
import { apiKeys } from './auth.table.js';
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

import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { apiKeys, users, type UserRow } from '../users/users.table.js';

/** The active user owning an unrevoked key with this digest, in one query. */
export async function findActiveUserByKeyDigest({ db, digest }: { db: DbOrTx; digest: string }): Promise<{ user: UserRow; keyId: string } | undefined> {
  const rows = await db
    .select({ user: users, keyId: apiKeys.id })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(and(eq(apiKeys.keyDigest, digest), isNull(apiKeys.revokedAt), eq(users.isActive, true)))
    .limit(1);
  return rows[0];
}

export async function insertApiKey({ db, userId, digest, prefix, purpose = 'api' }: { db: DbOrTx; userId: string; digest: string; prefix: string; purpose?: string }) {
  await db.insert(apiKeys).values({ userId, keyDigest: digest, keyPrefix: prefix, purpose });
}

export async function revokeApiKey({ db, keyId }: { db: DbOrTx; keyId: string }) {
  await db.update(apiKeys).set({ revokedAt: sql`now()` }).where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)));
}

/** Revokes every active key of the user; returns how many. */
export async function revokeUserApiKeys({ db, userId }: { db: DbOrTx; userId: string }): Promise<number> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.length;
}

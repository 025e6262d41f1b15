/**
 * The authentication step's cache: key digest -> the key's user row, kept
 * for a short time so that a player's requests do not each cost a key
 * lookup. It is only trusted while it can be told about changes:
 *
 * - every change to a user row or to one of their keys (revocation, expiry
 *   set, deactivation, any profile field) is announced by the database itself
 *   (a trigger, drizzle/0011_user_change_notify.sql) on the live bus, and
 *   every process drops that user's entries when it hears it: a revoked key
 *   stops working in every process as soon as the notification arrives;
 * - while the bus does not listen (the database unreachable, the LISTEN
 *   connection lost), nothing is read from or written to the cache, and it
 *   is emptied when the bus listens again (events of the gap are lost);
 * - a lookup that raced a change (a notification arrived while it ran) is
 *   used for its request but not kept;
 * - with REDIS_URL the bus is Redis (src/live/redis-bus.ts): the service's
 *   own commits announce these changes on its control stream, "listens"
 *   means its reader has caught up, and nothing is lost across a gap (no
 *   flush: the reader catches up from its cursor before the cache is used);
 * - an entry lives `ttlMs` at most, and never past its key's `expires_at`;
 *   unknown keys are never kept (a new key works at once).
 */
import type { UserRow } from '../users/users.table.js';

export interface CachedKey {
  user: UserRow;
  keyId: string;
  expiresAt: Date | null;
}

interface Entry extends CachedKey {
  until: number;
}

export interface KeyCache {
  /** The entry for this digest, when the cache may be trusted and the entry is fresh. */
  get(digest: string, now?: number): CachedKey | undefined;
  /** Where a lookup stands against changes: pass it to `set` with the lookup's result. */
  version(): number;
  /** Keeps a lookup's result, unless a change was heard since `version` or the cache is not trusted. */
  set(digest: string, value: CachedKey, version: number, now?: number): void;
  /** A user changed (or one of their keys): drop their entries. */
  invalidateUser(userId: string): void;
  /** Events may have been missed: drop everything. */
  flush(): void;
  readonly size: number;
}

export function createKeyCache({ ttlMs, maxEntries, trusted }: { ttlMs: number; maxEntries: number; trusted: () => boolean }): KeyCache {
  const byDigest = new Map<string, Entry>();
  const digestsOf = new Map<string, Set<string>>();
  let changes = 0;

  const drop = (digest: string) => {
    const entry = byDigest.get(digest);
    if (!entry) return;
    byDigest.delete(digest);
    const set = digestsOf.get(entry.user.id);
    set?.delete(digest);
    if (set && !set.size) digestsOf.delete(entry.user.id);
  };

  return {
    get(digest, now = Date.now()) {
      if (ttlMs === 0 || !trusted()) return undefined;
      const entry = byDigest.get(digest);
      if (!entry) return undefined;
      if (entry.until <= now || (entry.expiresAt !== null && entry.expiresAt.getTime() <= now)) {
        drop(digest);
        return undefined;
      }
      return entry;
    },
    version: () => changes,
    set(digest, value, version, now = Date.now()) {
      if (ttlMs === 0 || version !== changes || !trusted()) return;
      drop(digest);
      // Oldest first out: a Map iterates in insertion order.
      while (byDigest.size >= maxEntries) drop(byDigest.keys().next().value!);
      byDigest.set(digest, { ...value, until: now + ttlMs });
      let set = digestsOf.get(value.user.id);
      if (!set) digestsOf.set(value.user.id, (set = new Set()));
      set.add(digest);
    },
    invalidateUser(userId) {
      changes++;
      for (const digest of [...(digestsOf.get(userId) ?? [])]) drop(digest);
    },
    flush() {
      changes++;
      byDigest.clear();
      digestsOf.clear();
    },
    get size() {
      return byDigest.size;
    },
  };
}

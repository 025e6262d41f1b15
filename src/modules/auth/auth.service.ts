/** Authentication: API keys (issue, look up, revoke), register, login, logout. */
import type { Db } from '../../db/client.js';
import { isUniqueViolation } from '../../errors.js';
import { userErrors } from '../users/users.errors.js';
import { authErrors } from './auth.errors.js';
import { findUserByLogin, insertUser, touchLastLogin } from '../users/users.repository.js';
import type { UserRow } from '../users/users.table.js';
import { findActiveUserByKeyDigest, insertApiKey, revokeApiKey, revokeUserApiKeys, type NewApiKey } from './auth.repository.js';
import { digestApiKey, generateApiKey, hashPassword, plausibleToken, verifyPassword } from './credentials.js';
import type { KeyCache } from './key-cache.js';
import type { LoginThrottle } from './login-throttle.js';

export interface AuthContext {
  user: UserRow;
  /** The key used on this request. */
  keyId: string;
}

export interface IssuedKey {
  apiKey: string;
  user: UserRow;
}

export type AuthService = ReturnType<typeof createAuthService>;

/** Maps a unique violation on users to the contract's 409 detail. */
export function userConflict(err: unknown): Error {
  if (isUniqueViolation(err, 'users_username_lower_uq')) return userErrors.usernameTaken();
  if (isUniqueViolation(err, 'users_email_lower_uq')) return userErrors.emailTaken();
  return err as Error;
}

/** Told after commit that some keys of a user were revoked (open live-stream sockets close). */
export type KeysRevokedHook = (userId: string) => Promise<void>;

export function createAuthService({
  db,
  throttle,
  onKeysRevoked,
  keyCache,
}: {
  db: Db;
  throttle: Pick<LoginThrottle, 'attempt' | 'registration'>;
  onKeysRevoked: KeysRevokedHook;
  /** Keeps recent lookups (see key-cache.ts); none: every request looks its key up. */
  keyCache?: KeyCache;
}) {
  return {
    /** The caller behind a bearer key, or undefined when the key is unknown, revoked or its user inactive. */
    async authenticate(token: string): Promise<AuthContext | undefined> {
      if (!plausibleToken(token)) return undefined;
      const digest = digestApiKey(token);
      const cached = keyCache?.get(digest);
      if (cached) return { user: cached.user, keyId: cached.keyId };
      const version = keyCache?.version() ?? 0;
      const found = await findActiveUserByKeyDigest({ db, digest });
      if (!found) return undefined;
      keyCache?.set(digest, found, version);
      return { user: found.user, keyId: found.keyId };
    },

    async register(input: { username: string; password: string; email: string; firstName?: string | null; ip: string }): Promise<IssuedKey> {
      await throttle.registration(input.ip);
      const passwordHash = await hashPassword(input.password);
      try {
        return await db.transaction(async (tx) => {
          const user = await insertUser({
            db: tx,
            values: { username: input.username, email: input.email.toLowerCase(), passwordHash, firstName: input.firstName ?? null, lastLoginAt: new Date() },
          });
          const key = generateApiKey();
          await insertApiKey({ db: tx, userId: user.id, digest: key.digest, prefix: key.prefix });
          return { apiKey: key.key, user };
        });
      } catch (err) {
        throw userConflict(err);
      }
    },

    /**
     * Login by username or email: revokes every earlier key and issues a new
     * one. `ip` is the client's address for sign-in throttling (429).
     */
    async login(input: { login: string; password: string; ip: string }): Promise<IssuedKey> {
      const user = await this.checkPassword(input);
      // One answer for unknown user, wrong password and inactive account.
      if (!user || !user.isActive) throw authErrors.invalidCredentials();
      return this.issueKey({ userId: user.id, revokeOthers: true });
    },

    /**
     * The user whose username or email and password these are, or undefined;
     * counted against the sign-in budgets first (429 when spent), and a right
     * password clears the name's budget. Shared by the API login and the
     * operator UI's form, which decide what an inactive account gets.
     */
    async checkPassword({ login, password, ip }: { login: string; password: string; ip: string }): Promise<UserRow | undefined> {
      const attempt = await throttle.attempt(login, ip);
      const user = await findUserByLogin({ db, login });
      if (!(await verifyPassword(user?.passwordHash, password)) || !user) return undefined;
      await attempt.succeeded();
      return user;
    },

    /**
     * A fresh key for a user; with revokeOthers every earlier active key is
     * revoked in the same transaction. The user's row is updated (locked)
     * first, so issuances for one user run one after another: each revokes
     * the keys committed before it, and concurrent logins leave exactly one
     * active key, the last one's.
     */
    async issueKey({
      userId,
      revokeOthers,
      purpose = 'api',
      adminSession,
    }: {
      userId: string;
      revokeOthers: boolean;
      purpose?: string;
      adminSession?: NewApiKey['adminSession'];
    }): Promise<IssuedKey> {
      let revoked = 0;
      const issued = await db.transaction(async (tx) => {
        const user = await touchLastLogin({ db: tx, userId });
        if (revokeOthers) revoked = await revokeUserApiKeys({ db: tx, userId });
        const key = generateApiKey();
        await insertApiKey({ db: tx, userId, digest: key.digest, prefix: key.prefix, purpose, adminSession });
        return { apiKey: key.key, user };
      });
      if (revoked) await onKeysRevoked(userId);
      return issued;
    },

    async logout(ctx: AuthContext): Promise<void> {
      if (await revokeApiKey({ db, keyId: ctx.keyId })) await onKeysRevoked(ctx.user.id);
    },
  };
}

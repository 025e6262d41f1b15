/** Authentication: API keys (issue, look up, revoke), register, login, logout. */
import type { Db } from '../../db/client.js';
import type { Events } from '../../events/catalogue.js';
import { isUniqueViolation, pgErrorDetail } from '../../errors.js';
import { userErrors } from '../users/users.errors.js';
import { authErrors } from './auth.errors.js';
import { findUserByLogin, insertUser, touchLastLogin } from '../users/users.public.js';
import type { UserRow } from '../users/users.table.js';
import { findActiveUserByKeyDigest, insertApiKey, revokeApiKey, revokeUserApiKeys, type NewApiKey } from './auth.repository.js';
import { digestApiKey, generateApiKey, passwordHashing, plausibleToken, type Passwords } from './credentials.js';
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

/**
 * Maps a unique violation on users to the contract's 409. A name another
 * player is shown by (user_names) is the display name's clash when the write
 * set one (and no username, or the clashing key is the display name's),
 * else the username's.
 */
export function userConflict(err: unknown, written: { username?: unknown; displayName?: string | null | undefined } = {}): Error {
  if (isUniqueViolation(err, 'users_username_lower_uq')) return userErrors.usernameTaken();
  if (isUniqueViolation(err, 'users_email_lower_uq')) return userErrors.emailTaken();
  if (isUniqueViolation(err, 'user_names_pkey')) {
    const name = written.displayName;
    if (!name) return userErrors.usernameTaken();
    const displayNameClashed = written.username === undefined || (pgErrorDetail(err)?.includes(`(${name.toLowerCase()})`) ?? false);
    return displayNameClashed ? userErrors.displayNameTaken() : userErrors.usernameTaken();
  }
  return err as Error;
}

export function createAuthService({
  db,
  throttle,
  events,
  keyCache,
  registeredFollowQuota,
  passwords = passwordHashing(),
}: {
  db: Db;
  throttle: Pick<LoginThrottle, 'attempt' | 'registration'>;
  /** After commit: `registered`, `userChanged` (a login), `keysRevoked` (src/events/catalogue.ts). */
  events: Events;
  /** Keeps recent lookups (see key-cache.ts); none: every request looks its key up. */
  keyCache?: KeyCache;
  /** The daily follow quota of a self-registered player: null unrestricted (the demo); unset, the default (3). */
  registeredFollowQuota?: number | null;
  /** How passwords are hashed (the configured cost); unset, the standard cost. */
  passwords?: Passwords;
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
      const passwordHash = await passwords.hash(input.password);
      let issued: IssuedKey;
      try {
        issued = await db.transaction(async (tx) => {
          const user = await insertUser({
            db: tx,
            values: {
              username: input.username,
              email: input.email.toLowerCase(),
              passwordHash,
              firstName: input.firstName ?? null,
              lastLoginAt: new Date(),
              ...(registeredFollowQuota !== undefined ? { matchDailyFollowCount: registeredFollowQuota } : {}),
            },
          });
          const key = generateApiKey();
          await insertApiKey({ db: tx, userId: user.id, digest: key.digest, prefix: key.prefix });
          return { apiKey: key.key, user };
        });
      } catch (err) {
        throw userConflict(err, { username: input.username });
      }
      await events.emit({ type: 'registered', user: issued.user });
      return issued;
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
      if (!(await passwords.verify(user?.passwordHash, password)) || !user) return undefined;
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
      // A login changes the user's last login, no key of theirs: their cached lookups go, the others' stay.
      await events.emit({ type: 'userChanged', userId, shown: false });
      if (revoked) await events.emit({ type: 'keysRevoked', userId });
      return issued;
    },

    async logout(ctx: AuthContext): Promise<void> {
      if (await revokeApiKey({ db, keyId: ctx.keyId })) await events.emit({ type: 'keysRevoked', userId: ctx.user.id });
    },
  };
}

/**
 * Sessions of the operator UI: sign-in with username or email and password
 * for active admins only, a session cookie (a random token stored as a
 * digest, so any process can serve it), a CSRF token per session, and Bearer
 * keys for the UI's calls to the JSON API.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/client.js';
import type { Events } from '../../events/catalogue.js';
import { adminSessionErrors } from './admin-sessions.errors.js';
import { deleteExpiredKeys, revokeAdminSessionKeys } from '../auth/auth.public.js';
import type { AuthService, IssuedKey } from '../auth/auth.service.js';
import { digestApiKey, plausibleToken, sameToken } from '../auth/credentials.js';
import type { UserRow } from '../users/users.table.js';
import { deleteExpiredSessions, deleteSessionByDigest, findSessionByDigest, insertSession, touchSession } from './admin-sessions.repository.js';
import type { AdminSessionRow } from './admin-sessions.table.js';

export const ADMIN_SESSION_COOKIE = 'qp_admin_session';
export const ADMIN_SESSION_TTL_MS = 12 * 3600_000;

export interface AdminSession {
  session: AdminSessionRow;
  user: UserRow;
}

export type AdminSessionsService = ReturnType<typeof createAdminSessionsService>;

/** Who may use the operator UI: an active admin (checked again on every use, so demotion or deactivation takes effect at once). */
export const isActiveAdmin = (user: UserRow) => user.isActive && user.isAdmin;

export function createAdminSessionsService({
  db,
  auth,
  events,
}: {
  db: Db;
  /** The API login's password check (and its sign-in budgets, shared by the form), and keys. */
  auth: Pick<AuthService, 'issueKey' | 'checkPassword'>;
  /** `keysRevoked` after a sign-out committed (src/events/catalogue.ts). */
  events: Events;
}) {
  async function find(token: string | undefined): Promise<AdminSession | undefined> {
    if (!plausibleToken(token)) return undefined;
    return findSessionByDigest({ db, digest: digestApiKey(token) });
  }

  return {
    /** Signs an admin in; 401 for bad credentials, 403 for an account that is not an active admin, 429 over the sign-in budgets. */
    async login({ login, password, ip }: { login: string; password: string; ip: string }): Promise<{ token: string; session: AdminSessionRow; user: UserRow }> {
      const user = await auth.checkPassword({ login, password, ip });
      if (!user) throw adminSessionErrors.invalidCredentials();
      if (!user.isActive) throw adminSessionErrors.inactive();
      if (!user.isAdmin) throw adminSessionErrors.notAdmin('at sign-in');
      const token = randomBytes(32).toString('base64url');
      const session = await insertSession({
        db,
        values: {
          userId: user.id,
          tokenDigest: digestApiKey(token),
          csrfToken: randomBytes(24).toString('base64url'),
          expiresAt: new Date(Date.now() + ADMIN_SESSION_TTL_MS),
        },
      });
      return { token, session, user };
    },

    /** The session behind a cookie, or undefined (missing, unknown or expired). */
    find,

    /**
     * Deletes ended sessions and the expired keys they gave (a periodic task of the worker). No event: an expired
     * key authenticates nowhere already (a cached lookup never outlives its key's expiry).
     */
    async cleanup(): Promise<{ sessions: number; keys: number }> {
      const now = new Date();
      const keys = await deleteExpiredKeys({ db, now });
      const sessions = await deleteExpiredSessions({ db, now });
      return { sessions, keys };
    },

    /** Ends the session and revokes the Bearer keys issued to it. */
    async logout(token: string | undefined): Promise<void> {
      if (!plausibleToken(token)) return;
      const ended = await db.transaction(async (tx) => {
        const row = await deleteSessionByDigest({ db: tx, digest: digestApiKey(token) });
        if (!row) return undefined;
        return { userId: row.userId, revoked: await revokeAdminSessionKeys({ db: tx, adminSessionId: row.id }) };
      });
      if (ended?.revoked) await events.emit({ type: 'keysRevoked', userId: ended.userId });
    },

    /**
     * A Bearer key for the signed-in admin's API calls (`POST /admin/api-session`):
     * 401 without a valid session, 403 when the CSRF token does not match or the
     * user is no longer an active admin. Other keys of the admin stay valid;
     * this one expires with the session and is revoked when it signs out.
     */
    async apiKey({ token, csrf }: { token: string | undefined; csrf: string | undefined }): Promise<IssuedKey> {
      const found = await find(token);
      if (!found) throw adminSessionErrors.missing();
      if (!sameToken(csrf, found.session.csrfToken)) throw adminSessionErrors.csrf();
      if (!isActiveAdmin(found.user)) throw adminSessionErrors.notAdmin('no longer');
      await touchSession({ db, id: found.session.id });
      return auth.issueKey({
        userId: found.user.id,
        revokeOthers: false,
        purpose: 'admin-ui',
        adminSession: { id: found.session.id, expiresAt: found.session.expiresAt },
      });
    },
  };
}

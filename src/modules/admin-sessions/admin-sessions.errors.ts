/** Every error the operator UI's sessions answer with: its status, its stable code (X-Error-Code) and its message. */
import { errorFactory } from '../../errors.js';

const BEARER = () => ({ headers: { 'WWW-Authenticate': 'Bearer' } });

export const adminSessionErrors = {
  invalidCredentials: errorFactory(401, 'admin_session.invalid_credentials', () => 'wrong username/email or password', BEARER),
  inactive: errorFactory(403, 'admin_session.inactive', () => 'this account is deactivated'),
  /** At sign-in (`not an admin`), or later when asking for a key (`no longer`). */
  notAdmin: errorFactory(403, 'admin_session.not_admin', (when: 'at sign-in' | 'no longer') =>
    when === 'at sign-in' ? 'this account is not an admin; the operator UI is for admins only' : 'this account is no longer an active admin',
  ),
  /** No session behind the cookie (also the HTTP layer's answer to `createAdminApiSession` without one). */
  missing: errorFactory(401, 'admin_session.missing', () => 'no admin session: sign in at /admin/login first', BEARER),
  csrf: errorFactory(403, 'admin_session.csrf', () => 'CSRF token missing or wrong: send the X-CSRF-Token of your admin session'),
};

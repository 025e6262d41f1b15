/** Every error authentication (API keys, sign-in, registration budgets) answers with: its status, its stable code (X-Error-Code) and its message. */
import { errorFactory } from '../../errors.js';

const BEARER = () => ({ headers: { 'WWW-Authenticate': 'Bearer' } });
const RETRY_AFTER = (seconds: number) => ({ headers: { 'Retry-After': String(seconds) } });

export const authErrors = {
  /** No key, or a key that is unknown, revoked or expired (the HTTP layer's security step). */
  unauthorized: errorFactory(401, 'auth.unauthorized', () => 'missing or invalid API key', BEARER),
  /** An admin-only operation called with a player's key. */
  forbidden: errorFactory(403, 'auth.forbidden', () => 'this operation requires an admin account'),
  /** One answer for an unknown user, a wrong password and an inactive account. */
  invalidCredentials: errorFactory(401, 'auth.invalid_credentials', () => 'invalid username/email or password, or the account is inactive', BEARER),
  tooManyAttempts: errorFactory(429, 'auth.too_many_attempts', (seconds: number) => `too many sign-in attempts; try again in ${seconds} seconds`, RETRY_AFTER),
  /** Mails asked for (a password reset, a verification link, a new email) past the recipient's or the address's budget. */
  tooManyMails: errorFactory(429, 'auth.too_many_mails', (seconds: number) => `too many mails asked for; try again in ${seconds} seconds`, RETRY_AFTER),
  tooManyRegistrations: errorFactory(
    429,
    'auth.too_many_registrations',
    (seconds: number) => `too many accounts registered from this address; try again in ${seconds} seconds`,
    RETRY_AFTER,
  ),
};

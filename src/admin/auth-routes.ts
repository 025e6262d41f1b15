/**
 * Sign-in and sign-out of the operator UI. The login form is protected
 * against cross-site request forgery by a double-submit token (a random
 * cookie that the form must echo); signed-in forms and the API-key exchange
 * carry the session's own CSRF token. Cookies are HttpOnly and SameSite=Strict,
 * and Secure when the request came over TLS.
 */
import { randomBytes } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import { isAppError } from '../errors.js';
import { urlencodedForm } from '../http/body.js';
import { clientIp } from '../http/request.js';
import { ADMIN_SESSION_COOKIE, ADMIN_SESSION_TTL_MS } from '../modules/admin-sessions/admin-sessions.service.js';
import { sameToken } from '../modules/auth/credentials.js';
import type { Services } from '../services.js';
import { escapeHtml, page } from './html.js';
import { cookieOf } from '../http/request.js';
import { activeAdminSession } from './session.js';

const LOGIN_CSRF_COOKIE = 'qp_admin_login_csrf';

const cookieOptions = (req: Request, maxAge: number) => ({ httpOnly: true, sameSite: 'strict' as const, secure: req.secure, path: '/admin', maxAge });

function loginPage(res: Response, { csrf, error, login = '' }: { csrf: string; error?: string; login?: string }, status = 200) {
  res
    .status(status)
    .type('html')
    .send(
      page({
        title: 'Sign in',
        body: `<main class="login">
  <h1>Question-Play operators</h1>
  <form method="post" action="/admin/login" class="card">
    ${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
    <input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
    <label>Username or email <input name="login" autocomplete="username" required value="${escapeHtml(login)}"></label>
    <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
    <button type="submit">Sign in</button>
  </form>
</main>`,
      }),
    );
}

/** The form's text fields; a field sent twice (an array) or not at all is undefined, never a crash. */
function formFields(raw: unknown): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  if (raw && typeof raw === 'object') for (const [k, v] of Object.entries(raw)) out[k] = typeof v === 'string' ? v : undefined;
  return out;
}

export function adminAuthRoutes(services: Services): Router {
  const router = express.Router();
  const form = urlencodedForm(16 * 1024);
  router.get('/login', async (req, res) => {
    if (await activeAdminSession(services, req)) return res.redirect(303, '/admin/');
    const csrf = randomBytes(24).toString('base64url');
    res.cookie(LOGIN_CSRF_COOKIE, csrf, cookieOptions(req, 3600_000));
    loginPage(res, { csrf });
  });

  router.post('/login', form, async (req, res) => {
    const csrf = randomBytes(24).toString('base64url');
    res.cookie(LOGIN_CSRF_COOKIE, csrf, cookieOptions(req, 3600_000));
    const body = formFields(req.body);
    if (!sameToken(body.csrf, cookieOf(req, LOGIN_CSRF_COOKIE))) {
      return loginPage(res, { csrf, error: 'Your sign-in form expired. Please try again.', login: body.login ?? '' }, 403);
    }
    if (!body.login || !body.password) return loginPage(res, { csrf, error: 'Enter your username or email and your password.', login: body.login ?? '' }, 400);
    // The API's limits on the same fields (LoginRequest in the contract).
    if (body.login.length > 320 || body.password.length > 256)
      return loginPage(res, { csrf, error: 'That username, email or password is too long.', login: '' }, 400);
    try {
      const { token } = await services.adminSessions.login({ login: body.login, password: body.password, ip: clientIp(req) });
      res.clearCookie(LOGIN_CSRF_COOKIE, { path: '/admin' });
      res.cookie(ADMIN_SESSION_COOKIE, token, cookieOptions(req, ADMIN_SESSION_TTL_MS));
      res.redirect(303, '/admin/');
    } catch (err) {
      if (!isAppError(err)) throw err;
      if (err.headers) res.set(err.headers);
      const error = err.status === 429 ? `Too many sign-in attempts. Try again in ${err.headers?.['Retry-After']} seconds.` : err.message;
      loginPage(res, { csrf, error, login: body.login }, err.status);
    }
  });

  router.post('/logout', form, async (req, res) => {
    const token = cookieOf(req, ADMIN_SESSION_COOKIE);
    const found = await services.adminSessions.find(token);
    const body = formFields(req.body);
    if (found && !sameToken(body.csrf, found.session.csrfToken)) {
      res.status(403).type('text/plain').send('CSRF token missing or wrong');
      return;
    }
    await services.adminSessions.logout(token);
    res.clearCookie(ADMIN_SESSION_COOKIE, { path: '/admin' });
    res.redirect(303, '/admin/login');
  });

  return router;
}

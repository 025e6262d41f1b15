import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestApiKey } from '../../src/modules/auth/credentials.js';
import { adminSessionErrors } from '../../src/modules/admin-sessions/admin-sessions.errors.js';
import { adminSessions } from '../../src/modules/admin-sessions/admin-sessions.table.js';
import { authErrors } from '../../src/modules/auth/auth.errors.js';
import { apiKeys } from '../../src/modules/auth/auth.table.js';
import { users } from '../../src/modules/users/users.table.js';
import { expectError } from '../helpers/errors.js';
import { createAdmin, registerUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app.js';

let app: TestApp;
let admin: TestUser;

beforeAll(async () => {
  app = await startTestApp({ config: { trustProxy: 1 } });
  admin = await createAdmin(app);
});
afterAll(() => app?.close());

const cookiesOf = (res: Response) => res.headers.getSetCookie();
const cookieValue = (res: Response, name: string) =>
  cookiesOf(res)
    .find((c) => c.startsWith(`${name}=`))
    ?.split(';')[0]!
    .split('=')[1];

/** GET the login form, then POST it; returns the response and the session cookie if any. */
async function signIn(login: string, password: string, headers: Record<string, string> = {}) {
  const form = await fetch(`${app.url}/admin/login`, { headers, redirect: 'manual' });
  const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())![1]!;
  const loginCookie = cookieValue(form, 'qp_admin_login_csrf')!;
  const res = await fetch(`${app.url}/admin/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `qp_admin_login_csrf=${loginCookie}`, ...headers },
    body: new URLSearchParams({ csrf, login, password }).toString(),
  });
  return { res, session: cookieValue(res, 'qp_admin_session') };
}

async function csrfOf(session: string) {
  const [row] = await app.services.database.db
    .select()
    .from(adminSessions)
    .where(eq(adminSessions.tokenDigest, digestApiKey(decodeURIComponent(session))));
  return row!.csrfToken;
}

describe('operator sign-in', () => {
  it('serves a login form with a login CSRF cookie (HttpOnly, SameSite=Strict)', async () => {
    const res = await fetch(`${app.url}/admin/login`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<form method="post" action="/admin/login"');
    const cookie = cookiesOf(res).find((c) => c.startsWith('qp_admin_login_csrf='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
  });

  it('signs an active admin in with username or email, storing the session in the database', async () => {
    for (const login of [admin.username, admin.email.toUpperCase()]) {
      const { res, session } = await signIn(login, admin.password);
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/admin/');
      expect(session).toBeTruthy();
      const cookie = cookiesOf(res).find((c) => c.startsWith('qp_admin_session='))!;
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Strict/);
      expect(cookie).toMatch(/Path=\/admin/);
      expect(cookie).not.toMatch(/Secure/);
      const [row] = await app.services.database.db
        .select()
        .from(adminSessions)
        .where(eq(adminSessions.tokenDigest, digestApiKey(decodeURIComponent(session!))));
      expect(row!.userId).toBe(admin.id);
    }
  });

  it('marks the session cookie Secure when served over TLS (behind a proxy)', async () => {
    const { session, res } = await signIn(admin.username, admin.password, { 'x-forwarded-proto': 'https' });
    expect(session).toBeTruthy();
    expect(cookiesOf(res).find((c) => c.startsWith('qp_admin_session='))).toMatch(/Secure/);
  });

  it('refuses players and deactivated admins with a clear message, and wrong passwords', async () => {
    const player = await registerUser(app);
    const refused = await signIn(player.username, player.password);
    expect(refused.res.status).toBe(403);
    expect(await refused.res.text()).toContain('not an admin');
    expect(refused.session).toBeUndefined();
    const wrong = await signIn(admin.username, 'not the password');
    expect(wrong.res.status).toBe(401);
    const former = await createAdmin(app);
    await app.services.database.db.update(users).set({ isActive: false }).where(eq(users.id, former.id));
    const inactive = await signIn(former.username, former.password);
    expect(inactive.res.status).toBe(403);
    expect(await inactive.res.text()).toContain('deactivated');
  });

  it('refuses an oversized name or password with 400 and a clear message, never a 500', async () => {
    for (const [login, password] of [
      ['x'.repeat(6000), 'whatever'],
      [admin.username, 'p'.repeat(300)],
    ] as const) {
      const res = await signIn(login, password);
      expect(res.res.status).toBe(400);
      expect(await res.res.text()).toContain('too long');
      expect(res.session).toBeUndefined();
    }
    // Just within the limits: an ordinary wrong-credentials answer.
    expect((await signIn('y'.repeat(320), 'whatever')).res.status).toBe(401);
  });

  it('refuses a field sent twice with 400 and a clear message, never a 500', async () => {
    const form = await fetch(`${app.url}/admin/login`, { redirect: 'manual' });
    const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())![1]!;
    const loginCookie = cookieValue(form, 'qp_admin_login_csrf')!;
    const body = new URLSearchParams([
      ['csrf', csrf],
      ['login', admin.username],
      ['login', 'someone-else'],
      ['password', admin.password],
    ]);
    const res = await fetch(`${app.url}/admin/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `qp_admin_login_csrf=${loginCookie}` },
      body: body.toString(),
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('Enter your username or email and your password.');
    expect(cookieValue(res, 'qp_admin_session')).toBeUndefined();
  });

  it('refuses a login form posted without its CSRF token (cross-site)', async () => {
    const res = await fetch(`${app.url}/admin/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ login: admin.username, password: admin.password }).toString(),
    });
    expect(res.status).toBe(403);
    expect(cookieValue(res, 'qp_admin_session')).toBeUndefined();
    // A token of the right length in characters but not in bytes is refused, not a 500.
    const form = await fetch(`${app.url}/admin/login`);
    const loginCookie = cookieValue(form, 'qp_admin_login_csrf')!;
    const forged = await fetch(`${app.url}/admin/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `qp_admin_login_csrf=${loginCookie}` },
      body: new URLSearchParams({ csrf: 'é'.repeat(decodeURIComponent(loginCookie).length), login: admin.username, password: admin.password }).toString(),
    });
    expect(forged.status).toBe(403);
  });
});

describe('POST /admin/api-session', () => {
  it('gives the signed-in admin a Bearer key, with the session CSRF token, without revoking other keys', async () => {
    const { session } = await signIn(admin.username, admin.password);
    const csrf = await csrfOf(session!);
    const res = await app.request('POST', '/admin/api-session', { headers: { cookie: `qp_admin_session=${session}`, 'x-csrf-token': csrf } });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(admin.id);
    expect((await app.request('GET', '/api/users', { token: res.body.api_key })).status).toBe(200);
    expect((await app.request('GET', '/api/users/me', { token: admin.token })).status).toBe(200);
  });

  it('answers 401 without a session and 403 without the CSRF token or for a user no longer an admin', async () => {
    expectError(await app.request('POST', '/admin/api-session'), adminSessionErrors.missing);
    expectError(await app.request('POST', '/admin/api-session', { headers: { cookie: 'qp_admin_session=forged' } }), adminSessionErrors.missing);
    const other = await createAdmin(app);
    const { session } = await signIn(other.username, other.password);
    expectError(await app.request('POST', '/admin/api-session', { headers: { cookie: `qp_admin_session=${session}` } }), adminSessionErrors.csrf);
    const csrf = await csrfOf(session!);
    // Change the first character to one it is not (a fixed 'x' would match a token that starts with 'x').
    const wrongCsrf = (csrf.startsWith('x') ? 'y' : 'x') + csrf.slice(1);
    expectError(
      await app.request('POST', '/admin/api-session', { headers: { cookie: `qp_admin_session=${session}`, 'x-csrf-token': wrongCsrf } }),
      adminSessionErrors.csrf,
    );
    await app.services.database.db.update(users).set({ isAdmin: false }).where(eq(users.id, other.id));
    const demoted = await app.request('POST', '/admin/api-session', { headers: { cookie: `qp_admin_session=${session}`, 'x-csrf-token': csrf } });
    expectError(demoted, adminSessionErrors.notAdmin);
  });

  it('stops working when another admin resets the password or deactivates the account (even if reactivated)', async () => {
    for (const patch of [{ password: 'a-new-password-1234' }, { is_active: false }]) {
      const other = await createAdmin(app);
      const { session } = await signIn(other.username, other.password);
      const csrf = await csrfOf(session!);
      const exchange = () => app.request('POST', '/admin/api-session', { headers: { cookie: `qp_admin_session=${session}`, 'x-csrf-token': csrf } });
      expect((await exchange()).status).toBe(200);
      expect((await app.request('PATCH', `/api/users/${other.id}`, { token: admin.token, body: patch })).status).toBe(200);
      if ('is_active' in patch)
        expect((await app.request('PATCH', `/api/users/${other.id}`, { token: admin.token, body: { is_active: true } })).status).toBe(200);
      expectError(await exchange(), adminSessionErrors.missing);
    }
  });

  it('stops working after sign-out (which itself needs the session CSRF token), and sign-out revokes the keys it gave', async () => {
    const { session } = await signIn(admin.username, admin.password);
    const csrf = await csrfOf(session!);
    const key = (await app.request('POST', '/admin/api-session', { headers: { cookie: `qp_admin_session=${session}`, 'x-csrf-token': csrf } })).body.api_key;
    expect((await app.request('GET', '/api/users/me', { token: key })).status).toBe(200);
    const forged = await fetch(`${app.url}/admin/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: `qp_admin_session=${session}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(forged.status).toBe(403);
    const out = await fetch(`${app.url}/admin/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: `qp_admin_session=${session}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf }).toString(),
    });
    expect(out.status).toBe(303);
    expectError(
      await app.request('POST', '/admin/api-session', { headers: { cookie: `qp_admin_session=${session}`, 'x-csrf-token': csrf } }),
      adminSessionErrors.missing,
    );
    expectError(await app.request('GET', '/api/users/me', { token: key }), authErrors.unauthorized);
    // The admin's own API key is not the session's: it stays valid.
    expect((await app.request('GET', '/api/users/me', { token: admin.token })).status).toBe(200);
  });

  it('gives keys that expire with the session', async () => {
    const { session } = await signIn(admin.username, admin.password);
    const csrf = await csrfOf(session!);
    const res = await app.request('POST', '/admin/api-session', { headers: { cookie: `qp_admin_session=${session}`, 'x-csrf-token': csrf } });
    const [row] = await app.services.database.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.keyDigest, digestApiKey(res.body.api_key)));
    const [sessionRow] = await app.services.database.db
      .select()
      .from(adminSessions)
      .where(eq(adminSessions.tokenDigest, digestApiKey(decodeURIComponent(session!))));
    expect(row).toMatchObject({ purpose: 'admin-ui', adminSessionId: sessionRow!.id, expiresAt: sessionRow!.expiresAt });
    expect((await app.request('GET', '/api/users/me', { token: res.body.api_key })).status).toBe(200);
    await app.services.database.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, row!.id));
    // The database announces the change to every process's key cache, but
    // asynchronously (a NOTIFY): this test is about the lookup refusing an
    // expired key, so it starts from a cold cache rather than racing the
    // notification (tests/api/key-cache.test.ts covers the cache's own
    // expiry, tests/api/domain-events.test.ts the notification).
    app.services.keyCache.flush();
    expectError(await app.request('GET', '/api/users/me', { token: res.body.api_key }), authErrors.unauthorized);
  });

  it("has ended sessions and expired keys deleted by the worker's cleanup, and nothing else", async () => {
    const db = app.services.database.db;
    const { session: ended } = await signIn(admin.username, admin.password);
    const endedKey = (
      await app.request('POST', '/admin/api-session', { headers: { cookie: `qp_admin_session=${ended}`, 'x-csrf-token': await csrfOf(ended!) } })
    ).body.api_key;
    const { session: live } = await signIn(admin.username, admin.password);
    const liveKey = (await app.request('POST', '/admin/api-session', { headers: { cookie: `qp_admin_session=${live}`, 'x-csrf-token': await csrfOf(live!) } }))
      .body.api_key;
    const past = new Date(Date.now() - 1000);
    await db
      .update(adminSessions)
      .set({ expiresAt: past })
      .where(eq(adminSessions.tokenDigest, digestApiKey(decodeURIComponent(ended!))));
    await db
      .update(apiKeys)
      .set({ expiresAt: past })
      .where(eq(apiKeys.keyDigest, digestApiKey(endedKey)));
    const cleaned = await app.services.adminSessions.cleanup();
    expect(cleaned.sessions).toBeGreaterThanOrEqual(1);
    expect(cleaned.keys).toBeGreaterThanOrEqual(1);
    const digests = (await db.select({ d: adminSessions.tokenDigest }).from(adminSessions)).map((r) => r.d);
    expect(digests).not.toContain(digestApiKey(decodeURIComponent(ended!)));
    expect(digests).toContain(digestApiKey(decodeURIComponent(live!)));
    expect(
      await db
        .select()
        .from(apiKeys)
        .where(eq(apiKeys.keyDigest, digestApiKey(endedKey))),
    ).toEqual([]);
    expect((await app.request('GET', '/api/users/me', { token: liveKey })).status).toBe(200);
    expect((await app.request('GET', '/api/users/me', { token: admin.token })).status).toBe(200);
  });
});

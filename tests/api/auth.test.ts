import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authErrors } from '../../src/modules/auth/auth.errors.js';
import { apiKeys } from '../../src/modules/auth/auth.table.js';
import { userErrors } from '../../src/modules/users/users.errors.js';
import { users } from '../../src/modules/users/users.table.js';
import { digestApiKey, passwordHashing } from '../../src/modules/auth/credentials.js';
import { loadConfig } from '../../src/config.js';
import { expectError } from '../helpers/errors.js';
import { createAdmin, registerUser, startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

describe('POST /api/auth/register', () => {
  it('creates an active non-admin local_password user and returns a usable key once', async () => {
    const res = await app.request('POST', '/api/auth/register', {
      body: { username: 'Alice_1', password: 'correct horse', email: 'Alice@Example.com', first_name: 'Alice' },
    });
    expect(res.status).toBe(201);
    expect(res.body.token_type).toBe('bearer');
    expect(res.body.api_key).toMatch(/^qp_[A-Za-z0-9_-]{43}$/);
    expect(res.body.user).toMatchObject({
      username: 'Alice_1',
      email: 'alice@example.com',
      first_name: 'Alice',
      is_admin: false,
      is_active: true,
      auth_provider: 'local_password',
      match_daily_follow_count: 3,
      match_follow_timezone: null,
      notify_on_issuance: true,
      notify_on_resolve: true,
    });
    const me = await app.request('GET', '/api/users/me', { token: res.body.api_key });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(res.body.user.id);
  });

  it('stores keys and passwords only as digests', async () => {
    const user = await registerUser(app);
    const [row] = await app.services.database.db.select().from(users).where(eq(users.id, user.id));
    // argon2id at the harness's minimal cost; the standard cost is checked below.
    expect(row!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=8,t=1,p=1\$/);
    expect(row!.passwordHash).not.toContain(user.password);
    const keys = await app.services.database.db.select().from(apiKeys).where(eq(apiKeys.userId, user.id));
    expect(keys).toHaveLength(1);
    expect(keys[0]!.keyDigest).toBe(digestApiKey(user.token));
    expect(JSON.stringify(keys)).not.toContain(user.token);
  });

  it('treats first_name as optional', async () => {
    const res = await app.request('POST', '/api/auth/register', { body: { username: 'nofirst', password: 'correct horse', email: 'nofirst@example.com' } });
    expect(res.status).toBe(201);
    expect(res.body.user.first_name).toBeNull();
  });

  it('answers 409 for a taken username or email, without regard to case', async () => {
    const user = await registerUser(app);
    const sameName = await app.request('POST', '/api/auth/register', {
      body: { username: user.username.toUpperCase(), password: 'correct horse', email: 'other1@example.com' },
    });
    expectError(sameName, userErrors.usernameTaken);
    const sameEmail = await app.request('POST', '/api/auth/register', {
      body: { username: 'other_name_1', password: 'correct horse', email: user.email.toUpperCase() },
    });
    expectError(sameEmail, userErrors.emailTaken);
    const [{ n }] = (await app.services.database.rows(
      (await import('drizzle-orm')).sql`select count(*)::int as n from users where lower(username) = 'other_name_1'`,
    )) as [{ n: number }];
    expect(n).toBe(0);
  });

  it('answers 422 listing every problem, and never lets a client set server-managed fields', async () => {
    const res = await app.request('POST', '/api/auth/register', { body: { username: 'x', password: 'short', email: 'not-an-email', is_admin: true } });
    expect(res.status).toBe(422);
    const locs = res.body.detail.map((d: { loc: string[] }) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.username', 'body.password', 'body.email', 'body.is_admin']));
    const missing = await app.request('POST', '/api/auth/register', { body: { username: 'someone' } });
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toEqual(
      expect.arrayContaining([
        { loc: ['body', 'password'], msg: 'field required', type: 'missing' },
        { loc: ['body', 'email'], msg: 'field required', type: 'missing' },
      ]),
    );
  });
});

describe('POST /api/auth/login', () => {
  it('accepts the username or the email (any case), and revokes every earlier key', async () => {
    const user = await registerUser(app);
    const byName = await app.request('POST', '/api/auth/login', { body: { username: user.username, password: user.password } });
    expect(byName.status).toBe(200);
    const byEmail = await app.request('POST', '/api/auth/login', { body: { username: user.email.toUpperCase(), password: user.password } });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.user.last_login_at).not.toBeNull();
    expectError(await app.request('GET', '/api/users/me', { token: user.token }), authErrors.unauthorized);
    expectError(await app.request('GET', '/api/users/me', { token: byName.body.api_key }), authErrors.unauthorized);
    expect((await app.request('GET', '/api/users/me', { token: byEmail.body.api_key })).status).toBe(200);
  });

  it('answers 401 for a wrong password or an unknown user, with one detail, and keeps existing keys', async () => {
    const user = await registerUser(app);
    const wrong = await app.request('POST', '/api/auth/login', { body: { username: user.username, password: 'wrong password' } });
    const unknown = await app.request('POST', '/api/auth/login', { body: { username: 'nobody-here', password: 'whatever1' } });
    expectError(wrong, authErrors.invalidCredentials);
    expectError(unknown, authErrors.invalidCredentials);
    // One answer: the message does not tell an unknown user from a wrong password.
    expect(wrong.body.detail).toBe(unknown.body.detail);
    expect((await app.request('GET', '/api/users/me', { token: user.token })).status).toBe(200);
  });

  it('answers 401 for a deactivated account, even with the right password', async () => {
    const admin = await createAdmin(app);
    const user = await registerUser(app);
    expect((await app.request('DELETE', `/api/users/${user.id}`, { token: admin.token })).status).toBe(204);
    expectError(await app.request('POST', '/api/auth/login', { body: { username: user.username, password: user.password } }), authErrors.invalidCredentials);
  });

  it('answers 422 for a malformed body', async () => {
    expect((await app.request('POST', '/api/auth/login', { body: { username: 'a' } })).status).toBe(422);
    const bad = await app.request('POST', '/api/auth/login', { raw: { body: '{"username": "a", "password":', contentType: 'application/json' } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ['body'], type: 'json_invalid' });
  });
});

describe('concurrent logins of one user', () => {
  let racing: TestApp;
  beforeAll(async () => {
    // Sign-in throttling off: every attempt below is a right password from one address.
    racing = await startTestApp({ config: { loginThrottle: { maxAttempts: 0, maxAttemptsPerIp: 0, windowSeconds: 900 } } });
  });
  afterAll(() => racing?.close());

  it('leave exactly one active key, one of those returned, whatever their number (serialized on the user row)', async () => {
    const user = await registerUser(racing);
    for (const parallel of [2, 2, 2, 2, 2, 20, 20]) {
      const results = await Promise.all(
        Array.from({ length: parallel }, () => racing.request('POST', '/api/auth/login', { body: { username: user.username, password: user.password } })),
      );
      expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
      const returned = results.map((r) => r.body.api_key as string);
      const active = await racing.services.database.db
        .select({ digest: apiKeys.keyDigest })
        .from(apiKeys)
        .where(and(eq(apiKeys.userId, user.id), isNull(apiKeys.revokedAt)));
      expect(active).toHaveLength(1);
      const winner = returned.find((k) => digestApiKey(k) === active[0]!.digest);
      expect(winner).toBeDefined();
      for (const key of returned) {
        expect((await racing.request('GET', '/api/users/me', { token: key })).status).toBe(key === winner ? 200 : 401);
      }
    }
  });
});

describe('POST /api/auth/logout', () => {
  it('revokes only the key used', async () => {
    const user = await registerUser(app);
    const admin = await createAdmin(app);
    // a second key of the same user, issued without revoking the first (as the admin UI session does)
    const second = await app.services.auth.issueKey({ userId: user.id, revokeOthers: false });
    const res = await app.request('POST', '/api/auth/logout', { token: user.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectError(await app.request('GET', '/api/users/me', { token: user.token }), authErrors.unauthorized);
    expect((await app.request('GET', '/api/users/me', { token: second.apiKey })).status).toBe(200);
    expect((await app.request('GET', '/api/users/me', { token: admin.token })).status).toBe(200);
    expectError(await app.request('POST', '/api/auth/logout', { token: user.token }), authErrors.unauthorized);
  });
});

describe('authentication: a bearer API key, 401 without a valid one', () => {
  it('answers 401 with WWW-Authenticate for a missing, malformed or unknown key', async () => {
    for (const headers of [{}, { authorization: 'Basic abc' }, { authorization: 'Bearer' }, { authorization: 'Bearer qp_unknown' }] as Record<
      string,
      string
    >[]) {
      const res = await app.request('GET', '/api/users/me', { headers });
      expectError(res, authErrors.unauthorized);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  it('answers 403 to an authenticated non-admin on admin operations, 401 without a key', async () => {
    const player = await registerUser(app);
    for (const [method, path] of [
      ['GET', '/api/users'],
      ['GET', `/api/users/${player.id}`],
      ['DELETE', `/api/users/${player.id}`],
    ] as const) {
      expectError(await app.request(method, path, { token: player.token }), authErrors.forbidden);
      expectError(await app.request(method, path), authErrors.unauthorized);
    }
  });

  it('checks the admin flag before validating the input', async () => {
    const player = await registerUser(app);
    expectError(await app.request('POST', '/api/users', { token: player.token, body: { bogus: true } }), authErrors.forbidden);
  });

  it('lets open operations through without a key', async () => {
    expect((await app.request('GET', '/api/leagues')).status).toBe(200);
    expect((await app.request('GET', '/api/brands')).status).toBe(200);
  });
});

describe('the cost of password hashes (PASSWORD_HASH_COST)', () => {
  it('is the standard one unless a test run asks for the minimal one, which anything else refuses', () => {
    for (const appEnv of ['main', 'staging', 'development', 'test']) expect(loadConfig({ APP_ENV: appEnv }).passwordHashCost).toBe('standard');
    expect(loadConfig({ APP_ENV: 'test', PASSWORD_HASH_COST: 'minimal' }).passwordHashCost).toBe('minimal');
    for (const appEnv of ['main', 'staging', 'development'])
      expect(() => loadConfig({ APP_ENV: appEnv, PASSWORD_HASH_COST: 'minimal' })).toThrow(/PASSWORD_HASH_COST=minimal is for test runs only/);
    expect(() => loadConfig({ APP_ENV: 'test', PASSWORD_HASH_COST: 'cheap' })).toThrow(/PASSWORD_HASH_COST must be one of standard, minimal/);
  });

  it("hashes at OWASP's argon2id parameters on a service at the standard cost, which signs its players in", async () => {
    const standard = await startTestApp({ config: { passwordHashCost: 'standard' } });
    try {
      const user = await registerUser(standard);
      const [row] = await standard.services.database.db.select().from(users).where(eq(users.id, user.id));
      expect(row!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      const login = await standard.request('POST', '/api/auth/login', { body: { username: user.username, password: user.password } });
      expect(login.status).toBe(200);
      const wrong = await standard.request('POST', '/api/auth/login', { body: { username: user.username, password: 'not the password' } });
      expect(wrong.status).toBe(401);
    } finally {
      await standard.close();
    }
  });

  it('verifies a hash at the cost it was made with, whatever the cost new hashes get', async () => {
    const standard = passwordHashing('standard');
    const minimal = passwordHashing('minimal');
    for (const [maker, checker] of [
      [standard, minimal],
      [minimal, standard],
    ] as const) {
      const stored = await maker.hash('correct horse battery');
      expect(await checker.verify(stored, 'correct horse battery')).toBe(true);
      expect(await checker.verify(stored, 'wrong horse battery')).toBe(false);
    }
    expect(await minimal.verify(null, 'anything')).toBe(false);
  });
});

/**
 * Sign-in throttling (the contract's 429 on POST /api/auth/login, shared by
 * the operator UI's form): a budget per login name and client address, one
 * per address, counted in the database before the password is checked; and
 * the registration budget per address (the contract's 429 on register).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { users } from '../../src/modules/users/users.table.js';
import { authErrors } from '../../src/modules/auth/auth.errors.js';
import { userErrors } from '../../src/modules/users/users.errors.js';
import { loginThrottle } from '../../src/modules/auth/login-throttle.table.js';
import { addressKey } from '../../src/modules/auth/login-throttle.js';
import { expectError } from '../helpers/errors.js';
import { createAdmin, registerUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app.js';

let app: TestApp;
let user: TestUser;
let addressCounter = 0;
/** A fresh client address (the app trusts X-Forwarded-For), so tests do not share budgets. */
const newAddress = () => `203.0.113.${++addressCounter}`;

beforeAll(async () => {
  app = await startTestApp({
    config: { trustProxy: 1, loginThrottle: { maxAttempts: 3, maxAttemptsPerIp: 8, windowSeconds: 60 }, registerThrottle: { maxPerIp: 3, windowSeconds: 600 } },
  });
  user = await registerUser(app);
});
afterAll(() => app?.close());

const login = (username: string, password: string, ip: string) =>
  app.request('POST', '/api/auth/login', { body: { username, password }, headers: { 'x-forwarded-for': ip } });

describe('POST /api/auth/login throttling', () => {
  it('refuses a name from an address with 429 and Retry-After once its attempts are spent, even with the right password', async () => {
    const ip = newAddress();
    for (let i = 0; i < 3; i++) expectError(await login(user.username, 'wrong password', ip), authErrors.invalidCredentials);
    const refused = await login(user.username, user.password, ip);
    expectError(refused, authErrors.tooManyAttempts);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // The message says how long to wait, as Retry-After does.
    expect(refused.body).toEqual({ detail: `too many sign-in attempts; try again in ${retryAfter} seconds` });
    // The name is kept as a digest: no login name or email in the table.
    const keys = (await app.services.database.db.select({ key: loginThrottle.key }).from(loginThrottle)).map((r) => r.key).join('\n');
    expect(keys).toContain(ip);
    expect(keys).not.toContain(user.username.toLowerCase());
    // The budget is the name's: by email (another name), or from another address, the account still signs in.
    expect((await login(user.email, user.password, ip)).status).toBe(200);
    expect((await login(user.username, user.password, newAddress())).status).toBe(200);
  });

  it('counts the address the proxy appended, not what the client wrote before it in X-Forwarded-For', async () => {
    const ip = newAddress();
    // TRUST_PROXY=1: one proxy, which appends the peer it saw; anything to its left is the client's own text.
    const forged = (i: number) =>
      app.request('POST', '/api/auth/login', {
        body: { username: user.username, password: 'wrong password' },
        headers: { 'x-forwarded-for': `198.51.100.${i}, ${ip}` },
      });
    for (let i = 0; i < 3; i++) expectError(await forged(i), authErrors.invalidCredentials);
    expectError(await forged(99), authErrors.tooManyAttempts);
  });

  it('reads TRUST_PROXY as no proxy, a number of proxies, or their addresses, never "every proxy"', () => {
    expect(loadConfig({ APP_ENV: 'test' }).trustProxy).toBe(false);
    expect(loadConfig({ APP_ENV: 'test', TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ APP_ENV: 'test', TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ APP_ENV: 'test', TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ APP_ENV: 'test', TRUST_PROXY: ' 10.0.0.0/8, loopback ,::1' }).trustProxy).toEqual(['10.0.0.0/8', 'loopback', '::1']);
    for (const bad of ['everything', '10.0.0.0/33', '10.0.0/8', 'fd00::/129', '1.2.3.4/8/1']) {
      expect(() => loadConfig({ APP_ENV: 'test', TRUST_PROXY: bad }), bad).toThrow(
        /TRUST_PROXY: .* is not an address, a subnet or one of loopback, linklocal, uniquelocal/,
      );
    }
  });

  it('counts an IPv6 client by its /64: rotating addresses inside it gets no new budget', async () => {
    const prefix = `2001:db8:${(++addressCounter).toString(16)}:7`;
    const tries = ['::1', '::2', ':0:0:0:abcd', ':ffff:ffff:ffff:ffff'].map((rest) => `${prefix}${rest}`);
    for (const ip of tries.slice(0, 3)) expectError(await login(user.username, 'wrong password', ip), authErrors.invalidCredentials);
    expectError(await login(user.username, user.password, tries[3]!), authErrors.tooManyAttempts);
    // The next /64 is another client.
    expect((await login(user.username, user.password, `2001:db8:${addressCounter.toString(16)}:8::1`)).status).toBe(200);
  });

  it('keys addresses: IPv4 as is (also IPv4-mapped), IPv6 by its /64 prefix', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('2001:0db8:0000:0001:ffff:ffff:ffff:ffff')).toBe('2001:db8:0:1::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
    expect(addressKey('unknown')).toBe('unknown');
  });

  it('counts names without regard to case and surrounding spaces', async () => {
    const ip = newAddress();
    for (const name of [user.username, user.username.toUpperCase(), ` ${user.username} `])
      expectError(await login(name, 'wrong password', ip), authErrors.invalidCredentials);
    expectError(await login(user.username, user.password, ip), authErrors.tooManyAttempts);
  });

  it('clears the budget of a name on a successful sign-in', async () => {
    const ip = newAddress();
    for (let i = 0; i < 2; i++) expectError(await login(user.username, 'wrong password', ip), authErrors.invalidCredentials);
    expect((await login(user.username, user.password, ip)).status).toBe(200);
    for (let i = 0; i < 3; i++) expectError(await login(user.username, 'wrong password', ip), authErrors.invalidCredentials);
    expectError(await login(user.username, 'wrong password', ip), authErrors.tooManyAttempts);
  });

  it('limits one address over all names, and gives successful attempts back', async () => {
    const ip = newAddress();
    // Successful sign-ins do not use the address's budget up.
    for (let i = 0; i < 10; i++) expect((await login(user.username, user.password, ip)).status).toBe(200);
    // Guessing across names does.
    for (let i = 0; i < 8; i++) expectError(await login(`nobody-${i}`, 'wrong password', ip), authErrors.invalidCredentials);
    const refused = await login(user.username, user.password, ip);
    expectError(refused, authErrors.tooManyAttempts);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await login(user.username, user.password, newAddress())).status).toBe(200);
  });

  it('logs a throttled address once per window and budget, never per attempt, and never the password', async () => {
    const logger = app.services.logger;
    const warn = logger.warn;
    const lines: unknown[][] = [];
    logger.warn = ((...args: unknown[]) => void lines.push(args)) as typeof logger.warn;
    try {
      const ip = newAddress();
      for (let i = 0; i < 6; i++) await login(user.username, 'a secret guess', ip);
      expect(lines).toEqual([
        [
          { ip, budget: 'name from address', limit: 3, window_seconds: 60 },
          'sign-in throttled: too many attempts (LOGIN_MAX_ATTEMPTS, LOGIN_MAX_ATTEMPTS_PER_IP, LOGIN_WINDOW_SECONDS)',
        ],
      ]);
      expect(JSON.stringify(lines)).not.toContain('a secret guess');
    } finally {
      logger.warn = warn;
    }
  });

  it('never lets parallel guesses past the budget', async () => {
    const ip = newAddress();
    // 8 guesses: within the address's budget (8), so only the name's budget (3) decides.
    const statuses = (await Promise.all(Array.from({ length: 8 }, () => login(user.username, 'wrong password', ip)))).map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
  });

  it('opens again when the window ends, and the worker deletes ended counters', async () => {
    const short = await startTestApp({ config: { trustProxy: 1, loginThrottle: { maxAttempts: 1, maxAttemptsPerIp: 0, windowSeconds: 1 } } });
    try {
      const someone = await registerUser(short);
      const ip = newAddress();
      const attempt = (password: string) =>
        short.request('POST', '/api/auth/login', { body: { username: someone.username, password }, headers: { 'x-forwarded-for': ip } });
      expectError(await attempt('wrong password'), authErrors.invalidCredentials);
      expectError(await attempt(someone.password), authErrors.tooManyAttempts);
      // A budget of 0 is off: the address is not counted.
      expect(await short.services.database.db.select().from(loginThrottle)).toHaveLength(1);
      await new Promise((r) => setTimeout(r, 1100));
      expect(await short.services.loginThrottle.cleanup()).toBe(1);
      expect(await short.services.database.db.select().from(loginThrottle)).toHaveLength(0);
      expect((await attempt(someone.password)).status).toBe(200);
    } finally {
      await short.close();
    }
  });
});

describe('the operator UI sign-in form', () => {
  it('shares the budgets of the API login and says how long to wait', async () => {
    const admin = await createAdmin(app);
    const ip = newAddress();
    for (let i = 0; i < 3; i++) expectError(await login(admin.username, 'wrong password', ip), authErrors.invalidCredentials);
    const form = await fetch(`${app.url}/admin/login`, { headers: { 'x-forwarded-for': ip } });
    const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())![1]!;
    const loginCookie = form.headers
      .getSetCookie()
      .find((c) => c.startsWith('qp_admin_login_csrf='))!
      .split(';')[0]!;
    const res = await fetch(`${app.url}/admin/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: loginCookie, 'x-forwarded-for': ip },
      body: new URLSearchParams({ csrf, login: admin.username, password: admin.password }).toString(),
    });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await res.text()).toMatch(/Too many sign-in attempts\. Try again in \d+ seconds\./);
  });
});

describe('POST /api/auth/register throttling', () => {
  let n = 0;
  const register = (ip: string, username = `signup${process.pid}${Date.now().toString(36)}${++n}`) =>
    app.request('POST', '/api/auth/register', {
      body: { username, email: `${username}@example.com`, password: 'correct horse battery' },
      headers: { 'x-forwarded-for': ip },
    });

  it('refuses a fourth registration from one address with 429 and Retry-After, creating nothing; other addresses still register', async () => {
    const ip = newAddress();
    expect((await register(ip)).status).toBe(201);
    // A taken name counts too: every registration that reaches the check costs a password hash.
    expectError(await register(ip, user.username), userErrors.usernameTaken);
    expect((await register(ip)).status).toBe(201);
    const username = `refused${process.pid}${Date.now().toString(36)}`;
    const logger = app.services.logger;
    const warn = logger.warn;
    const lines: unknown[][] = [];
    logger.warn = ((...args: unknown[]) => void lines.push(args)) as typeof logger.warn;
    let refused: Awaited<ReturnType<typeof register>>;
    try {
      refused = await register(ip, username);
      await register(ip);
    } finally {
      logger.warn = warn;
    }
    // Once per window, naming the settings an operator would change.
    expect(lines).toEqual([
      [{ ip, limit: 3, window_seconds: 600 }, 'registration throttled: too many accounts from one address (REGISTER_MAX_PER_IP, REGISTER_WINDOW_SECONDS)'],
    ]);
    expectError(refused, authErrors.tooManyRegistrations);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(500);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(refused.body).toEqual({ detail: `too many accounts registered from this address; try again in ${retryAfter} seconds` });
    expect(await app.services.database.db.select().from(users).where(eq(users.username, username))).toEqual([]);
    expect((await register(newAddress(), username)).status).toBe(201);
  });

  it('is counted by the database, so parallel registrations cannot overtake the budget', async () => {
    const ip = newAddress();
    const statuses = (await Promise.all(Array.from({ length: 8 }, () => register(ip)))).map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
  });

  it('reads REGISTER_MAX_PER_IP (20 per hour by default, off in tests and with 0) and REGISTER_WINDOW_SECONDS', () => {
    expect(loadConfig({ APP_ENV: 'development' }).registerThrottle).toEqual({ maxPerIp: 20, windowSeconds: 3600 });
    expect(loadConfig({ APP_ENV: 'test' }).registerThrottle.maxPerIp).toBe(0);
    expect(loadConfig({ APP_ENV: 'main', REGISTER_MAX_PER_IP: '0', REGISTER_WINDOW_SECONDS: '60' }).registerThrottle).toEqual({
      maxPerIp: 0,
      windowSeconds: 60,
    });
    expect(() => loadConfig({ APP_ENV: 'main', REGISTER_MAX_PER_IP: 'many' })).toThrow(/REGISTER_MAX_PER_IP/);
  });
});

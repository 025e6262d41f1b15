import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { authErrors } from '../../src/modules/auth/auth.errors.js';
import { matchFollows } from '../../src/modules/matches/matches.table.js';
import { userErrors } from '../../src/modules/users/users.errors.js';
import { createAdmin as createAdminCli, parseAdminArgs } from '../../scripts/create-admin.js';
import { expectError } from '../helpers/errors.js';
import { createMatch, UNKNOWN_ID } from '../helpers/factories.js';
import { createAdmin, registerUser, type TestUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const { app, admin } = useTestApp();

describe('GET/PATCH /api/users/me', () => {
  it('returns the caller, without secrets', async () => {
    const user = await registerUser(app);
    const res = await app.request('GET', '/api/users/me', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, username: user.username, email: user.email });
    expect(res.text).not.toMatch(/password_hash|"password"|argon2|api_key/);
  });

  it('updates only the self-patchable fields', async () => {
    const user = await registerUser(app);
    const changes = {
      first_name: 'Ann',
      last_name: 'Lee',
      postal_address: '1 Main St',
      date_of_birth: '1990-04-01',
      match_follow_timezone: 'America/New_York',
      notify_on_issuance: false,
      notify_on_resolve: false,
    };
    const res = await app.request('PATCH', '/api/users/me', { token: user.token, body: { ...changes, email: 'ANN.LEE@example.com' } });
    expect(res.status).toBe(200);
    // Each field as sent, the email lowercased, the username untouched.
    expect(res.body).toMatchObject({ ...changes, email: 'ann.lee@example.com', username: user.username });
  });

  it.each([
    ['is_admin', true],
    ['is_active', false],
    ['match_daily_follow_count', null],
    ['id', UNKNOWN_ID],
    ['username', 'renamed'],
    ['api_key', 'x'],
  ])('refuses %s with 422 and changes nothing', async (field, value) => {
    const user = await registerUser(app);
    const res = await app.request('PATCH', '/api/users/me', { token: user.token, body: { first_name: 'X', [field]: value } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toContainEqual(expect.objectContaining({ loc: ['body', field], type: 'extra_forbidden' }));
    const me = await app.request('GET', '/api/users/me', { token: user.token });
    expect(me.body).toMatchObject({ is_admin: false, is_active: true, first_name: null, match_daily_follow_count: 3 });
  });

  it('accepts IANA zones only; blank (even only spaces) or null means UTC (stored as null)', async () => {
    const user = await registerUser(app);
    const bad = await app.request('PATCH', '/api/users/me', { token: user.token, body: { match_follow_timezone: 'Mars/Olympus_Mons' } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ['body', 'match_follow_timezone'], type: 'format' });
    expect((await app.request('PATCH', '/api/users/me', { token: user.token, body: { match_follow_timezone: '+01:00' } })).status).toBe(422);
    expect(
      (await app.request('PATCH', '/api/users/me', { token: user.token, body: { match_follow_timezone: 'Europe/Berlin' } })).body.match_follow_timezone,
    ).toBe('Europe/Berlin');
    // Blank means UTC, spaces or not; spaces around a zone name are dropped.
    expect((await app.request('PATCH', '/api/users/me', { token: user.token, body: { match_follow_timezone: '  ' } })).body.match_follow_timezone).toBeNull();
    await app.request('PATCH', '/api/users/me', { token: user.token, body: { match_follow_timezone: 'Europe/Berlin' } });
    expect((await app.request('PATCH', '/api/users/me', { token: user.token, body: { match_follow_timezone: '' } })).body.match_follow_timezone).toBeNull();
    expect(
      (await app.request('PATCH', '/api/users/me', { token: user.token, body: { match_follow_timezone: ' Asia/Tokyo ' } })).body.match_follow_timezone,
    ).toBe('Asia/Tokyo');
    expect((await app.request('PATCH', '/api/users/me', { token: user.token, body: { match_follow_timezone: ' Mars/Olympus_Mons ' } })).status).toBe(422);
    await app.request('PATCH', '/api/users/me', { token: user.token, body: { match_follow_timezone: 'Asia/Tokyo' } });
    expect((await app.request('PATCH', '/api/users/me', { token: user.token, body: { match_follow_timezone: null } })).body.match_follow_timezone).toBeNull();
  });

  it('answers 409 when the new email is taken', async () => {
    const a = await registerUser(app);
    const b = await registerUser(app);
    expectError(await app.request('PATCH', '/api/users/me', { token: b.token, body: { email: a.email.toUpperCase() } }), userErrors.emailTaken);
  });

  it('answers 401 without a key', async () => {
    expect((await app.request('PATCH', '/api/users/me', { body: { first_name: 'x' } })).status).toBe(401);
  });
});

describe('admin user management', () => {
  it('creates users (admin or not) and answers 409 for taken names', async () => {
    const res = await app.request('POST', '/api/users', {
      token: admin.token,
      body: { username: 'operator7', password: 'long enough pw', email: 'op7@example.com', is_admin: true, match_daily_follow_count: null },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ username: 'operator7', is_admin: true, is_active: true, match_daily_follow_count: null });
    const login = await app.request('POST', '/api/auth/login', { body: { username: 'operator7', password: 'long enough pw' } });
    expect(login.status).toBe(200);
    expectError(
      await app.request('POST', '/api/users', { token: admin.token, body: { username: 'OPERATOR7', password: 'long enough pw', email: 'x7@example.com' } }),
      userErrors.usernameTaken,
    );
    const defaults = await app.request('POST', '/api/users', {
      token: admin.token,
      body: { username: 'player77', password: 'long enough pw', email: 'p77@example.com' },
    });
    expect(defaults.body).toMatchObject({ is_admin: false, match_daily_follow_count: 3 });
  });

  it('gets a user, 404 when unknown, 422 for a malformed id', async () => {
    const user = await registerUser(app);
    expect((await app.request('GET', `/api/users/${user.id}`, { token: admin.token })).body.id).toBe(user.id);
    expectError(await app.request('GET', `/api/users/${UNKNOWN_ID}`, { token: admin.token }), userErrors.notFound);
    expect((await app.request('GET', '/api/users/not-a-uuid', { token: admin.token })).status).toBe(422);
  });

  it('patches any field, including the admin flag and the quota', async () => {
    const user = await registerUser(app);
    const res = await app.request('PATCH', `/api/users/${user.id}`, {
      token: admin.token,
      body: { is_admin: true, match_daily_follow_count: 10, last_name: 'Smith' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ is_admin: true, match_daily_follow_count: 10, last_name: 'Smith', first_name: null });
    expect((await app.request('GET', '/api/users', { token: user.token })).status).toBe(200);
  });

  it('revokes keys when deactivating or setting a password through PATCH', async () => {
    const user = await registerUser(app);
    await app.request('PATCH', `/api/users/${user.id}`, { token: admin.token, body: { password: 'a brand new password' } });
    expectError(await app.request('GET', '/api/users/me', { token: user.token }), authErrors.unauthorized);
    expect((await app.request('POST', '/api/auth/login', { body: { username: user.username, password: 'a brand new password' } })).status).toBe(200);
    const other = await registerUser(app);
    const off = await app.request('PATCH', `/api/users/${other.id}`, { token: admin.token, body: { is_active: false } });
    expect(off.body.is_active).toBe(false);
    expectError(await app.request('GET', '/api/users/me', { token: other.token }), authErrors.unauthorized);
    expectError(await app.request('POST', '/api/auth/login', { body: { username: other.username, password: other.password } }), authErrors.invalidCredentials);
    await app.request('PATCH', `/api/users/${other.id}`, { token: admin.token, body: { is_active: true } });
    expect((await app.request('POST', '/api/auth/login', { body: { username: other.username, password: other.password } })).status).toBe(200);
  });

  it('refuses to let admins lock themselves out', async () => {
    const self = await createAdmin(app);
    expectError(await app.request('PATCH', `/api/users/${self.id}`, { token: self.token, body: { is_admin: false } }), userErrors.selfLockout);
    expectError(await app.request('PATCH', `/api/users/${self.id}`, { token: self.token, body: { is_active: false } }), userErrors.selfLockout);
    expectError(await app.request('DELETE', `/api/users/${self.id}`, { token: self.token }), userErrors.selfLockout);
    expect((await app.request('GET', '/api/users/me', { token: self.token })).body).toMatchObject({ is_admin: true, is_active: true });
  });

  it('soft-deactivates with DELETE: the row stays, keys are revoked, login answers 401; idempotent', async () => {
    const user = await registerUser(app);
    expect((await app.request('DELETE', `/api/users/${user.id}`, { token: admin.token })).status).toBe(204);
    expect((await app.request('DELETE', `/api/users/${user.id}`, { token: admin.token })).status).toBe(204);
    expect((await app.request('GET', `/api/users/${user.id}`, { token: admin.token })).body.is_active).toBe(false);
    expectError(await app.request('GET', '/api/users/me', { token: user.token }), authErrors.unauthorized);
    expectError(await app.request('POST', '/api/auth/login', { body: { username: user.username, password: user.password } }), authErrors.invalidCredentials);
    expectError(await app.request('DELETE', `/api/users/${UNKNOWN_ID}`, { token: admin.token }), userErrors.notFound);
  });
});

describe('GET /api/users', () => {
  let group: TestUser[];
  const tag = `lst${Date.now().toString(36)}`;

  beforeAll(async () => {
    group = [];
    for (const name of ['carol', 'alice', 'bob', 'dave'])
      group.push(await registerUser(app, { username: `${tag}_${name}`, first_name: name === 'dave' ? 'Zed' : undefined }));
    await app.request('PATCH', `/api/users/${group[3]!.id}`, { token: admin.token, body: { is_admin: true } });
  });

  it('searches username, email, names and id without regard to case, and counts the matches', async () => {
    const res = await app.request('GET', '/api/users', { token: admin.token, query: { q: tag.toUpperCase() } });
    expect(res.status).toBe(200);
    expect(res.body.user_count).toBe(4);
    expect((await app.request('GET', '/api/users', { token: admin.token, query: { q: 'zed' } })).body.users.map((u: { id: string }) => u.id)).toContain(
      group[3]!.id,
    );
    const byId = await app.request('GET', '/api/users', { token: admin.token, query: { q: group[1]!.id.slice(0, 13) } });
    expect(byId.body.users.map((u: { id: string }) => u.id)).toEqual([group[1]!.id]);
    expect((await app.request('GET', '/api/users', { token: admin.token, query: { q: '%' } })).body.user_count).toBe(0);
  });

  it('filters by is_admin and is_active', async () => {
    const admins = await app.request('GET', '/api/users', { token: admin.token, query: { q: tag, is_admin: true } });
    expect(admins.body.users.map((u: { id: string }) => u.id)).toEqual([group[3]!.id]);
    const players = await app.request('GET', '/api/users', { token: admin.token, query: { q: tag, is_admin: false } });
    expect(players.body.user_count).toBe(3);
  });

  it('sorts by the chosen key and direction, pages with offset and limit, and keeps user_count the total', async () => {
    const asc = await app.request('GET', '/api/users', { token: admin.token, query: { q: tag, sort_by: 'username', sort_dir: 'asc' } });
    expect(asc.body.users.map((u: { username: string }) => u.username)).toEqual(['alice', 'bob', 'carol', 'dave'].map((n) => `${tag}_${n}`));
    const page = await app.request('GET', '/api/users', { token: admin.token, query: { q: tag, sort_by: 'username', sort_dir: 'desc', offset: 1, limit: 2 } });
    expect(page.body.users.map((u: { username: string }) => u.username)).toEqual([`${tag}_carol`, `${tag}_bob`]);
    expect(page.body.user_count).toBe(4);
    const created = await app.request('GET', '/api/users', { token: admin.token, query: { q: tag, sort_by: 'created_at', sort_dir: 'asc' } });
    expect(created.body.users.map((u: { id: string }) => u.id)).toEqual(group.map((u) => u.id));
  });

  it('filters by followed_match_id (current follows only)', async () => {
    const match = await createMatch(app);
    const db = app.services.database.db;
    await db.insert(matchFollows).values([
      { userId: group[0]!.id, matchId: match.id, following: true },
      { userId: group[2]!.id, matchId: match.id, following: false },
    ]);
    const res = await app.request('GET', '/api/users', { token: admin.token, query: { followed_match_id: match.id } });
    expect(res.body.users.map((u: { id: string }) => u.id)).toEqual([group[0]!.id]);
    expect(res.body.user_count).toBe(1);
    await db.delete(matchFollows).where(eq(matchFollows.matchId, match.id));
  });

  it('answers 422 for bad paging or sorting', async () => {
    for (const query of [{ limit: 0 }, { limit: 501 }, { offset: -1 }, { sort_by: 'password_hash' }, { sort_dir: 'up' }, { is_admin: 'maybe' }]) {
      expect((await app.request('GET', '/api/users', { token: admin.token, query })).status).toBe(422);
    }
  });
});

describe('npm run create-admin', () => {
  it('creates an active admin, then promotes and reactivates idempotently', async () => {
    const args = parseAdminArgs(['--username', 'root_admin', '--password', 'admin password 1', '--email', 'root@example.com']);
    expect(await createAdminCli(app.services.users, args)).toMatch(/^created active admin 'root_admin'/);
    expect(await createAdminCli(app.services.users, args)).toMatch(/^updated active admin/);
    const login = await app.request('POST', '/api/auth/login', { body: { username: 'root_admin', password: 'admin password 1' } });
    expect(login.body.user).toMatchObject({ is_admin: true, is_active: true });

    const player = await registerUser(app);
    await app.request('DELETE', `/api/users/${player.id}`, { token: admin.token });
    await createAdminCli(app.services.users, parseAdminArgs(['--username', player.username, '--password', 'new admin pw 2', '--email', player.email]));
    const promoted = await app.request('POST', '/api/auth/login', { body: { username: player.username, password: 'new admin pw 2' } });
    expect(promoted.status).toBe(200);
    expect(promoted.body.user).toMatchObject({ id: player.id, is_admin: true, is_active: true });
  });

  it('explains bad arguments', () => {
    expect(() => parseAdminArgs(['--username', 'x'])).toThrow(/missing --password, --email/);
    expect(() => parseAdminArgs(['--username', 'ok_name', '--password', 'short', '--email', 'a@b.co'])).toThrow(/--password/);
    expect(() => parseAdminArgs(['--username', 'ok_name', '--password', 'long enough', '--email', 'nope'])).toThrow(/--email/);
  });
});

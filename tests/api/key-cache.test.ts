/**
 * The authentication step's key cache (src/modules/auth/key-cache.ts): a
 * player's requests after the first skip the key lookup, and every change to
 * a user or a key reaches every process's cache (the database announces it on
 * the live bus), so a key revoked anywhere, by any path, stops working at
 * once; a cache that cannot hear changes is not used.
 */
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyCache, type CachedKey } from '../../src/modules/auth/key-cache.js';
import type { UserRow } from '../../src/modules/users/users.table.js';
import { waitFor } from '../helpers/engine.js';
import { registerUser, startTestApp, statementsDuring, type TestApp } from '../helpers/test-app.js';
import { testDatabaseUrl } from '../helpers/pg-url.js';

const entry = (userId: string, keyId = 'k1', expiresAt: Date | null = null): CachedKey => ({ user: { id: userId } as UserRow, keyId, expiresAt });

describe('the key cache', () => {
  it("keeps a lookup for its time to live, never past the key's expiry", () => {
    const cache = createKeyCache({ ttlMs: 1000, maxEntries: 10, trusted: () => true });
    cache.set('d1', entry('u1'), cache.version(), 0);
    expect(cache.get('d1', 999)?.keyId).toBe('k1');
    expect(cache.get('d1', 1000)).toBeUndefined();
    cache.set('d2', entry('u2', 'k2', new Date(500)), cache.version(), 0);
    expect(cache.get('d2', 499)?.keyId).toBe('k2');
    expect(cache.get('d2', 500)).toBeUndefined();
  });

  it("drops a user's entries on a change, and does not keep a lookup that raced one", () => {
    const cache = createKeyCache({ ttlMs: 10_000, maxEntries: 10, trusted: () => true });
    cache.set('a', entry('u1'), cache.version());
    cache.set('b', entry('u1', 'k2'), cache.version());
    cache.set('c', entry('u2'), cache.version());
    cache.invalidateUser('u1');
    expect([cache.get('a'), cache.get('b')]).toEqual([undefined, undefined]);
    expect(cache.get('c')).toBeDefined();
    // A lookup that started before a change (of anyone) is used by its request but not kept.
    const before = cache.version();
    cache.invalidateUser('u3');
    cache.set('d', entry('u4'), before);
    expect(cache.get('d')).toBeUndefined();
    cache.flush();
    expect(cache.size).toBe(0);
  });

  it('is neither read nor written while it cannot hear changes, and holds at most maxEntries', () => {
    let trusted = true;
    const cache = createKeyCache({ ttlMs: 10_000, maxEntries: 2, trusted: () => trusted });
    cache.set('a', entry('u1'), cache.version());
    trusted = false;
    expect(cache.get('a')).toBeUndefined();
    cache.set('b', entry('u2'), cache.version());
    trusted = true;
    expect(cache.get('b')).toBeUndefined();
    cache.set('b', entry('u2'), cache.version());
    cache.set('c', entry('u3'), cache.version());
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBeUndefined();
  });

  it('is off with a time to live of 0', () => {
    const cache = createKeyCache({ ttlMs: 0, maxEntries: 10, trusted: () => true });
    cache.set('a', entry('u1'), cache.version());
    expect(cache.get('a')).toBeUndefined();
  });
});

const keyLookups = (statements: string[]) => statements.filter((s) => s.includes('from "api_keys"')).length;

describe('authentication with the key cache', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('looks a key up once, then serves its requests from the cache', async () => {
    const player = await registerUser(app);
    const first = await statementsDuring(app, () => app.request('GET', '/api/users/me', { token: player.token }));
    expect(first.result.status).toBe(200);
    expect(keyLookups(first.statements)).toBe(1);
    const second = await statementsDuring(app, () => app.request('GET', '/api/users/me', { token: player.token }));
    expect(second.result.status).toBe(200);
    expect(keyLookups(second.statements)).toBe(0);
  });

  it("sees this process's own changes on the very next request (logout, profile, deactivation)", async () => {
    const player = await registerUser(app);
    expect((await app.request('GET', '/api/users/me', { token: player.token })).status).toBe(200);
    const patched = await app.request('PATCH', '/api/users/me', { token: player.token, body: { match_follow_timezone: 'Europe/Paris' } });
    expect(patched.status).toBe(200);
    expect((await app.request('GET', '/api/users/me/points', { token: player.token })).body.timezone).toBe('Europe/Paris');
    expect((await app.request('POST', '/api/auth/logout', { token: player.token })).status).toBe(204);
    expect((await app.request('GET', '/api/users/me', { token: player.token })).status).toBe(401);
  });
});

describe.skipIf(!testDatabaseUrl())('the key cache across processes (PostgreSQL)', () => {
  let a: TestApp;
  let b: TestApp;
  let sql: postgres.Sql;
  beforeAll(async () => {
    a = await startTestApp();
    b = await startTestApp({ databaseUrl: a.db.url! });
    sql = postgres(a.db.url!, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await sql?.end({ timeout: 1 });
    await b?.close();
    await a?.close();
  });

  it('a key revoked in another process stops working here as soon as the database says so', async () => {
    const player = await registerUser(a);
    expect((await b.request('GET', '/api/users/me', { token: player.token })).status).toBe(200);
    expect(keyLookups((await statementsDuring(b, () => b.request('GET', '/api/users/me', { token: player.token }))).statements)).toBe(0);
    expect((await a.request('POST', '/api/auth/logout', { token: player.token })).status).toBe(204);
    await waitFor(async () => (await b.request('GET', '/api/users/me', { token: player.token })).status === 401, {
      what: 'the revoked key to be refused by the other process',
      timeoutMs: 3000,
    });
  });

  it('a change made outside the service (plain SQL) reaches the cache too: deactivation, then admin rights', async () => {
    const player = await registerUser(a);
    expect((await a.request('GET', '/api/users/me', { token: player.token })).status).toBe(200);
    await sql`update users set is_active = false where id = ${player.id}`;
    await waitFor(async () => (await a.request('GET', '/api/users/me', { token: player.token })).status === 401, {
      what: 'the deactivated user to be refused',
      timeoutMs: 3000,
    });

    const other = await registerUser(a);
    expect((await a.request('GET', '/api/users', { token: other.token })).status).toBe(403);
    await sql`update users set is_admin = true where id = ${other.id}`;
    await waitFor(async () => (await a.request('GET', '/api/users', { token: other.token })).status === 200, {
      what: 'the new admin to be let in',
      timeoutMs: 3000,
    });
  });
});

/**
 * The reactions of src/events/reactions.ts, through the API: this process's
 * own writes reach its caches at the commit, by the local events alone (the
 * bus's reactions are muted here, so nothing arrives from the database's
 * triggers). Across processes: tests/api/key-cache.test.ts and
 * tests/api/league-cache.test.ts (PostgreSQL, a second app on the same database).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Reactions } from '../../src/events/dispatcher.js';
import { liveMatchWithCrowd, playQuestion } from '../helpers/leaderboards.js';
import { createAdmin, registerUser, startTestApp, statementsDuring, type TestApp, type TestUser } from '../helpers/test-app.js';

const keyLookups = (statements: string[]) => statements.filter((s) => s.includes('from "api_keys"')).length;

describe('reactions to this process’s own writes (the bus muted)', () => {
  let app: TestApp;
  let admin: TestUser;
  let installed: Reactions;
  beforeAll(async () => {
    // Boards read through SQL and its page cache (the in-memory boards, leaving with the Redis work, hear users on the bus only).
    app = await startTestApp();
    admin = await createAdmin(app);
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(() => {
    installed = app.services.events.reactions;
    const muted = Object.fromEntries(Object.keys(installed.bus).map((k) => [k, []])) as unknown as Reactions['bus'];
    app.services.events.use({ ...installed, bus: muted });
  });
  afterEach(() => app.services.events.use(installed));

  it('a revoked key is refused on the very next request (logout, login elsewhere, deactivation)', async () => {
    const player = await registerUser(app);
    expect((await app.request('GET', '/api/users/me', { token: player.token })).status).toBe(200);
    expect((await app.request('POST', '/api/auth/logout', { token: player.token })).status).toBe(204);
    expect((await app.request('GET', '/api/users/me', { token: player.token })).status).toBe(401);

    const other = await registerUser(app);
    expect((await app.request('GET', '/api/users/me', { token: other.token })).status).toBe(200);
    const again = await app.request('POST', '/api/auth/login', { body: { username: other.username, password: other.password } });
    expect(again.status).toBe(200);
    expect((await app.request('GET', '/api/users/me', { token: other.token })).status).toBe(401);
    expect((await app.request('GET', '/api/users/me', { token: again.body.api_key })).status).toBe(200);

    const third = await registerUser(app);
    expect((await app.request('GET', '/api/users/me', { token: third.token })).status).toBe(200);
    expect((await app.request('DELETE', `/api/users/${third.id}`, { token: admin.token })).status).toBe(204);
    expect((await app.request('GET', '/api/users/me', { token: third.token })).status).toBe(401);
  });

  it("a login forgets only that user's cached lookups, no one else's", async () => {
    const [a, b] = [await registerUser(app), await registerUser(app)];
    for (const u of [a, b]) expect((await app.request('GET', '/api/users/me', { token: u.token })).status).toBe(200);
    const login = await app.request('POST', '/api/auth/login', { body: { username: a.username, password: a.password } });
    expect(login.status).toBe(200);
    const seenB = await statementsDuring(app, () => app.request('GET', '/api/users/me', { token: b.token }));
    expect(seenB.result.status).toBe(200);
    expect(keyLookups(seenB.statements)).toBe(0);
    // The one who logged in is read again: their row (last login) changed.
    const seenA = await statementsDuring(app, () => app.request('GET', '/api/users/me', { token: login.body.api_key }));
    expect(seenA.result.status).toBe(200);
    expect(keyLookups(seenA.statements)).toBe(1);
  });

  it("a renamed or hidden user's name is gone from cached board pages on the next read", async () => {
    const { match, crowd } = await liveMatchWithCrowd(app, 3);
    await playQuestion(
      app,
      match.id,
      [
        [crowd[0], 'home'],
        [crowd[1], 'home'],
        [crowd[2], 'away'],
      ],
      'home',
    );
    const names = async () =>
      (
        (await app.request('GET', `/api/leaderboards/matches/${match.id}`, { token: crowd[2].token })).body.rows as { user_id: string; display_name: string }[]
      ).map((r) => [r.user_id, r.display_name]);
    const before = await names();
    expect(before.map(([id]) => id)).toContain(crowd[0].id);
    // Served from the page cache now.
    const hits = app.services.leaderboards.cacheState().pageHits;
    expect(await names()).toEqual(before);
    expect(app.services.leaderboards.cacheState().pageHits).toBe(hits + 1);

    expect((await app.request('PATCH', `/api/users/${crowd[0].id}`, { token: admin.token, body: { display_name: 'Renamed At Once' } })).status).toBe(200);
    expect(await names()).toContainEqual([crowd[0].id, 'Renamed At Once']);

    expect((await app.request('PATCH', `/api/users/${crowd[1].id}`, { token: admin.token, body: { hidden_from_leaderboards: true } })).status).toBe(200);
    expect((await names()).map(([id]) => id)).not.toContain(crowd[1].id);
  });

  it('an operator’s league change is in the next list', async () => {
    const list = async () => (await app.request('GET', '/api/leagues', { token: admin.token })).body as { slug: string; default_question_points: number }[];
    const wc = (await list()).find((l) => l.slug === 'wc')!;
    const points = wc.default_question_points + 1;
    expect((await app.request('PATCH', `/api/leagues/wc`, { token: admin.token, body: { default_question_points: points } })).status).toBe(200);
    expect((await list()).find((l) => l.slug === 'wc')!.default_question_points).toBe(points);
  });
});

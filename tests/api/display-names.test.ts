import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { leaderboardName, normalizeDisplayName, profanityIn } from '../../src/modules/users/display-name.js';
import { userErrors } from '../../src/modules/users/users.errors.js';
import { users } from '../../src/modules/users/users.table.js';
import { expectError } from '../helpers/errors.js';
import { registerUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const { app, admin } = useTestApp();

describe('display name rules', () => {
  it('normalizes spaces and clears on blank or null', () => {
    expect(normalizeDisplayName('  Ann   the\tKeeper ')).toBe('Ann the Keeper');
    expect(normalizeDisplayName('   ')).toBeNull();
    expect(normalizeDisplayName(null)).toBeNull();
    // NFC: a decomposed é is stored composed.
    expect(normalizeDisplayName('Re\u0301my')).toBe('R\u00e9my');
  });

  it('counts characters, not UTF-16 units: 2 to 32', () => {
    expect(() => normalizeDisplayName('A')).toThrow(/2 to 32/);
    expect(normalizeDisplayName('😀😀')).toBe('😀😀');
    expect(normalizeDisplayName('x'.repeat(32))).toHaveLength(32);
    expect(() => normalizeDisplayName('x'.repeat(33))).toThrow(/2 to 32/);
  });

  it.each([
    ['bell', 'Ann\u0007'],
    ['zero-width joiner', 'An\u200dn'],
    ['right-to-left override', '\u202eAnn'],
    ['soft hyphen', 'An\u00adn'],
    ['line separator', 'An\u2028n'],
  ])('refuses control and invisible characters (%s)', (_, name) => {
    expect(() => normalizeDisplayName(name)).toThrow(/control or invisible/);
  });

  it('refuses email-looking names, not every @', () => {
    expect(() => normalizeDisplayName('ann@example.com')).toThrow(/email/);
    expect(() => normalizeDisplayName('call me a.b@c.de please')).toThrow(/email/);
    expect(normalizeDisplayName('@ann')).toBe('@ann');
    expect(normalizeDisplayName('ann @ home')).toBe('ann @ home');
  });

  it('refuses listed words, disguised or not, but not harmless words that contain them', () => {
    for (const name of ['fuck off', 'FvCk'.replace('v', 'u'), 'sh1t happens', 'Big D1ck', 'b!tch', 'f u c k', 'Fück', 'Cunts'])
      expect(profanityIn(name), name).toBeDefined();
    for (const name of ['Dickens', 'Hitchcock', 'Scunthorpe United', 'Cockburn', 'Classic', 'Passion', 'Grape Juice'])
      expect(profanityIn(name), name).toBeUndefined();
  });

  it('falls back to the username, then to Player and the id, never to the email', () => {
    const id = '3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
    expect(leaderboardName({ id, username: 'alice', displayName: 'Ace' })).toBe('Ace');
    expect(leaderboardName({ id, username: 'alice', displayName: null })).toBe('alice');
    expect(leaderboardName({ id, username: null, displayName: null })).toBe('Player 3f1b2c4d');
  });
});

describe('PATCH /api/users/me: display_name', () => {
  it('sets, shows and clears it; leaderboard_name follows', async () => {
    const user = await registerUser(app);
    const res = await app.request('PATCH', '/api/users/me', { token: user.token, body: { display_name: '  Goal  Getter ' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      display_name: 'Goal Getter',
      leaderboard_name: 'Goal Getter',
      display_name_locked: false,
      hidden_from_leaderboards: false,
    });
    const cleared = await app.request('PATCH', '/api/users/me', { token: user.token, body: { display_name: ' ' } });
    expect(cleared.body).toMatchObject({ display_name: null, leaderboard_name: user.username });
  });

  it('answers 400 naming the rule, and changes nothing else of the request', async () => {
    const user = await registerUser(app);
    for (const [name, why] of [
      ['x', /2 to 32/],
      // Short enough for the length rule (usernames grow with the run's counter): the email rule must be the one that answers.
      ['ann@example.com', /email/],
      ['Ann\u202e', /invisible/],
      ['total shit', /not allowed/],
    ] as const) {
      const res = await app.request('PATCH', '/api/users/me', { token: user.token, body: { display_name: name, first_name: 'Changed' } });
      expectError(res, userErrors.displayNameInvalid);
      expect(res.body.detail, name).toMatch(why);
    }
    expect((await app.request('GET', '/api/users/me', { token: user.token })).body).toMatchObject({ display_name: null, first_name: null });
  });

  it("answers 422 past the contract's bounds", async () => {
    const user = await registerUser(app);
    expect((await app.request('PATCH', '/api/users/me', { token: user.token, body: { display_name: 'x'.repeat(65) } })).status).toBe(422);
    expect((await app.request('PATCH', '/api/users/me', { token: user.token, body: { display_name: '' } })).status).toBe(422);
  });

  it('cannot set hidden_from_leaderboards or the lock on oneself', async () => {
    const user = await registerUser(app);
    for (const field of ['hidden_from_leaderboards', 'display_name_locked', 'leaderboard_name']) {
      expect((await app.request('PATCH', '/api/users/me', { token: user.token, body: { [field]: false } })).status).toBe(422);
    }
  });
});

describe('admin override', () => {
  it('an admin sets a display name, which locks it: the player then gets 409 and nothing changes', async () => {
    const user = await registerUser(app);
    await app.request('PATCH', '/api/users/me', { token: user.token, body: { display_name: 'Rude Name' } });
    const set = await app.request('PATCH', `/api/users/${user.id}`, { token: admin.token, body: { display_name: 'Player One' } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ display_name: 'Player One', display_name_locked: true, leaderboard_name: 'Player One' });
    const refused = await app.request('PATCH', '/api/users/me', { token: user.token, body: { display_name: 'Rude Again', first_name: 'Z' } });
    expectError(refused, userErrors.displayNameLocked);
    expect((await app.request('GET', '/api/users/me', { token: user.token })).body).toMatchObject({ display_name: 'Player One', first_name: null });
    // Other fields stay the player's to change.
    expect((await app.request('PATCH', '/api/users/me', { token: user.token, body: { first_name: 'Zoe' } })).status).toBe(200);
    // Unlocked, the player may change it again.
    await app.request('PATCH', `/api/users/${user.id}`, { token: admin.token, body: { display_name_locked: false } });
    expect((await app.request('PATCH', '/api/users/me', { token: user.token, body: { display_name: 'Fair Name' } })).body.display_name).toBe('Fair Name');
  });

  it('an admin may clear a name without locking it when the request says so, and follows the same rules', async () => {
    const user = await registerUser(app);
    await app.request('PATCH', '/api/users/me', { token: user.token, body: { display_name: 'Some Name' } });
    const res = await app.request('PATCH', `/api/users/${user.id}`, { token: admin.token, body: { display_name: null, display_name_locked: false } });
    expect(res.body).toMatchObject({ display_name: null, display_name_locked: false });
    expectError(await app.request('PATCH', `/api/users/${user.id}`, { token: admin.token, body: { display_name: 'a@b.co' } }), userErrors.displayNameInvalid);
  });

  it('hides a user from leaderboards and back, keeping the row', async () => {
    const user = await registerUser(app);
    const hidden = await app.request('PATCH', `/api/users/${user.id}`, { token: admin.token, body: { hidden_from_leaderboards: true } });
    expect(hidden.body.hidden_from_leaderboards).toBe(true);
    const [row] = await app.services.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.hiddenFromLeaderboards).toBe(true);
    expect((await app.request('GET', '/api/users/me', { token: user.token })).status).toBe(200);
    expect(
      (await app.request('PATCH', `/api/users/${user.id}`, { token: admin.token, body: { hidden_from_leaderboards: false } })).body.hidden_from_leaderboards,
    ).toBe(false);
  });

  it('creates a user with a display name (unlocked)', async () => {
    const res = await app.request('POST', '/api/users', {
      token: admin.token,
      body: { username: 'dn_create1', password: 'long enough pw', email: 'dn_create1@example.com', display_name: 'The Creator' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ display_name: 'The Creator', display_name_locked: false });
    expect(
      (
        await app.request('POST', '/api/users', {
          token: admin.token,
          body: { username: 'dn_create2', password: 'long enough pw', email: 'dn_create2@example.com', display_name: 'c\u0000' },
        })
      ).status,
    ).toBe(422);
  });
});

describe('names are unique without regard to case', () => {
  const setName = (token: string, display_name: string | null) => app.request('PATCH', '/api/users/me', { token, body: { display_name } });

  it("refuses another player's display name or username, in any letter case, and frees a name its holder gives up", async () => {
    const [ana, bea, cid] = [await registerUser(app), await registerUser(app), await registerUser(app)];
    expect((await setName(ana.token, 'Ana l5wuu')).status).toBe(200);
    expectError(await setName(bea.token, 'ANA L5WUU'), userErrors.displayNameTaken);
    // Another player's username, shown when they set no display name, is taken too.
    expectError(await setName(bea.token, cid.username.toUpperCase()), userErrors.displayNameTaken);
    // One's own username in other letters is one's own name.
    expect((await setName(cid.token, cid.username.toUpperCase())).status).toBe(200);
    // A username another player is shown by cannot be registered, nor given by an admin.
    expect((await setName(bea.token, 'Bea_Is_Here')).status).toBe(200);
    expectError(
      await app.request('POST', '/api/auth/register', { body: { username: 'BEA_is_here', email: 'x2@example.com', password: 'long enough pw' } }),
      userErrors.usernameTaken,
    );
    expectError(await app.request('PATCH', `/api/users/${cid.id}`, { token: admin.token, body: { username: 'bea_is_here' } }), userErrors.usernameTaken);
    expectError(await app.request('PATCH', `/api/users/${cid.id}`, { token: admin.token, body: { display_name: 'ana l5wuu' } }), userErrors.displayNameTaken);
    // Given up, the name is free at once.
    expect((await setName(ana.token, null)).status).toBe(200);
    expect((await setName(bea.token, 'ana l5wuu')).status).toBe(200);
  });

  it('refuses names posing as a player without one', () => {
    expect(() => normalizeDisplayName('Player 3f1b2c4d')).toThrow(/Player/);
    expect(normalizeDisplayName('Player One')).toBe('Player One');
  });

  it('settles parallel claims of one name: exactly one player gets it', async () => {
    const racers = [await registerUser(app), await registerUser(app), await registerUser(app), await registerUser(app)];
    const results = await Promise.all(racers.map((u) => setName(u.token, 'Photo Finish')));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
  });

  it('renames existing duplicates deterministically: the earliest account keeps a name, usernames first', async () => {
    const db = app.services.database.db;
    const [first, second, third, named] = [await registerUser(app), await registerUser(app), await registerUser(app), await registerUser(app)];
    // Duplicates as they were before names were unique: written with the claiming trigger off.
    await db.execute(sql`alter table users disable trigger users_claim_names`);
    try {
      for (const [u, name] of [
        [first, 'Twin Peaks'],
        [second, 'TWIN PEAKS'],
        [third, 'twin peaks'],
        [named, first.username],
      ] as const) {
        await db.update(users).set({ displayName: name }).where(eq(users.id, u.id));
      }
    } finally {
      await db.execute(sql`alter table users enable trigger users_claim_names`);
    }
    await db.execute(sql`select qp_user_names_rebuild()`);
    const names = async () => {
      const rows = await db.select({ id: users.id, name: users.displayName }).from(users);
      return new Map(rows.map((r) => [r.id, r.name]));
    };
    const after = await names();
    expect([after.get(first.id), after.get(second.id), after.get(third.id), after.get(named.id)]).toEqual([
      'Twin Peaks',
      'TWIN PEAKS 2',
      'twin peaks 3',
      `${first.username} 2`,
    ]);
    // Run again: nothing moves.
    await db.execute(sql`select qp_user_names_rebuild()`);
    expect(await names()).toEqual(after);
  });
});

describe('GET /api/users: q', () => {
  it('finds users by their display name, without regard to case', async () => {
    const user = await registerUser(app);
    await app.request('PATCH', '/api/users/me', { token: user.token, body: { display_name: 'Zebra Crossing' } });
    const res = await app.request('GET', '/api/users', { token: admin.token, query: { q: 'zebra cross' } });
    expect(res.body.users.map((u: { id: string }) => u.id)).toEqual([user.id]);
    expect(res.body.user_count).toBe(1);
  });
});

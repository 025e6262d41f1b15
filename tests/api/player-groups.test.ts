import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { leaderboardErrors } from '../../src/modules/leaderboards/leaderboards.errors.js';
import { matchErrors } from '../../src/modules/matches/matches.errors.js';
import { playerGroupErrors } from '../../src/modules/player-groups/player-groups.errors.js';
import { normalizeInviteCode } from '../../src/modules/player-groups/player-groups.service.js';
import { insertIssuance } from '../helpers/engine-rows.js';
import { expectError } from '../helpers/errors.js';
import { createMatch, follow, UNKNOWN_ID } from '../helpers/factories.js';
import { registerUser, type TestUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const LIMITS = { maxGroupsPerUser: 3, maxMembers: 4, joinMaxAttempts: 3, joinMaxAttemptsPerIp: 8, joinWindowSeconds: 60 };
const { app, admin } = useTestApp({ config: { trustProxy: 1, playerGroups: LIMITS } });

let addressCounter = 0;
/** A fresh client address (the app trusts X-Forwarded-For), so tests do not share the address budget. */
const newAddress = () => `198.51.100.${++addressCounter}`;

const create = (u: TestUser, name = 'Office World Cup') => app.request('POST', '/api/player-groups', { token: u.token, body: { name } });
const join = (u: TestUser, code: string, ip = newAddress()) =>
  app.request('POST', '/api/player-groups/join', { token: u.token, body: { invite_code: code }, headers: { 'x-forwarded-for': ip } });
const get = (u: TestUser, id: string) => app.request('GET', `/api/player-groups/${id}`, { token: u.token });

async function groupWith(owner: TestUser, ...others: TestUser[]) {
  const g = (await create(owner)).body;
  for (const o of others) expect((await join(o, g.invite_code)).status).toBe(200);
  return g as { id: string; invite_code: string };
}

describe('creating and joining', () => {
  it('creates a group owned by the caller, with an invite code others join with (idempotently)', async () => {
    const [alice, carla] = [await registerUser(app, { verified: true }), await registerUser(app, { verified: true })];
    await app.request('PATCH', '/api/users/me', { token: alice.token, body: { display_name: 'Alice in Goalland' } });
    const created = await create(alice, '  Office   World Cup ');
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Office World Cup', owner_id: alice.id, is_owner: true, member_count: 1, max_members: 4 });
    expect(created.body.invite_code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{2}$/);
    expect(created.body.members).toEqual([expect.objectContaining({ user_id: alice.id, display_name: 'Alice in Goalland', is_owner: true })]);

    // Case, spaces and dashes do not matter.
    const typed = ` ${created.body.invite_code.toLowerCase().replace(/-/g, ' ')} `;
    const joined = await join(carla, typed);
    expect(joined.status).toBe(200);
    expect(joined.body).toMatchObject({ id: created.body.id, is_owner: false, member_count: 2 });
    expect(joined.body.members.map((m: { user_id: string }) => m.user_id)).toEqual([alice.id, carla.id]);
    expect((await join(carla, created.body.invite_code)).body.member_count).toBe(2);

    const listed = await app.request('GET', '/api/player-groups', { token: carla.token });
    expect(listed.body).toEqual([expect.objectContaining({ id: created.body.id, member_count: 2, is_owner: false })]);
  });

  it('reads codes as Crockford base 32 (I and L as 1, O as 0)', () => {
    expect(normalizeInviteCode('ab1o-il0x')).toBe('AB10110X');
  });

  it('answers 404 for an unknown code and for a group the caller is not in; 400 for a bad name', async () => {
    const [a, b] = [await registerUser(app, { verified: true }), await registerUser(app, { verified: true })];
    expectError(await join(a, 'ZZZZ-ZZZZ-ZZ'), playerGroupErrors.unknownCode);
    const g = await groupWith(a);
    expectError(await get(b, g.id), playerGroupErrors.notFound);
    expectError(await get(b, UNKNOWN_ID), playerGroupErrors.notFound);
    expectError(await app.request('GET', `/api/player-groups/${g.id}/leaderboard`, { token: b.token }), playerGroupErrors.notFound);
    for (const name of ['   ', 'a\u200bb', 'x'.repeat(61)]) expectError(await create(a, name), playerGroupErrors.nameInvalid);
    expect((await create(a, '')).status).toBe(422);
  });
});

describe('limits', () => {
  it('a player is in at most PLAYER_GROUPS_PER_USER groups, owned ones included (409), and leaving frees a place', async () => {
    const p = await registerUser(app, { verified: true });
    const groups = [];
    for (let i = 0; i < 2; i++) groups.push((await create(p, `Mine ${i}`)).body);
    const other = await groupWith(await registerUser(app, { verified: true }));
    expect((await join(p, other.invite_code)).status).toBe(200);
    const refused = await create(p, 'One too many');
    expectError(refused, playerGroupErrors.tooManyGroups);
    // The message states the limit.
    expect(refused.body.detail).toMatch(/3 groups/);
    const another = await groupWith(await registerUser(app, { verified: true }));
    expectError(await join(p, another.invite_code), playerGroupErrors.tooManyGroups);
    expect((await app.request('POST', `/api/player-groups/${other.id}/leave`, { token: p.token })).status).toBe(204);
    expect((await join(p, another.invite_code)).status).toBe(200);
  });

  it('a group has at most PLAYER_GROUP_MAX_MEMBERS members (409), also under parallel joins', async () => {
    const owner = await registerUser(app, { verified: true });
    const g = await groupWith(owner);
    const crowd = [];
    for (let i = 0; i < 6; i++) crowd.push(await registerUser(app, { verified: true }));
    const answers = await Promise.all(crowd.map((u) => join(u, g.invite_code)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(3);
    const full = answers.filter((r) => r.status === 409);
    expect(full).toHaveLength(3);
    for (const r of full) expectError(r, playerGroupErrors.full);
    // The message states the limit.
    expect(full[0]!.body.detail).toMatch(/4 members/);
    expect((await get(owner, g.id)).body.member_count).toBe(4);
  });

  it('joins are throttled as sign-in is: failed guesses spend the budget (429 with Retry-After, the code unchecked); right codes give their attempt back', async () => {
    const [guesser, owner] = [await registerUser(app, { verified: true }), await registerUser(app, { verified: true })];
    const g = await groupWith(owner);
    const ip = newAddress();
    // A right code never uses the budget up.
    for (let i = 0; i < 5; i++) expect((await join(guesser, g.invite_code, ip)).status).toBe(200);
    for (let i = 0; i < 3; i++) expectError(await join(guesser, `WRONG${i}`, ip), playerGroupErrors.unknownCode);
    const refused = await join(guesser, g.invite_code, newAddress());
    expectError(refused, playerGroupErrors.tooManyJoinAttempts);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Another player from elsewhere is not held up; the address has its own budget over all players.
    const others = [];
    for (let i = 0; i < 3; i++) others.push(await registerUser(app, { verified: true }));
    const shared = newAddress();
    for (const o of others) for (let i = 0; i < 2; i++) await join(o, `NOPE${i}`, shared);
    const stranger = await registerUser(app, { verified: true });
    // 6 failed guesses from the address so far; 2 more spend its 8.
    for (let i = 0; i < 2; i++) expectError(await join(stranger, `NOPE9${i}`, shared), playerGroupErrors.unknownCode);
    expectError(await join(stranger, g.invite_code, shared), playerGroupErrors.tooManyJoinAttempts);
    // Every attempt counts, refused ones too: the stranger's own budget is spent now; a newcomer elsewhere joins.
    expectError(await join(stranger, g.invite_code, newAddress()), playerGroupErrors.tooManyJoinAttempts);
    expect((await join(await registerUser(app, { verified: true }), g.invite_code, newAddress())).status).toBe(200);
  });

  it('reads the limits from the environment', () => {
    expect(loadConfig({ APP_ENV: 'test' }).playerGroups).toEqual({
      maxGroupsPerUser: 20,
      maxMembers: 50,
      joinMaxAttempts: 10,
      joinMaxAttemptsPerIp: 100,
      joinWindowSeconds: 900,
    });
    expect(
      loadConfig({ APP_ENV: 'test', PLAYER_GROUPS_PER_USER: '5', PLAYER_GROUP_MAX_MEMBERS: '10', GROUP_JOIN_MAX_ATTEMPTS: '0' }).playerGroups,
    ).toMatchObject({ maxGroupsPerUser: 5, maxMembers: 10, joinMaxAttempts: 0 });
    expect(() => loadConfig({ APP_ENV: 'test', PLAYER_GROUP_MAX_MEMBERS: '1' })).toThrow(/PLAYER_GROUP_MAX_MEMBERS/);
  });
});

describe('owners and members', () => {
  it('the owner renames, replaces the code, removes members and deletes; other members get 403', async () => {
    const [owner, m1, m2] = [
      await registerUser(app, { verified: true }),
      await registerUser(app, { verified: true }),
      await registerUser(app, { verified: true }),
    ];
    const g = await groupWith(owner, m1, m2);
    const path = `/api/player-groups/${g.id}`;
    expectError(await app.request('PATCH', path, { token: m1.token, body: { name: 'Mine now' } }), playerGroupErrors.notOwner);
    expect((await app.request('PATCH', path, { token: owner.token, body: { name: 'Renamed' } })).body.name).toBe('Renamed');

    expectError(await app.request('POST', `${path}/invite-code`, { token: m1.token }), playerGroupErrors.notOwner);
    const replaced = await app.request('POST', `${path}/invite-code`, { token: owner.token });
    expect(replaced.body.invite_code).not.toBe(g.invite_code);

    expectError(await app.request('DELETE', `${path}/members/${m2.id}`, { token: m1.token }), playerGroupErrors.notOwner);
    expect((await app.request('DELETE', `${path}/members/${m2.id}`, { token: owner.token })).status).toBe(204);
    expectError(await app.request('DELETE', `${path}/members/${m2.id}`, { token: owner.token }), playerGroupErrors.memberNotFound);
    expectError(await app.request('DELETE', `${path}/members/${owner.id}`, { token: owner.token }), playerGroupErrors.ownerCannotBeRemoved);
    expectError(await get(m2, g.id), playerGroupErrors.notFound);
    // The old code no longer works; the new one does.
    expectError(await join(m2, g.invite_code), playerGroupErrors.unknownCode);
    expect((await join(m2, replaced.body.invite_code)).status).toBe(200);

    expectError(await app.request('DELETE', path, { token: m1.token }), playerGroupErrors.notOwner);
    expect((await app.request('DELETE', path, { token: owner.token })).status).toBe(204);
    expectError(await get(owner, g.id), playerGroupErrors.notFound);
    expect((await app.request('GET', '/api/player-groups', { token: m1.token })).body).toEqual([]);
  });

  it('an owner who leaves hands the group to the earliest member; the last one out deletes it', async () => {
    const [owner, first, second] = [
      await registerUser(app, { verified: true }),
      await registerUser(app, { verified: true }),
      await registerUser(app, { verified: true }),
    ];
    const g = await groupWith(owner, first, second);
    expect((await app.request('POST', `/api/player-groups/${g.id}/leave`, { token: owner.token })).status).toBe(204);
    expect((await get(first, g.id)).body).toMatchObject({ owner_id: first.id, is_owner: true, member_count: 2 });
    expectError(await app.request('POST', `/api/player-groups/${g.id}/leave`, { token: owner.token }), playerGroupErrors.notFound);
    await app.request('POST', `/api/player-groups/${g.id}/leave`, { token: second.token });
    await app.request('POST', `/api/player-groups/${g.id}/leave`, { token: first.token });
    expectError(await get(first, g.id), playerGroupErrors.notFound);
    expectError(await join(first, g.invite_code), playerGroupErrors.unknownCode);
  });
});

describe('group leaderboards', () => {
  it("rank the members among themselves on the public boards' rows, in every scope and period", async () => {
    const [a, b, c, outsider] = [
      await registerUser(app, { verified: true }),
      await registerUser(app, { verified: true }),
      await registerUser(app, { verified: true }),
      await registerUser(app, { verified: true }),
    ];
    const g = await groupWith(a, b, c);
    const match = await createMatch(app, { status: 'live', scheduled: new Date(Date.now() - 1800_000), league: 'mls' });
    for (const u of [a, b, c, outsider]) await follow(app, u.id, match.id);
    const question = async (points: number, answers: [TestUser, string][]) => {
      const q = await insertIssuance(app, { matchId: match.id, status: 'open', closesAt: new Date(Date.now() + 60_000), points });
      for (const [u, choice] of answers)
        await app.request('PUT', '/api/question-answers', { token: u.token, body: { question_issuance_id: q.id, selected_answer_identifier: choice } });
      await app.services.engine.store.settleIssuance({ id: q.id, status: 'resolved', correct: 'home', resolvedSeq: null, resolutionEventId: null });
      await app.services.leaderboards.drain();
      await app.services.leaderboards.drain();
    };
    await question(50, [
      [outsider, 'home'],
      [b, 'home'],
      [a, 'away'],
    ]);
    await question(10, [
      [a, 'home'],
      [outsider, 'home'],
    ]);
    const board = (query: Record<string, string | undefined>, u = a) => app.request('GET', `/api/player-groups/${g.id}/leaderboard`, { token: u.token, query });

    const overall = await board({});
    expect(overall.status).toBe(200);
    // c has scored nothing: not on the board. The outsider is on the public board, not on the group's.
    expect(overall.body).toMatchObject({ scope: 'overall', group_id: g.id, player_count: 2, offset: 0, limit: 4, me: { rank: 2, user_id: a.id, points: 10 } });
    expect(overall.body.rows.map((r: { user_id: string; rank: number }) => [r.rank, r.user_id])).toEqual([
      [1, b.id],
      [2, a.id],
    ]);
    const publicBoard = (await app.request('GET', `/api/leaderboards/matches/${match.id}`, { token: a.token })).body;
    expect(publicBoard.me.rank).toBe(3);
    const byMatch = await board({ scope: 'match', match_id: match.id });
    expect(byMatch.body).toMatchObject({ scope: 'match', match_id: match.id, me: { rank: 2, points: 10 } });
    expect(byMatch.body.rows[0]).toEqual({ ...publicBoard.rows.find((r: { user_id: string }) => r.user_id === b.id), rank: 1 });
    const byLeague = await board({ scope: 'league', league: 'mls', period: 'week' });
    expect(byLeague.body).toMatchObject({ scope: 'league', period: 'week', player_count: 2 });
    expect((await board({}, c)).body.me).toBeNull();

    for (const [query, error] of [
      [{ scope: 'league' }, leaderboardErrors.scopeIncomplete],
      [{ scope: 'match' }, leaderboardErrors.scopeIncomplete],
      [{ scope: 'overall', league: 'mls' }, leaderboardErrors.scopeMismatch],
      [{ scope: 'league', league: 'mls', match_id: match.id }, leaderboardErrors.scopeMismatch],
      [{ scope: 'match', match_id: match.id, period: 'day' }, leaderboardErrors.matchPeriod],
    ] as const) {
      expectError(await board(query), error);
    }
    expectError(await board({ scope: 'match', match_id: UNKNOWN_ID }), matchErrors.notFound);
  });

  it("hidden members are off the group's board too", async () => {
    const [a, b] = [await registerUser(app, { verified: true }), await registerUser(app, { verified: true })];
    const g = await groupWith(a, b);
    const match = await createMatch(app, { status: 'live', scheduled: new Date(Date.now() - 1800_000) });
    for (const u of [a, b]) await follow(app, u.id, match.id);
    const q = await insertIssuance(app, { matchId: match.id, status: 'open', closesAt: new Date(Date.now() + 60_000), points: 10 });
    for (const u of [a, b])
      await app.request('PUT', '/api/question-answers', { token: u.token, body: { question_issuance_id: q.id, selected_answer_identifier: 'home' } });
    await app.services.engine.store.settleIssuance({ id: q.id, status: 'resolved', correct: 'home', resolvedSeq: null, resolutionEventId: null });
    await app.services.leaderboards.drain();
    await app.request('PATCH', `/api/users/${b.id}`, { token: admin.token, body: { hidden_from_leaderboards: true } });
    const res = await app.request('GET', `/api/player-groups/${g.id}/leaderboard`, { token: a.token, query: { scope: 'match', match_id: match.id } });
    expect(res.body.rows.map((r: { user_id: string }) => r.user_id)).toEqual([a.id]);
  });
});

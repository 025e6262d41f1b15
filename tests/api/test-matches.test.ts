/**
 * Test matches (clones of closed matches, for operators and testers) are
 * unlisted: GET /api/matches shows them to admins, and to other users only
 * while they follow them; a player follows one by its id (the operator hands
 * it out), without a quota slot. Points scored on them show in the answer
 * history but never count in points totals.
 */
import { describe, expect, it } from 'vitest';
import { insertIssuance } from '../helpers/engine-rows.js';
import { createMatch, follow } from '../helpers/factories.js';
import { registerUser, type TestUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const { app, admin } = useTestApp();

const DAY = 86_400_000;
const inMinutes = (m: number) => new Date(Date.now() + m * 60_000);
const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
const list = async (query: Record<string, string | boolean>, token: string | null) => {
  const res = await app.request<{ id: string; is_test: boolean; is_followed: boolean | null }[]>('GET', '/api/matches', { query, token });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

/** A range of its own (a distant year), so each test sees only its matches. */
let year = 2600;
const ownRange = () => {
  const start = Date.UTC(year++, 0, 1);
  return { scheduled_from: new Date(start).toISOString(), scheduled_to: new Date(start + 365 * DAY).toISOString(), at: (ms: number) => new Date(start + ms) };
};

describe('test matches in GET /api/matches', () => {
  it('are listed to admins, to others only while they follow them, and never anonymously', async () => {
    const { at, ...range } = ownRange();
    const real = await createMatch(app, { scheduled: at(0) });
    const test = await createMatch(app, { scheduled: at(DAY), isTest: true });
    const tester = await registerUser(app);
    const outsider = await registerUser(app);
    await follow(app, tester.id, test.id);

    expect(ids(await list(range, admin.token))).toEqual([real.id, test.id]);
    expect(ids(await list({ ...range, is_test: true }, admin.token))).toEqual([test.id]);
    expect(ids(await list(range, null))).toEqual([real.id]);
    expect(await list({ ...range, is_test: true }, null)).toEqual([]);
    expect(ids(await list(range, outsider.token))).toEqual([real.id]);
    expect(await list({ ...range, followed: false }, outsider.token)).toMatchObject([{ id: real.id }]);
    expect(ids(await list(range, tester.token))).toEqual([real.id, test.id]);
    expect(await list({ ...range, is_test: true }, tester.token)).toMatchObject([{ id: test.id, is_test: true, is_followed: true }]);
    expect(ids(await list({ followed: true }, tester.token))).toEqual([test.id]);
  });

  it("are not in a player's default list (today) although a clone is scheduled now", async () => {
    const clone = await createMatch(app, { scheduled: new Date(), status: 'live', isTest: true });
    const player = await registerUser(app);
    expect(ids(await list({}, player.token))).not.toContain(clone.id);
    expect(ids(await list({}, null))).not.toContain(clone.id);
    expect(ids(await list({}, admin.token))).toContain(clone.id);
  });

  it('are followed by id (no quota slot), then listed to the follower; unfollowing hides them again', async () => {
    const { at, ...range } = ownRange();
    const test = await createMatch(app, { scheduled: at(0), isTest: true });
    const player = await registerUser(app);
    const followed = await app.request('POST', `/api/matches/${test.id}/follow`, { token: player.token });
    expect(followed.status).toBe(200);
    expect(followed.body).toMatchObject({ following: true, counts_toward_quota: false, follows_remaining_today: 3 });
    expect(ids(await list(range, player.token))).toEqual([test.id]);
    expect((await app.request('DELETE', `/api/matches/${test.id}/follow`, { token: player.token })).status).toBe(200);
    expect(await list(range, player.token)).toEqual([]);
  });
});

describe('points on test matches', () => {
  const answer = (user: TestUser, issuanceId: string) =>
    app.request('PUT', '/api/question-answers', { token: user.token, body: { question_issuance_id: issuanceId, selected_answer_identifier: 'home' } });
  const settle = (id: string) =>
    app.services.engine.store.settleIssuance({ id, status: 'resolved', correct: 'home', resolvedSeq: null, resolutionEventId: null });

  it('show in the answer history but count in no total, all-time or per period (the admin view too)', async () => {
    const player = await registerUser(app);
    const real = await createMatch(app, { status: 'live', scheduled: inMinutes(-30) });
    const test = await createMatch(app, { status: 'live', scheduled: inMinutes(-30), isTest: true });
    const onReal = await insertIssuance(app, { matchId: real.id, status: 'open', closesAt: inMinutes(2), points: 10 });
    const onTest = await insertIssuance(app, { matchId: test.id, status: 'open', closesAt: inMinutes(2), points: 500 });
    for (const m of [real, test]) await follow(app, player.id, m.id);
    for (const i of [onReal, onTest]) expect((await answer(player, i.id)).status).toBe(201);
    for (const i of [onReal, onTest]) await settle(i.id);

    const history = (await app.request('GET', '/api/question-answers', { token: player.token })).body as {
      match: { id: string };
      points_awarded: number;
      outcome: string;
    }[];
    expect(history.find((h) => h.match.id === test.id)).toMatchObject({ match: { is_test: true }, outcome: 'correct', points_awarded: 500 });
    const points = await app.request('GET', '/api/users/me/points', { token: player.token });
    expect(points.body.all_time).toEqual({ points: 10, answered_count: 1, resolved_count: 1, correct_count: 1 });
    for (const period of points.body.periods as { points: number }[]) expect(period.points).toBeLessThanOrEqual(10);
    expect((points.body.periods as { period: string; points: number }[]).find((p) => p.period === 'today')).toMatchObject({ points: 10, answered_count: 1 });
    const viaAdmin = await app.request('GET', `/api/users/${player.id}/points`, { token: admin.token });
    expect(viaAdmin.body.all_time).toEqual(points.body.all_time);
  });
});

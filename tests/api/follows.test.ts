/**
 * Following matches: the daily quota (default 3, null unrestricted, counted
 * per calendar day of the user's time zone), test matches free, idempotent
 * follows, refunds before start, spent rows after start and their
 * reactivation, closed and cancelled matches; and on PostgreSQL, parallel
 * follows that can never exceed the quota.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followQuotaDays, matches, matchFollows } from '../../src/modules/matches/matches.table.js';
import { users } from '../../src/modules/users/users.table.js';
import { followErrors, matchErrors } from '../../src/modules/matches/matches.errors.js';
import { expectError } from '../helpers/errors.js';
import { createMatch, UNKNOWN_ID } from '../helpers/factories.js';
import { registerUser, startTestApp, type ApiResponse, type TestApp, type TestUser } from '../helpers/test-app.js';

const HOUR = 3600_000;

interface Follow {
  match_id: string;
  user_id: string;
  following: boolean;
  counts_toward_quota: boolean;
  quota_day: string | null;
  refunded: boolean;
  followed_at: string;
  unfollowed_at: string | null;
  follows_remaining_today: number | null;
  detail?: string;
}

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const db = () => app.services.database.db;
const expectStatus = (res: ApiResponse, status: number) => expect(res.status, res.text).toBe(status);

const followReq = (user: TestUser | null, matchId: string) => app.request<Follow>('POST', `/api/matches/${matchId}/follow`, { token: user?.token ?? null });
const unfollowReq = (user: TestUser | null, matchId: string) => app.request<Follow>('DELETE', `/api/matches/${matchId}/follow`, { token: user?.token ?? null });
async function follow(user: TestUser, matchId: string): Promise<Follow> {
  const res = await followReq(user, matchId);
  expectStatus(res, 200);
  return res.body;
}
async function unfollow(user: TestUser, matchId: string): Promise<Follow> {
  const res = await unfollowReq(user, matchId);
  expectStatus(res, 200);
  return res.body;
}

/** A real match kicking off in the future (not started). */
const futureMatch = (values: Parameters<typeof createMatch>[1] = {}) => createMatch(app, { scheduled: new Date(Date.now() + 24 * HOUR), ...values });
const futureMatches = (n: number, values: Parameters<typeof createMatch>[1] = {}) => Promise.all(Array.from({ length: n }, () => futureMatch(values)));

/** The calendar day of now shifted by a fixed offset (zones without daylight saving time). */
const dayAtOffset = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString().slice(0, 10);
const utcDay = () => dayAtOffset(0);

async function followRows(user: TestUser) {
  return db().select().from(matchFollows).where(eq(matchFollows.userId, user.id));
}
async function counter(user: TestUser, day: string): Promise<number | undefined> {
  const [row] = await db()
    .select()
    .from(followQuotaDays)
    .where(and(eq(followQuotaDays.userId, user.id), eq(followQuotaDays.day, day)));
  return row?.used;
}
const setQuota = (user: TestUser, n: number | null) => db().update(users).set({ matchDailyFollowCount: n }).where(eq(users.id, user.id));

/** Waits out the last seconds of a UTC day, so a test never straddles midnight. */
async function awayFromMidnight() {
  const left = 86_400_000 - (Date.now() % 86_400_000);
  if (left < 15_000) await new Promise((r) => setTimeout(r, left + 50));
}

describe('POST /api/matches/{match_id}/follow', () => {
  it('needs a key (401); 404 for an unknown match', async () => {
    const m = await futureMatch();
    expectStatus(await followReq(null, m.id), 401);
    const user = await registerUser(app);
    expectError(await followReq(user, UNKNOWN_ID), matchErrors.notFound);
    expectStatus(await unfollowReq(null, m.id), 401);
  });

  it('a new follow of a real match takes one slot of the UTC day by default (quota 3)', async () => {
    await awayFromMidnight();
    const user = await registerUser(app);
    const m = await futureMatch();
    const before = Date.now();
    const f = await follow(user, m.id);
    expect(f).toMatchObject({
      match_id: m.id,
      user_id: user.id,
      following: true,
      counts_toward_quota: true,
      quota_day: utcDay(),
      refunded: false,
      unfollowed_at: null,
      follows_remaining_today: 2,
    });
    expect(Date.parse(f.followed_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(await counter(user, utcDay())).toBe(1);
  });

  it('is idempotent: following again answers the same follow and takes no slot', async () => {
    await awayFromMidnight();
    const user = await registerUser(app);
    const m = await futureMatch();
    const first = await follow(user, m.id);
    const again = await follow(user, m.id);
    expect(again).toEqual(first);
    expect(await followRows(user)).toHaveLength(1);
    expect(await counter(user, utcDay())).toBe(1);
  });

  it('allows 3 new follows a day by default; the 4th answers 409 and writes nothing', async () => {
    await awayFromMidnight();
    const user = await registerUser(app);
    const ms = await futureMatches(4);
    const remaining = [];
    for (const m of ms.slice(0, 3)) remaining.push((await follow(user, m.id)).follows_remaining_today);
    expect(remaining).toEqual([2, 1, 0]);
    expectError(await followReq(user, ms[3]!.id), followErrors.dailyLimit);
    expect(await followRows(user)).toHaveLength(3);
    expect(await counter(user, utcDay())).toBe(3);
    // Matches already followed still answer 200 (idempotent), with nothing left today.
    expect((await follow(user, ms[0]!.id)).follows_remaining_today).toBe(0);
  });

  it('test matches take no slot, even with the quota used up', async () => {
    await awayFromMidnight();
    const user = await registerUser(app);
    for (const m of await futureMatches(3)) await follow(user, m.id);
    const test = await futureMatch({ isTest: true });
    const f = await follow(user, test.id);
    expect(f).toMatchObject({ following: true, counts_toward_quota: false, quota_day: null, follows_remaining_today: 0 });
    expect(await counter(user, utcDay())).toBe(3);
  });

  it('match_daily_follow_count null: unrestricted, no counting, follows_remaining_today null', async () => {
    const user = await registerUser(app);
    await setQuota(user, null);
    for (const m of await futureMatches(5)) {
      expect(await follow(user, m.id)).toMatchObject({ following: true, counts_toward_quota: false, quota_day: null, follows_remaining_today: null });
    }
    expect(await db().select().from(followQuotaDays).where(eq(followQuotaDays.userId, user.id))).toEqual([]);
  });

  it('follows another quota than 3, including 0', async () => {
    await awayFromMidnight();
    const user = await registerUser(app);
    await setQuota(user, 1);
    const [a, b] = await futureMatches(2);
    expect((await follow(user, a!.id)).follows_remaining_today).toBe(0);
    expectError(await followReq(user, b!.id), followErrors.dailyLimit);
    const none = await registerUser(app);
    await setQuota(none, 0);
    expectError(await followReq(none, a!.id), followErrors.dailyLimit);
    expect(await followRows(none)).toEqual([]);
    // A test match is still free.
    expect((await follow(none, (await futureMatch({ isTest: true })).id)).follows_remaining_today).toBe(0);
  });

  it("counts the quota per calendar day of the user's match_follow_timezone (Kiritimati UTC+14, Pago Pago UTC-11)", async () => {
    await awayFromMidnight();
    const east = await registerUser(app);
    const west = await registerUser(app);
    for (const [user, zone] of [
      [east, 'Pacific/Kiritimati'],
      [west, 'Pacific/Pago_Pago'],
    ] as const) {
      expectStatus(await app.request('PATCH', '/api/users/me', { token: user.token, body: { match_follow_timezone: zone } }), 200);
    }
    const eastDay = dayAtOffset(14);
    const westDay = dayAtOffset(-11);
    // 25 hours apart: never the same calendar day, and at least one differs from UTC's.
    expect(eastDay).not.toBe(westDay);
    expect(eastDay !== utcDay() || westDay !== utcDay()).toBe(true);

    const m = await futureMatches(2);
    expect((await follow(east, m[0]!.id)).quota_day).toBe(eastDay);
    expect((await follow(west, m[0]!.id)).quota_day).toBe(westDay);

    // A used-up counter of another day does not block; the local day's does.
    await db().insert(followQuotaDays).values({ userId: east.id, day: westDay, used: 3 });
    await db().insert(followQuotaDays).values({ userId: west.id, day: eastDay, used: 3 });
    expect((await follow(east, m[1]!.id)).follows_remaining_today).toBe(1);
    expect((await follow(west, m[1]!.id)).follows_remaining_today).toBe(1);
    expect(await counter(east, eastDay)).toBe(2);
    expect(await counter(west, westDay)).toBe(2);
    await db()
      .update(followQuotaDays)
      .set({ used: 3 })
      .where(and(eq(followQuotaDays.userId, east.id), eq(followQuotaDays.day, eastDay)));
    expectError(await followReq(east, (await futureMatch()).id), followErrors.dailyLimit);

    // A blank zone means UTC again (the counters above may hold UTC's day: start west afresh).
    await db().delete(followQuotaDays).where(eq(followQuotaDays.userId, west.id));
    expectStatus(await app.request('PATCH', '/api/users/me', { token: west.token, body: { match_follow_timezone: '' } }), 200);
    expect((await follow(west, (await futureMatch()).id)).quota_day).toBe(utcDay());
  });

  it('answers 409 for a closed or cancelled match, but 200 when already following it', async () => {
    const user = await registerUser(app);
    for (const status of ['closed', 'cancelled'] as const) {
      const m = await createMatch(app, { status, scheduled: new Date(Date.now() - 3 * HOUR) });
      const res = await followReq(user, m.id);
      expectError(res, matchErrors.notFollowable);
      // The message says what the match is.
      expect(res.body.detail).toContain(status);
    }
    expect(await followRows(user)).toEqual([]);
    const m = await futureMatch();
    await follow(user, m.id);
    await db().update(matches).set({ status: 'closed' }).where(eq(matches.id, m.id));
    expect((await follow(user, m.id)).following).toBe(true);
  });

  it('live, ended and postponed matches can be followed', async () => {
    const user = await registerUser(app);
    await setQuota(user, null);
    for (const status of ['live', 'break', 'ended', 'postponed'] as const) {
      const m = await createMatch(app, { status, scheduled: new Date(Date.now() - HOUR) });
      expect((await follow(user, m.id)).following).toBe(true);
    }
  });
});

describe('DELETE /api/matches/{match_id}/follow', () => {
  it('404 for an unknown match, or a match the caller does not follow', async () => {
    const user = await registerUser(app);
    const other = await registerUser(app);
    const m = await futureMatch();
    expectError(await unfollowReq(user, UNKNOWN_ID), matchErrors.notFound);
    expectError(await unfollowReq(user, m.id), followErrors.notFound);
    await follow(other, m.id);
    expectError(await unfollowReq(user, m.id), followErrors.notFound);
  });

  it('before kick-off: deletes the follow and refunds its slot (refunded=true); following again takes a slot', async () => {
    await awayFromMidnight();
    const user = await registerUser(app);
    const ms = await futureMatches(3);
    for (const m of ms) await follow(user, m.id);
    const u = await unfollow(user, ms[0]!.id);
    expect(u).toMatchObject({
      match_id: ms[0]!.id,
      following: false,
      refunded: true,
      counts_toward_quota: true,
      quota_day: utcDay(),
      follows_remaining_today: 1,
    });
    expect(u.unfollowed_at).not.toBeNull();
    expect(await followRows(user)).toHaveLength(2);
    expect(await counter(user, utcDay())).toBe(2);
    expectError(await unfollowReq(user, ms[0]!.id), followErrors.notFound);
    const again = await follow(user, ms[0]!.id);
    expect(again).toMatchObject({ counts_toward_quota: true, follows_remaining_today: 0 });
  });

  it('refunds the day the follow was counted on, never below zero', async () => {
    await awayFromMidnight();
    const user = await registerUser(app);
    const [a, b] = await futureMatches(2);
    await follow(user, a!.id);
    await follow(user, b!.id);
    // As if a was followed on an earlier day.
    await db()
      .update(matchFollows)
      .set({ quotaDay: '2001-02-03' })
      .where(and(eq(matchFollows.userId, user.id), eq(matchFollows.matchId, a!.id)));
    await db().insert(followQuotaDays).values({ userId: user.id, day: '2001-02-03', used: 1 });
    expect((await unfollow(user, a!.id)).follows_remaining_today).toBe(1);
    expect(await counter(user, '2001-02-03')).toBe(0);
    expect(await counter(user, utcDay())).toBe(2);
    await db().update(followQuotaDays).set({ used: 0 }).where(eq(followQuotaDays.userId, user.id));
    expect((await unfollow(user, b!.id)).refunded).toBe(true);
    expect(await counter(user, utcDay())).toBe(0);
  });

  it('after a real match started: keeps a spent row, no refund; a second unfollow is 404; re-following reactivates the row without a slot', async () => {
    await awayFromMidnight();
    const user = await registerUser(app);
    const m = await futureMatch();
    const first = await follow(user, m.id);
    await db().update(matches).set({ status: 'live', startedAt: new Date() }).where(eq(matches.id, m.id));
    const spent = await unfollow(user, m.id);
    expect(spent).toMatchObject({ following: false, refunded: false, counts_toward_quota: true, quota_day: utcDay(), follows_remaining_today: 2 });
    expect(spent.unfollowed_at).not.toBeNull();
    const [row] = await followRows(user);
    expect(row).toMatchObject({ following: false, countsTowardQuota: true });
    expect(row!.unfollowedAt).not.toBeNull();
    expect(await counter(user, utcDay())).toBe(1);
    expectError(await unfollowReq(user, m.id), followErrors.notFound);

    // Use up the rest of the day: re-following the spent row still works and takes nothing.
    for (const other of await futureMatches(2)) await follow(user, other.id);
    expect(await counter(user, utcDay())).toBe(3);
    const back = await follow(user, m.id);
    expect(back).toMatchObject({
      following: true,
      counts_toward_quota: true,
      quota_day: utcDay(),
      unfollowed_at: null,
      follows_remaining_today: 0,
      followed_at: first.followed_at,
    });
    expect(await counter(user, utcDay())).toBe(3);
    const rows = await followRows(user);
    expect(rows.filter((r) => r.matchId === m.id)).toEqual([expect.objectContaining({ id: row!.id, following: true })]);
  });

  it('re-following a spent row of a closed match answers 409 (only an active follow stays 200)', async () => {
    const user = await registerUser(app);
    const m = await futureMatch();
    await follow(user, m.id);
    await db().update(matches).set({ status: 'closed', startedAt: new Date() }).where(eq(matches.id, m.id));
    expect((await unfollow(user, m.id)).refunded).toBe(false);
    expectError(await followReq(user, m.id), matchErrors.notFollowable);
  });

  it('a scheduled match whose kick-off time has passed has started (spent row)', async () => {
    const user = await registerUser(app);
    const m = await createMatch(app, { scheduled: new Date(Date.now() + 2000) });
    await follow(user, m.id);
    await db()
      .update(matches)
      .set({ scheduled: new Date(Date.now() - 1000) })
      .where(eq(matches.id, m.id));
    expect(await unfollow(user, m.id)).toMatchObject({ following: false, refunded: false });
  });

  it('postponed and cancelled matches have not started (refund), unless started_at is set', async () => {
    await awayFromMidnight();
    const user = await registerUser(app);
    await setQuota(user, 10);
    for (const status of ['postponed', 'cancelled'] as const) {
      const m = await futureMatch();
      await follow(user, m.id);
      await db()
        .update(matches)
        .set({ status, scheduled: new Date(Date.now() - HOUR) })
        .where(eq(matches.id, m.id));
      expect(await unfollow(user, m.id)).toMatchObject({ refunded: true });
    }
    const suspended = await futureMatch();
    await follow(user, suspended.id);
    await db().update(matches).set({ status: 'postponed', startedAt: new Date() }).where(eq(matches.id, suspended.id));
    expect(await unfollow(user, suspended.id)).toMatchObject({ refunded: false, following: false });
    expect(await counter(user, utcDay())).toBe(1);
  });

  it('a test match: the follow is deleted even after it started', async () => {
    const user = await registerUser(app);
    const m = await createMatch(app, { isTest: true, status: 'live', scheduled: new Date(Date.now() - HOUR), startedAt: new Date() });
    await follow(user, m.id);
    expect(await unfollow(user, m.id)).toMatchObject({ following: false, refunded: true, counts_toward_quota: false, quota_day: null });
    expect(await followRows(user)).toEqual([]);
  });
});

describe('follow races (PostgreSQL)', () => {
  it('10 parallel follows of 10 real matches with quota 3: exactly 3 succeed', async (ctx) => {
    if (!app.db.url) ctx.skip();
    await awayFromMidnight();
    const user = await registerUser(app);
    const ms = await futureMatches(10);
    const results = await Promise.all(ms.map((m) => followReq(user, m.id)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 409, 409, 409, 409, 409, 409, 409]);
    expect(await followRows(user)).toHaveLength(3);
    expect(await counter(user, utcDay())).toBe(3);
    expect(
      results
        .filter((r) => r.status === 200)
        .map((r) => r.body.follows_remaining_today)
        .sort(),
    ).toEqual([0, 1, 2]);
  });

  it('10 parallel follows of one match: one follow, one slot', async (ctx) => {
    if (!app.db.url) ctx.skip();
    await awayFromMidnight();
    const user = await registerUser(app);
    const m = await futureMatch();
    const results = await Promise.all(Array.from({ length: 10 }, () => followReq(user, m.id)));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(await followRows(user)).toHaveLength(1);
    expect(await counter(user, utcDay())).toBe(1);
  });

  it('parallel unfollows and follows keep the counter equal to the counted follows', async (ctx) => {
    if (!app.db.url) ctx.skip();
    await awayFromMidnight();
    const user = await registerUser(app);
    const ms = await futureMatches(6);
    for (const m of ms.slice(0, 3)) await follow(user, m.id);
    const results = await Promise.all([...ms.slice(0, 3).map((m) => unfollowReq(user, m.id)), ...ms.slice(3).map((m) => followReq(user, m.id))]);
    for (const r of results) expect([200, 409]).toContain(r.status);
    const rows = await followRows(user);
    expect(rows.length).toBeLessThanOrEqual(3);
    expect(await counter(user, utcDay())).toBe(rows.filter((r) => r.countsTowardQuota).length);
  });
});

describe('on a service running the demo', () => {
  let demo: TestApp;
  beforeAll(async () => {
    demo = await startTestApp({ config: { demoData: true } });
  });
  afterAll(() => demo?.close());

  it('registers players without a daily follow quota: a demo match every ten minutes never runs it out', async () => {
    const player = await registerUser(demo);
    expect((await demo.request('GET', '/api/users/me', { token: player.token })).body.match_daily_follow_count).toBeNull();
    const demoMatches = await Promise.all(Array.from({ length: 6 }, () => createMatch(demo, { scheduled: new Date(Date.now() + 24 * HOUR) })));
    for (const m of demoMatches) {
      const res = await demo.request<Follow>('POST', `/api/matches/${m.id}/follow`, { token: player.token });
      expectStatus(res, 200);
      expect(res.body).toMatchObject({ following: true, counts_toward_quota: false, follows_remaining_today: null });
    }
    // Elsewhere the default stands.
    const elsewhere = await registerUser(app);
    expect((await app.request('GET', '/api/users/me', { token: elsewhere.token })).body.match_daily_follow_count).toBe(3);
  });
});

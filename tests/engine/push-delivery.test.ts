/**
 * Push delivery, driven by calling the push subscriber's onIssued/onSettled
 * with issuance rows (no live engine): audience, gates one by one,
 * templates, recording, batching, and the real Web Push protocol against a
 * push service on loopback.
 */
import { createECDH, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import webpush from 'web-push';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig, ConfigError } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { questionAnswers } from '../../src/modules/answers/answers.table.js';
import type { QuestionIssuanceRow } from '../../src/modules/issuances/issuances.table.js';
import type { MatchRow } from '../../src/modules/matches/matches.table.js';
import type { PushProvider, PushSendResult } from '../../src/modules/push/providers/provider.js';
import { createWebPushProvider } from '../../src/modules/push/providers/webpush-provider.js';
import { createPushDelivery, createPushSubscriber, fitMessage, MAX_PAYLOAD_BYTES } from '../../src/modules/push/push.delivery.js';
import { deleteGoneDevices } from '../../src/modules/push/push.repository.js';
import { pushDeliveryAttempts, pushDevices, pushMatchNotifications, type PushDeliveryAttemptRow } from '../../src/modules/push/push.table.js';
import { users } from '../../src/modules/users/users.table.js';
import { insertIssuance } from '../helpers/engine-rows.js';
import { createMatch, follow } from '../helpers/factories.js';
import { decryptAes128gcm, registerTokenDevice, registerWebDevice, startPushReceiver, verifyVapid } from '../helpers/push.js';
import { registerUser, startTestApp, statementsDuring, type TestApp, type TestUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const silent = createLogger('silent');

async function attemptsFor(app: TestApp, issuanceId: string, event?: 'issuance' | 'resolution'): Promise<PushDeliveryAttemptRow[]> {
  return app.services.database.db
    .select()
    .from(pushDeliveryAttempts)
    .where(and(eq(pushDeliveryAttempts.questionIssuanceId, issuanceId), event ? eq(pushDeliveryAttempts.event, event) : undefined))
    .orderBy(pushDeliveryAttempts.userId, pushDeliveryAttempts.deviceId);
}

async function setNotify(app: TestApp, userId: string, values: { notifyOnIssuance?: boolean; notifyOnResolve?: boolean; isActive?: boolean }) {
  await app.services.database.db.update(users).set(values).where(eq(users.id, userId));
}

async function answer(app: TestApp, user: TestUser, row: QuestionIssuanceRow, choice: string, outcome: 'correct' | 'incorrect' | 'void' | null, points = 0) {
  await app.services.database.db.insert(questionAnswers).values({
    userId: user.id,
    questionIssuanceId: row.id,
    matchId: row.matchId,
    selectedAnswerIdentifier: choice,
    outcome,
    pointsAwarded: points,
    scoredAt: outcome ? new Date() : null,
  });
}

/** Hands the row to the app's push subscriber (as the engine does) and waits for it to be processed. */
async function issued(app: TestApp, row: QuestionIssuanceRow) {
  await app.services.push.subscriber.onIssued!(row);
  await app.services.push.subscriber.idle();
}
async function settled(app: TestApp, row: QuestionIssuanceRow) {
  await app.services.push.subscriber.onSettled!(row);
  await app.services.push.subscriber.idle();
}

async function patchSettings(app: TestApp, admin: TestUser, body: Record<string, unknown>) {
  const res = await app.request('PATCH', '/api/push-settings', { token: admin.token, body });
  if (res.status !== 200) throw new Error(`settings: ${res.status} ${res.text}`);
}

describe('push delivery with the log provider', () => {
  const { app, admin } = useTestApp();

  beforeEach(async () => {
    await app.request('POST', '/api/push-settings/reset', { token: admin.token });
  });

  it('reacts to the engine hooks (issued and settled, src/events/reactions.ts)', async () => {
    expect(app.services.push.provider.name).toBe('log');
    const onIssued = vi.spyOn(app.services.push.subscriber, 'onIssued').mockResolvedValue(undefined);
    const onSettled = vi.spyOn(app.services.push.subscriber, 'onSettled').mockResolvedValue(undefined);
    try {
      const row = { id: randomUUID(), matchId: randomUUID(), kind: 'in_game', status: 'resolved' } as QuestionIssuanceRow;
      await app.services.engine.hooks.onIssued!(row);
      await app.services.engine.hooks.onSettled!(row);
      expect(onIssued).toHaveBeenCalledWith(row);
      expect(onSettled).toHaveBeenCalledWith(row);
    } finally {
      onIssued.mockRestore();
      onSettled.mockRestore();
    }
  });

  it('notifies every device of every follower who wants issuance notifications, and no one else', async () => {
    const match = await createMatch(app, { homeTeam: 'Lions', awayTeam: 'Tigers' });
    const fan = await registerUser(app);
    const twoDevices = await registerUser(app);
    const noDevices = await registerUser(app);
    const optedOut = await registerUser(app);
    const unfollowed = await registerUser(app);
    const stranger = await registerUser(app);
    const inactive = await registerUser(app);
    for (const u of [fan, twoDevices, noDevices, optedOut, inactive]) await follow(app, u.id, match.id);
    await follow(app, unfollowed.id, match.id, false); // a spent follow row
    await registerWebDevice(app, fan, 'fan-browser');
    await registerWebDevice(app, twoDevices, 'laptop');
    await registerTokenDevice(app, twoDevices, 'phone', 'android');
    for (const u of [optedOut, unfollowed, stranger, inactive]) await registerTokenDevice(app, u, 'dev');
    await setNotify(app, optedOut.id, { notifyOnIssuance: false });
    await setNotify(app, inactive.id, { isActive: false });

    const row = await insertIssuance(app, { matchId: match.id, questionText: 'Who scores next?', closesAt: new Date(Date.now() + 45_000) });
    await issued(app, row);
    const attempts = await attemptsFor(app, row.id);
    expect(attempts.map((a) => [a.userId, a.deviceId, a.platform, a.status]).sort()).toEqual(
      [
        [fan.id, 'fan-browser', 'web', 'delivered'],
        [twoDevices.id, 'laptop', 'web', 'delivered'],
        [twoDevices.id, 'phone', 'android', 'delivered'],
      ].sort(),
    );
    for (const a of attempts) {
      expect(a).toMatchObject({ provider: 'log', event: 'issuance', statusCode: null, error: null, title: 'Lions vs Tigers' });
      expect(a.body).toBe('Who scores next?');
    }
  });

  it('notifies a question once per user: the same row handed over again records nothing more', async () => {
    const match = await createMatch(app);
    const fan = await registerUser(app);
    await follow(app, fan.id, match.id);
    await registerTokenDevice(app, fan, 'd1');
    const row = await insertIssuance(app, { matchId: match.id });
    await issued(app, row);
    await issued(app, row);
    expect(await attemptsFor(app, row.id)).toHaveLength(1);
  });

  describe('gates (one skipped attempt per user, no device, the gate opening `error`)', () => {
    let match: MatchRow;
    let fan: TestUser;

    beforeEach(async () => {
      match = await createMatch(app);
      fan = await registerUser(app);
      await follow(app, fan.id, match.id);
      await registerWebDevice(app, fan, 'browser');
      await registerTokenDevice(app, fan, 'phone');
    });

    const skippedWith = async (row: QuestionIssuanceRow, gate: string, event: 'issuance' | 'resolution' = 'issuance') => {
      const attempts = await attemptsFor(app, row.id, event);
      expect(attempts).toHaveLength(1);
      expect(attempts[0]).toMatchObject({ userId: fan.id, deviceId: null, platform: null, status: 'skipped', provider: 'log', event });
      expect(attempts[0]!.error).toMatch(new RegExp(`^${gate.replace(/\./g, '\\.')}: `));
      expect(attempts[0]!.title).not.toBe('');
    };

    it('enabled', async () => {
      await patchSettings(app, admin, { enabled: false });
      const row = await insertIssuance(app, { matchId: match.id });
      await issued(app, row);
      await skippedWith(row, 'enabled');
      const done = await insertIssuance(app, { matchId: match.id, status: 'resolved', correctAnswerIdentifier: 'home', resolvedAt: new Date() });
      await answer(app, fan, done, 'home', 'correct', 10);
      await settled(app, done);
      await skippedWith(done, 'enabled', 'resolution');
    });

    it('issuance.enabled', async () => {
      await patchSettings(app, admin, { issuance: { enabled: false } });
      const row = await insertIssuance(app, { matchId: match.id });
      await issued(app, row);
      await skippedWith(row, 'issuance.enabled');
    });

    it('resolution.enabled', async () => {
      await patchSettings(app, admin, { resolution: { enabled: false } });
      const row = await insertIssuance(app, { matchId: match.id, status: 'resolved', correctAnswerIdentifier: 'home', resolvedAt: new Date() });
      await answer(app, fan, row, 'home', 'correct', 10);
      await settled(app, row);
      await skippedWith(row, 'resolution.enabled', 'resolution');
      // issuance notifications are unaffected
      const next = await insertIssuance(app, { matchId: match.id });
      await issued(app, next);
      expect((await attemptsFor(app, next.id)).map((a) => a.status)).toEqual(['delivered', 'delivered']);
    });

    it('issuance.pivotal_only', async () => {
      await patchSettings(app, admin, { issuance: { pivotal_only: true } });
      const regular = await insertIssuance(app, { matchId: match.id, isPivotalMoment: false });
      await issued(app, regular);
      await skippedWith(regular, 'issuance.pivotal_only');
      const pivotal = await insertIssuance(app, { matchId: match.id, isPivotalMoment: true, questionNumber: null });
      await issued(app, pivotal);
      const attempts = await attemptsFor(app, pivotal.id);
      expect(attempts.map((a) => a.status)).toEqual(['delivered', 'delivered']);
      expect(attempts[0]!.title).toMatch(/^Pivotal moment: /);
    });

    it('issuance.min_seconds_remaining', async () => {
      await patchSettings(app, admin, { issuance: { min_seconds_remaining: 30 } });
      const late = await insertIssuance(app, { matchId: match.id, closesAt: new Date(Date.now() + 20_000) });
      await issued(app, late);
      await skippedWith(late, 'issuance.min_seconds_remaining');
      // At most 20 s left, however long the delivery took to come.
      const left = Number(/(\d+) s left of the answer window \(minimum 30 s\)/.exec((await attemptsFor(app, late.id))[0]!.error ?? '')?.[1]);
      expect(left).toBeLessThanOrEqual(20);
      const closed = await insertIssuance(app, { matchId: match.id, closesAt: new Date(Date.now() - 5_000) });
      await issued(app, closed);
      expect((await attemptsFor(app, closed.id))[0]!.error).toMatch(/^issuance\.min_seconds_remaining: 0 s left/);
      // Ten minutes: still past the minimum when the delivery comes, however busy the machine.
      const early = await insertIssuance(app, { matchId: match.id, closesAt: new Date(Date.now() + 600_000) });
      await issued(app, early);
      expect((await attemptsFor(app, early.id)).map((a) => a.status)).toEqual(['delivered', 'delivered']);
    });

    it('max_per_user_per_match counts notifications (not devices) delivered on this match, issuance and resolution alike', async () => {
      await patchSettings(app, admin, { max_per_user_per_match: 2 });
      const first = await insertIssuance(app, { matchId: match.id, status: 'resolved', correctAnswerIdentifier: 'home', resolvedAt: new Date() });
      await issued(app, first);
      await answer(app, fan, first, 'away', 'incorrect');
      await settled(app, first);
      expect((await attemptsFor(app, first.id)).map((a) => `${a.event} ${a.status}`).sort()).toEqual([
        'issuance delivered',
        'issuance delivered',
        'resolution delivered',
        'resolution delivered',
      ]);
      const third = await insertIssuance(app, { matchId: match.id });
      await issued(app, third);
      await skippedWith(third, 'max_per_user_per_match');
      expect((await attemptsFor(app, third.id))[0]!.error).toBe('max_per_user_per_match: the maximum of 2 notifications of this match already delivered');
      // another match has its own count
      const other = await createMatch(app);
      await follow(app, fan.id, other.id);
      const elsewhere = await insertIssuance(app, { matchId: other.id });
      await issued(app, elsewhere);
      expect((await attemptsFor(app, elsewhere.id)).map((a) => a.status)).toEqual(['delivered', 'delivered']);
      // skipped and failed attempts do not count
      await patchSettings(app, admin, { max_per_user_per_match: 3 });
      const fourth = await insertIssuance(app, { matchId: match.id });
      await issued(app, fourth);
      expect((await attemptsFor(app, fourth.id)).map((a) => a.status)).toEqual(['delivered', 'delivered']);
    });

    it('max_per_user_per_match 0 holds everything back', async () => {
      await patchSettings(app, admin, { max_per_user_per_match: 0 });
      const row = await insertIssuance(app, { matchId: match.id });
      await issued(app, row);
      await skippedWith(row, 'max_per_user_per_match');
    });
  });

  describe('resolution', () => {
    let match: MatchRow;
    let right: TestUser;
    let wrong: TestUser;
    let silentFan: TestUser;
    let optedOut: TestUser;

    beforeEach(async () => {
      match = await createMatch(app, { homeTeam: 'Reds', awayTeam: 'Blues' });
      right = await registerUser(app);
      wrong = await registerUser(app);
      silentFan = await registerUser(app);
      optedOut = await registerUser(app);
      for (const u of [right, wrong, silentFan, optedOut]) {
        await follow(app, u.id, match.id);
        await registerTokenDevice(app, u, 'phone');
      }
      await setNotify(app, optedOut.id, { notifyOnResolve: false });
    });

    const bodies = async (row: QuestionIssuanceRow) => Object.fromEntries((await attemptsFor(app, row.id, 'resolution')).map((a) => [a.userId, a.body]));

    it('goes to followers who answered (only_answered), each with their own outcome', async () => {
      const row = await insertIssuance(app, {
        matchId: match.id,
        questionText: 'Next corner?',
        status: 'resolved',
        correctAnswerIdentifier: 'home',
        resolvedAt: new Date(),
        points: 15,
        choices: [
          { identifier: 'home', label: 'Reds' },
          { identifier: 'away', label: 'Blues' },
        ],
      });
      await answer(app, right, row, 'home', 'correct', 15);
      await answer(app, wrong, row, 'away', 'incorrect', 0);
      await answer(app, optedOut, row, 'home', 'correct', 15);
      await settled(app, row);
      expect(await bodies(row)).toEqual({ [right.id]: 'Correct! +15 points: Reds', [wrong.id]: 'Not this time: it was Reds' });
      expect((await attemptsFor(app, row.id))[0]).toMatchObject({ title: 'Reds vs Blues', status: 'delivered', event: 'resolution' });
    });

    it('goes to every follower when only_answered is off', async () => {
      await patchSettings(app, admin, { resolution: { only_answered: false } });
      const row = await insertIssuance(app, {
        matchId: match.id,
        questionText: 'Next corner?',
        status: 'resolved',
        correctAnswerIdentifier: 'away',
        resolvedAt: new Date(),
      });
      await answer(app, right, row, 'away', 'correct', 10);
      await settled(app, row);
      expect(await bodies(row)).toEqual({
        [right.id]: 'Correct! +10 points: Team B',
        [wrong.id]: 'Next corner? It was Team B',
        [silentFan.id]: 'Next corner? It was Team B',
      });
    });

    it('tells of a voided question; a revoked one (an operator withdrew it) and an open one are not notified', async () => {
      const voided = await insertIssuance(app, { matchId: match.id, questionText: 'Penalty?', status: 'voided', resolvedAt: new Date() });
      await answer(app, right, voided, 'home', 'void');
      await settled(app, voided);
      expect(await bodies(voided)).toEqual({ [right.id]: 'Voided: Penalty?' });
      const revoked = await insertIssuance(app, { matchId: match.id, status: 'revoked', resolvedAt: new Date() });
      await answer(app, right, revoked, 'home', 'void');
      await settled(app, revoked);
      const open = await insertIssuance(app, { matchId: match.id });
      await answer(app, right, open, 'home', null);
      await settled(app, open);
      expect(await attemptsFor(app, revoked.id)).toEqual([]);
      expect(await attemptsFor(app, open.id)).toEqual([]);
    });

    it('works out the outcome from the choice when the answer has not been scored', async () => {
      const row = await insertIssuance(app, { matchId: match.id, status: 'resolved', correctAnswerIdentifier: 'home', resolvedAt: new Date(), points: 7 });
      await answer(app, right, row, 'home', null);
      await answer(app, wrong, row, 'away', null);
      await settled(app, row);
      expect(await bodies(row)).toEqual({ [right.id]: 'Correct! +7 points: Team A', [wrong.id]: 'Not this time: it was Team A' });
    });
  });

  describe('templates', () => {
    it('renders the stored templates over question, match, user and result', async () => {
      const match = await createMatch(app, { homeTeam: 'Ajax', awayTeam: 'PSV', homeScore: 1, awayScore: 0 });
      const fan = await registerUser(app, { first_name: 'Ann' });
      await follow(app, fan.id, match.id);
      await registerTokenDevice(app, fan, 'phone');
      await patchSettings(app, admin, {
        issuance: {
          templates: {
            title_template:
              '{{ user.first_name | default: "Hi" }}, #{{ question.question_number }} in {{ match.home_team }} {{ match.home_score }}-{{ match.away_score }} {{ match.away_team }}',
            body_template:
              '{{ question.text | upcase }} {% for c in question.choices %}[{{ c.label }}]{% endfor %} {{ question.points }} pts, {{ question.seconds_remaining }} s',
          },
        },
        resolution: {
          templates: {
            title_template: '{{ user.username }}: {{ result.outcome }}',
            body_template:
              'You chose {{ result.selected_choice.label }}; correct: {{ result.correct_choice.label }}; +{{ result.points }}; answered={{ result.answered }} correct={{ result.correct }}',
          },
        },
      });
      const row = await insertIssuance(app, { matchId: match.id, questionNumber: 3, questionText: 'Who wins?', points: 25, status: 'open' });
      await issued(app, row);
      expect((await attemptsFor(app, row.id))[0]).toMatchObject({
        title: 'Ann, #3 in Ajax 1-0 PSV',
        body: expect.stringMatching(/^WHO WINS\? \[Team A\]\[Team B\] 25 pts, (5\d|60) s$/),
        status: 'delivered',
      });
      const settledRow = { ...row, status: 'resolved' as const, correctAnswerIdentifier: 'away', resolvedAt: new Date() };
      await answer(app, fan, row, 'home', 'incorrect', 0);
      await settled(app, settledRow);
      expect((await attemptsFor(app, row.id, 'resolution'))[0]).toMatchObject({
        title: `${fan.username}: incorrect`,
        body: 'You chose Team A; correct: Team B; +0; answered=true correct=false',
      });
    });

    it('records a failed attempt (no device) when a template fails to render for a user', async () => {
      const match = await createMatch(app);
      const fan = await registerUser(app);
      await follow(app, fan.id, match.id);
      await registerTokenDevice(app, fan, 'phone');
      await patchSettings(app, admin, { issuance: { templates: { body_template: '{{ question.no_such_field }}' } } });
      const row = await insertIssuance(app, { matchId: match.id });
      await issued(app, row);
      const [attempt] = await attemptsFor(app, row.id);
      expect(attempt).toMatchObject({
        status: 'failed',
        deviceId: null,
        platform: null,
        body: '',
        error: 'render: issuance.templates.body_template: rendered to an empty text',
      });
    });

    it('shortens a message whose payload would not fit a push message', () => {
      const long = fitMessage({
        title: 'T'.repeat(1500),
        body: 'ü'.repeat(2000),
        event: 'issuance',
        questionIssuanceId: 'q',
        matchId: 'm',
        ttlSeconds: 1,
        urgency: 'high',
      });
      expect(
        Buffer.byteLength(JSON.stringify({ title: long.title, body: long.body, event: 'issuance', question_issuance_id: 'q', match_id: 'm' })),
      ).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
      expect(long.body.endsWith('…')).toBe(true);
      expect(long.title).toBe('T'.repeat(1500));
    });
  });

  it('uses a constant number of statements, whatever the number of followers and devices', async () => {
    const count = async (followers: number) => {
      const match = await createMatch(app);
      for (let i = 0; i < followers; i++) {
        const u = await registerUser(app);
        await follow(app, u.id, match.id);
        await registerTokenDevice(app, u, 'phone');
        if (i % 2) await registerWebDevice(app, u, 'browser');
      }
      const first = await insertIssuance(app, { matchId: match.id, status: 'resolved', correctAnswerIdentifier: 'home', resolvedAt: new Date() });
      await issued(app, first); // history exists for the next one
      const row = await insertIssuance(app, { matchId: match.id });
      const { statements } = await statementsDuring(app, async () => {
        await issued(app, row);
        await app.services.push.subscriber.onSettled!(first);
        await app.services.push.subscriber.idle();
      });
      expect((await attemptsFor(app, row.id)).length).toBe(followers + Math.floor(followers / 2));
      return statements.length;
    };
    const few = await count(2);
    const many = await count(12);
    expect(many).toBe(few);
    expect(few).toBeLessThanOrEqual(12);
  });
});

describe('push delivery through a provider', () => {
  const { app, admin } = useTestApp();
  let match: MatchRow;

  beforeAll(async () => {
    match = await createMatch(app);
  });

  const fans = async (n: number, devices = 1) => {
    const out: TestUser[] = [];
    for (let i = 0; i < n; i++) {
      const u = await registerUser(app);
      await follow(app, u.id, match.id);
      for (let d = 0; d < devices; d++) await registerTokenDevice(app, u, `phone-${d}`, 'android');
      out.push(u);
    }
    return out;
  };
  const subscriber = (provider: PushProvider, extra: { concurrency?: number; detached?: boolean } = {}) =>
    createPushSubscriber({ db: app.services.database.db, provider, logger: silent, ...extra });

  it('records failures, provider skips and thrown errors as the provider reports them', async () => {
    const [a, b, c] = await fans(3);
    const outcomes: Record<string, PushSendResult | Error> = {
      [a!.id]: { ok: false, statusCode: 429, error: 'push service answered 429: slow down' },
      [b!.id]: { ok: false, skipped: true, error: 'no android push provider configured' },
      [c!.id]: new Error('boom'),
    };
    const provider: PushProvider = {
      name: 'fake',
      async send(device) {
        const r = outcomes[device.userId]!;
        if (r instanceof Error) throw r;
        return r;
      },
    };
    const row = await insertIssuance(app, { matchId: match.id });
    await subscriber(provider).onIssued!(row);
    const attempts = Object.fromEntries((await attemptsFor(app, row.id)).map((x) => [x.userId, x]));
    expect(attempts[a!.id]).toMatchObject({
      provider: 'fake',
      status: 'failed',
      statusCode: 429,
      error: 'push service answered 429: slow down',
      deviceId: 'phone-0',
      platform: 'android',
    });
    expect(attempts[b!.id]).toMatchObject({ status: 'skipped', statusCode: null, error: 'no android push provider configured' });
    expect(attempts[c!.id]).toMatchObject({ status: 'failed', statusCode: null, error: 'provider error: boom' });
  });

  /** A match of its own, with one fan on one device. */
  const ownFan = async () => {
    const own = await createMatch(app);
    const fan = await registerUser(app);
    await follow(app, fan.id, own.id);
    await registerTokenDevice(app, fan, 'phone-0', 'android');
    return { own, fan };
  };

  describe('a transient failure', () => {
    it('is tried once more after the wait the service asks for, but not when it asks for longer than the limit', async () => {
      for (const [retryAfterMs, expected] of [
        [20, 2],
        [60_000, 1],
      ] as const) {
        let calls = 0;
        const busy: PushProvider = {
          name: 'busy',
          async send() {
            calls += 1;
            return { ok: false, statusCode: 429, error: 'throttled', retryAfterMs };
          },
        };
        const { own, fan } = await ownFan();
        const row = await insertIssuance(app, { matchId: own.id });
        const started = Date.now();
        await createPushDelivery({ db: app.services.database.db, provider: busy, logger: silent, maxRetryWaitMs: 5_000 }).deliverIssued(row);
        expect(calls).toBe(expected);
        expect((await attemptsFor(app, row.id)).filter((a) => a.userId === fan.id)).toHaveLength(expected);
        // Never the minute the service asked for past the limit (a busy machine takes seconds over the rest).
        expect(Date.now() - started).toBeLessThan(60_000);
      }
    });
  });

  describe('max_per_user_per_match across processes', () => {
    const slow: PushProvider = {
      name: 'slow',
      async send() {
        await new Promise((r) => setTimeout(r, 30));
        return { ok: true, statusCode: 201 };
      },
    };

    it('two processes notifying one match at once cannot pass the cap together', async () => {
      await patchSettings(app, admin, { max_per_user_per_match: 1 });
      try {
        const { own, fan } = await ownFan();
        const [q1, q2] = [await insertIssuance(app, { matchId: own.id }), await insertIssuance(app, { matchId: own.id })];
        // Two deliveries as two processes would run them: neither waits for the other.
        const [a, b] = [
          createPushDelivery({ db: app.services.database.db, provider: slow, logger: silent }),
          createPushDelivery({ db: app.services.database.db, provider: slow, logger: silent }),
        ];
        await Promise.all([a.deliverIssued(q1), b.deliverIssued(q2)]);
        const statuses = [...(await attemptsFor(app, q1.id)), ...(await attemptsFor(app, q2.id))].filter((x) => x.userId === fan.id).map((x) => x.status);
        expect(statuses.sort()).toEqual(['delivered', 'skipped']);
      } finally {
        await patchSettings(app, admin, { max_per_user_per_match: 20 });
      }
    });

    it('gives the slot back when nothing reached the player', async () => {
      await patchSettings(app, admin, { max_per_user_per_match: 1 });
      try {
        const { own } = await ownFan();
        let fail = true;
        const flaky: PushProvider = {
          name: 'flaky',
          send: async () => (fail ? { ok: false, statusCode: 503, error: 'push service answered 503' } : { ok: true, statusCode: 201 }),
        };
        const first = await insertIssuance(app, { matchId: own.id });
        await subscriber(flaky).onIssued!(first);
        expect((await attemptsFor(app, first.id)).map((x) => x.status)).toEqual(['failed']);
        fail = false;
        const second = await insertIssuance(app, { matchId: own.id });
        await subscriber(flaky).onIssued!(second);
        expect((await attemptsFor(app, second.id)).map((x) => x.status)).toEqual(['delivered']);
        const third = await insertIssuance(app, { matchId: own.id });
        await subscriber(flaky).onIssued!(third);
        expect((await attemptsFor(app, third.id)).map((x) => x.status)).toEqual(['skipped']);
      } finally {
        await patchSettings(app, admin, { max_per_user_per_match: 20 });
      }
    });

    it('starts from the notifications already delivered when the counter is added (migration 0007)', async () => {
      const { own, fan } = await ownFan();
      let fail = false;
      const flaky: PushProvider = { name: 'flaky', send: async () => (fail ? { ok: false, error: 'down' } : { ok: true }) };
      for (const ok of [true, true, false]) {
        fail = !ok;
        await subscriber(flaky).onIssued!(await insertIssuance(app, { matchId: own.id }));
      }
      const db = app.services.database.db;
      const counted = async () =>
        (
          await db
            .select()
            .from(pushMatchNotifications)
            .where(and(eq(pushMatchNotifications.userId, fan.id), eq(pushMatchNotifications.matchId, own.id)))
        )[0]?.notified;
      expect(await counted()).toBe(2);
      // The migration's backfill, run again on an emptied counter table, finds the same counts.
      const migration = readFileSync(path.join(process.cwd(), 'drizzle/0007_push_match_notifications.sql'), 'utf8');
      const backfill = migration.split('--> statement-breakpoint').at(-1)!;
      expect(backfill).toContain('INSERT INTO "push_match_notifications"');
      await db.delete(pushMatchNotifications);
      await app.services.database.rows(sql.raw(backfill));
      expect(await counted()).toBe(2);
    });
  });

  it('sends concurrently, never more than the bound at once', async () => {
    await fans(6, 2);
    let inFlight = 0;
    let peak = 0;
    let calls = 0;
    const provider: PushProvider = {
      name: 'slow',
      async send() {
        calls++;
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((r) => setTimeout(r, 20));
        inFlight--;
        return { ok: true, statusCode: 201 };
      },
    };
    const row = await insertIssuance(app, { matchId: match.id });
    await subscriber(provider, { concurrency: 4 }).onIssued!(row);
    expect(calls).toBeGreaterThanOrEqual(12);
    expect(peak).toBe(4);
  });

  it('detached: the engine gets control back at once; notifications are processed in order, one after another', async () => {
    // Its own followers: the test must not depend on the ones earlier tests registered.
    await fans(2);
    const seen: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const provider: PushProvider = {
      name: 'held',
      async send(_d, m) {
        await gate;
        seen.push(m.event);
        return { ok: true };
      },
    };
    const sub = subscriber(provider, { detached: true });
    const row = await insertIssuance(app, { matchId: match.id, status: 'resolved', correctAnswerIdentifier: 'home', resolvedAt: new Date() });
    await patchSettings(app, admin, { resolution: { only_answered: false } });
    await sub.onIssued!(row);
    await sub.onSettled!(row);
    expect(seen).toEqual([]);
    release();
    await sub.idle();
    // Both were sent, every issuance notification before the first resolution one.
    expect(seen[0]).toBe('issuance');
    expect(seen.indexOf('resolution')).toBeGreaterThan(seen.lastIndexOf('issuance'));
    expect(new Set(seen)).toEqual(new Set(['issuance', 'resolution']));
    await app.request('POST', '/api/push-settings/reset', { token: admin.token });
  });
});

describe('Web Push provider (VAPID, aes128gcm) against a push service on loopback', () => {
  const vapidKeys = webpush.generateVAPIDKeys();
  const vapid = { publicKey: vapidKeys.publicKey, privateKey: vapidKeys.privateKey, subject: 'mailto:ops@question-play.example' };
  let app: TestApp;
  let receiver: Awaited<ReturnType<typeof startPushReceiver>>;
  let match: MatchRow;

  beforeAll(async () => {
    const hits = new Map<string, number>();
    receiver = await startPushReceiver((path) => {
      hits.set(path, (hits.get(path) ?? 0) + 1);
      // /flaky/: unavailable once, then fine.
      if (path.startsWith('/flaky/')) return hits.get(path) === 1 ? 503 : 201;
      return path.startsWith('/gone/') ? 410 : path.startsWith('/broken/') ? 500 : path.startsWith('/missing/') ? 404 : 201;
    });
    app = await startTestApp({ config: { push: { provider: 'webpush', vapid, allowHttpEndpoints: true } } });
    match = await createMatch(app, { homeTeam: 'Eagles', awayTeam: 'Hawks' });
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
  });

  it('POSTs an encrypted message with a VAPID JWT for the endpoint origin; the subscription key decrypts it', async () => {
    const fan = await registerUser(app);
    await follow(app, fan.id, match.id);
    const keys = await registerWebDevice(app, fan, 'browser', `${receiver.origin}/push/abc123`);
    const row = await insertIssuance(app, { matchId: match.id, questionText: 'Will the drive end in a touchdown?', closesAt: new Date(Date.now() + 40_000) });
    const before = receiver.received.length;
    await issued(app, row);

    expect(receiver.received.length).toBe(before + 1);
    const req = receiver.received.at(-1)!;
    expect(req.path).toBe('/push/abc123');
    expect(req.headers['content-encoding']).toBe('aes128gcm');
    expect(req.headers['content-type']).toBe('application/octet-stream');
    expect(req.headers.urgency).toBe('high');
    // The answer window left when it was sent: at most 40 s, and at least what is left now, however long that took.
    expect(Number(req.headers.ttl)).toBeGreaterThanOrEqual(Math.floor((row.closesAt.getTime() - Date.now()) / 1000));
    expect(Number(req.headers.ttl)).toBeLessThanOrEqual(40);

    const claims = verifyVapid(req.headers.authorization, vapid.publicKey);
    expect(claims.aud).toBe(receiver.origin);
    expect(claims.sub).toBe(vapid.subject);
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000);
    expect(claims.exp).toBeLessThanOrEqual(Date.now() / 1000 + 24 * 3600);

    const payload = JSON.parse(decryptAes128gcm(req.body, keys));
    expect(payload).toEqual({
      title: 'Eagles vs Hawks',
      body: 'Will the drive end in a touchdown?',
      event: 'issuance',
      question_issuance_id: row.id,
      match_id: match.id,
    });

    const [attempt] = await attemptsFor(app, row.id);
    expect(attempt).toMatchObject({
      provider: 'webpush',
      status: 'delivered',
      statusCode: 201,
      error: null,
      deviceId: 'browser',
      platform: 'web',
      title: payload.title,
      body: payload.body,
    });
  });

  it('a signature by another key does not verify, and another subscription key cannot decrypt (the checks have teeth)', async () => {
    const fan = await registerUser(app);
    await follow(app, fan.id, match.id);
    const keys = await registerWebDevice(app, fan, 'browser', `${receiver.origin}/push/teeth`);
    const row = await insertIssuance(app, { matchId: match.id });
    await issued(app, row);
    const req = receiver.received.find((r) => r.path === '/push/teeth')!;
    expect(() => verifyVapid(req.headers.authorization, webpush.generateVAPIDKeys().publicKey)).toThrow(/k is not/);
    const forged = req.headers.authorization!.replace(/k=\S+$/, `k=${webpush.generateVAPIDKeys().publicKey}`);
    expect(() => verifyVapid(forged, forged.split('k=')[1]!)).toThrow(/does not verify/);
    const stranger = createECDH('prime256v1');
    stranger.generateKeys();
    expect(() => decryptAes128gcm(req.body, { ...keys, ecdh: stranger })).toThrow();
  });

  it('410 and 404: the subscription is gone, the attempt fails and the device is removed', async () => {
    for (const prefix of ['gone', 'missing']) {
      const fan = await registerUser(app);
      await follow(app, fan.id, match.id);
      await registerWebDevice(app, fan, 'browser', `${receiver.origin}/${prefix}/xyz`);
      await registerWebDevice(app, fan, 'other-browser', `${receiver.origin}/push/${prefix}-ok`);
      const row = await insertIssuance(app, { matchId: match.id });
      await issued(app, row);
      const attempts = (await attemptsFor(app, row.id)).filter((a) => a.userId === fan.id);
      const status = prefix === 'gone' ? 410 : 404;
      expect(attempts.map((a) => [a.deviceId, a.status, a.statusCode])).toEqual([
        ['browser', 'failed', status],
        ['other-browser', 'delivered', 201],
      ]);
      expect(attempts[0]!.error).toBe(`push service answered ${status}: status ${status}; the subscription is gone, the device was removed`);
      const devices = await app.services.database.db.select().from(pushDevices).where(eq(pushDevices.userId, fan.id));
      expect(devices.map((d) => d.deviceId)).toEqual(['other-browser']);
    }
  });

  it('a gone device that registered a new subscription meanwhile is kept', async () => {
    const fan = await registerUser(app);
    await registerWebDevice(app, fan, 'browser', `${receiver.origin}/push/new-endpoint`);
    const removed = await deleteGoneDevices({
      db: app.services.database.db,
      devices: [{ userId: fan.id, deviceId: 'browser', endpoint: `${receiver.origin}/gone/old-endpoint` }],
    });
    expect(removed).toBe(0);
    expect(await app.services.database.db.select().from(pushDevices).where(eq(pushDevices.userId, fan.id))).toHaveLength(1);
  });

  it('500: tried once more; both failed attempts are recorded with the status; the device stays', async () => {
    const fan = await registerUser(app);
    await follow(app, fan.id, match.id);
    await registerWebDevice(app, fan, 'browser', `${receiver.origin}/broken/1`);
    const row = await insertIssuance(app, { matchId: match.id });
    await issued(app, row);
    const attempts = (await attemptsFor(app, row.id)).filter((a) => a.userId === fan.id).sort((a, b) => a.error!.length - b.error!.length);
    expect(attempts).toMatchObject([
      { provider: 'webpush', status: 'failed', statusCode: 500, error: 'push service answered 500: status 500' },
      { provider: 'webpush', status: 'failed', statusCode: 500, error: 'push service answered 500: status 500; tried again' },
    ]);
    expect(await app.services.database.db.select().from(pushDevices).where(eq(pushDevices.userId, fan.id))).toHaveLength(1);
  });

  it('a push service unavailable for a moment gets the message on the second try (both attempts recorded)', async () => {
    const fan = await registerUser(app);
    await follow(app, fan.id, match.id);
    await registerWebDevice(app, fan, 'browser', `${receiver.origin}/flaky/${fan.id}`);
    const row = await insertIssuance(app, { matchId: match.id });
    await issued(app, row);
    const attempts = (await attemptsFor(app, row.id)).filter((a) => a.userId === fan.id);
    expect(attempts.map((a) => [a.status, a.statusCode]).sort()).toEqual([
      ['delivered', 201],
      ['failed', 503],
    ]);
    expect(attempts.find((a) => a.status === 'failed')!.error).toBe('push service answered 503: status 503; tried again');
    expect(receiver.received.filter((r) => r.path === `/flaky/${fan.id}`)).toHaveLength(2);
  });

  it('ios and android devices are skipped (no FCM/APNs credentials configured)', async () => {
    const fan = await registerUser(app);
    await follow(app, fan.id, match.id);
    await registerTokenDevice(app, fan, 'iphone', 'ios');
    const row = await insertIssuance(app, { matchId: match.id });
    await issued(app, row);
    const [attempt] = (await attemptsFor(app, row.id)).filter((a) => a.userId === fan.id);
    expect(attempt).toMatchObject({ provider: 'webpush', status: 'skipped', statusCode: null, deviceId: 'iphone', platform: 'ios' });
    expect(attempt!.error).toMatch(/no ios push provider configured/);
  });

  it('a push service that does not answer in time is a failed attempt', async () => {
    const hanging = await startPushReceiver(() => 'hang');
    try {
      const provider = createWebPushProvider({ vapid, allowHttpEndpoints: true, timeoutMs: 200 });
      const keys = (await import('../helpers/push.js')).subscriptionKeys();
      const result = await provider.send(
        {
          userId: 'u',
          deviceId: 'd',
          platform: 'web',
          token: null,
          subscription: { endpoint: `${hanging.origin}/push/slow`, keys: { p256dh: keys.p256dh, auth: keys.auth } },
        },
        { title: 't', body: 'b', event: 'issuance', questionIssuanceId: 'q', matchId: 'm', ttlSeconds: 10, urgency: 'high' },
      );
      expect(result).toEqual({ ok: false, error: 'the push service did not answer within 200 ms', retryAfterMs: 1000 });
      expect(hanging.received).toHaveLength(1);
    } finally {
      await hanging.close();
    }
  });

  it("reads no more than the start of a push service's error body, however large or endless it is", async () => {
    const { createServer } = await import('node:http');
    let written = 0;
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(500, { 'content-type': 'text/plain' });
      // An endless body: the provider must stop reading it.
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const pump = () => {
        while (!res.destroyed && written < 512 * 1024 * 1024 && res.write(chunk)) written += chunk.length;
        if (!res.destroyed && written < 512 * 1024 * 1024) res.once('drain', pump);
      };
      pump();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as { port: number }).port;
      const provider = createWebPushProvider({ vapid, allowHttpEndpoints: true, timeoutMs: 10_000 });
      const keys = (await import('../helpers/push.js')).subscriptionKeys();
      const result = await provider.send(
        {
          userId: 'u',
          deviceId: 'd',
          platform: 'web',
          token: null,
          subscription: { endpoint: `http://127.0.0.1:${port}/push/big`, keys: { p256dh: keys.p256dh, auth: keys.auth } },
        },
        { title: 't', body: 'b', event: 'issuance', questionIssuanceId: 'q', matchId: 'm', ttlSeconds: 10, urgency: 'high' },
      );
      expect(result).toMatchObject({ ok: false, statusCode: 500, error: `push service answered 500: ${'x'.repeat(200)}` });
      // It stopped reading long before the end (the server could not push much more than its socket buffers).
      expect(written).toBeLessThan(64 * 1024 * 1024);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('refuses http endpoints unless allowed, without network', async () => {
    const provider = createWebPushProvider({ vapid });
    const keys = (await import('../helpers/push.js')).subscriptionKeys();
    const before = receiver.received.length;
    const result = await provider.send(
      {
        userId: 'u',
        deviceId: 'd',
        platform: 'web',
        token: null,
        subscription: { endpoint: `${receiver.origin}/push/insecure`, keys: { p256dh: keys.p256dh, auth: keys.auth } },
      },
      { title: 't', body: 'b', event: 'issuance', questionIssuanceId: 'q', matchId: 'm', ttlSeconds: 10, urgency: 'high' },
    );
    expect(result).toEqual({ ok: false, error: 'the subscription endpoint is not an https URL' });
    expect(receiver.received.length).toBe(before);
  });

  it('reaches only public addresses: a private host is refused without network, a name is resolved by the guarded lookup', async () => {
    const provider = createWebPushProvider({ vapid });
    const keys = (await import('../helpers/push.js')).subscriptionKeys();
    const send = (endpoint: string) =>
      provider.send(
        { userId: 'u', deviceId: 'd', platform: 'web', token: null, subscription: { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } } },
        { title: 't', body: 'b', event: 'issuance', questionIssuanceId: 'q', matchId: 'm', ttlSeconds: 10, urgency: 'high' },
      );
    const port = new URL(receiver.origin).port;
    const before = receiver.received.length;
    expect(await send(`https://127.0.0.1:${port}/push/internal`)).toEqual({
      ok: false,
      error: 'the subscription endpoint is not on the public internet: 127.0.0.1 is a local, private or reserved address',
    });
    expect(await send('https://169.254.169.254/latest/meta-data')).toMatchObject({
      ok: false,
      error: expect.stringContaining('169.254.169.254 is a local, private or reserved address'),
    });
    expect(await send(`https://localhost:${port}/push/internal`)).toMatchObject({
      ok: false,
      error: expect.stringContaining('localhost is not a public host name'),
    });
    expect(receiver.received.length).toBe(before);
  });
});

describe('push configuration', () => {
  const keys = webpush.generateVAPIDKeys();
  const base = {
    APP_ENV: 'test',
    PUSH_PROVIDER: 'webpush',
    VAPID_PUBLIC_KEY: keys.publicKey,
    VAPID_PRIVATE_KEY: keys.privateKey,
    VAPID_SUBJECT: 'mailto:ops@example.com',
  };

  it('defaults to the log provider without keys', () => {
    expect(loadConfig({ APP_ENV: 'test' }).push).toEqual({ provider: 'log', vapid: null, allowHttpEndpoints: false });
  });

  it('takes the webpush provider with a valid key pair and subject', () => {
    expect(loadConfig(base).push).toEqual({
      provider: 'webpush',
      vapid: { publicKey: keys.publicKey, privateKey: keys.privateKey, subject: 'mailto:ops@example.com' },
      allowHttpEndpoints: false,
    });
    expect(loadConfig({ ...base, VAPID_SUBJECT: 'https://question-play.example/contact' }).push.vapid?.subject).toBe('https://question-play.example/contact');
  });

  it.each([
    ['an unknown provider', { PUSH_PROVIDER: 'fcm' }, /PUSH_PROVIDER must be one of log, webpush/],
    [
      'webpush without keys',
      { VAPID_PUBLIC_KEY: '', VAPID_PRIVATE_KEY: '', VAPID_SUBJECT: '' },
      /PUSH_PROVIDER=webpush needs VAPID_PUBLIC_KEY.*generate-vapid-keys/,
    ],
    ['keys without a subject', { VAPID_SUBJECT: '' }, /missing VAPID_SUBJECT/],
    ['a public key of the wrong length', { VAPID_PUBLIC_KEY: keys.publicKey.slice(0, 40) }, /VAPID_PUBLIC_KEY must be 65 bytes/],
    ['a private key that is not base64url', { VAPID_PRIVATE_KEY: 'not base64!' }, /VAPID_PRIVATE_KEY must be base64url/],
    ['keys that are not a pair', { VAPID_PRIVATE_KEY: webpush.generateVAPIDKeys().privateKey }, /VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY/],
    ['a subject that is not mailto: or https:', { VAPID_SUBJECT: 'http://example.com' }, /VAPID_SUBJECT must be a mailto: address or an https: URL/],
    ['a mailto: subject without an address', { VAPID_SUBJECT: 'mailto:' }, /VAPID_SUBJECT must be/],
  ])('refuses %s with a message naming the variable', (_what, env, message) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, ...env })).toThrow(message);
  });

  it('checks keys given to the log provider too', () => {
    expect(() => loadConfig({ ...base, PUSH_PROVIDER: 'log', VAPID_PUBLIC_KEY: 'short' })).toThrow(/VAPID_PUBLIC_KEY must be 65 bytes/);
  });
});

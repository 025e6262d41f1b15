import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { pushErrors } from '../../src/modules/push/push.errors.js';
import { pushDeliveryAttempts, pushDevices, pushSettings } from '../../src/modules/push/push.table.js';
import { userErrors } from '../../src/modules/users/users.errors.js';
import { MAX_DEVICES_PER_USER } from '../../src/modules/push/push.service.js';
import { PUSH_SETTINGS_DEFAULTS } from '../../src/modules/push/push.settings.js';
import { users } from '../../src/modules/users/users.table.js';
import { insertIssuance } from '../helpers/engine-rows.js';
import { expectError } from '../helpers/errors.js';
import { createMatch } from '../helpers/factories.js';
import { subscriptionKeys, webSubscription } from '../helpers/push.js';
import { createAdmin, registerUser, type TestUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const { app, admin, player } = useTestApp({ player: true });

const db = () => app.services.database.db;
const devicesOf = (userId: string) => db().select().from(pushDevices).where(eq(pushDevices.userId, userId)).orderBy(pushDevices.deviceId);
const webBody = (deviceId: string, extra: Record<string, unknown> = {}) => ({
  device_id: deviceId,
  platform: 'web',
  subscription: webSubscription(`https://push.example.com/send/${deviceId}`),
  ...extra,
});

describe('POST /api/users/me/devices', () => {
  it('registers a web device (201), then refreshes it under the same id (200)', async () => {
    const user = await registerUser(app);
    const created = await app.request('POST', '/api/users/me/devices', { token: user.token, body: webBody('browser-1', { app_version: '1.0.0' }) });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      device_id: 'browser-1',
      platform: 'web',
      app_version: '1.0.0',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(created.text).not.toMatch(/p256dh|auth|endpoint|token/);

    const next = webSubscription('https://push.example.com/send/renewed');
    const refreshed = await app.request('POST', '/api/users/me/devices', {
      token: user.token,
      body: { device_id: 'browser-1', platform: 'web', subscription: next, app_version: '1.1.0' },
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toMatchObject({ device_id: 'browser-1', app_version: '1.1.0', created_at: created.body.created_at });
    expect(Date.parse(refreshed.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.body.updated_at));
    const rows = await devicesOf(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ platform: 'web', token: null, subscription: next, appVersion: '1.1.0' });
  });

  it('registers ios and android devices by token; a refresh replaces the registration (platform, token, app_version)', async () => {
    const user = await registerUser(app);
    expect(
      (
        await app.request('POST', '/api/users/me/devices', {
          token: user.token,
          body: { device_id: 'phone', platform: 'ios', token: 'apns-token-1', app_version: '2.0' },
        })
      ).status,
    ).toBe(201);
    expect(
      (await app.request('POST', '/api/users/me/devices', { token: user.token, body: { device_id: 'tablet', platform: 'android', token: ' fcm-token ' } }))
        .status,
    ).toBe(201);
    const moved = await app.request('POST', '/api/users/me/devices', { token: user.token, body: webBody('phone') });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ platform: 'web', app_version: null });
    const rows = await devicesOf(user.id);
    expect(rows.map((r) => [r.deviceId, r.platform, r.token, r.subscription === null])).toEqual([
      ['phone', 'web', null, false],
      ['tablet', 'android', 'fcm-token', true],
    ]);
  });

  it('stores only what the platform needs (a token sent with a web device is not kept)', async () => {
    const user = await registerUser(app);
    await app.request('POST', '/api/users/me/devices', { token: user.token, body: webBody('w', { token: 'stray' }) });
    await app.request('POST', '/api/users/me/devices', {
      token: user.token,
      body: { device_id: 'i', platform: 'ios', token: 't', subscription: webSubscription('https://push.example.com/x') },
    });
    const rows = await devicesOf(user.id);
    expect(rows.map((r) => [r.deviceId, r.token, r.subscription === null])).toEqual([
      ['i', 't', true],
      ['w', null, false],
    ]);
  });

  it.each([
    ['web without a subscription', { device_id: 'd', platform: 'web' }, /^subscription:/],
    ['web with a null subscription', { device_id: 'd', platform: 'web', subscription: null, token: 'x' }, /^subscription:/],
    ['ios without a token', { device_id: 'd', platform: 'ios' }, /^token:/],
    ['android with a null token', { device_id: 'd', platform: 'android', token: null }, /^token:/],
    ['ios with a blank token', { device_id: 'd', platform: 'ios', token: '   ' }, /^token:/],
    ['an http endpoint', { device_id: 'd', platform: 'web', subscription: webSubscription('http://push.example.com/x') }, /^subscription\.endpoint:/],
    ['a non-http endpoint', { device_id: 'd', platform: 'web', subscription: webSubscription('ftp://push.example.com/x') }, /^subscription\.endpoint:/],
    [
      'an endpoint on a private address',
      { device_id: 'd', platform: 'web', subscription: webSubscription('https://10.0.0.5/push/x') },
      /^subscription\.endpoint: must be a push service on the public internet; 10\.0\.0\.5 is a local, private or reserved address$/,
    ],
    [
      'an endpoint on this machine',
      { device_id: 'd', platform: 'web', subscription: webSubscription('https://localhost:8443/push/x') },
      /^subscription\.endpoint: must be a push service on the public internet; localhost is not a public host name$/,
    ],
    [
      'an endpoint on the cloud metadata address',
      { device_id: 'd', platform: 'web', subscription: webSubscription('https://[::ffff:169.254.169.254]/x') },
      /^subscription\.endpoint: must be a push service on the public internet/,
    ],
    [
      'an endpoint on loopback written IPv4-compatible',
      { device_id: 'd', platform: 'web', subscription: webSubscription('https://[::127.0.0.1]/x') },
      /^subscription\.endpoint: must be a push service on the public internet; ::7f00:1 is a local, private or reserved address$/,
    ],
    [
      'an endpoint on the cloud metadata address written IPv4-compatible',
      { device_id: 'd', platform: 'web', subscription: webSubscription('https://[::a9fe:a9fe]/x') },
      /^subscription\.endpoint: must be a push service on the public internet; ::a9fe:a9fe is a local, private or reserved address$/,
    ],
    [
      'an endpoint on the cloud metadata address behind NAT64',
      { device_id: 'd', platform: 'web', subscription: webSubscription('https://[64:ff9b::169.254.169.254]/x') },
      /^subscription\.endpoint: must be a push service on the public internet; 64:ff9b::a9fe:a9fe \(169\.254\.169\.254\)/,
    ],
    [
      'a p256dh that is not a P-256 key',
      {
        device_id: 'd',
        platform: 'web',
        subscription: { endpoint: 'https://p.example.com/x', keys: { p256dh: Buffer.alloc(65, 4).toString('base64url'), auth: subscriptionKeys().auth } },
      },
      /^subscription\.keys\.p256dh:/,
    ],
    [
      'a short p256dh',
      { device_id: 'd', platform: 'web', subscription: { endpoint: 'https://p.example.com/x', keys: { p256dh: 'abc', auth: subscriptionKeys().auth } } },
      /^subscription\.keys\.p256dh:/,
    ],
    [
      'an auth secret of the wrong size',
      { device_id: 'd', platform: 'web', subscription: { endpoint: 'https://p.example.com/x', keys: { p256dh: subscriptionKeys().p256dh, auth: 'c2hvcnQ' } } },
      /^subscription\.keys\.auth:/,
    ],
  ])('answers 400 naming the field: %s', async (_what, body, detail) => {
    const user = await registerUser(app);
    const res = await app.request('POST', '/api/users/me/devices', { token: user.token, body });
    expectError(res, pushErrors.invalidDevice);
    expect(res.body.detail).toMatch(detail);
    expect(await devicesOf(user.id)).toEqual([]);
  });

  it.each([
    ['no platform', { device_id: 'd', token: 'x' }, 'platform'],
    ['an unknown platform', { device_id: 'd', platform: 'windows', token: 'x' }, 'platform'],
    ['an empty device id', { device_id: '', platform: 'ios', token: 'x' }, 'device_id'],
    ['a device id too long', { device_id: 'x'.repeat(201), platform: 'ios', token: 'x' }, 'device_id'],
    ['an unknown field', { device_id: 'd', platform: 'ios', token: 'x', user_id: 'x' }, 'user_id'],
    ['a subscription without keys', { device_id: 'd', platform: 'web', subscription: { endpoint: 'https://p.example.com/x' } }, 'subscription'],
  ])('answers 422 for %s', async (_what, body, field) => {
    const res = await app.request('POST', '/api/users/me/devices', { token: player.token, body });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body.detail)).toContain(field);
  });

  it('answers 401 without a valid key', async () => {
    expect((await app.request('POST', '/api/users/me/devices', { body: webBody('x') })).status).toBe(401);
    expect((await app.request('POST', '/api/users/me/devices', { token: 'qp_nope', body: webBody('x') })).status).toBe(401);
  });

  it('keeps one device id per user apart from the same id of another user', async () => {
    const a = await registerUser(app);
    const b = await registerUser(app);
    expect((await app.request('POST', '/api/users/me/devices', { token: a.token, body: webBody('shared-id') })).status).toBe(201);
    expect((await app.request('POST', '/api/users/me/devices', { token: b.token, body: webBody('shared-id') })).status).toBe(201);
    expect(await devicesOf(a.id)).toHaveLength(1);
    expect(await devicesOf(b.id)).toHaveLength(1);
  });

  it(`keeps the ${MAX_DEVICES_PER_USER} most recently registered devices of a user`, async () => {
    const user = await registerUser(app);
    for (let i = 0; i <= MAX_DEVICES_PER_USER; i++) {
      const res = await app.request('POST', '/api/users/me/devices', {
        token: user.token,
        body: { device_id: `d${String(i).padStart(2, '0')}`, platform: 'android', token: `t${i}` },
      });
      expect(res.status).toBe(201);
    }
    const ids = (await devicesOf(user.id)).map((r) => r.deviceId);
    expect(ids).toHaveLength(MAX_DEVICES_PER_USER);
    expect(ids).not.toContain('d00');
    expect(ids).toContain(`d${MAX_DEVICES_PER_USER}`);
  });

  it('settles concurrent registrations of one device id on one row (one 201, the rest 200)', async () => {
    const user = await registerUser(app);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        app.request('POST', '/api/users/me/devices', { token: user.token, body: { device_id: 'race', platform: 'ios', token: `t${i}` } }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(await devicesOf(user.id)).toHaveLength(1);
  });
});

describe('DELETE /api/users/me/devices/{device_id}', () => {
  it("removes the caller's device, answers 204 again when it is gone, and never touches another user's device of that id", async () => {
    const a = await registerUser(app);
    const b = await registerUser(app);
    await app.request('POST', '/api/users/me/devices', { token: a.token, body: webBody('same') });
    await app.request('POST', '/api/users/me/devices', { token: b.token, body: webBody('same') });
    const first = await app.request('DELETE', '/api/users/me/devices/same', { token: a.token });
    expect(first.status).toBe(204);
    expect(first.text).toBe('');
    expect(await devicesOf(a.id)).toEqual([]);
    expect(await devicesOf(b.id)).toHaveLength(1);
    expect((await app.request('DELETE', '/api/users/me/devices/same', { token: a.token })).status).toBe(204);
    expect((await app.request('DELETE', '/api/users/me/devices/never-registered', { token: a.token })).status).toBe(204);
    expect(await devicesOf(b.id)).toHaveLength(1);
  });

  it('accepts ids with reserved characters (encoded) and answers 401 without a key, 422 for an id too long', async () => {
    const user = await registerUser(app);
    await app.request('POST', '/api/users/me/devices', { token: user.token, body: { device_id: 'a b/c', platform: 'ios', token: 't' } });
    expect((await app.request('DELETE', `/api/users/me/devices/${encodeURIComponent('a b/c')}`, { token: user.token })).status).toBe(204);
    expect(await devicesOf(user.id)).toEqual([]);
    expect((await app.request('DELETE', '/api/users/me/devices/x')).status).toBe(401);
    expect((await app.request('DELETE', `/api/users/me/devices/${'x'.repeat(201)}`, { token: user.token })).status).toBe(422);
  });
});

describe('push settings', () => {
  it('answers 401 without a key and 403 for players', async () => {
    for (const [method, path, body] of [
      ['GET', '/api/push-settings', undefined],
      ['PATCH', '/api/push-settings', { enabled: false }],
      ['POST', '/api/push-settings/reset', undefined],
      ['GET', '/api/push-delivery-attempts', undefined],
    ] as const) {
      expect((await app.request(method, path, { body })).status).toBe(401);
      expect((await app.request(method, path, { token: player.token, body })).status).toBe(403);
    }
    expect((await app.request('GET', '/api/push-settings', { token: admin.token })).body.stored_settings.enabled).toBe(true);
  });

  it('GET answers the code defaults when nothing is stored', async () => {
    await app.request('POST', '/api/push-settings/reset', { token: admin.token });
    const res = await app.request('GET', '/api/push-settings', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      stored_settings: PUSH_SETTINGS_DEFAULTS,
      defaults: PUSH_SETTINGS_DEFAULTS,
      is_default: true,
      updated_at: null,
      updated_by_user_id: null,
    });
    expect(res.body.defaults).toMatchObject({
      enabled: true,
      max_per_user_per_match: 20,
      issuance: { enabled: true, pivotal_only: false, min_seconds_remaining: 10 },
      resolution: { enabled: true, only_answered: true },
    });
  });

  it('PATCH deep-merges: omitted fields, nested ones included, stay as they were', async () => {
    await app.request('POST', '/api/push-settings/reset', { token: admin.token });
    const first = await app.request('PATCH', '/api/push-settings', {
      token: admin.token,
      body: { issuance: { pivotal_only: true, templates: { title_template: 'New question: {{ question.text }}' } } },
    });
    expect(first.status).toBe(200);
    expect(first.body.stored_settings).toEqual({
      ...PUSH_SETTINGS_DEFAULTS,
      issuance: {
        ...PUSH_SETTINGS_DEFAULTS.issuance,
        pivotal_only: true,
        templates: { ...PUSH_SETTINGS_DEFAULTS.issuance.templates, title_template: 'New question: {{ question.text }}' },
      },
    });
    expect(first.body).toMatchObject({ is_default: false, updated_by_user_id: admin.id, defaults: PUSH_SETTINGS_DEFAULTS });
    expect(Date.parse(first.body.updated_at)).toBeGreaterThan(Date.now() - 60_000);

    const second = await app.request('PATCH', '/api/push-settings', {
      token: admin.token,
      body: { max_per_user_per_match: 3, resolution: { only_answered: false } },
    });
    expect(second.body.stored_settings).toMatchObject({
      max_per_user_per_match: 3,
      issuance: { pivotal_only: true, templates: { title_template: 'New question: {{ question.text }}' } },
      resolution: { enabled: true, only_answered: false },
    });
    expect((await app.request('GET', '/api/push-settings', { token: admin.token })).body).toEqual(second.body);
  });

  it('records the admin who changed the settings last', async () => {
    const other = await createAdmin(app);
    const res = await app.request('PATCH', '/api/push-settings', { token: other.token, body: { enabled: true } });
    expect(res.body.updated_by_user_id).toBe(other.id);
  });

  it('is_default is true again when the stored values equal the defaults', async () => {
    await app.request('POST', '/api/push-settings/reset', { token: admin.token });
    await app.request('PATCH', '/api/push-settings', { token: admin.token, body: { enabled: false } });
    const back = await app.request('PATCH', '/api/push-settings', { token: admin.token, body: { enabled: true } });
    expect(back.body).toMatchObject({ is_default: true, updated_by_user_id: admin.id });
    expect(back.body.updated_at).not.toBeNull();
  });

  it.each([
    ['issuance.templates.title_template', { issuance: { templates: { title_template: '{{ match.home_team' } } }],
    ['issuance.templates.body_template', { issuance: { templates: { body_template: '{% if question.is_pivotal_moment %}x' } } }],
    ['resolution.templates.title_template', { resolution: { templates: { title_template: '{{ result.points | no_such_filter }}' } } }],
    ['resolution.templates.body_template', { resolution: { templates: { body_template: '{% for %}' } } }],
  ])('answers 400 naming %s when a template does not compile, and stores nothing', async (field, body) => {
    await app.request('POST', '/api/push-settings/reset', { token: admin.token });
    await app.request('PATCH', '/api/push-settings', { token: admin.token, body: { max_per_user_per_match: 7 } });
    const before = await app.request('GET', '/api/push-settings', { token: admin.token });
    const res = await app.request('PATCH', '/api/push-settings', { token: admin.token, body: { ...body, enabled: false } });
    expectError(res, pushErrors.templateInvalid);
    expect(res.body.detail).toMatch(new RegExp(`^${field.replace(/\./g, '\\.')}: does not parse`));
    expect((await app.request('GET', '/api/push-settings', { token: admin.token })).body).toEqual(before.body);
  });

  it('a 400 on the first change leaves no row behind', async () => {
    await app.request('POST', '/api/push-settings/reset', { token: admin.token });
    const res = await app.request('PATCH', '/api/push-settings', { token: admin.token, body: { issuance: { templates: { body_template: '{{' } } } });
    expectError(res, pushErrors.templateInvalid);
    expect(await db().select().from(pushSettings)).toEqual([]);
  });

  it.each([
    ['an empty patch', {}],
    ['an unknown field', { colour: 'red' }],
    ['an unknown nested field', { issuance: { sound: true } }],
    ['a negative cap', { max_per_user_per_match: -1 }],
    ['a cap above 1000', { max_per_user_per_match: 1001 }],
    ['a non-integer seconds', { issuance: { min_seconds_remaining: 1.5 } }],
    ['an empty template', { resolution: { templates: { body_template: '' } } }],
    ['a null section', { issuance: null }],
  ])('PATCH answers 422 for %s', async (_what, body) => {
    const res = await app.request('PATCH', '/api/push-settings', { token: admin.token, body });
    expect(res.status).toBe(422);
  });

  it('POST /reset restores the code defaults (the row goes)', async () => {
    await app.request('PATCH', '/api/push-settings', { token: admin.token, body: { enabled: false, issuance: { min_seconds_remaining: 30 } } });
    const res = await app.request('POST', '/api/push-settings/reset', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      stored_settings: PUSH_SETTINGS_DEFAULTS,
      defaults: PUSH_SETTINGS_DEFAULTS,
      is_default: true,
      updated_at: null,
      updated_by_user_id: null,
    });
    expect(await db().select().from(pushSettings)).toEqual([]);
    expect((await app.request('POST', '/api/push-settings/reset', { token: admin.token })).status).toBe(200);
  });

  it('serializes concurrent patches: every change lands', async () => {
    await app.request('POST', '/api/push-settings/reset', { token: admin.token });
    const patches = [
      { enabled: false },
      { max_per_user_per_match: 5 },
      { issuance: { pivotal_only: true } },
      { issuance: { min_seconds_remaining: 25 } },
      { resolution: { only_answered: false } },
    ];
    const results = await Promise.all(patches.map((body) => app.request('PATCH', '/api/push-settings', { token: admin.token, body })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const res = await app.request('GET', '/api/push-settings', { token: admin.token });
    expect(res.body.stored_settings).toMatchObject({
      enabled: false,
      max_per_user_per_match: 5,
      issuance: { pivotal_only: true, min_seconds_remaining: 25 },
      resolution: { only_answered: false },
    });
    await app.request('POST', '/api/push-settings/reset', { token: admin.token });
  });

  it('reads a stored row missing newer keys through the defaults', async () => {
    await db()
      .insert(pushSettings)
      .values({ id: 1, settings: { enabled: false, issuance: { pivotal_only: true } } })
      .onConflictDoUpdate({ target: pushSettings.id, set: { settings: { enabled: false, issuance: { pivotal_only: true } } } });
    const res = await app.request('GET', '/api/push-settings', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.stored_settings).toEqual({
      ...PUSH_SETTINGS_DEFAULTS,
      enabled: false,
      issuance: { ...PUSH_SETTINGS_DEFAULTS.issuance, pivotal_only: true },
    });
    await app.request('POST', '/api/push-settings/reset', { token: admin.token });
  });
});

describe('GET /api/push-delivery-attempts', () => {
  let alice: TestUser;
  let bob: TestUser;
  let issuanceId: string;

  beforeAll(async () => {
    alice = await registerUser(app, { email: 'Alice.Push@Example.com' });
    bob = await registerUser(app);
    const match = await createMatch(app);
    issuanceId = (await insertIssuance(app, { matchId: match.id })).id;
    const t0 = Date.now() - 60_000;
    const row = (userId: string, i: number, extra: Partial<typeof pushDeliveryAttempts.$inferInsert> = {}): typeof pushDeliveryAttempts.$inferInsert => ({
      userId,
      deviceId: `dev-${i}`,
      platform: 'web',
      provider: 'log',
      event: 'issuance',
      questionIssuanceId: issuanceId,
      status: 'delivered',
      title: `title ${i}`,
      body: `body ${i}`,
      createdAt: new Date(t0 + i * 1000),
      ...extra,
    });
    await db()
      .insert(pushDeliveryAttempts)
      .values([
        row(alice.id, 1),
        row(bob.id, 2, { status: 'failed', statusCode: 500, error: 'push service answered 500', provider: 'webpush' }),
        row(alice.id, 3, { status: 'skipped', deviceId: null, platform: null, error: 'enabled: push notifications are turned off', event: 'resolution' }),
        row(alice.id, 4),
      ]);
  });

  it("lists a user's attempts newest first, by user_id", async () => {
    const res = await app.request('GET', '/api/push-delivery-attempts', { token: admin.token, query: { user_id: alice.id } });
    expect(res.status).toBe(200);
    expect(res.body.map((a: { title: string }) => a.title)).toEqual(['title 4', 'title 3', 'title 1']);
    expect(res.body[1]).toMatchObject({
      user_id: alice.id,
      device_id: null,
      platform: null,
      provider: 'log',
      event: 'resolution',
      question_issuance_id: issuanceId,
      status: 'skipped',
      status_code: null,
      error: 'enabled: push notifications are turned off',
    });
  });

  it('finds the user by email without regard to case (exact, not a substring)', async () => {
    const res = await app.request('GET', '/api/push-delivery-attempts', { token: admin.token, query: { email: 'ALICE.push@example.COM' } });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(3);
    expectError(await app.request('GET', '/api/push-delivery-attempts', { token: admin.token, query: { email: 'alice.push@example' } }), userErrors.notFound);
    expectError(await app.request('GET', '/api/push-delivery-attempts', { token: admin.token, query: { email: '%@example.com' } }), userErrors.notFound);
  });

  it('answers 404 when no user matches the id, or the id and email name different users', async () => {
    const res = await app.request('GET', '/api/push-delivery-attempts', { token: admin.token, query: { user_id: '00000000-0000-4000-8000-000000000000' } });
    expectError(res, userErrors.notFound);
    expectError(
      await app.request('GET', '/api/push-delivery-attempts', { token: admin.token, query: { user_id: bob.id, email: alice.email } }),
      userErrors.notFound,
    );
    expect(
      (await app.request('GET', '/api/push-delivery-attempts', { token: admin.token, query: { user_id: alice.id, email: alice.email } })).body,
    ).toHaveLength(3);
  });

  it("answers everyone's latest attempts without a filter, up to limit", async () => {
    const res = await app.request('GET', '/api/push-delivery-attempts', { token: admin.token, query: { limit: 2 } });
    expect(res.status).toBe(200);
    expect(res.body.map((a: { title: string }) => a.title)).toEqual(['title 4', 'title 3']);
    const bobs = await app.request('GET', '/api/push-delivery-attempts', { token: admin.token, query: { user_id: bob.id } });
    expect(bobs.body).toEqual([expect.objectContaining({ status: 'failed', status_code: 500, provider: 'webpush', error: 'push service answered 500' })]);
  });

  it('answers 422 for a malformed user id, a limit out of range or an unknown parameter', async () => {
    for (const query of [{ user_id: 'nope' }, { limit: 0 }, { limit: 501 }, { user: alice.id }]) {
      expect((await app.request('GET', '/api/push-delivery-attempts', { token: admin.token, query })).status).toBe(422);
    }
  });

  it("keeps a deleted user's attempts out (they go with the user)", async () => {
    const gone = await registerUser(app);
    await db().insert(pushDeliveryAttempts).values({ userId: gone.id, provider: 'log', event: 'issuance', status: 'delivered', title: 't', body: 'b' });
    await db().delete(users).where(eq(users.id, gone.id));
    expectError(await app.request('GET', '/api/push-delivery-attempts', { token: admin.token, query: { user_id: gone.id } }), userErrors.notFound);
  });
});

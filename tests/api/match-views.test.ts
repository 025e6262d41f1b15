/**
 * The two views of a match: players and anonymous callers get the player
 * view, admins the operator view, in the list and in the single read
 * (GET /api/matches/{match_id}); test matches stay unlisted in both. The
 * feed URL an operator attaches with PATCH (validated; private addresses
 * only when allowed). And the question issuances of a match by kind.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { matchErrors } from '../../src/modules/matches/matches.errors.js';
import { matches } from '../../src/modules/matches/matches.table.js';
import { questionSponsorships } from '../../src/modules/sponsorships/sponsorships.table.js';
import { brands } from '../../src/modules/brands/brands.table.js';
import { insertIssuance } from '../helpers/engine-rows.js';
import { expectError } from '../helpers/errors.js';
import { createMatch, follow, UNKNOWN_ID } from '../helpers/factories.js';
import { createAdmin, registerUser, startTestApp } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const { app, admin, player } = useTestApp({ player: true });

/** The player view's fields, exactly: nothing about settings, listeners, feeds or provider ids. */
const PLAYER_FIELDS = [
  'view',
  'id',
  'league',
  'home_team',
  'away_team',
  'scheduled',
  'status',
  'period',
  'clock_seconds',
  'home_score',
  'away_score',
  'is_test',
  'sponsor_brand',
  'question_max_count',
  'question_issuance_count',
  'pivotal_moment_issuance_count',
  'is_followed',
].sort();

const OPERATOR_ONLY = [
  'sr_id',
  'league_id',
  'overrides',
  'question_definition_allowlist',
  'match_question_definition_allowlist',
  'listener_events_archived',
  'auto_dispatch_listener',
  'feed_url',
  'sponsor_brand_id',
  'sponsored_question_count',
  'cloned_from_match_id',
  'created_by_user_id',
  'created_at',
  'updated_at',
];

const DAY = 86_400_000;
let year = 2700;
const ownRange = () => {
  const start = Date.UTC(year++, 0, 1);
  return { scheduled_from: new Date(start).toISOString(), scheduled_to: new Date(start + 365 * DAY).toISOString(), at: (ms: number) => new Date(start + ms) };
};

const get = (id: string, token: string | null = null) => app.request('GET', `/api/matches/${id}`, { token });

async function sponsoredMatch(scheduled: Date) {
  const [brand] = await app.services.database.db
    .insert(brands)
    .values({ name: `Views brand ${year}-${Math.random()}`, primaryColor: '#112233' })
    .returning();
  const match = await createMatch(app, {
    scheduled,
    status: 'live',
    period: '2',
    clockSeconds: 3100,
    homeScore: 1,
    awayScore: 0,
    sponsorBrandId: brand!.id,
    feedUrl: 'https://feeds.example.com/wc/views',
    questionPoints: 25,
    questionDefinitionAllowlist: [],
  });
  await app.services.database.db.insert(questionSponsorships).values({ brandId: brand!.id, matchId: match.id, strategy: 'next_available' });
  return { match, brand: brand! };
}

describe('GET /api/matches: the view depends on the caller', () => {
  it('gives players and anonymous callers the player view, admins the operator view', async () => {
    const { at, ...range } = ownRange();
    const { match, brand } = await sponsoredMatch(at(0));
    await insertIssuance(app, { matchId: match.id });
    await insertIssuance(app, { matchId: match.id, isPivotalMoment: true });
    await follow(app, player.id, match.id);

    for (const token of [null, player.token]) {
      const res = await app.request('GET', '/api/matches', { query: range, token });
      expect(res.status).toBe(200);
      const [row] = res.body;
      expect(Object.keys(row).sort()).toEqual(PLAYER_FIELDS);
      expect(row).toMatchObject({
        view: 'player',
        id: match.id,
        status: 'live',
        period: '2',
        clock_seconds: 3100,
        home_score: 1,
        away_score: 0,
        question_max_count: 10,
        question_issuance_count: 1,
        pivotal_moment_issuance_count: 1,
        is_followed: token ? true : null,
      });
      expect(row.sponsor_brand).toMatchObject({ id: brand.id, name: brand.name });
    }
    const res = await app.request('GET', '/api/matches', { query: range, token: admin.token });
    const [row] = res.body;
    expect(row.view).toBe('operator');
    for (const field of OPERATOR_ONLY) expect(row).toHaveProperty(field);
    expect(row).toMatchObject({ feed_url: 'https://feeds.example.com/wc/views', sponsored_question_count: 1, question_definition_allowlist: [] });
    expect(row.overrides.question_points).toBe(25);
  });
});

describe('GET /api/matches/{match_id}', () => {
  it('answers anyone with the player view, is_followed with a key (a key that does not authenticate counts as none)', async () => {
    const { match } = await sponsoredMatch(new Date(Date.now() + DAY));
    const outsider = await registerUser(app);
    await follow(app, player.id, match.id);
    const anonymous = await get(match.id);
    expect(anonymous.status).toBe(200);
    expect(Object.keys(anonymous.body).sort()).toEqual(PLAYER_FIELDS);
    expect(anonymous.body).toMatchObject({ view: 'player', id: match.id, home_team: 'Team A', away_team: 'Team B', is_followed: null });
    expect((await get(match.id, player.token)).body.is_followed).toBe(true);
    expect((await get(match.id, outsider.token)).body.is_followed).toBe(false);
    expect((await get(match.id, 'qp_not-a-real-key')).body.is_followed).toBeNull();
    // The same as the list says.
    const listed = await app.request('GET', '/api/matches', {
      query: { scheduled_from: new Date(match.scheduled.getTime() - 1).toISOString(), scheduled_to: new Date(match.scheduled.getTime() + 1).toISOString() },
      token: player.token,
    });
    expect(listed.body.find((m: { id: string }) => m.id === match.id)).toEqual((await get(match.id, player.token)).body);
  });

  it('answers admins with the operator view and the question sponsorship slots', async () => {
    const { match, brand } = await sponsoredMatch(new Date(Date.now() + DAY));
    const res = await get(match.id, admin.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      view: 'operator',
      id: match.id,
      sr_id: match.srId,
      feed_url: 'https://feeds.example.com/wc/views',
      sponsor_brand_id: brand.id,
      is_followed: false,
    });
    expect(res.body.question_sponsorships).toMatchObject([{ brand_id: brand.id, match_id: match.id }]);
  });

  it('answers 404 for an unknown match, and for a test match to anyone but admins and its followers', async () => {
    expectError(await get(UNKNOWN_ID), matchErrors.notFound);
    expectError(await get(UNKNOWN_ID, admin.token), matchErrors.notFound);
    const test = await createMatch(app, { isTest: true, scheduled: new Date() });
    const tester = await registerUser(app);
    await follow(app, tester.id, test.id);
    expectError(await get(test.id), matchErrors.notFound);
    expectError(await get(test.id, player.token), matchErrors.notFound);
    expect((await get(test.id, tester.token)).body).toMatchObject({ view: 'player', id: test.id, is_test: true, is_followed: true });
    expect((await get(test.id, admin.token)).body).toMatchObject({ view: 'operator', is_test: true });
  });
});

describe('PATCH /api/matches/{match_id}: feed_url', () => {
  const patch = (id: string, body: unknown) => app.request('PATCH', `/api/matches/${id}`, { token: admin.token, body });
  const stored = async (id: string) =>
    (await app.services.database.db.select({ feedUrl: matches.feedUrl }).from(matches).where(eq(matches.id, id)))[0]!.feedUrl;

  it('attaches a feed, shows it in the operator view, and null detaches it', async () => {
    const match = await createMatch(app);
    const set = await patch(match.id, { feed_url: 'https://feeds.example.com/wc/match-1?format=ndjson' });
    expect(set.status, set.text).toBe(200);
    expect(set.body.feed_url).toBe('https://feeds.example.com/wc/match-1?format=ndjson');
    expect(await stored(match.id)).toBe('https://feeds.example.com/wc/match-1?format=ndjson');
    expect((await get(match.id, admin.token)).body.feed_url).toBe('https://feeds.example.com/wc/match-1?format=ndjson');
    expect((await get(match.id, player.token)).body).not.toHaveProperty('feed_url');
    const cleared = await patch(match.id, { feed_url: null });
    expect(cleared.body.feed_url).toBeNull();
    expect(await stored(match.id)).toBeNull();
  });

  it('refuses what is not an http(s) URL, credentials in it (400), and an empty or over-long value (422); nothing is stored', async () => {
    const match = await createMatch(app, { feedUrl: 'https://feeds.example.com/kept' });
    const refused: [unknown, number, RegExp][] = [
      ['not a url', 400, /not a URL/],
      ['ftp://feeds.example.com/x', 400, /http or https/],
      ['file:///etc/passwd', 400, /http or https/],
      ['javascript:alert(1)', 400, /http or https/],
      ['https://user:secret@feeds.example.com/x', 400, /user name or password/],
      ['https://feeds.example.com/x?api_key=abc', 400, /credentials.*api_key/],
      ['https://feeds.example.com/x?access-token=abc', 400, /credentials.*access-token/],
      [' https://feeds.example.com/x', 400, /spaces/],
      ['', 422, /./],
      [`https://feeds.example.com/${'x'.repeat(2048)}`, 422, /./],
      [42, 422, /./],
    ];
    for (const [value, status, detail] of refused) {
      const res = await patch(match.id, { feed_url: value });
      if (status === 400) expectError(res, matchErrors.invalidFeedUrl);
      else expect(res.status, `${String(value).slice(0, 40)}: ${res.text}`).toBe(status);
      // The message says what is wrong with the URL.
      expect(JSON.stringify(res.body.detail)).toMatch(detail);
    }
    expect(await stored(match.id)).toBe('https://feeds.example.com/kept');
    // Nothing else of the patch is written either.
    expectError(await patch(match.id, { question_points: 7, feed_url: 'gopher://x' }), matchErrors.invalidFeedUrl);
    expect((await app.services.database.db.select().from(matches).where(eq(matches.id, match.id)))[0]!.questionPoints).toBeNull();
  });

  it('takes loopback and private feeds only where they are allowed (FEED_ALLOW_PRIVATE_ADDRESSES; development and test by default)', async () => {
    expect(loadConfig({ APP_ENV: 'development' }).engine.feedAllowPrivateAddresses).toBe(true);
    expect(loadConfig({ APP_ENV: 'test' }).engine.feedAllowPrivateAddresses).toBe(true);
    expect(loadConfig({ APP_ENV: 'staging' }).engine.feedAllowPrivateAddresses).toBe(false);
    expect(loadConfig({ APP_ENV: 'main' }).engine.feedAllowPrivateAddresses).toBe(false);
    expect(loadConfig({ APP_ENV: 'main', FEED_ALLOW_PRIVATE_ADDRESSES: 'true' }).engine.feedAllowPrivateAddresses).toBe(true);
    expect(() => loadConfig({ FEED_ALLOW_PRIVATE_ADDRESSES: 'sometimes' })).toThrow(/FEED_ALLOW_PRIVATE_ADDRESSES/);

    // This app (APP_ENV=test) allows them: the tests serve feeds on loopback.
    const here = await createMatch(app);
    expect((await patch(here.id, { feed_url: 'http://127.0.0.1:9000/feed' })).status).toBe(200);

    const strict = await startTestApp({ config: { engine: { ...loadConfig({ APP_ENV: 'test' }).engine, feedAllowPrivateAddresses: false } } });
    try {
      const strictAdmin = await createAdmin(strict);
      const match = await createMatch(strict);
      for (const url of [
        'http://127.0.0.1:9000/feed',
        'http://[::1]/feed',
        'http://10.1.2.3/feed',
        'http://192.168.0.10/feed',
        'http://169.254.169.254/latest',
        'http://localhost:8000/feed',
        'http://feeds.internal/x',
        'http://feedhost/x',
        'http://[::ffff:127.0.0.1]/x',
        // IPv4-compatible, NAT64, 6to4 and the other ways of writing a private address (tests/http/public-address.test.ts has them all)
        'http://[::127.0.0.1]/x',
        'http://[::a9fe:a9fe]/latest',
        'http://[64:ff9b::a9fe:a9fe]/latest',
        'http://[2002:7f00:1::]/x',
        'http://2130706433/x',
        'http://0x7f.1/x',
      ]) {
        const res = await strict.request('PATCH', `/api/matches/${match.id}`, { token: strictAdmin.token, body: { feed_url: url } });
        expectError(res, matchErrors.invalidFeedUrl);
        expect(res.body.detail, url).toMatch(/public host/);
      }
      const ok = await strict.request('PATCH', `/api/matches/${match.id}`, { token: strictAdmin.token, body: { feed_url: 'https://feeds.example.com/wc/1' } });
      expect(ok.status).toBe(200);
    } finally {
      await strict.close();
    }
  });

  it('is for admins only (401 without a key, 403 for a player)', async () => {
    const match = await createMatch(app);
    expect((await app.request('PATCH', `/api/matches/${match.id}`, { body: { feed_url: null } })).status).toBe(401);
    expect((await app.request('PATCH', `/api/matches/${match.id}`, { token: player.token, body: { feed_url: null } })).status).toBe(403);
  });
});

describe('GET /api/matches/{match_id}/question-issuances: kind', () => {
  it('lists in-game questions by default, Match questions with kind=match, both with kind=all (in issue order)', async () => {
    const match = await createMatch(app, { status: 'live' });
    const t = Date.now() - 3_600_000;
    const pre = await insertIssuance(app, {
      matchId: match.id,
      kind: 'match',
      triggerEventId: null,
      status: 'locked',
      issuedAt: new Date(t),
      closesAt: new Date(t + 1000),
    });
    const preResolved = await insertIssuance(app, {
      matchId: match.id,
      kind: 'match',
      triggerEventId: null,
      status: 'resolved',
      correctAnswerIdentifier: 'home',
      issuedAt: new Date(t + 1),
      resolvedAt: new Date(),
    });
    const live = await insertIssuance(app, { matchId: match.id, status: 'open', issuedAt: new Date(t + 2) });
    const liveResolved = await insertIssuance(app, { matchId: match.id, status: 'voided', issuedAt: new Date(t + 3), resolvedAt: new Date() });
    const list = async (kind: string | undefined, token: string) => {
      const res = await app.request('GET', `/api/matches/${match.id}/question-issuances`, { token, query: kind ? { kind } : {} });
      expect(res.status, res.text).toBe(200);
      return res.body.map((i: { id: string }) => i.id);
    };
    expect(await list(undefined, admin.token)).toEqual([live.id, liveResolved.id]);
    expect(await list('in_game', admin.token)).toEqual([live.id, liveResolved.id]);
    expect(await list('match', admin.token)).toEqual([pre.id, preResolved.id]);
    expect(await list('all', admin.token)).toEqual([pre.id, preResolved.id, live.id, liveResolved.id]);
    // Players: settled ones only, of either kind.
    expect(await list('match', player.token)).toEqual([preResolved.id]);
    expect(await list('all', player.token)).toEqual([preResolved.id, liveResolved.id]);
    const bad = await app.request('GET', `/api/matches/${match.id}/question-issuances`, { token: admin.token, query: { kind: 'pregame' } });
    expect(bad.status).toBe(422);
  });
});

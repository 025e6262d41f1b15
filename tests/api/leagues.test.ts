import { describe, expect, it } from 'vitest';
import { SUPPORTED_LEAGUES } from '../../src/domain/sports/league-registry.js';
import { leagueErrors } from '../../src/modules/leagues/leagues.errors.js';
import { expectError } from '../helpers/errors.js';
import { useTestApp } from '../helpers/use-test-app.js';

const { app, admin, player } = useTestApp({ player: true });

describe('GET /api/leagues', () => {
  it('lists every supported league, seeded, with lowercase slugs, ordered by slug, without credentials', async () => {
    const res = await app.request('GET', '/api/leagues');
    expect(res.status).toBe(200);
    const slugs = res.body.map((l: { slug: string }) => l.slug);
    expect(slugs).toEqual([...SUPPORTED_LEAGUES.map((l) => l.slug)].sort());
    expect(slugs).toEqual(expect.arrayContaining(['wc', 'nfl', 'nba', 'mlb', 'nhl']));
    for (const slug of slugs) expect(slug).toMatch(/^[a-z]+$/);
    const wc = res.body.find((l: { slug: string }) => l.slug === 'wc');
    expect(wc).toMatchObject({ sport: 'football', periods: ['1', '2', 'et1', 'et2', 'pen'], default_question_period_distribution: { '1': 5, '2': 5 } });
  });
});

describe('GET /api/leagues/{league_id}', () => {
  it('finds a league by id and by slug', async () => {
    const bySlug = await app.request('GET', '/api/leagues/nfl');
    expect(bySlug.status).toBe(200);
    const byId = await app.request('GET', `/api/leagues/${bySlug.body.id}`);
    expect(byId.body).toEqual(bySlug.body);
  });

  it('answers 404 naming the league', async () => {
    const res = await app.request('GET', '/api/leagues/xfl');
    expectError(res, leagueErrors.notFound);
    expect(res.body.detail).toContain('xfl');
    expectError(await app.request('GET', '/api/leagues/00000000-0000-4000-8000-000000000000'), leagueErrors.notFound);
  });
});

describe('PATCH /api/leagues/{league_id}', () => {
  it('changes only the fields sent', async () => {
    const before = (await app.request('GET', '/api/leagues/nhl')).body;
    const res = await app.request('PATCH', '/api/leagues/nhl', {
      token: admin.token,
      body: { default_answer_window_seconds: 33, default_question_period_distribution: { '1': 2, '3': 7 } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...before,
      default_answer_window_seconds: 33,
      default_question_period_distribution: { '1': 2, '3': 7 },
      updated_at: res.body.updated_at,
    });
    expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(before.updated_at));
    const again = await app.request('PATCH', '/api/leagues/nhl', { token: admin.token, body: { default_question_points: 25 } });
    expect(again.body).toMatchObject({
      default_answer_window_seconds: 33,
      default_question_points: 25,
      default_question_max_count: before.default_question_max_count,
    });
  });

  it.each([
    ['an array', [1, 2]],
    ['a string', 'five'],
    ['null', null],
    ['a fractional value', { '1': 2.5 }],
    ['a numeric string value', { '1': '3' }],
    ['a negative value', { '2': -1 }],
    ['an unknown period', { q1: 3 }],
  ])('answers 400 for a period distribution that is %s, changing nothing', async (_label, value) => {
    const before = (await app.request('GET', '/api/leagues/wc')).body;
    const res = await app.request('PATCH', '/api/leagues/wc', {
      token: admin.token,
      body: { default_question_period_distribution: value, default_question_points: 99 },
    });
    expectError(res, leagueErrors.periodDistributionInvalid);
    expect(res.body.detail).toContain('default_question_period_distribution');
    expect((await app.request('GET', '/api/leagues/wc')).body).toEqual(before);
  });

  it('answers 422 for fields that are not league defaults or break their bounds', async () => {
    expect((await app.request('PATCH', '/api/leagues/wc', { token: admin.token, body: { slug: 'x' } })).status).toBe(422);
    expect((await app.request('PATCH', '/api/leagues/wc', { token: admin.token, body: { default_answer_window_seconds: 0 } })).status).toBe(422);
    expect((await app.request('PATCH', '/api/leagues/wc', { token: admin.token, body: {} })).status).toBe(422);
  });

  it('needs an admin: 401 without a key, 403 for a player', async () => {
    expect((await app.request('PATCH', '/api/leagues/wc', { body: { default_question_points: 1 } })).status).toBe(401);
    const res = await app.request('PATCH', '/api/leagues/wc', { token: player.token, body: { default_question_points: 1 } });
    expect(res.status).toBe(403);
  });

  it('answers 404 for an unknown league', async () => {
    expectError(await app.request('PATCH', '/api/leagues/xfl', { token: admin.token, body: { default_question_points: 1 } }), leagueErrors.notFound);
  });
});

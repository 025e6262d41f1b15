import { describe, expect, it } from 'vitest';
import { inheritanceErrors } from '../../src/modules/inheritance/inheritance.errors.js';
import { leagueErrors } from '../../src/modules/leagues/leagues.errors.js';
import { expectError } from '../helpers/errors.js';
import { createInLeague, inGameDefinitionInput, matchDefinitionInput } from '../helpers/definitions.js';
import { UNKNOWN_ID } from '../helpers/factories.js';
import { registerUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const { app, admin } = useTestApp();

const post = (path: string, league: string, body: unknown) => createInLeague(app, admin, path, league, body);
const inspect = (league: string, query: Record<string, string> = {}) =>
  app.request('GET', `/api/leagues/${league}/question-inheritance`, { token: admin.token, query });
const row = (body: { matrix: { definition_id: string }[] }, id: string) => body.matrix.find((r) => r.definition_id === id) as Record<string, any>;

describe('GET /api/leagues/{league_id}/question-inheritance', () => {
  it('shows the league defaults, groups and definitions, and each effective setting with its source', async () => {
    await app.request('PATCH', '/api/leagues/nba', {
      token: admin.token,
      body: { default_answer_window_seconds: 40, default_min_answer_seconds: 8, default_question_points: 7, default_question_probability: 0.5 },
    });
    const group = await post('/api/question-groups', 'nba', { slug: 'scoring', name: 'Scoring', points: 12, min_interval_seconds: 45, min_answer_seconds: 6 });
    const plain = await post('/api/question-definitions', 'nba', inGameDefinitionInput({ trigger: { event_type: 'score_change' } }));
    const grouped = await post(
      '/api/question-definitions',
      'nba',
      inGameDefinitionInput({ group_id: group.id, answer_window_seconds: 25, trigger: { event_type: 'score_change' } }),
    );
    const own = await post(
      '/api/question-definitions',
      'nba',
      inGameDefinitionInput({ group_id: group.id, min_answer_seconds: 0, trigger: { event_type: 'score_change' } }),
    );
    const res = await inspect('nba');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      kind: 'in_game',
      match_id: null,
      match_overrides: null,
      league: { slug: 'nba', default_min_answer_seconds: 8 },
      league_defaults: { answer_window_seconds: 40, min_answer_seconds: 8, points: 7, probability: 0.5, question_max_count: 16 },
      match_settings: { question_max_count: { value: 16, source: 'league' }, period_distribution: { source: 'league' } },
      issuances: [],
    });
    expect(res.body.groups.map((g: { id: string }) => g.id)).toEqual([group.id]);
    expect(row(res.body, plain.id)).toMatchObject({
      included: { value: true, source: 'definition' },
      answer_window_seconds: { value: 40, source: 'league' },
      min_answer_seconds: { value: 8, source: 'league' },
      points: { value: 7, source: 'league' },
      probability: { value: 0.5, source: 'league' },
      min_interval_seconds: { value: 90, source: 'league' },
    });
    expect(row(res.body, grouped.id)).toMatchObject({
      group_id: group.id,
      answer_window_seconds: { value: 25, source: 'definition' },
      min_answer_seconds: { value: 6, source: 'group' },
      points: { value: 12, source: 'group' },
      probability: { value: 0.5, source: 'league' },
      min_interval_seconds: { value: 45, source: 'group' },
    });
    expect(row(res.body, own.id).min_answer_seconds).toEqual({ value: 0, source: 'definition' });
  });

  it('derives inclusion from archive state, the league allowlist and is_active', async () => {
    const active = await post('/api/question-definitions', 'nhl', inGameDefinitionInput({ trigger: { event_type: 'score_change' } }));
    const inactive = await post('/api/question-definitions', 'nhl', inGameDefinitionInput({ is_active: false, trigger: { event_type: 'score_change' } }));
    const archived = await post('/api/question-definitions', 'nhl', inGameDefinitionInput({ trigger: { event_type: 'score_change' } }));
    await app.request('POST', `/api/question-definitions/${archived.id}/archive`, { token: admin.token });
    let res = await inspect('nhl');
    expect(row(res.body, active.id).included).toEqual({ value: true, source: 'definition' });
    expect(row(res.body, inactive.id).included).toEqual({ value: false, source: 'definition' });
    expect(row(res.body, archived.id).included).toEqual({ value: false, source: 'definition' });
    await app.request('PATCH', '/api/leagues/nhl', { token: admin.token, body: { question_definition_allowlist: [inactive.id, archived.id] } });
    res = await inspect('nhl');
    expect(row(res.body, active.id).included).toEqual({ value: false, source: 'league' });
    expect(row(res.body, inactive.id).included).toEqual({ value: true, source: 'league' });
    expect(row(res.body, archived.id).included).toEqual({ value: false, source: 'definition' });
  });

  it('restricts to definition_id, and covers Match question definitions with kind=match', async () => {
    const group = await post('/api/question-groups', 'mlb', { slug: `pre-${Date.now().toString(36)}`, name: 'Pre-game', points: 25 });
    const def = await post('/api/match-question-definitions', 'mlb', matchDefinitionInput({ points: 30, group_id: group.id }));
    const other = await post('/api/match-question-definitions', 'mlb', matchDefinitionInput());
    const grouped = await post('/api/match-question-definitions', 'mlb', matchDefinitionInput({ group_id: group.id }));
    const res = await inspect('mlb', { kind: 'match' });
    expect(res.body.kind).toBe('match');
    expect(res.body.groups.map((g: { id: string }) => g.id)).toEqual([group.id]);
    expect(row(res.body, def.id)).toMatchObject({
      group_id: group.id,
      points: { value: 30, source: 'definition' },
      included: { value: true, source: 'definition' },
      answer_window_seconds: { value: null },
    });
    expect(row(res.body, other.id).points).toEqual({ value: 10, source: 'league' });
    // The group's points, when the definition sets none.
    expect(row(res.body, grouped.id).points).toEqual({ value: 25, source: 'group' });
    expect(res.body.definitions.find((d: { id: string }) => d.id === grouped.id)).toMatchObject({ group_id: group.id });
    const one = await inspect('mlb', { kind: 'match', definition_id: def.id });
    expect(one.body.matrix.map((r: { definition_id: string }) => r.definition_id)).toEqual([def.id]);
    expect(one.body.definitions).toHaveLength(1);
  });

  it('answers 404 for an unknown league, or a definition not of that league and kind', async () => {
    expectError(await inspect('xfl'), leagueErrors.notFound);
    expectError(await inspect(UNKNOWN_ID), leagueErrors.notFound);
    const wcDef = await post('/api/question-definitions', 'wc', inGameDefinitionInput());
    expectError(await inspect('wc', { definition_id: UNKNOWN_ID }), inheritanceErrors.definitionNotFound);
    expectError(await inspect('mls', { definition_id: wcDef.id }), inheritanceErrors.definitionNotFound);
    const res = await inspect('wc', { kind: 'match', definition_id: wcDef.id });
    expectError(res, inheritanceErrors.definitionNotFound);
    expect(res.body.detail).toContain(wcDef.id);
    expect((await inspect('wc', { definition_id: wcDef.id })).status).toBe(200);
  });

  it('answers 422 for a bad kind, 401 without a key and 403 for a player', async () => {
    expect((await inspect('wc', { kind: 'pregame' })).status).toBe(422);
    expect((await app.request('GET', '/api/leagues/wc/question-inheritance')).status).toBe(401);
    const player = await registerUser(app);
    expect((await app.request('GET', '/api/leagues/wc/question-inheritance', { token: player.token })).status).toBe(403);
  });
});

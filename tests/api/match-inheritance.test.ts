import { describe, expect, it } from 'vitest';
import { inheritanceErrors } from '../../src/modules/inheritance/inheritance.errors.js';
import { matchErrors } from '../../src/modules/matches/matches.errors.js';
import { expectError } from '../helpers/errors.js';
import { createInLeague, inGameDefinitionInput, matchDefinitionInput } from '../helpers/definitions.js';
import { insertIssuance } from '../helpers/engine-rows.js';
import { createMatch, UNKNOWN_ID } from '../helpers/factories.js';
import { registerUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const { app, admin } = useTestApp();
const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 19, minute, 0));

const post = (path: string, league: string, body: unknown) => createInLeague(app, admin, path, league, body);
const inspect = (matchId: string, query: Record<string, string> = {}, token: string | null = admin.token) =>
  app.request('GET', `/api/matches/${matchId}/question-inheritance`, { token, query });
const row = (body: { matrix: { definition_id: string }[] }, id: string) => body.matrix.find((r) => r.definition_id === id) as Record<string, any>;
const trace = (step: string, passed = true) => ({ step, passed, detail: `${step} ok` });

describe('GET /api/matches/{match_id}/question-inheritance', () => {
  it('inspects the match league with the match overrides taking precedence', async () => {
    const group = await post('/api/question-groups', 'mls', { slug: 'goals', name: 'Goals', points: 12 });
    const def = await post('/api/question-definitions', 'mls', inGameDefinitionInput({ group_id: group.id }));
    const excluded = await post('/api/question-definitions', 'mls', inGameDefinitionInput());
    const match = await createMatch(app, {
      league: 'mls',
      questionMaxCount: 4,
      questionPoints: 25,
      answerWindowSeconds: 33,
      minAnswerSeconds: 20,
      questionDefinitionAllowlist: [def.id],
    });
    const res = await inspect(match.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      kind: 'in_game',
      match_id: match.id,
      league: { slug: 'mls' },
      match_overrides: { question_max_count: 4, question_points: 25, answer_window_seconds: 33, min_answer_seconds: 20, question_min_interval_seconds: null },
      match_settings: { question_max_count: { value: 4, source: 'match' }, min_interval_seconds: { source: 'league' } },
      issuances: [],
    });
    expect(res.body.groups.map((g: { id: string }) => g.id)).toEqual([group.id]);
    expect(row(res.body, def.id)).toMatchObject({
      included: { value: true, source: 'match' },
      points: { value: 25, source: 'match' },
      answer_window_seconds: { value: 33, source: 'match' },
      min_answer_seconds: { value: 20, source: 'match' },
    });
    expect(row(res.body, excluded.id).included).toEqual({ value: false, source: 'match' });
    // The league inspection is unchanged by the match.
    const league = await app.request('GET', '/api/leagues/mls/question-inheritance', { token: admin.token });
    expect(row(league.body, def.id).points).toEqual({ value: 12, source: 'group' });
  });

  it('adds the decision trace of each issuance of the kind, in issue order, narrowed by definition_id', async () => {
    const a = await post('/api/question-definitions', 'wc', inGameDefinitionInput());
    const b = await post('/api/question-definitions', 'wc', inGameDefinitionInput());
    const m = await post('/api/match-question-definitions', 'wc', matchDefinitionInput());
    const match = await createMatch(app);
    const later = await insertIssuance(app, {
      matchId: match.id,
      definitionId: a.id,
      issuedAt: at(20),
      decisionTrace: [trace('listener_running'), trace('min_interval')],
    });
    const first = await insertIssuance(app, {
      matchId: match.id,
      definitionId: b.id,
      issuedAt: at(5),
      decisionTrace: [trace('listener_running'), trace('definition_allowed')],
    });
    const third = await insertIssuance(app, { matchId: match.id, definitionId: a.id, issuedAt: at(30), status: 'resolved' });
    const pre = await insertIssuance(app, {
      matchId: match.id,
      kind: 'match',
      matchQuestionDefinitionId: m.id,
      triggerEventId: null,
      issuedAt: at(0),
      decisionTrace: [trace('render')],
    });
    const other = await createMatch(app);
    await insertIssuance(app, { matchId: other.id, definitionId: a.id, issuedAt: at(1) });

    const res = await inspect(match.id);
    expect(res.status).toBe(200);
    expect(res.body.issuances).toEqual([
      { question_issuance_id: first.id, definition_id: b.id, issued_at: at(5).toISOString(), steps: [trace('listener_running'), trace('definition_allowed')] },
      { question_issuance_id: later.id, definition_id: a.id, issued_at: at(20).toISOString(), steps: [trace('listener_running'), trace('min_interval')] },
      { question_issuance_id: third.id, definition_id: a.id, issued_at: at(30).toISOString(), steps: [] },
    ]);
    const onlyA = await inspect(match.id, { definition_id: a.id });
    expect(onlyA.body.issuances.map((i: { question_issuance_id: string }) => i.question_issuance_id)).toEqual([later.id, third.id]);
    expect(onlyA.body.matrix.map((r: { definition_id: string }) => r.definition_id)).toEqual([a.id]);
    const matchKind = await inspect(match.id, { kind: 'match' });
    expect(matchKind.body.kind).toBe('match');
    expect(matchKind.body.issuances).toEqual([{ question_issuance_id: pre.id, definition_id: m.id, issued_at: at(0).toISOString(), steps: [trace('render')] }]);
    expect((await inspect(match.id, { kind: 'match', definition_id: m.id })).body.issuances).toHaveLength(1);
  });

  it('answers 404 for an unknown match or a definition not of the match league and kind', async () => {
    const match = await createMatch(app);
    expectError(await inspect(UNKNOWN_ID), matchErrors.notFound);
    expectError(await inspect(match.id, { definition_id: UNKNOWN_ID }), inheritanceErrors.definitionNotFound);
    const otherLeague = await post('/api/question-definitions', 'nba', inGameDefinitionInput({ trigger: { event_type: 'score_change' } }));
    expectError(await inspect(match.id, { definition_id: otherLeague.id }), inheritanceErrors.definitionNotFound);
    const wcDef = await post('/api/question-definitions', 'wc', inGameDefinitionInput());
    expectError(await inspect(match.id, { kind: 'match', definition_id: wcDef.id }), inheritanceErrors.definitionNotFound);
  });

  it('answers 422 for bad input, 401 without a key and 403 for a player', async () => {
    const match = await createMatch(app);
    expect((await inspect(match.id, { kind: 'pregame' })).status).toBe(422);
    expect((await inspect(match.id, { definition_id: 'x' })).status).toBe(422);
    expect((await inspect('x')).status).toBe(422);
    expect((await inspect(match.id, {}, null)).status).toBe(401);
    const player = await registerUser(app);
    expect((await inspect(match.id, {}, player.token)).status).toBe(403);
  });
});

import { describe, expect, it } from 'vitest';
import { matchErrors } from '../../src/modules/matches/matches.errors.js';
import { expectError } from '../helpers/errors.js';
import { feedEvent, insertIssuance, insertListener, insertListenerEvents } from '../helpers/engine-rows.js';
import { createMatch, UNKNOWN_ID } from '../helpers/factories.js';
import { registerUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const { app, admin } = useTestApp();
const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 19, minute, 0));

const timeline = (matchId: string, query: Record<string, string | string[]> = {}, token: string | null = admin.token) =>
  app.request('GET', `/api/matches/${matchId}/event-timeline`, { token, query });
const pointIds = (body: { points: { provider_event_id: string }[] }) => body.points.map((p) => p.provider_event_id);

/**
 * A match fed by two listeners: the first consumed seq 1..6 and stopped, the
 * second (which took over) re-consumed some of it and went on to seq 8.
 */
async function fedMatch() {
  const match = await createMatch(app, { homeTeam: 'Qatar', awayTeam: 'Ecuador' });
  const first = await insertListener(app, { matchId: match.id, status: 'failed', createdAt: at(0) });
  const second = await insertListener(app, { matchId: match.id, status: 'completed', createdAt: at(30) });
  await insertListenerEvents(app, first, [
    feedEvent({ seq: 1, provider_event_id: 'e1', type: 'shot', final: false, data: { outcome: 'saved' } }),
    feedEvent({ seq: 2, provider_event_id: 'e2', type: 'corner', team: 'away' }),
    feedEvent({
      seq: 3,
      provider_event_id: 'e1',
      operation: 'update',
      type: 'shot',
      clock_seconds: 11,
      final: true,
      score: { home: 1, away: 0 },
      data: { outcome: 'goal' },
    }),
    feedEvent({ seq: 4, provider_event_id: 'e3', type: 'card' }),
    feedEvent({ seq: 5, provider_event_id: 'e3', operation: 'delete', type: 'card' }),
    feedEvent({ seq: 6, provider_event_id: 'e4', type: 'score_change', period: '2', clock_seconds: 2900, score: { home: 1, away: 0 } }),
  ]);
  await insertListenerEvents(app, second, [
    // An older version seen again after the update: the update (higher seq) stays the latest.
    feedEvent({ seq: 1, provider_event_id: 'e1', type: 'shot', final: false, data: { outcome: 'saved' } }),
    feedEvent({ seq: 6, provider_event_id: 'e4', type: 'score_change', period: '2', clock_seconds: 2900, score: { home: 1, away: 0 } }),
    feedEvent({ seq: 7, provider_event_id: 'e2', operation: 'update', type: 'corner', team: 'home' }),
    feedEvent({ seq: 8, provider_event_id: 'e5', type: 'shot', period: '2', clock_seconds: 3000, team: null }),
  ]);
  return { match, first, second };
}

describe('GET /api/matches/{match_id}/event-timeline', () => {
  it('shows the latest version of each event once, across listeners, in feed order, without deleted events', async () => {
    const { match } = await fedMatch();
    const other = await createMatch(app);
    const otherListener = await insertListener(app, { matchId: other.id });
    await insertListenerEvents(app, otherListener, [feedEvent({ seq: 1, provider_event_id: 'x1' })]);

    const res = await timeline(match.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ match_id: match.id, home_team: 'Qatar', away_team: 'Ecuador', markers: [] });
    expect(pointIds(res.body)).toEqual(['e1', 'e2', 'e4', 'e5']);
    const [e1, e2, e4, e5] = res.body.points;
    // Position of first appearance; content of the latest version.
    expect(e1).toEqual({
      seq: 1,
      provider_event_id: 'e1',
      type: 'shot',
      period: '1',
      clock_seconds: 11,
      occurred_at: new Date(Date.UTC(2026, 10, 20, 19, 0, 0) + 30_000).toISOString(),
      team: 'home',
      score: { home: 1, away: 0 },
      final: true,
    });
    expect(e2).toMatchObject({ seq: 2, type: 'corner', team: 'home' });
    expect(e4).toMatchObject({ seq: 6, type: 'score_change', period: '2', clock_seconds: 2900 });
    expect(e5).toMatchObject({ seq: 8, team: null });
  });

  it('filters the events by types but never the markers', async () => {
    const { match } = await fedMatch();
    const issuance = await insertIssuance(app, { matchId: match.id, triggerEventId: 'e2', triggerSeq: 2, issuedAt: at(2) });
    const shots = await timeline(match.id, { types: 'shot' });
    expect(shots.status).toBe(200);
    expect(pointIds(shots.body)).toEqual(['e1', 'e5']);
    expect(shots.body.markers.map((m: { question_issuance_id: string }) => m.question_issuance_id)).toEqual([issuance.id]);
    expect(pointIds((await timeline(match.id, { types: ['score_change', 'corner'] })).body)).toEqual(['e2', 'e4']);
    // A deleted event's type matches nothing; an unknown type gives no points.
    expect(pointIds((await timeline(match.id, { types: 'card' })).body)).toEqual([]);
  });

  it('marks each in-game issuance where it was issued and where it ended, sorted by feed position then time', async () => {
    const { match } = await fedMatch();
    const resolved = await insertIssuance(app, {
      matchId: match.id,
      definitionName: 'Next goal',
      questionText: 'Who scores next?',
      triggerEventId: 'e2',
      triggerSeq: 2,
      period: '1',
      clockSeconds: 20,
      issuedAt: at(2),
      status: 'resolved',
      resolvedAt: at(40),
      resolvedSeq: 6,
      resolutionEventId: 'e4',
      correctAnswerIdentifier: 'home',
    });
    const open = await insertIssuance(app, { matchId: match.id, triggerEventId: 'e3', triggerSeq: 4, period: '1', clockSeconds: 40, issuedAt: at(4) });
    const voided = await insertIssuance(app, {
      matchId: match.id,
      triggerEventId: 'e1',
      triggerSeq: 3,
      period: '1',
      clockSeconds: 11,
      issuedAt: at(3),
      status: 'voided',
      resolvedAt: at(45),
      resolvedSeq: 8,
    });
    const revoked = await insertIssuance(app, {
      matchId: match.id,
      triggerEventId: 'e5',
      triggerSeq: 8,
      period: '2',
      clockSeconds: 3000,
      issuedAt: at(50),
      status: 'revoked',
      resolvedAt: at(55),
    });
    await insertIssuance(app, {
      matchId: match.id,
      kind: 'match',
      triggerEventId: null,
      triggerSeq: null,
      issuedAt: at(1),
      status: 'resolved',
      resolvedAt: at(90),
    });

    const res = await timeline(match.id);
    expect(res.status).toBe(200);
    const summary = res.body.markers.map((m: { kind: string; question_issuance_id: string; seq: number | null }) => [m.kind, m.question_issuance_id, m.seq]);
    expect(summary).toEqual([
      ['issued', resolved.id, 2],
      ['issued', voided.id, 3],
      ['issued', open.id, 4],
      ['resolved', resolved.id, 6],
      ['voided', voided.id, 8],
      ['issued', revoked.id, 8],
      ['revoked', revoked.id, null],
    ]);
    expect(res.body.markers[0]).toEqual({
      kind: 'issued',
      question_issuance_id: resolved.id,
      definition_id: null,
      definition_name: 'Next goal',
      question_text: 'Who scores next?',
      seq: 2,
      period: '1',
      clock_seconds: 20,
      at: at(2).toISOString(),
      correct_answer_identifier: null,
    });
    // The end marker sits at the resolving event (its period and clock) with the correct answer.
    expect(res.body.markers[3]).toMatchObject({
      kind: 'resolved',
      seq: 6,
      period: '2',
      clock_seconds: 2900,
      at: at(40).toISOString(),
      correct_answer_identifier: 'home',
    });
    expect(res.body.markers[6]).toMatchObject({
      kind: 'revoked',
      seq: null,
      period: null,
      clock_seconds: null,
      at: at(55).toISOString(),
      correct_answer_identifier: null,
    });
  });

  it('answers an empty timeline for a match nothing was consumed for', async () => {
    const match = await createMatch(app, { homeTeam: 'A', awayTeam: 'B' });
    expect((await timeline(match.id)).body).toEqual({ match_id: match.id, home_team: 'A', away_team: 'B', points: [], markers: [] });
  });

  it('answers 404 for an unknown match, 422 for a bad id, 401 without a key and 403 for a player', async () => {
    const match = await createMatch(app);
    expectError(await timeline(UNKNOWN_ID), matchErrors.notFound);
    expect((await timeline('nope')).status).toBe(422);
    expect((await timeline(match.id, {}, null)).status).toBe(401);
    const player = await registerUser(app);
    expect((await timeline(match.id, {}, player.token)).status).toBe(403);
  });
});

import { describe, expect, it } from 'vitest';
import { matchErrors } from '../../src/modules/matches/matches.errors.js';
import { inGameDefinitionInput } from '../helpers/definitions.js';
import { expectError } from '../helpers/errors.js';
import { insertDenial, insertIssuance } from '../helpers/engine-rows.js';
import { createMatch, UNKNOWN_ID } from '../helpers/factories.js';
import { useTestApp } from '../helpers/use-test-app.js';

const { app, admin, player } = useTestApp({ player: true });
const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 19, minute, 0));

const issuances = (matchId: string, token: string | null) => app.request('GET', `/api/matches/${matchId}/question-issuances`, { token });
const ids = (body: { id: string }[]) => body.map((r) => r.id);

describe('GET /api/matches/{match_id}/question-issuances', () => {
  it('maps every field from the issuance row and its snapshots', async () => {
    const match = await createMatch(app);
    const def = await app.request('POST', '/api/question-definitions', { token: admin.token, query: { league: 'wc' }, body: inGameDefinitionInput() });
    expect(def.status).toBe(201);
    const brand = {
      id: '9b2f8f3e-4c1a-4d5b-8e6f-7a8b9c0d1e2f',
      name: 'Acme',
      primary_color: '#ff5500',
      secondary_color: null,
      logo_url: 'https://cdn.example.com/brands/x/acme.png',
    };
    const matchBrand = { id: '1b2f8f3e-4c1a-4d5b-8e6f-7a8b9c0d1e2f', name: 'Globex', primary_color: '#002244', secondary_color: '#ffffff', logo_url: null };
    const row = await insertIssuance(app, {
      matchId: match.id,
      definitionId: def.body.id,
      definitionName: 'Next goal (snapshot)',
      questionNumber: 3,
      status: 'resolved',
      questionText: 'Team A 1-0 Team B. Who scores next?',
      state: { score_at_issue: { home: 1, away: 0 } },
      triggerEventId: 'metrica-g1-1021',
      triggerSeq: 1021,
      period: '2',
      clockSeconds: 3127,
      issuedAt: at(52),
      closesAt: at(53),
      resolvedAt: at(70),
      resolvedSeq: 1300,
      correctAnswerIdentifier: 'away',
      points: 15,
      sponsorBrand: brand,
      matchSponsorBrand: matchBrand,
    });
    const res = await issuances(match.id, player.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: row.id,
        match_id: match.id,
        kind: 'in_game',
        definition_id: def.body.id,
        definition_name: 'Next goal (snapshot)',
        group_id: null,
        question_number: 3,
        is_pivotal_moment: false,
        status: 'resolved',
        question_text: 'Team A 1-0 Team B. Who scores next?',
        choices: [
          { identifier: 'home', label: 'Team A' },
          { identifier: 'away', label: 'Team B' },
        ],
        state: { score_at_issue: { home: 1, away: 0 } },
        trigger_event_id: 'metrica-g1-1021',
        period: '2',
        clock_seconds: 3127,
        issued_at: at(52).toISOString(),
        closes_at: at(53).toISOString(),
        resolved_at: at(70).toISOString(),
        correct_answer_identifier: 'away',
        points: 15,
        answer_count: 0,
        crowd: {
          answer_count: 0,
          choices: [
            { identifier: 'home', count: 0, percent: 0 },
            { identifier: 'away', count: 0, percent: 0 },
          ],
        },
        sponsor_brand: brand,
        match_sponsor_brand: matchBrand,
      },
    ]);
  });

  it('lists in-game issuances only, ordered by issue time then id', async () => {
    const match = await createMatch(app);
    const late = await insertIssuance(app, { matchId: match.id, status: 'resolved', issuedAt: at(30) });
    const early = await insertIssuance(app, { matchId: match.id, status: 'resolved', issuedAt: at(10) });
    const sameTimeA = await insertIssuance(app, { matchId: match.id, status: 'voided', issuedAt: at(20) });
    const sameTimeB = await insertIssuance(app, { matchId: match.id, status: 'resolved', issuedAt: at(20) });
    await insertIssuance(app, { matchId: match.id, kind: 'match', status: 'resolved', issuedAt: at(5), triggerEventId: null });
    const other = await createMatch(app);
    await insertIssuance(app, { matchId: other.id, status: 'resolved', issuedAt: at(15) });
    const res = await issuances(match.id, admin.token);
    expect(res.status).toBe(200);
    const tie = [sameTimeA.id, sameTimeB.id].sort();
    expect(ids(res.body)).toEqual([early.id, ...tie, late.id]);
    expect(res.body.every((r: { kind: string }) => r.kind === 'in_game')).toBe(true);
  });

  it('shows admins every status and players only resolved and voided ones', async () => {
    const match = await createMatch(app);
    const rows: Record<string, string> = {};
    for (const [i, status] of (['open', 'resolved', 'voided', 'revoked'] as const).entries()) {
      rows[status] = (await insertIssuance(app, { matchId: match.id, status, issuedAt: at(i) })).id;
    }
    const asAdmin = await issuances(match.id, admin.token);
    expect(asAdmin.body.map((r: { status: string }) => r.status)).toEqual(['open', 'resolved', 'voided', 'revoked']);
    const asPlayer = await issuances(match.id, player.token);
    expect(asPlayer.status).toBe(200);
    expect(ids(asPlayer.body)).toEqual([rows.resolved, rows.voided]);
  });

  it('answers an empty list for a match without issuances, 404 for an unknown match, 422 for a bad id and 401 without a key', async () => {
    const match = await createMatch(app);
    expect((await issuances(match.id, player.token)).body).toEqual([]);
    expectError(await issuances(UNKNOWN_ID, player.token), matchErrors.notFound);
    expect((await issuances('not-a-uuid', player.token)).status).toBe(422);
    expect((await issuances(match.id, null)).status).toBe(401);
    expect((await issuances(match.id, 'qp_not-a-key')).status).toBe(401);
  });
});

describe('GET /api/matches/{match_id}/question-issuance-denials', () => {
  const denials = (matchId: string, query: Record<string, string | number> = {}, token: string | null = admin.token) =>
    app.request('GET', `/api/matches/${matchId}/question-issuance-denials`, { token, query });

  it('lists the match blocked attempts newest first, with every field', async () => {
    const match = await createMatch(app);
    const older = await insertDenial(app, { matchId: match.id, createdAt: at(1), period: '1', clockSeconds: 60 });
    const newer = await insertDenial(app, {
      matchId: match.id,
      createdAt: at(2),
      failedStep: 'match_cap',
      detail: '10 of 10 questions issued',
      triggerEventId: 'metrica-g1-0412',
      triggerEventType: 'shot',
      definitionName: 'Shot after a corner',
    });
    const other = await createMatch(app);
    await insertDenial(app, { matchId: other.id, createdAt: at(3) });
    const res = await denials(match.id);
    expect(res.status).toBe(200);
    expect(res.body.denial_count).toBe(2);
    expect(ids(res.body.denials)).toEqual([newer.id, older.id]);
    expect(res.body.denials[0]).toEqual({
      id: newer.id,
      match_id: match.id,
      listener_id: null,
      definition_id: null,
      definition_name: 'Shot after a corner',
      failed_step: 'match_cap',
      detail: '10 of 10 questions issued',
      trigger_event_id: 'metrica-g1-0412',
      trigger_event_type: 'shot',
      period: null,
      clock_seconds: null,
      created_at: at(2).toISOString(),
    });
    expect(res.body.denials[1]).toMatchObject({ period: '1', clock_seconds: 60 });
  });

  it('pages (limit, default 50, and offset) with the total that match, and filters by failed_step', async () => {
    const match = await createMatch(app);
    for (let i = 0; i < 60; i++)
      await insertDenial(app, { matchId: match.id, createdAt: new Date(at(0).getTime() + i * 1000), failedStep: i % 5 === 0 ? 'probability' : 'min_interval' });
    const second = (s: number) => new Date(at(0).getTime() + s * 1000).toISOString();
    const first = await denials(match.id);
    expect(first.body.denials).toHaveLength(50);
    expect(first.body.denial_count).toBe(60);
    expect(first.body.denials[0].created_at).toBe(second(59));
    // The rest on the next page: the list says there is more, and the pages neither overlap nor skip.
    const rest = await denials(match.id, { offset: 50 });
    expect(rest.body.denials.map((d: { created_at: string }) => d.created_at)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0].map(second));
    expect(rest.body.denial_count).toBe(60);
    expect(await denials(match.id, { offset: 60 })).toMatchObject({ body: { denials: [], denial_count: 60 } });
    expect((await denials(match.id, { limit: 500 })).body.denials).toHaveLength(60);
    const three = await denials(match.id, { limit: 3, offset: 1 });
    expect(three.body.denials.map((d: { created_at: string }) => d.created_at)).toEqual([58, 57, 56].map(second));
    const probability = await denials(match.id, { failed_step: 'probability', limit: 5 });
    expect(probability.body.denial_count).toBe(12);
    expect(probability.body.denials).toHaveLength(5);
    expect(probability.body.denials.every((d: { failed_step: string }) => d.failed_step === 'probability')).toBe(true);
    expect((await denials(match.id, { failed_step: 'render' })).body).toEqual({ denials: [], denial_count: 0 });
  });

  it('answers 404 for an unknown match, 422 for a bad limit, 401 without a key and 403 for a player', async () => {
    const match = await createMatch(app);
    expectError(await denials(UNKNOWN_ID), matchErrors.notFound);
    for (const limit of [0, 501, 'many']) expect((await denials(match.id, { limit })).status).toBe(422);
    for (const offset of [-1, 'later']) expect((await denials(match.id, { offset })).status).toBe(422);
    expect((await denials(match.id, {}, null)).status).toBe(401);
    expect((await denials(match.id, {}, player.token)).status).toBe(403);
  });
});

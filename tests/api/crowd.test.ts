/**
 * The crowd's answer: how everyone answered a question, shown to a player
 * once they have answered it (never before) on the open question, on their
 * history and on the match's question list once it settled; stored when the
 * question settles; counted in one statement per read while it is open, and
 * nothing added to answering.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { toCrowd } from '../../src/modules/answers/crowd.js';
import { questionIssuances, type QuestionIssuanceRow } from '../../src/modules/issuances/issuances.table.js';
import { insertIssuance } from '../helpers/engine-rows.js';
import { liveMatchWithCrowd } from '../helpers/leaderboards.js';
import { statementsDuring, type TestUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const { app, admin } = useTestApp();

const THREE = [
  { identifier: 'home', label: 'Team A' },
  { identifier: 'draw', label: 'Draw' },
  { identifier: 'away', label: 'Team B' },
];

async function answer(user: TestUser, issuanceId: string, choice: string) {
  const res = await app.request('PUT', '/api/question-answers', {
    token: user.token,
    body: { question_issuance_id: issuanceId, selected_answer_identifier: choice },
  });
  expect([200, 201]).toContain(res.status);
}

const openOf = async (user: TestUser, issuanceId: string) =>
  ((await app.request('GET', '/api/question-answers/open', { token: user.token })).body as { question_issuance_id: string; crowd: unknown }[]).find(
    (q) => q.question_issuance_id === issuanceId,
  );

describe('shares', () => {
  it('gives whole percents that add up to 100, the points left over to the largest remainders, earlier choices first on a tie', () => {
    expect(toCrowd(THREE, { home: 1, draw: 1, away: 1 }).choices.map((c) => c.percent)).toEqual([34, 33, 33]);
    expect(toCrowd(THREE, { home: 30, away: 94, draw: 28 }).choices.map((c) => c.percent)).toEqual([20, 18, 62]);
    expect(toCrowd(THREE, { home: 2, away: 1 })).toEqual({
      answer_count: 3,
      choices: [
        { identifier: 'home', count: 2, percent: 67 },
        { identifier: 'draw', count: 0, percent: 0 },
        { identifier: 'away', count: 1, percent: 33 },
      ],
    });
    expect(toCrowd(THREE, {}).choices.map((c) => c.percent)).toEqual([0, 0, 0]);
    for (const counts of [
      { home: 1, draw: 2, away: 4 },
      { home: 997, draw: 2, away: 1 },
      { home: 5, draw: 5, away: 5 },
    ]) {
      expect(toCrowd(THREE, counts).choices.reduce((n, c) => n + c.percent, 0)).toBe(100);
    }
  });
});

describe("the crowd's answer", () => {
  it('is hidden before the caller answers, live once they have, stored and shown everywhere once the question settles', async () => {
    const { match, crowd } = await liveMatchWithCrowd(app, 4);
    const [a, b, c, d] = crowd;
    const q = await insertIssuance(app, { matchId: match.id, choices: THREE, closesAt: new Date(Date.now() + 5 * 60_000) });
    await answer(b, q.id, 'away');
    await answer(c, q.id, 'away');

    // Before answering: nothing to copy.
    expect((await openOf(a, q.id))!.crowd).toBeNull();
    await answer(a, q.id, 'home');
    // The caller's own answer is in the crowd at once (even where the count was taken before it).
    expect((await openOf(a, q.id))!.crowd).toEqual({
      answer_count: 3,
      choices: [
        { identifier: 'home', count: 1, percent: 33 },
        { identifier: 'draw', count: 0, percent: 0 },
        { identifier: 'away', count: 2, percent: 67 },
      ],
    });
    expect((await openOf(d, q.id))!.crowd).toBeNull();
    // Answering within a second of that count: this process's count is reused, with the caller's answer added.
    await answer(d, q.id, 'draw');
    expect((await openOf(d, q.id))!.crowd).toMatchObject({ answer_count: 4, choices: [{ count: 1 }, { count: 1 }, { count: 2 }] });
    const pending = (await app.request('GET', '/api/question-answers', { token: d.token, query: { match_id: match.id } })).body;
    expect(pending[0]).toMatchObject({ outcome: 'pending', crowd: { answer_count: 4 } });

    await app.services.engine.store.settleIssuance({ id: q.id, status: 'resolved', correct: 'away', resolvedSeq: null, resolutionEventId: null });
    const [stored] = await app.services.database.db.select({ crowd: questionIssuances.crowd }).from(questionIssuances).where(eq(questionIssuances.id, q.id));
    expect(stored!.crowd).toEqual({ home: 1, draw: 1, away: 2 });
    const history = (await app.request('GET', '/api/question-answers', { token: b.token, query: { match_id: match.id } })).body;
    expect(history[0]).toMatchObject({ outcome: 'correct', crowd: { answer_count: 4, choices: [{ percent: 25 }, { percent: 25 }, { percent: 50 }] } });
    // The match's question list (players see settled questions only; admins also the open ones).
    const listed = (await app.request('GET', `/api/matches/${match.id}/question-issuances`, { token: d.token })).body;
    expect(listed.find((i: { id: string }) => i.id === q.id)).toMatchObject({ answer_count: 4, crowd: { answer_count: 4 } });
  });

  it('shows an operator the crowd of open questions too', async () => {
    const { match, crowd } = await liveMatchWithCrowd(app, 2);
    const q = await insertIssuance(app, { matchId: match.id });
    await answer(crowd[0], q.id, 'home');
    await answer(crowd[1], q.id, 'home');
    const listed = (await app.request('GET', `/api/matches/${match.id}/question-issuances`, { token: admin.token })).body;
    expect(listed.find((i: { id: string }) => i.id === q.id).crowd).toEqual({
      answer_count: 2,
      choices: [
        { identifier: 'home', count: 2, percent: 100 },
        { identifier: 'away', count: 0, percent: 0 },
      ],
    });
  });

  it('costs a read one statement for any number of answered questions, and answering nothing more than before', async () => {
    const { match, crowd } = await liveMatchWithCrowd(app, 1);
    const [p] = crowd;
    const questions: QuestionIssuanceRow[] = [];
    for (let i = 0; i < 6; i++) questions.push(await insertIssuance(app, { matchId: match.id, closesAt: new Date(Date.now() + 5 * 60_000) }));
    const read = async () => (await statementsDuring(app, () => app.request('GET', '/api/question-answers/open', { token: p.token }))).statements;
    const counts = (statements: string[]) => statements.filter((q) => /group by/i.test(q));
    const unanswered = await read();
    expect(counts(unanswered)).toEqual([]);
    for (const q of questions) await answer(p, q.id, 'home');
    const answered = await read();
    expect(counts(answered)).toHaveLength(1);
    expect(answered.length - 1).toBeLessThanOrEqual(unanswered.length);
    const { statements: put } = await statementsDuring(app, () => answer(p, questions[0]!.id, 'away'));
    expect(put.filter((q) => /group by|"question_issuances" set/i.test(q))).toEqual([]);
  });
});

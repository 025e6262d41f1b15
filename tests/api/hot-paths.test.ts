/**
 * The hot paths run a constant number of SQL statements
 * whatever the number of rows. GET /api/matches has its own test
 * (tests/api/matches.test.ts, 1 match against 30); this file covers
 * PUT /api/question-answers and GET /api/question-answers/open, for a player
 * with 1 followed match and 1 open question against one with 20 followed
 * matches and 60 open questions (half of them already answered).
 *
 * Statements are counted with `database.onQuery`: every statement issued
 * through drizzle, the caller's key lookup included (BEGIN and COMMIT of a
 * transaction are the driver's and are not seen).
 */
import { describe, expect, it } from 'vitest';
import { lockIssuanceQuery, upsertAnswerQuery } from '../../src/modules/answers/answers.repository.js';
import type { QuestionIssuanceRow } from '../../src/modules/issuances/issuances.table.js';
import { insertIssuance } from '../helpers/engine-rows.js';
import { createMatch, follow } from '../helpers/factories.js';
import { registerUser, statementsDuring, type ApiResponse, type TestUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const { app } = useTestApp();
const inMinutes = (m: number) => new Date(Date.now() + m * 60_000);

const answer = (user: TestUser, issuanceId: string, choice: string) =>
  app.request('PUT', '/api/question-answers', { token: user.token, body: { question_issuance_id: issuanceId, selected_answer_identifier: choice } });
const openQuestions = (user: TestUser) => app.request('GET', '/api/question-answers/open', { token: user.token });

/** A player following `matches` live matches with `perMatch` open in-game questions each. */
async function playerWith(matches: number, perMatch: number): Promise<{ user: TestUser; questions: QuestionIssuanceRow[] }> {
  const user = await registerUser(app);
  const questions: QuestionIssuanceRow[] = [];
  for (let m = 0; m < matches; m++) {
    const match = await createMatch(app, { status: 'live', scheduled: inMinutes(-30) });
    await follow(app, user.id, match.id);
    for (let q = 0; q < perMatch; q++) {
      questions.push(
        await insertIssuance(app, {
          matchId: match.id,
          status: 'open',
          closesAt: inMinutes(60 + q),
          choices: [
            { identifier: 'home', label: 'Team A' },
            { identifier: 'away', label: 'Team B' },
            { identifier: 'none', label: 'No one' },
          ],
        }),
      );
    }
  }
  return { user, questions };
}

/** The statements one request runs (its key looked up: the key cache is emptied first), and its response. */
async function statementsOf(request: () => Promise<ApiResponse>): Promise<{ count: number; res: ApiResponse }> {
  app.services.keyCache.flush();
  const { result: res, statements } = await statementsDuring(app, request);
  return { count: statements.length, res };
}

describe('hot paths run a constant number of SQL statements', () => {
  it('PUT /api/question-answers: the same for 1 followed match / 1 open question as for 20 / 60, created or replaced', async () => {
    const few = await playerWith(1, 1);
    const many = await playerWith(20, 3);
    expect(many.questions).toHaveLength(60);
    // The busy player has already answered half of their questions.
    for (const q of many.questions.slice(0, 30)) expect((await answer(many.user, q.id, 'home')).status).toBe(201);

    const fewCreate = await statementsOf(() => answer(few.user, few.questions[0]!.id, 'home'));
    const manyCreate = await statementsOf(() => answer(many.user, many.questions[45]!.id, 'home'));
    const fewReplace = await statementsOf(() => answer(few.user, few.questions[0]!.id, 'away'));
    const manyReplace = await statementsOf(() => answer(many.user, many.questions[15]!.id, 'none'));
    expect([fewCreate, manyCreate, fewReplace, manyReplace].map((s) => s.res.status)).toEqual([201, 201, 200, 200]);
    expect(manyReplace.res.body).toMatchObject({ question_issuance_id: many.questions[15]!.id, selected_answer_identifier: 'none' });

    expect(fewCreate.count).toBeGreaterThan(0);
    expect(manyCreate.count).toBe(fewCreate.count);
    expect(fewReplace.count).toBeGreaterThan(0);
    expect(manyReplace.count).toBe(fewReplace.count);
  });

  it('GET /api/question-answers/open: the same for 1 open question on 1 followed match as for 60 on 20, answers included', async () => {
    const few = await playerWith(1, 1);
    const many = await playerWith(20, 3);
    await answer(few.user, few.questions[0]!.id, 'away');
    for (const q of many.questions.slice(0, 30)) await answer(many.user, q.id, 'home');

    const one = await statementsOf(() => openQuestions(few.user));
    const sixty = await statementsOf(() => openQuestions(many.user));
    expect(one.res.status).toBe(200);
    expect(sixty.res.status).toBe(200);
    expect(one.res.body).toHaveLength(1);
    expect(sixty.res.body).toHaveLength(60);
    expect(one.res.body[0]).toMatchObject({ question_issuance_id: few.questions[0]!.id, current_answer: 'away' });
    const answered = (sixty.res.body as { current_answer: string | null }[]).filter((q) => q.current_answer === 'home');
    expect(answered).toHaveLength(30);
    expect(new Set((sixty.res.body as { match: { id: string } }[]).map((q) => q.match.id)).size).toBe(20);

    expect(one.count).toBeGreaterThan(0);
    expect(sixty.count).toBe(one.count);
  });
});

describe('hot statements built once send what drizzle builds per request', () => {
  it('PUT /api/question-answers: the lock and the upsert, as built from the values, on the first answer and on a replacement', async () => {
    const { user, questions } = await playerWith(1, 1);
    const issuance = questions[0]!;
    const db = app.services.database.db;
    for (const choice of ['home', 'away']) {
      const sent: { sql: string; params: unknown[] }[] = [];
      const stop = app.services.database.onQuery((q, params) => sent.push({ sql: q, params }));
      let status: number;
      try {
        status = (await answer(user, issuance.id, choice)).status;
      } finally {
        stop();
      }
      expect(status).toBe(choice === 'home' ? 201 : 200);
      const lock = lockIssuanceQuery(db, { issuanceId: issuance.id, userId: user.id }).toSQL();
      const upsert = upsertAnswerQuery(db, {
        userId: user.id,
        questionIssuanceId: issuance.id,
        matchId: issuance.matchId,
        selectedAnswerIdentifier: choice,
      }).toSQL();
      expect(sent.slice(-2)).toEqual([
        { sql: lock.sql, params: lock.params },
        { sql: upsert.sql, params: upsert.params },
      ]);
    }
  });
});

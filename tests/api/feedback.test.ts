import { readFileSync } from 'node:fs';
import path from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { questionAnswers, type QuestionAnswerRow } from '../../src/modules/answers/answers.table.js';
import { feedbackErrors } from '../../src/modules/feedback/feedback.errors.js';
import { findOwnAnswer } from '../../src/modules/feedback/feedback.repository.js';
import { userFeedback, type UserFeedbackRow } from '../../src/modules/feedback/feedback.table.js';
import type { QuestionIssuanceRow } from '../../src/modules/issuances/issuances.table.js';
import type { MatchRow } from '../../src/modules/matches/matches.table.js';
import { insertIssuance } from '../helpers/engine-rows.js';
import { expectError } from '../helpers/errors.js';
import { createMatch, UNKNOWN_ID } from '../helpers/factories.js';
import { createAdmin, registerUser, startTestApp, statementsDuring, type TestApp, type TestUser } from '../helpers/test-app.js';
import type { IssuanceStatus } from '../../src/domain/vocabulary.js';

let app: TestApp;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
let match: MatchRow;

const db = () => app.services.database.db;

beforeAll(async () => {
  app = await startTestApp();
  admin = await createAdmin(app);
  alice = await registerUser(app);
  bob = await registerUser(app);
  match = await createMatch(app);
});
afterAll(() => app?.close());

/** An issuance of the given kind and status (a Match question has no trigger event). */
async function issuance(kind: 'in_game' | 'match', status: IssuanceStatus, matchId = match.id): Promise<QuestionIssuanceRow> {
  return insertIssuance(app, { matchId, kind, status, ...(kind === 'match' ? { triggerEventId: null } : {}) });
}

/** A user's answer to an issuance, inserted directly; outcome null is pending. */
async function answer(user: TestUser, iss: QuestionIssuanceRow, outcome: 'correct' | 'incorrect' | 'void' | null): Promise<QuestionAnswerRow> {
  const [row] = await db()
    .insert(questionAnswers)
    .values({
      userId: user.id,
      questionIssuanceId: iss.id,
      matchId: iss.matchId,
      selectedAnswerIdentifier: 'home',
      outcome,
      scoredAt: outcome ? new Date() : null,
    })
    .returning();
  return row!;
}

/** A settled in-game answer of the user on a fresh issuance. */
async function settledAnswer(user: TestUser, kind: 'in_game' | 'match' = 'in_game', matchId = match.id): Promise<QuestionAnswerRow> {
  return answer(user, await issuance(kind, 'resolved', matchId), 'correct');
}

const file = (token: string | null, body: unknown) => app.request('POST', '/api/user-feedback', { token, body });
const list = (token: string | null, query: Record<string, string | number | undefined> = {}) => app.request('GET', '/api/user-feedback', { token, query });
const get = (token: string | null, id: string) => app.request('GET', `/api/user-feedback/${id}`, { token });

describe('GET /api/user-feedback/form', () => {
  it('is open and lists both subject types with their topics and the description limit', async () => {
    const res = await app.request('GET', '/api/user-feedback/form');
    expect(res.status).toBe(200);
    expect(res.body.description_max_length).toBe(1000);
    expect(res.body.subject_types.map((s: { subject_type: string; history_kind: string }) => [s.subject_type, s.history_kind])).toEqual([
      ['in_game_answer', 'in_game'],
      ['match_answer', 'match'],
    ]);
    const topics = (i: number) => res.body.subject_types[i].topics.map((t: { topic: string }) => t.topic);
    expect(topics(0)).toEqual(['wrong_result', 'unclear_question', 'answer_window_too_short', 'technical_problem', 'other']);
    expect(topics(1)).toEqual(['wrong_result', 'unclear_question', 'technical_problem', 'other']);
    for (const s of res.body.subject_types) {
      expect(s.label).toMatch(/\w/);
      for (const t of s.topics) expect(t.label).toMatch(/^[A-Z][a-z ]+$/);
    }
  });

  it('answers the same with a key', async () => {
    const open = await app.request('GET', '/api/user-feedback/form');
    const keyed = await app.request('GET', '/api/user-feedback/form', { token: alice.token });
    expect(keyed.status).toBe(200);
    expect(keyed.body).toEqual(open.body);
  });
});

describe('POST /api/user-feedback', () => {
  it('files feedback on an own resolved answer: 201 with match and issuance from the answer, readable again', async () => {
    const a = await settledAnswer(alice);
    const res = await file(alice.token, { subject_type: 'in_game_answer', subject_id: a.id, topic: 'wrong_result', description: 'The goal was offside.' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      user_id: alice.id,
      subject_type: 'in_game_answer',
      subject_id: a.id,
      topic: 'wrong_result',
      description: 'The goal was offside.',
      match_id: match.id,
      question_issuance_id: a.questionIssuanceId,
      created_at: expect.any(String),
    });
    expect(Math.abs(Date.parse(res.body.created_at) - Date.now())).toBeLessThan(60_000);
    const again = await get(alice.token, res.body.id);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
  });

  it('takes the match from the answer on another match', async () => {
    const other = await createMatch(app);
    const a = await settledAnswer(alice, 'in_game', other.id);
    const res = await file(alice.token, { subject_type: 'in_game_answer', subject_id: a.id, topic: 'other' });
    expect(res.status).toBe(201);
    expect(res.body.match_id).toBe(other.id);
  });

  it('accepts a Match question answer as match_answer', async () => {
    const a = await settledAnswer(alice, 'match');
    const res = await file(alice.token, { subject_type: 'match_answer', subject_id: a.id, topic: 'unclear_question' });
    expect(res.status).toBe(201);
    expect(res.body.subject_type).toBe('match_answer');
    expect(res.body.question_issuance_id).toBe(a.questionIssuanceId);
  });

  it('accepts incorrect, voided and revoked answers (every outcome), of both kinds', async () => {
    const cases = [
      ['in_game', 'resolved', 'incorrect'],
      ['in_game', 'voided', 'void'],
      ['in_game', 'revoked', 'void'],
      ['match', 'voided', 'void'],
      ['match', 'revoked', 'void'],
    ] as const;
    for (const [kind, status, outcome] of cases) {
      const a = await answer(alice, await issuance(kind, status), outcome);
      const res = await file(alice.token, { subject_type: kind === 'match' ? 'match_answer' : 'in_game_answer', subject_id: a.id, topic: 'technical_problem' });
      expect(res.status, `${kind} ${status}`).toBe(201);
    }
  });

  it('answers 409 while the answer is pending, whatever the issuance status', async () => {
    for (const [kind, status] of [
      ['in_game', 'open'],
      ['in_game', 'locked'],
      ['match', 'open'],
      ['match', 'locked'],
    ] as const) {
      const a = await answer(alice, await issuance(kind, status), null);
      const res = await file(alice.token, { subject_type: kind === 'match' ? 'match_answer' : 'in_game_answer', subject_id: a.id, topic: 'wrong_result' });
      expectError(res, feedbackErrors.subjectPending);
    }
  });

  it("answers 404 for an unknown answer and for another player's answer, with the same detail", async () => {
    const bobs = await settledAnswer(bob);
    const unknown = await file(alice.token, { subject_type: 'in_game_answer', subject_id: UNKNOWN_ID, topic: 'wrong_result' });
    const others = await file(alice.token, { subject_type: 'in_game_answer', subject_id: bobs.id, topic: 'wrong_result' });
    expectError(unknown, feedbackErrors.subjectNotFound);
    expectError(others, feedbackErrors.subjectNotFound);
    // One answer for both: the message does not tell them apart either.
    expect(others.body.detail).toBe(unknown.body.detail);
    expect(others.body.detail).not.toContain(bobs.id);
    // Another player's pending answer or one of the other kind is 404 too: nothing about it is revealed.
    const bobsPending = await answer(bob, await issuance('match', 'open'), null);
    const pending = await file(alice.token, { subject_type: 'in_game_answer', subject_id: bobsPending.id, topic: 'wrong_result' });
    expectError(pending, feedbackErrors.subjectNotFound);
    expect(pending.body.detail).toBe(unknown.body.detail);
    // An admin files only on their own answers too.
    expectError(await file(admin.token, { subject_type: 'in_game_answer', subject_id: bobs.id, topic: 'wrong_result' }), feedbackErrors.subjectNotFound);
    // A feedback id is not an answer id.
    const fb = await file(bob.token, { subject_type: 'in_game_answer', subject_id: bobs.id, topic: 'wrong_result' });
    expect(fb.status).toBe(201);
    expectError(await file(bob.token, { subject_type: 'in_game_answer', subject_id: fb.body.id, topic: 'other' }), feedbackErrors.subjectNotFound);
  });

  it("answers 400 when the subject type does not fit the answer's kind, both ways", async () => {
    const inGame = await settledAnswer(alice, 'in_game');
    const matchQ = await settledAnswer(alice, 'match');
    const a = await file(alice.token, { subject_type: 'match_answer', subject_id: inGame.id, topic: 'wrong_result' });
    expectError(a, feedbackErrors.subjectKindMismatch);
    // The message says which subject type fits.
    expect(a.body.detail).toMatch(/in-game question.*in_game_answer/);
    const b = await file(alice.token, { subject_type: 'in_game_answer', subject_id: matchQ.id, topic: 'wrong_result' });
    expectError(b, feedbackErrors.subjectKindMismatch);
    expect(b.body.detail).toMatch(/Match question.*match_answer/);
    const rows = await db().select().from(userFeedback).where(eq(userFeedback.subjectId, inGame.id));
    expect(rows).toEqual([]);
  });

  it("answers 400 naming the form's subject types for an unknown subject type", async () => {
    const a = await settledAnswer(alice);
    for (const subject_type of ['question_answer', 'IN_GAME_ANSWER', 'in_game']) {
      const res = await file(alice.token, { subject_type, subject_id: a.id, topic: 'wrong_result' });
      expectError(res, feedbackErrors.invalidSubjectType);
      expect(res.body.detail, subject_type).toContain(`'${subject_type}'`);
      expect(res.body.detail).toContain('in_game_answer, match_answer');
    }
  });

  it("answers 400 naming the subject type's topics for a topic not of that type", async () => {
    const matchQ = await settledAnswer(alice, 'match');
    const res = await file(alice.token, { subject_type: 'match_answer', subject_id: matchQ.id, topic: 'answer_window_too_short' });
    expectError(res, feedbackErrors.invalidTopic);
    expect(res.body.detail).toContain("'answer_window_too_short'");
    expect(res.body.detail).toContain('wrong_result, unclear_question, technical_problem, other');
    const unknown = await file(alice.token, { subject_type: 'match_answer', subject_id: matchQ.id, topic: 'spam' });
    expectError(unknown, feedbackErrors.invalidTopic);
    // The same topic is fine for an in-game answer.
    const inGame = await settledAnswer(alice);
    expect((await file(alice.token, { subject_type: 'in_game_answer', subject_id: inGame.id, topic: 'answer_window_too_short' })).status).toBe(201);
  });

  it('checks the form before the answer: a bad topic is 400 even on an unknown answer', async () => {
    expectError(await file(alice.token, { subject_type: 'in_game_answer', subject_id: UNKNOWN_ID, topic: 'spam' }), feedbackErrors.invalidTopic);
  });

  describe('description', () => {
    const submit = async (description: unknown) => {
      const a = await settledAnswer(alice);
      return file(alice.token, { subject_type: 'in_game_answer', subject_id: a.id, topic: 'wrong_result', description });
    };

    it('takes exactly 1000 characters and refuses 1001', async () => {
      const ok = await submit('x'.repeat(1000));
      expect(ok.status).toBe(201);
      expect(ok.body.description).toHaveLength(1000);
      const tooLong = await submit('x'.repeat(1001));
      expectError(tooLong, feedbackErrors.descriptionTooLong);
      // The message counts the characters and states the limit.
      expect(tooLong.body.detail).toMatch(/1001 characters.*at most 1000/);
    });

    it('counts characters, not bytes or UTF-16 units', async () => {
      // é: 2 bytes; €: 3 bytes; 😀: 4 bytes and 2 UTF-16 units; each is one character.
      for (const ch of ['é', '€', '😀']) {
        const ok = await submit(ch.repeat(1000));
        expect(ok.status, ch).toBe(201);
        expect(ok.body.description).toBe(ch.repeat(1000));
        expectError(await submit(ch.repeat(1001)), feedbackErrors.descriptionTooLong);
      }
      const mixed = 'a😀é€'.repeat(250);
      expect((await submit(mixed)).status).toBe(201);
      expectError(await submit(`${mixed}😀`), feedbackErrors.descriptionTooLong);
    });

    it('stores a blank, null or absent description as null, and trims the rest', async () => {
      for (const blank of ['', '   ', '\n\t ', null, undefined]) {
        const res = await submit(blank);
        expect(res.status, JSON.stringify(blank)).toBe(201);
        expect(res.body.description).toBeNull();
        const [row] = await db().select().from(userFeedback).where(eq(userFeedback.id, res.body.id));
        expect(row!.description).toBeNull();
      }
      const trimmed = await submit('  The score was wrong.\n');
      expect(trimmed.body.description).toBe('The score was wrong.');
      // The limit applies to the trimmed text.
      expect((await submit(`  ${'x'.repeat(1000)}  `)).status).toBe(201);
    });
  });

  describe('the same answer twice', () => {
    it('takes other topics on the same answer but refuses a repeated topic with 409', async () => {
      const a = await settledAnswer(alice);
      const first = await file(alice.token, { subject_type: 'in_game_answer', subject_id: a.id, topic: 'wrong_result' });
      expect(first.status).toBe(201);
      const repeat = await file(alice.token, { subject_type: 'in_game_answer', subject_id: a.id, topic: 'wrong_result', description: 'Again.' });
      expectError(repeat, feedbackErrors.duplicate);
      expect(repeat.body.detail).toContain('wrong_result');
      const otherTopic = await file(alice.token, { subject_type: 'in_game_answer', subject_id: a.id, topic: 'unclear_question' });
      expect(otherTopic.status).toBe(201);
      const rows = await db().select().from(userFeedback).where(eq(userFeedback.subjectId, a.id));
      expect(rows.map((r) => r.topic).sort()).toEqual(['unclear_question', 'wrong_result']);
    });

    it('files a repeated topic once when the requests race', async () => {
      const a = await settledAnswer(alice);
      const body = { subject_type: 'in_game_answer', subject_id: a.id, topic: 'other' };
      const results = await Promise.all(Array.from({ length: 6 }, () => file(alice.token, body)));
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
      const [n] = await db().select({ n: count() }).from(userFeedback).where(eq(userFeedback.subjectId, a.id));
      expect(n!.n).toBe(1);
    });

    it('is kept to one row per answer and topic by the database itself, whoever writes', async () => {
      const a = await settledAnswer(alice);
      const values = {
        userId: alice.id,
        subjectType: 'in_game_answer',
        subjectId: a.id,
        topic: 'other',
        matchId: a.matchId,
        questionIssuanceId: a.questionIssuanceId,
      };
      await db().insert(userFeedback).values(values);
      // A writer that takes no lock and checks nothing still cannot add a second row.
      await expect(db().insert(userFeedback).values(values)).rejects.toThrow();
      expectError(await file(alice.token, { subject_type: 'in_game_answer', subject_id: a.id, topic: 'other' }), feedbackErrors.duplicate);
      const [n] = await db().select({ n: count() }).from(userFeedback).where(eq(userFeedback.subjectId, a.id));
      expect(n!.n).toBe(1);
    });

    it('keeps the earliest of any repeated rows when the unique index is added (migration 0006)', async () => {
      // A player and match of its own: the other tests count rows by match and by time.
      const zed = await registerUser(app);
      const a = await settledAnswer(zed, 'in_game', (await createMatch(app)).id);
      const values = {
        userId: zed.id,
        subjectType: 'in_game_answer',
        subjectId: a.id,
        topic: 'wrong_result',
        matchId: a.matchId,
        questionIssuanceId: a.questionIssuanceId,
      };
      const database = app.services.database;
      // As before the migration: no index, and repeats written around the service.
      await database.rows(sql`drop index user_feedback_subject_topic_uq`);
      const [first] = await db()
        .insert(userFeedback)
        .values({ ...values, createdAt: new Date(Date.UTC(1990, 0, 1)) })
        .returning();
      await db()
        .insert(userFeedback)
        .values([
          { ...values, createdAt: new Date(Date.UTC(1990, 0, 2)) },
          { ...values, createdAt: new Date(Date.UTC(1990, 0, 3)) },
        ]);
      const migration = readFileSync(path.join(process.cwd(), 'drizzle/0006_feedback_subject_topic_unique.sql'), 'utf8');
      for (const statement of migration.split('--> statement-breakpoint')) await database.rows(sql.raw(statement));
      expect((await db().select().from(userFeedback).where(eq(userFeedback.subjectId, a.id))).map((r) => r.id)).toEqual([first!.id]);
      await expect(db().insert(userFeedback).values(values)).rejects.toThrow();
      await db().delete(userFeedback).where(eq(userFeedback.subjectId, a.id));
    });

    it('makes a submission wait for a concurrent one on the same answer, then sees its row (PostgreSQL)', async (ctx) => {
      if (app.services.database.kind !== 'postgres') ctx.skip(); // PGlite runs one statement at a time: nothing races
      const a = await settledAnswer(alice);
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let holding!: () => void;
      const held = new Promise<void>((resolve) => (holding = resolve));
      // A concurrent submission, stopped between its checks and its commit.
      const other = db().transaction(async (tx) => {
        expect(await findOwnAnswer({ db: tx, id: a.id, userId: alice.id })).toBeDefined();
        await tx.insert(userFeedback).values({
          userId: alice.id,
          subjectType: 'in_game_answer',
          subjectId: a.id,
          topic: 'other',
          matchId: a.matchId,
          questionIssuanceId: a.questionIssuanceId,
        });
        holding();
        await released;
      });
      await held;
      const request = file(alice.token, { subject_type: 'in_game_answer', subject_id: a.id, topic: 'other' });
      const early = await Promise.race([request.then(() => 'answered'), new Promise((resolve) => setTimeout(() => resolve('waiting'), 500))]);
      release();
      await other;
      expect(early).toBe('waiting');
      expectError(await request, feedbackErrors.duplicate);
    });
  });

  it('answers 401 without a valid key', async () => {
    const a = await settledAnswer(alice);
    const body = { subject_type: 'in_game_answer', subject_id: a.id, topic: 'wrong_result' };
    expect((await file(null, body)).status).toBe(401);
    expect((await file('qp_not-a-key', body)).status).toBe(401);
  });

  it('answers 422 for a body the contract refuses', async () => {
    const a = await settledAnswer(alice);
    const valid = { subject_type: 'in_game_answer', subject_id: a.id, topic: 'wrong_result' };
    const bodies: unknown[] = [
      {},
      { subject_type: 'in_game_answer', subject_id: a.id },
      { subject_type: 'in_game_answer', topic: 'wrong_result' },
      { ...valid, subject_id: 'not-a-uuid' },
      { ...valid, topic: '' },
      { ...valid, topic: 'x'.repeat(65) },
      { ...valid, subject_type: '' },
      { ...valid, description: 42 },
      { ...valid, user_id: alice.id },
      { ...valid, match_id: match.id },
      { ...valid, description: 'nul \u0000 here' },
    ];
    for (const body of bodies) {
      const res = await file(alice.token, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    const rows = await db().select().from(userFeedback).where(eq(userFeedback.subjectId, a.id));
    expect(rows).toEqual([]);
  });
});

describe('GET /api/user-feedback/{id}', () => {
  let row: { id: string };
  beforeAll(async () => {
    const a = await settledAnswer(bob);
    row = (await file(bob.token, { subject_type: 'in_game_answer', subject_id: a.id, topic: 'technical_problem', description: 'App froze.' })).body;
  });

  it('shows the row to its owner and to an admin', async () => {
    const own = await get(bob.token, row.id);
    expect(own.status).toBe(200);
    expect(own.body).toEqual(row);
    const asAdmin = await get(admin.token, row.id);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body).toEqual(row);
  });

  it('answers 404 to another player, as for an unknown id', async () => {
    const others = await get(alice.token, row.id);
    const unknown = await get(alice.token, UNKNOWN_ID);
    expectError(others, feedbackErrors.notFound);
    expectError(unknown, feedbackErrors.notFound);
    expect(others.body.detail).toBe(unknown.body.detail);
    expectError(await get(admin.token, UNKNOWN_ID), feedbackErrors.notFound);
  });

  it('answers 401 without a key and 422 for a malformed id', async () => {
    expect((await get(null, row.id)).status).toBe(401);
    expect((await get(bob.token, 'not-a-uuid')).status).toBe(422);
  });
});

describe('GET /api/user-feedback', () => {
  // Own players and matches, rows with fixed creation times (hours of 2030-01-01) so filters and order are exact.
  let carol: TestUser;
  let dave: TestUser;
  let m1: MatchRow;
  let m2: MatchRow;
  const at = (hour: number) => new Date(Date.UTC(2030, 0, 1, hour));
  const seeded: UserFeedbackRow[] = [];

  async function seed(user: TestUser, m: MatchRow, kind: 'in_game' | 'match', topic: string, hour: number): Promise<UserFeedbackRow> {
    const a = await settledAnswer(user, kind, m.id);
    const [row] = await db()
      .insert(userFeedback)
      .values({
        userId: user.id,
        subjectType: kind === 'match' ? 'match_answer' : 'in_game_answer',
        subjectId: a.id,
        topic,
        description: `row at ${hour}`,
        matchId: m.id,
        questionIssuanceId: a.questionIssuanceId,
        createdAt: at(hour),
      })
      .returning();
    seeded.push(row!);
    return row!;
  }

  beforeAll(async () => {
    carol = await registerUser(app);
    dave = await registerUser(app);
    m1 = await createMatch(app);
    m2 = await createMatch(app);
    await seed(carol, m1, 'in_game', 'wrong_result', 1);
    await seed(carol, m1, 'match', 'unclear_question', 2);
    await seed(carol, m2, 'in_game', 'answer_window_too_short', 3);
    await seed(dave, m1, 'in_game', 'wrong_result', 4);
    await seed(dave, m2, 'match', 'wrong_result', 5);
    await seed(dave, m2, 'in_game', 'other', 6);
  });

  const idsOf = (body: { feedback: { id: string }[] }) => body.feedback.map((f) => f.id);
  /** Seeded rows matching a predicate, newest first. */
  const expected = (pred: (r: UserFeedbackRow) => boolean) =>
    seeded
      .filter(pred)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
      .map((r) => r.id);

  it('shows a player only their own rows, newest first, with their count', async () => {
    const res = await list(carol.token);
    expect(res.status).toBe(200);
    expect(idsOf(res.body)).toEqual(expected((r) => r.userId === carol.id));
    expect(res.body.feedback_count).toBe(3);
    expect(res.body.feedback[0]).toEqual({
      id: seeded[2]!.id,
      user_id: carol.id,
      subject_type: 'in_game_answer',
      subject_id: seeded[2]!.subjectId,
      topic: 'answer_window_too_short',
      description: 'row at 3',
      match_id: m2.id,
      question_issuance_id: seeded[2]!.questionIssuanceId,
      created_at: at(3).toISOString(),
    });
  });

  it('ignores the user_id filter for a player', async () => {
    for (const user_id of [dave.id, carol.id, UNKNOWN_ID]) {
      const res = await list(carol.token, { user_id });
      expect(res.status).toBe(200);
      expect(idsOf(res.body)).toEqual(expected((r) => r.userId === carol.id));
      expect(res.body.feedback_count).toBe(3);
    }
  });

  it("applies the other filters to a player's own rows", async () => {
    const res = await list(carol.token, { match_id: m1.id });
    expect(idsOf(res.body)).toEqual(expected((r) => r.userId === carol.id && r.matchId === m1.id));
    expect(res.body.feedback_count).toBe(2);
    const byTopic = await list(dave.token, { topic: 'wrong_result' });
    expect(idsOf(byTopic.body)).toEqual(expected((r) => r.userId === dave.id && r.topic === 'wrong_result'));
  });

  it("shows an admin everyone's rows, newest first, with the total", async () => {
    const res = await list(admin.token, { limit: 500 });
    expect(res.status).toBe(200);
    const [total] = await db().select({ n: count() }).from(userFeedback);
    expect(res.body.feedback_count).toBe(total!.n);
    expect(res.body.feedback).toHaveLength(total!.n);
    const times = res.body.feedback.map((f: { created_at: string }) => Date.parse(f.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(new Set(res.body.feedback.map((f: { user_id: string }) => f.user_id))).toEqual(new Set([alice.id, bob.id, carol.id, dave.id]));
  });

  it('lets an admin filter by user, match, subject type and topic, each and together', async () => {
    const cases: [Record<string, string>, (r: UserFeedbackRow) => boolean][] = [
      [{ user_id: dave.id }, (r) => r.userId === dave.id],
      [{ match_id: m2.id }, (r) => r.matchId === m2.id],
      [{ match_id: m1.id, subject_type: 'match_answer' }, (r) => r.matchId === m1.id && r.subjectType === 'match_answer'],
      [{ match_id: m1.id, topic: 'wrong_result' }, (r) => r.matchId === m1.id && r.topic === 'wrong_result'],
      [
        { user_id: dave.id, match_id: m2.id, subject_type: 'in_game_answer', topic: 'other' },
        (r) => r.userId === dave.id && r.matchId === m2.id && r.topic === 'other',
      ],
      [{ user_id: carol.id, topic: 'other' }, () => false],
    ];
    for (const [query, pred] of cases) {
      const res = await list(admin.token, query);
      expect(res.status, JSON.stringify(query)).toBe(200);
      expect(idsOf(res.body), JSON.stringify(query)).toEqual(expected(pred));
      expect(res.body.feedback_count, JSON.stringify(query)).toBe(expected(pred).length);
    }
    // subject_type and topic alone, over the seeded users only (others' rows exist too).
    const byType = await list(admin.token, { subject_type: 'match_answer', user_id: carol.id });
    expect(idsOf(byType.body)).toEqual(expected((r) => r.userId === carol.id && r.subjectType === 'match_answer'));
    const unknownTopic = await list(admin.token, { topic: 'no_such_topic' });
    expect(unknownTopic.status).toBe(200);
    expect(unknownTopic.body).toEqual({ feedback: [], feedback_count: 0 });
  });

  it('filters on created_from (inclusive) and created_to (exclusive)', async () => {
    const res = await list(admin.token, { created_from: at(2).toISOString(), created_to: at(5).toISOString() });
    expect(res.status).toBe(200);
    expect(idsOf(res.body)).toEqual(expected((r) => r.createdAt >= at(2) && r.createdAt < at(5)));
    expect(res.body.feedback_count).toBe(3);
    const offsetZone = await list(admin.token, { created_from: '2030-01-01T03:00:00+01:00', created_to: '2030-01-01T04:00:00+01:00' });
    expect(idsOf(offsetZone.body)).toEqual(expected((r) => r.createdAt >= at(2) && r.createdAt < at(3)));
    const empty = await list(admin.token, { created_from: at(3).toISOString(), created_to: at(3).toISOString() });
    expect(empty.body).toEqual({ feedback: [], feedback_count: 0 });
  });

  it('answers 400 when only one of created_from and created_to is given', async () => {
    for (const query of [{ created_from: at(1).toISOString() }, { created_to: at(1).toISOString() }]) {
      for (const token of [admin.token, carol.token]) {
        const res = await list(token, query);
        expectError(res, feedbackErrors.invalidRange);
        // The message names the pair of parameters.
        expect(res.body.detail).toMatch(/created_from and created_to must be given together/);
      }
    }
  });

  it('pages with offset and limit; the count is the filtered total, not the page', async () => {
    const all = expected((r) => r.userId === dave.id || r.userId === carol.id);
    const pages: string[] = [];
    for (let offset = 0; offset < 8; offset += 2) {
      const res = await list(admin.token, {
        match_id: undefined,
        user_id: undefined,
        created_from: at(0).toISOString(),
        created_to: at(7).toISOString(),
        offset,
        limit: 2,
      });
      expect(res.status).toBe(200);
      expect(res.body.feedback_count).toBe(6);
      expect(res.body.feedback.length).toBe(Math.max(0, Math.min(2, 6 - offset)));
      pages.push(...idsOf(res.body));
    }
    expect(pages).toEqual(all);
    const past = await list(carol.token, { offset: 10 });
    expect(past.body).toEqual({ feedback: [], feedback_count: 3 });
  });

  it('pages 50 rows by default and at most 500', async () => {
    // 55 rows: five topics on each of eleven answers (one row per answer and topic).
    const topics = ['wrong_result', 'unclear_question', 'answer_window_too_short', 'technical_problem', 'other'];
    const answers: QuestionAnswerRow[] = [];
    for (let i = 0; i < 11; i++) answers.push(await settledAnswer(dave));
    await db()
      .insert(userFeedback)
      .values(
        Array.from({ length: 55 }, (_, i) => ({
          userId: dave.id,
          subjectType: 'in_game_answer',
          subjectId: answers[Math.floor(i / 5)]!.id,
          topic: topics[i % 5]!,
          matchId: match.id,
          questionIssuanceId: answers[Math.floor(i / 5)]!.questionIssuanceId,
          createdAt: new Date(Date.UTC(2031, 0, 1, 0, i)),
        })),
      );
    const res = await list(dave.token);
    expect(res.body.feedback).toHaveLength(50);
    expect(res.body.feedback_count).toBe(58);
    expect(res.body.feedback[0].created_at).toBe(new Date(Date.UTC(2031, 0, 1, 0, 54)).toISOString());
    expect((await list(dave.token, { limit: 500 })).body.feedback).toHaveLength(58);
    const refused: Record<string, string | number>[] = [
      { limit: 501 },
      { limit: 0 },
      { offset: -1 },
      { limit: 'many' },
      { match_id: 'nope' },
      { created_from: 'yesterday', created_to: 'today' },
      { subject_type: 'x'.repeat(65) },
      { unknown: 1 },
    ];
    for (const query of refused) {
      expect((await list(dave.token, query)).status, JSON.stringify(query)).toBe(422);
    }
  });

  it('reads a page and its count in two statements whatever the page size', async () => {
    const statements = async (token: string, limit: number) => {
      const { result: res, statements: seen } = await statementsDuring(app, () =>
        list(token, { limit, created_from: at(0).toISOString(), created_to: at(7).toISOString() }),
      );
      expect(res.status).toBe(200);
      return seen.filter((q) => q.includes('"user_feedback"')).length;
    };
    expect(await statements(admin.token, 1)).toBe(2);
    expect(await statements(admin.token, 500)).toBe(2);
    expect(await statements(carol.token, 500)).toBe(2);
  });

  it('answers 401 without a key', async () => {
    expect((await list(null)).status).toBe(401);
  });
});

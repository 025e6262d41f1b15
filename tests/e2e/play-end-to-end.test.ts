/**
 * End to end on real data: two players follow a match; a recorded match
 * (Metrica sample game 1) is replayed through a listener running in ANOTHER
 * process (`npm run worker`); the players receive the questions over the
 * WebSocket stream of THIS process (PostgreSQL LISTEN/NOTIFY between them),
 * one answers every question right and the other wrong, and then both see
 * the resolutions, points, history and feedback exactly as the data implies.
 * Needs PostgreSQL (two processes share it) and tests/fixtures.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedEvent } from '../../src/domain/sports/events.js';
import { startPushFeedServer, type PushFeedServer } from '../../src/engine/feed/push-server.js';
import { matchListeners } from '../../src/modules/listeners/listeners.table.js';
import { createProofMatch, expectedFromData, startProofApp } from '../engine/proof-match.js';
import { spawnWorkerProcess, waitFor, type WorkerProcess } from '../helpers/engine.js';
import { openStream, type StreamClient, type StreamMessage } from '../helpers/live-client.js';
import { testDatabaseUrl } from '../helpers/pg-url.js';
import { registerUser, type TestApp, type TestUser } from '../helpers/test-app.js';

const runnable = Boolean(testDatabaseUrl());
const POINTS = 10; // the wc league's default

describe.skipIf(!runnable)('play, end to end on a recorded match, across processes (PostgreSQL)', () => {
  let app: TestApp;
  let feed: PushFeedServer;
  let worker: WorkerProcess | undefined;
  let events: FeedEvent[];
  let matchId: string;
  let right: TestUser;
  let wrong: TestUser;
  let rightStream: StreamClient;
  let wrongStream: StreamClient;
  /**
   * Per question: its id, what the data says is correct (null: decided too soon to answer, the fairness rule voids
   * it), what each player answered.
   */
  const asked: { id: string; correct: string | null; rightChoice: string; wrongChoice: string; trigger: string }[] = [];

  beforeAll(async () => {
    const proof = await startProofApp();
    ({ app } = proof);
    events = proof.recorded.events;
    feed = await startPushFeedServer({ events: [], speed: Infinity, holdOpen: true, heartbeatMs: 100 });
    matchId = (await createProofMatch(app, proof.recorded, feed.url)).id;
    right = await registerUser(app);
    wrong = await registerUser(app);
    for (const player of [right, wrong]) {
      const res = await app.request('POST', `/api/matches/${matchId}/follow`, { token: player.token });
      expect(res.status).toBe(200);
    }
    rightStream = await openStream(app, right.token);
    wrongStream = await openStream(app, wrong.token);
    await rightStream.ready();
    await wrongStream.ready();
    // The listener runs in another process.
    worker = spawnWorkerProcess(app, { leaseMs: 2000, staleAfterMs: 5000 });
    await waitFor(
      async () => (await app.services.database.db.select().from(matchListeners).where(eq(matchListeners.matchId, matchId)))[0]?.status === 'running',
      { what: `the other process to run the listener\n${worker.output()}`, timeoutMs: 60_000 },
    );
  });

  afterAll(async () => {
    worker?.child.kill('SIGKILL');
    await rightStream?.close();
    await wrongStream?.close();
    await feed?.close();
    await app?.close();
  });

  const questionFor = (stream: StreamClient, _trigger: string) =>
    stream.take(
      (m: StreamMessage) => m.type === 'question' && m.question?.match?.id === matchId && !asked.some((a) => a.id === m.question.question_issuance_id),
      30_000,
    );

  it('delivers every question of the recorded match to both players; one answers right, the other wrong', async () => {
    const expected = expectedFromData(events);
    // Which events ask a question, and the answer the data gives.
    const asks = new Map<string, string | null>([
      ...expected.nextGoal.map((q) => [q.trigger, q.answer] as const),
      ...expected.corners.map((q) => [q.trigger, q.answer] as const),
      ...expected.restarts.map((q) => [q.trigger, q.answer] as const),
      [events.find((e) => e.type === 'period_start' && e.period === '1')!.provider_event_id, expected.card.answer],
    ]);
    for (const event of events) {
      feed.publish(event);
      const correct = asks.get(event.provider_event_id);
      if (correct === undefined) continue;
      // The question reaches both sockets before anything after its trigger is published.
      const [forRight, forWrong] = await Promise.all([questionFor(rightStream, event.provider_event_id), questionFor(wrongStream, event.provider_event_id)]);
      const q = forRight.question;
      expect(forWrong.question.question_issuance_id).toBe(q.question_issuance_id);
      const ids: string[] = q.choices.map((c: { identifier: string }) => c.identifier);
      const rightChoice = correct ?? ids[0]!;
      const wrongChoice = ids.find((c) => c !== rightChoice)!;
      for (const [player, choice] of [
        [right, rightChoice],
        [wrong, wrongChoice],
      ] as const) {
        const res = await app.request('PUT', '/api/question-answers', {
          token: player.token,
          body: { question_issuance_id: q.question_issuance_id, selected_answer_identifier: choice },
        });
        expect(res.status, res.text).toBe(201);
      }
      asked.push({ id: q.question_issuance_id, correct, rightChoice, wrongChoice, trigger: event.provider_event_id });
    }
    feed.end();
    expect(asked).toHaveLength(asks.size);
    expect(asked.length).toBe(expected.nextGoal.length + expected.corners.length + expected.restarts.length + 1);
  }, 180_000);

  it('sends each player the resolution with their own outcome and points', async () => {
    for (const q of asked) {
      const [r, w] = await Promise.all([
        rightStream.take((m) => m.type === 'resolution' && m.question_issuance_id === q.id, 60_000),
        wrongStream.take((m) => m.type === 'resolution' && m.question_issuance_id === q.id, 60_000),
      ]);
      if (q.correct === null) {
        // Decided too soon after it was asked: voided, nobody gains or loses.
        for (const [message, choice] of [
          [r, q.rightChoice],
          [w, q.wrongChoice],
        ] as const)
          expect(message).toMatchObject({
            status: 'voided',
            correct_answer_identifier: null,
            answer: { selected_answer_identifier: choice, outcome: 'void', points_awarded: 0 },
          });
        continue;
      }
      expect(r).toMatchObject({
        status: 'resolved',
        correct_answer_identifier: q.correct,
        answer: { selected_answer_identifier: q.correct, outcome: 'correct', points_awarded: POINTS },
      });
      expect(w).toMatchObject({
        status: 'resolved',
        correct_answer_identifier: q.correct,
        answer: { selected_answer_identifier: q.wrongChoice, outcome: 'incorrect', points_awarded: 0 },
      });
    }
    const listener = await waitFor(
      async () => {
        const [l] = await app.services.database.db.select().from(matchListeners).where(eq(matchListeners.matchId, matchId));
        return l?.status === 'completed' ? l : undefined;
      },
      { what: 'the listener to complete', timeoutMs: 60_000 },
    );
    expect(listener.claimedBy).not.toContain(`:${process.pid}:`);
    await rightStream.take('match_closed', 30_000);
  }, 180_000);

  it('shows points and history exactly as the data implies, and takes feedback on a resolved answer', async () => {
    const n = asked.length;
    // Voided questions (decided too soon to answer) count as answered, not as resolved, and score nothing.
    const resolved = asked.filter((q) => q.correct !== null).length;
    expect(resolved).toBeGreaterThan(0);
    expect(resolved).toBeLessThan(n);
    const rightPoints = await app.request('GET', '/api/users/me/points', { token: right.token });
    expect(rightPoints.body.all_time).toEqual({ points: resolved * POINTS, answered_count: n, resolved_count: resolved, correct_count: resolved });
    const wrongPoints = await app.request('GET', '/api/users/me/points', { token: wrong.token });
    expect(wrongPoints.body.all_time).toEqual({ points: 0, answered_count: n, resolved_count: resolved, correct_count: 0 });
    expect(rightPoints.body.periods.find((p: { period: string }) => p.period === 'today').points).toBe(resolved * POINTS);

    const history = await app.request('GET', '/api/question-answers', { token: wrong.token, query: { match_id: matchId } });
    expect(history.body).toHaveLength(n);
    const byId = new Map(asked.map((a) => [a.id, a]));
    for (const row of history.body) {
      const q = byId.get(row.question_issuance_id)!;
      if (q.correct === null) {
        expect(row).toMatchObject({ outcome: 'void', selected_answer_identifier: q.wrongChoice, points_awarded: 0, issuance_status: 'voided' });
        continue;
      }
      expect(row).toMatchObject({
        kind: 'in_game',
        outcome: 'incorrect',
        selected_answer_identifier: q.wrongChoice,
        correct_answer_identifier: q.correct,
        points_awarded: 0,
        points_possible: POINTS,
        issuance_status: 'resolved',
      });
    }
    const rightHistory = await app.request('GET', '/api/question-answers', { token: right.token, query: { match_id: matchId } });
    expect(rightHistory.body).toHaveLength(n);
    expect(
      rightHistory.body.every(
        (r: { outcome: string; points_awarded: number }) =>
          (r.outcome === 'correct' && r.points_awarded === POINTS) || (r.outcome === 'void' && r.points_awarded === 0),
      ),
    ).toBe(true);

    const subject = history.body.find((r: { outcome: string }) => r.outcome === 'incorrect');
    const filed = await app.request('POST', '/api/user-feedback', {
      token: wrong.token,
      body: { subject_type: 'in_game_answer', subject_id: subject.answer_id, topic: 'wrong_result', description: 'I am sure it went the other way.' },
    });
    expect(filed.status).toBe(201);
    expect(filed.body).toMatchObject({ match_id: matchId, question_issuance_id: subject.question_issuance_id });
    const mine = await app.request('GET', '/api/user-feedback', { token: wrong.token });
    expect(mine.body.feedback_count).toBe(1);
  });
});

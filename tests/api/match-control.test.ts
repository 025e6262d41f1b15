import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedEvent } from '../../src/domain/sports/events.js';
import { syntheticFootballMatch } from '../../src/engine/feed/synthetic.js';
import { createMatchQuestions } from '../../src/engine/match-questions.js';
import type { EngineWorker } from '../../src/engine/worker.js';
import { questionAnswers } from '../../src/modules/answers/answers.table.js';
import { questionIssuanceDenials } from '../../src/modules/denials/denials.table.js';
import { questionIssuances } from '../../src/modules/issuances/issuances.table.js';
import { matchListeners } from '../../src/modules/listeners/listeners.table.js';
import { matchControlErrors } from '../../src/modules/match-control/match-control.errors.js';
import { PAUSED_CLONE_KICKOFF_MS } from '../../src/modules/match-control/match-control.service.js';
import { matchErrors } from '../../src/modules/matches/matches.errors.js';
import { followQuotaDays, matches, matchFollows } from '../../src/modules/matches/matches.table.js';
import { questionSponsorships } from '../../src/modules/sponsorships/sponsorships.table.js';
import { startWorker, waitFor } from '../helpers/engine.js';
import { feedEvent, insertIssuance, insertListener, insertListenerEvents } from '../helpers/engine-rows.js';
import { startPushFeedServer } from '../../src/engine/feed/push-server.js';
import { expectError } from '../helpers/errors.js';
import { createMatch, UNKNOWN_ID } from '../helpers/factories.js';
import { createMatchDefinition, inGameDefinitionInput } from '../helpers/definitions.js';
import { openStream } from '../helpers/live-client.js';
import { createAdmin, registerUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app.js';

let app: TestApp;
let mainEnv: TestApp;
let admin: TestUser;
let mainAdmin: TestUser;

beforeAll(async () => {
  app = await startTestApp({ config: { appEnv: 'staging' } });
  mainEnv = await startTestApp({ config: { appEnv: 'main' } });
  admin = await createAdmin(app);
  mainAdmin = await createAdmin(mainEnv);
});
afterAll(async () => {
  await app?.close();
  await mainEnv?.close();
});

/** A closed match whose listener recorded a short synthetic feed. */
async function recordedMatch(target: TestApp = app, overrides: Parameters<typeof createMatch>[1] = {}) {
  const { events } = syntheticFootballMatch({
    seed: 7,
    homeTeam: 'Home FC',
    awayTeam: 'Away FC',
    kickoff: new Date(Date.now() - 7_200_000),
    durationScale: 0.001,
  });
  const match = await createMatch(target, {
    status: 'closed',
    homeTeam: 'Home FC',
    awayTeam: 'Away FC',
    scheduled: new Date(Date.now() - 7_200_000),
    ...overrides,
  });
  const listener = await insertListener(target, { matchId: match.id, status: 'completed', source: 'feed' });
  await insertListenerEvents(target, listener, events);
  return { match, events };
}

describe('POST /api/matches/{match_id}/clone', () => {
  it('makes a test match with the settings, sponsor and slots copied, the creator following, and a replay listener queued', async () => {
    const brand = (
      await app.request('POST', '/api/brands', {
        token: admin.token,
        form: (() => {
          const f = new FormData();
          f.set('name', `Clone Sponsor ${Date.now()}`);
          f.set('primary_color', '#123456');
          return f;
        })(),
      })
    ).body;
    const { match } = await recordedMatch(app, {
      questionMaxCount: 7,
      answerWindowSeconds: 33,
      minAnswerSeconds: 4,
      sponsorBrandId: brand.id,
      questionPeriodDistribution: { '1': 3 },
    });
    await app.services.database.db.insert(questionSponsorships).values({ brandId: brand.id, matchId: match.id, strategy: 'question_number', targetNumber: 2 });
    const res = await app.request('POST', `/api/matches/${match.id}/clone`, { token: admin.token });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      is_test: true,
      status: 'scheduled',
      cloned_from_match_id: match.id,
      created_by_user_id: admin.id,
      home_team: 'Home FC',
      question_max_count: 7,
      overrides: { answer_window_seconds: 33, min_answer_seconds: 4, question_period_distribution: { '1': 3 } },
      sponsor_brand_id: brand.id,
      is_followed: true,
      auto_dispatch_listener: false,
    });
    expect(res.body.question_sponsorships).toEqual([
      expect.objectContaining({ brand_id: brand.id, strategy: 'question_number', target: 2, question_issuance_id: null }),
    ]);
    const db = app.services.database.db;
    const [follow] = await db
      .select()
      .from(matchFollows)
      .where(and(eq(matchFollows.matchId, res.body.id), eq(matchFollows.userId, admin.id)));
    expect(follow).toMatchObject({ following: true, countsTowardQuota: false });
    expect(await db.select().from(followQuotaDays).where(eq(followQuotaDays.userId, admin.id))).toEqual([]);
    const [listener] = await db.select().from(matchListeners).where(eq(matchListeners.matchId, res.body.id));
    expect(listener).toMatchObject({ status: 'queued', source: 'replay', replayMatchId: match.id });
  });

  it('answers 409 for a match that is not closed or has nothing recorded, 404 for an unknown one', async () => {
    const live = await createMatch(app, { status: 'live' });
    const notClosed = await app.request('POST', `/api/matches/${live.id}/clone`, { token: admin.token });
    expectError(notClosed, matchControlErrors.notClosed);
    // The message says what the match is.
    expect(notClosed.body.detail).toContain('live');
    const silent = await createMatch(app, { status: 'closed' });
    expectError(await app.request('POST', `/api/matches/${silent.id}/clone`, { token: admin.token }), matchControlErrors.nothingToReplay);
    expectError(await app.request('POST', `/api/matches/${UNKNOWN_ID}/clone`, { token: admin.token }), matchErrors.notFound);
  });

  it('gives the clone its Match questions: answerable until a paused clone is started, closing as it kicks off; again on a restart', async () => {
    // A league of their own: the other tests' clones (wc) get none.
    const definition = await createMatchDefinition(app, admin, 'mls');
    const { match } = await recordedMatch(app, { league: 'mls', homeTeam: 'Clone Home', awayTeam: 'Clone Away' });
    const db = app.services.database.db;
    const matchQuestionsOf = (id: string) =>
      db
        .select()
        .from(questionIssuances)
        .where(and(eq(questionIssuances.matchId, id), eq(questionIssuances.kind, 'match')));

    const paused = (await app.request('POST', `/api/matches/${match.id}/clone`, { token: admin.token, body: { start: 'paused' } })).body;
    // Kick-off is when an operator starts it, an hour at the latest.
    expect(Date.parse(paused.scheduled) - Date.now()).toBeGreaterThan(PAUSED_CLONE_KICKOFF_MS - 60_000);
    const [question] = await matchQuestionsOf(paused.id);
    expect(question).toMatchObject({
      matchQuestionDefinitionId: definition.id,
      status: 'open',
      questionText: 'Clone Home vs Clone Away: who wins?',
      closesAt: new Date(paused.scheduled),
    });
    // The creator follows the clone and answers it, as a player would.
    const answer = await app.request('PUT', '/api/question-answers', {
      token: admin.token,
      body: { question_issuance_id: question!.id, selected_answer_identifier: 'home' },
    });
    expect(answer.status).toBeLessThan(300);

    // Started: it kicks off now, and its open Match question closes now (it locks as the replay starts).
    expect((await app.request('POST', `/api/matches/${paused.id}/start-listener`, { token: admin.token })).status).toBe(202);
    const [started] = await db.select().from(matches).where(eq(matches.id, paused.id));
    expect(Math.abs(started!.scheduled.getTime() - Date.now())).toBeLessThan(60_000);
    expect((await matchQuestionsOf(paused.id))[0]!.closesAt).toEqual(started!.scheduled);

    // Cloned to start at once: issued as it kicks off, never closing before it was issued.
    const now = (await app.request('POST', `/api/matches/${match.id}/clone`, { token: admin.token })).body;
    const [atOnce] = await matchQuestionsOf(now.id);
    expect(atOnce).toMatchObject({ matchQuestionDefinitionId: definition.id, status: 'open' });
    expect(atOnce!.closesAt.getTime()).toBeGreaterThanOrEqual(atOnce!.issuedAt.getTime());

    // A restart replays from the beginning: a new Match question, as the clone had.
    const restarted = await app.request('POST', `/api/matches/${now.id}/start-listener`, { token: admin.token, body: { restart: true } });
    expect(restarted.status).toBe(202);
    const again = await matchQuestionsOf(now.id);
    expect(again).toHaveLength(1);
    expect(again[0]!.id).not.toBe(atOnce!.id);
    // Nothing left queued for the engine tests below.
    for (const id of [paused.id, now.id]) await app.request('POST', `/api/matches/${id}/stop-listener`, { token: admin.token });
  });

  it('is unavailable in the main environment (403), and needs an admin', async () => {
    const { match } = await recordedMatch(mainEnv);
    const res = await mainEnv.request('POST', `/api/matches/${match.id}/clone`, { token: mainAdmin.token });
    expectError(res, matchControlErrors.unavailableInMain);
    // The message names the setting.
    expect(res.body.detail).toMatch(/main .*APP_ENV=main/);
    const player = await registerUser(app);
    expect((await app.request('POST', `/api/matches/${match.id}/clone`, { token: player.token })).status).toBe(403);
    expect((await app.request('POST', `/api/matches/${match.id}/clone`)).status).toBe(401);
  });
});

describe('POST /api/matches/{match_id}/start-listener', () => {
  it('enqueues a replay listener for a cloned test match, and returns the active one when asked again; another speed is a 409', async () => {
    const { match } = await recordedMatch();
    const clone = (await app.request('POST', `/api/matches/${match.id}/clone`, { token: admin.token, body: { start: 'paused' } })).body;
    // Paused: nothing was enqueued.
    expect(await app.services.database.db.select().from(matchListeners).where(eq(matchListeners.matchId, clone.id))).toEqual([]);
    const first = await app.request('POST', `/api/matches/${clone.id}/start-listener`, { token: admin.token, body: { speed: 50 } });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ match_id: clone.id, status: 'queued', source: 'replay', speed: 50 });
    const again = await app.request('POST', `/api/matches/${clone.id}/start-listener`, { token: admin.token });
    expect(again.body.id).toBe(first.body.id);
    const same = await app.request('POST', `/api/matches/${clone.id}/start-listener`, { token: admin.token, body: { speed: 50 } });
    expect(same.body.id).toBe(first.body.id);
    const other = await app.request('POST', `/api/matches/${clone.id}/start-listener`, { token: admin.token, body: { speed: 5 } });
    expectError(other, matchControlErrors.listenerActive);
    // The message names the speed it replays at.
    expect(other.body.detail).toMatch(/already replays this match at x50; stop it first/);
  });

  it('clones at the speed asked for', async () => {
    const { match } = await recordedMatch();
    const clone = (await app.request('POST', `/api/matches/${match.id}/clone`, { token: admin.token, body: { speed: 2.5 } })).body;
    const [listener] = await app.services.database.db.select().from(matchListeners).where(eq(matchListeners.matchId, clone.id));
    expect(listener).toMatchObject({ status: 'queued', source: 'replay', speed: 2.5, replayMatchId: match.id });
    expect((await app.request('POST', `/api/matches/${match.id}/clone`, { token: admin.token, body: { speed: 5000 } })).status).toBe(422);
    expect((await app.request('POST', `/api/matches/${match.id}/clone`, { token: admin.token, body: { start: 'later' } })).status).toBe(422);
  });

  it('restarts a played test match from the beginning: its questions, answers, denials and listeners go, the match is before kick-off again', async () => {
    const { match } = await recordedMatch();
    const clone = (await app.request('POST', `/api/matches/${match.id}/clone`, { token: admin.token })).body;
    const db = app.services.database.db;
    const brand = (
      await app.request('POST', '/api/brands', {
        token: admin.token,
        form: (() => {
          const f = new FormData();
          f.set('name', `Restart Sponsor ${Date.now()}`);
          f.set('primary_color', '#123456');
          return f;
        })(),
      })
    ).body;
    // What a run leaves: a played-through match, a resolved and an open question (a slot stamped), an answer, a denial.
    const [old] = await db.select().from(matchListeners).where(eq(matchListeners.matchId, clone.id));
    const resolved = await insertIssuance(app, { matchId: clone.id, status: 'resolved', correctAnswerIdentifier: 'home', triggerEventId: 'e-1' });
    const open = await insertIssuance(app, { matchId: clone.id, triggerEventId: 'e-2', questionNumber: 2 });
    const [slot] = await db
      .insert(questionSponsorships)
      .values({ brandId: brand.id, matchId: clone.id, strategy: 'question_number', targetNumber: 1, questionIssuanceId: resolved.id, stampedAt: new Date() })
      .returning();
    await db
      .insert(questionIssuanceDenials)
      .values({ matchId: clone.id, definitionName: 'Next goal', failedStep: 'probability', detail: 'no', triggerEventId: 'e-3', triggerEventType: 'shot' });
    // The creator follows the test match and answers.
    expect(
      (await app.request('PUT', '/api/question-answers', { token: admin.token, body: { question_issuance_id: open.id, selected_answer_identifier: 'home' } }))
        .status,
    ).toBeLessThan(300);
    await db
      .update(matches)
      .set({
        status: 'closed',
        homeScore: 2,
        awayScore: 1,
        period: '2',
        clockSeconds: 5400,
        startedAt: new Date(),
        result: { home_score: 2, away_score: 1 },
        stateStore: { corners: 3 },
      })
      .where(eq(matches.id, clone.id));
    // Played through: 409 without restart.
    const refused = await app.request('POST', `/api/matches/${clone.id}/start-listener`, { token: admin.token });
    expectError(refused, matchControlErrors.alreadyPlayed);

    const res = await app.request('POST', `/api/matches/${clone.id}/start-listener`, { token: admin.token, body: { restart: true, speed: 20 } });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ match_id: clone.id, status: 'queued', source: 'replay', speed: 20 });
    expect(res.body.id).not.toBe(old!.id);
    expect((await db.select().from(matchListeners).where(eq(matchListeners.matchId, clone.id))).map((l) => l.id)).toEqual([res.body.id]);
    expect(await db.select().from(questionIssuances).where(eq(questionIssuances.matchId, clone.id))).toEqual([]);
    expect(await db.select().from(questionIssuanceDenials).where(eq(questionIssuanceDenials.matchId, clone.id))).toEqual([]);
    const [row] = await db.select().from(matches).where(eq(matches.id, clone.id));
    expect(row).toMatchObject({
      status: 'scheduled',
      homeScore: null,
      awayScore: null,
      period: null,
      clockSeconds: null,
      startedAt: null,
      result: null,
      stateStore: {},
    });
    expect(Math.abs(row!.scheduled.getTime() - Date.now())).toBeLessThan(60_000);
    const [freed] = await db.select().from(questionSponsorships).where(eq(questionSponsorships.id, slot!.id));
    expect(freed).toMatchObject({ questionIssuanceId: null, stampedAt: null });
    // The creator still follows it; the answer went with its question.
    expect((await app.request('GET', `/api/matches/${clone.id}`, { token: admin.token })).body.is_followed).toBe(true);
    expect(await db.select().from(questionAnswers).where(eq(questionAnswers.matchId, clone.id))).toEqual([]);
  });

  it('answers 409 for a real match, a test match with nothing to replay, or one already played', async () => {
    const real = await createMatch(app);
    expectError(await app.request('POST', `/api/matches/${real.id}/start-listener`, { token: admin.token }), matchErrors.notTest);
    const bare = await createMatch(app, { isTest: true });
    expectError(await app.request('POST', `/api/matches/${bare.id}/start-listener`, { token: admin.token }), matchControlErrors.nothingToReplay);
    const played = await createMatch(app, { isTest: true, status: 'closed', clonedFromMatchId: real.id });
    expectError(await app.request('POST', `/api/matches/${played.id}/start-listener`, { token: admin.token }), matchControlErrors.alreadyPlayed);
    expectError(await app.request('POST', `/api/matches/${UNKNOWN_ID}/start-listener`, { token: admin.token }), matchErrors.notFound);
  });

  it('is unavailable in the main environment (403) and checks the speed (422)', async () => {
    const test = await createMatch(mainEnv, { isTest: true });
    expectError(await mainEnv.request('POST', `/api/matches/${test.id}/start-listener`, { token: mainAdmin.token }), matchControlErrors.unavailableInMain);
    expect((await app.request('POST', `/api/matches/${test.id}/start-listener`, { token: admin.token, body: { speed: 0 } })).status).toBe(422);
  });
});

describe('POST /api/matches/{match_id}/stop-listener', () => {
  it('stops a queued listener at once and revokes the open in-game questions; idempotent', async () => {
    const match = await createMatch(app, { status: 'live' });
    const listener = await insertListener(app, { matchId: match.id, status: 'queued', source: 'feed', feedUrl: 'http://127.0.0.1:9/feed' });
    const open = await insertIssuance(app, { matchId: match.id, status: 'open' });
    const resolved = await insertIssuance(app, { matchId: match.id, status: 'resolved', correctAnswerIdentifier: 'home' });
    const res = await app.request('POST', `/api/matches/${match.id}/stop-listener`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ match_id: match.id, stopped_listener_ids: [listener.id], revoked_issuance_count: 1 });
    const db = app.services.database.db;
    expect((await db.select().from(matchListeners).where(eq(matchListeners.id, listener.id)))[0]!.status).toBe('stopped');
    const rows = await db.select().from(questionIssuances).where(eq(questionIssuances.matchId, match.id));
    expect(rows.find((r) => r.id === open.id)!.status).toBe('revoked');
    expect(rows.find((r) => r.id === resolved.id)!.status).toBe('resolved');
    const again = await app.request('POST', `/api/matches/${match.id}/stop-listener`, { token: admin.token });
    expect(again.body).toEqual({ match_id: match.id, stopped_listener_ids: [], revoked_issuance_count: 0 });
    // A real match keeps its status: its feed may come back, and its schedule closes it.
    expect((await db.select().from(matches).where(eq(matches.id, match.id)))[0]!.status).toBe('live');
    expectError(await app.request('POST', `/api/matches/${UNKNOWN_ID}/stop-listener`, { token: admin.token }), matchErrors.notFound);
  });

  it('works in the main environment too', async () => {
    const match = await createMatch(mainEnv);
    expect((await mainEnv.request('POST', `/api/matches/${match.id}/stop-listener`, { token: mainAdmin.token })).status).toBe(200);
  });
});

describe('a cloned match replays through the engine', () => {
  let worker: EngineWorker | undefined;
  afterAll(async () => worker?.stop());

  it('issues questions on the test match from the original recording, and closes it', async () => {
    const res = await app.request('POST', '/api/question-definitions', {
      token: admin.token,
      query: { league: 'wc' },
      body: inGameDefinitionInput({
        name: `Replay corner ${Date.now()}`,
        trigger: { event_type: 'corner' },
        resolution: { rules: [{ event_type: 'shot', correct_choice: 'event.team' }] },
      }),
    });
    expect(res.status).toBe(201);
    // A Match question too: the clone issues it, the replay's kick-off locks it, its result resolves it.
    await createMatchDefinition(app, admin, 'wc');
    const { match, events } = await recordedMatch();
    const clone = (await app.request('POST', `/api/matches/${match.id}/clone`, { token: admin.token })).body;
    worker = startWorker(app);
    const db = app.services.database.db;
    const firstCorner = events.find((e: FeedEvent) => e.type === 'corner')!;
    const issued = await waitFor(
      async () =>
        (
          await db
            .select()
            .from(questionIssuances)
            .where(and(eq(questionIssuances.matchId, clone.id), eq(questionIssuances.kind, 'in_game')))
        )[0],
      { what: 'a question on the cloned match', timeoutMs: 120_000 },
    );
    expect(issued.triggerEventId).toBe(firstCorner.provider_event_id);
    const done = await waitFor(
      async () => {
        const [l] = await db.select().from(matchListeners).where(eq(matchListeners.matchId, clone.id));
        return l && !['queued', 'running'].includes(l.status) ? l : undefined;
      },
      // A whole recorded match: bounds of a wait, far above what a busy machine needs.
      { what: 'the replay to finish', timeoutMs: 120_000 },
    );
    expect(done.status).toBe('completed');
    // A replay knows its length: the progress the operator UI draws.
    const groups = (await app.request('GET', '/api/match-listeners', { token: admin.token, query: { league: clone.league } })).body;
    const listed = groups.find((g: { match: { id: string } }) => g.match.id === clone.id).listeners;
    expect(listed[0]).toMatchObject({ id: done.id, events_total: events.length, events_consumed: events.length });
    const [after] = await db.select().from(matches).where(eq(matches.id, clone.id));
    expect(after).toMatchObject({ status: 'closed', listenerEventsArchived: true });
    const winner = after!.homeScore! > after!.awayScore! ? 'home' : after!.homeScore! < after!.awayScore! ? 'away' : 'draw';
    // The worker's Match question step (its task is not part of this worker): lock at kick-off, resolve from the result.
    const { engine, logger } = app.services;
    const steps = createMatchQuestions({ db, store: engine.store, hooks: engine.hooks, logger, brandSnapshot: engine.brandSnapshot });
    expect((await steps.tick()).settled).toBe(1);
    const [settled] = await db
      .select()
      .from(questionIssuances)
      .where(and(eq(questionIssuances.matchId, clone.id), eq(questionIssuances.kind, 'match')));
    expect(settled!.status).toBe('resolved');
    expect(settled!.correctAnswerIdentifier).toBe(winner);
  }, 240_000);

  it('stops a running listener at its next heartbeat, and auto-dispatch does not start it again', async () => {
    const feed = await startPushFeedServer({
      events: [feedEvent({ seq: 1, type: 'match_status', data: { status: 'live' } })],
      speed: Infinity,
      holdOpen: true,
      heartbeatMs: 100,
    });
    try {
      const match = await createMatch(app, { scheduled: new Date(), feedUrl: feed.url });
      worker ??= startWorker(app);
      const db = app.services.database.db;
      const running = await waitFor(
        async () =>
          (
            await db
              .select()
              .from(matchListeners)
              .where(and(eq(matchListeners.matchId, match.id), eq(matchListeners.status, 'running')))
          )[0],
        { what: 'the dispatched listener to run' },
      );
      const res = await app.request('POST', `/api/matches/${match.id}/stop-listener`, { token: admin.token });
      expect(res.body.stopped_listener_ids).toEqual([running.id]);
      await waitFor(async () => (await db.select().from(matchListeners).where(eq(matchListeners.id, running.id)))[0]?.status === 'stopped', {
        what: 'the listener to stop',
      });
      // Two whole rounds of the worker after the stop (its dispatch included): none started the listener again.
      const rounds = worker;
      let since = Date.now();
      for (let round = 0; round < 2; round++) {
        await waitFor(async () => (rounds.lastTickAt ?? 0) > since, { what: "a round of the worker's" });
        since = rounds.lastTickAt!;
      }
      expect(await db.select().from(matchListeners).where(eq(matchListeners.matchId, match.id))).toHaveLength(1);
    } finally {
      await feed.close();
    }
  });

  it('ends a test match stopped in play (no result) and tells its followers; starting it again replays it to its end', async () => {
    worker ??= startWorker(app);
    const { match } = await recordedMatch();
    // Slowly: the replay is in play when it is stopped.
    const clone = (await app.request('POST', `/api/matches/${match.id}/clone`, { token: admin.token, body: { speed: 0.1 } })).body;
    const db = app.services.database.db;
    const stream = await openStream(app, admin.token);
    await stream.ready();
    try {
      await waitFor(async () => (await db.select().from(matches).where(eq(matches.id, clone.id)))[0]?.status === 'live', { what: 'the replay to kick off' });
      const res = await app.request('POST', `/api/matches/${clone.id}/stop-listener`, { token: admin.token });
      expect(res.status).toBe(200);
      expect(await stream.take((m) => m.type === 'match_closed' && m.match_id === clone.id, 15_000)).toEqual({
        type: 'match_closed',
        match_id: clone.id,
        status: 'ended',
      });
      await waitFor(async () => (await db.select().from(matchListeners).where(eq(matchListeners.matchId, clone.id))).every((l) => l.status === 'stopped'), {
        what: 'the listener to stop',
      });
      // Ended, also once the stopped listener's last commit is in: not live forever.
      const read = await app.request<any>('GET', `/api/matches/${clone.id}`, { token: admin.token });
      expect(read.body.status).toBe('ended');
      const restarted = await app.request('POST', `/api/matches/${clone.id}/start-listener`, { token: admin.token, body: { speed: 1000 } });
      expect(restarted.status).toBe(202);
      await waitFor(async () => (await db.select().from(matches).where(eq(matches.id, clone.id)))[0]?.status === 'closed', {
        what: 'the replay started again to close the match',
      });
    } finally {
      await stream.close();
    }
  });

  it('keeps each question of a fast replay answerable for the minimum real-time window before the replay goes on', async () => {
    await worker?.stop();
    worker = startWorker(app, { replayMinAnswerMs: 1500 });
    const res = await app.request('POST', '/api/question-definitions', {
      token: admin.token,
      query: { league: 'wc' },
      body: inGameDefinitionInput({
        name: `Playable replay ${Date.now()}`,
        trigger: { event_type: 'corner' },
        resolution: { rules: [{ event_type: 'shot', correct_choice: 'event.team' }] },
      }),
    });
    expect(res.status).toBe(201);
    const { match } = await recordedMatch();
    const clone = (await app.request('POST', `/api/matches/${match.id}/clone`, { token: admin.token, body: { speed: 1000 } })).body;
    const db = app.services.database.db;
    let seen = '';
    const settled = await waitFor(
      async () => {
        const rows = await db.select().from(questionIssuances).where(eq(questionIssuances.matchId, clone.id));
        const denials = await db.select().from(questionIssuanceDenials).where(eq(questionIssuanceDenials.matchId, clone.id));
        const listeners = await db.select().from(matchListeners).where(eq(matchListeners.matchId, clone.id));
        seen = JSON.stringify({
          issued: rows.map((q) => [q.definitionName, q.status, q.issuedAt, q.resolvedAt]),
          denied: denials.map((d) => [d.definitionName, d.failedStep, d.detail]).slice(0, 5),
          listeners: listeners.map((l) => [l.status, l.eventsConsumed, l.error]),
        });
        return rows.find((q) => q.resolvedAt);
      },
      { what: () => `the first question of the replay to resolve: ${seen}`, timeoutMs: 120_000 },
    );
    // At x1000 the deciding shot comes milliseconds after the corner; the replay held it back.
    expect(settled.resolvedAt!.getTime() - settled.issuedAt.getTime()).toBeGreaterThanOrEqual(1400);
  }, 180_000);
});

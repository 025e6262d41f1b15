/**
 * WS /api/play/stream: authentication and close codes, the connect snapshot,
 * delivery of questions, resolutions, locks and closures to followers only,
 * follow changes on open sockets, heartbeats, slow clients, shutdown, and
 * (PostgreSQL) delivery across processes through LISTEN/NOTIFY. Every message
 * received is validated against openapi/asyncapi.yaml.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { WebSocket } from 'ws';
import { httpErrors } from '../../src/http/http.errors.js';
import { questionIssuances, type QuestionIssuanceRow } from '../../src/modules/issuances/issuances.table.js';
import { apiKeys } from '../../src/modules/auth/auth.table.js';
import { users } from '../../src/modules/users/users.table.js';
import { waitFor } from '../helpers/engine.js';
import { expectError } from '../helpers/errors.js';
import { createMatch, follow } from '../helpers/factories.js';
import { feedEvent, insertIssuance, insertListener, insertListenerEvents } from '../helpers/engine-rows.js';
import { syncSchedule, type ScheduledMatch } from '../../src/engine/schedule/schedule-sync.js';
import { publishMatchStatus } from '../../src/live/publishers.js';
import { matches, matchFollows } from '../../src/modules/matches/matches.table.js';
import { loadConfig } from '../../src/config.js';
import { loadAsyncApi, messageProblem } from '../helpers/asyncapi.js';
import { openStream, waitForHub, type StreamClient } from '../helpers/live-client.js';
import { createAdmin, registerUser, startTestApp, statementsDuring, type TestApp, type TestUser } from '../helpers/test-app.js';

const issued = (app: TestApp, row: QuestionIssuanceRow) => app.services.engine.hooks.onIssued!(row);

/** Settles as the engine does: scoring in the settling transaction, subscribers after commit. */
async function settle(
  app: TestApp,
  row: QuestionIssuanceRow,
  status: 'resolved' | 'voided' | 'revoked',
  correct: string | null = null,
): Promise<QuestionIssuanceRow> {
  const { store, hooks } = app.services.engine;
  const settled = await store.settleIssuance({ id: row.id, status, correct, resolvedSeq: null, resolutionEventId: null });
  if (!settled) throw new Error(`issuance ${row.id} did not settle`);
  await hooks.onSettled!(settled);
  return settled;
}

async function answer(app: TestApp, user: TestUser, issuanceId: string, choice: string) {
  const res = await app.request('PUT', '/api/question-answers', {
    token: user.token,
    body: { question_issuance_id: issuanceId, selected_answer_identifier: choice },
  });
  if (res.status !== 200 && res.status !== 201) throw new Error(`answer: ${res.status} ${res.text}`);
}

async function connected(app: TestApp, user: TestUser | string): Promise<StreamClient & { open: any; hello: any }> {
  const client = await openStream(app, typeof user === 'string' ? user : user.token);
  const { hello, open } = await client.ready();
  return Object.assign(client, { hello, open });
}

describe('the stream document', () => {
  it('documents every message with a schema and the close codes the server uses', () => {
    const doc = loadAsyncApi();
    expect(doc.asyncapi).toBe('3.0.0');
    expect(Object.values(doc.channels).map((c) => c.address)).toEqual(['/api/play/stream']);
    expect(doc.info['x-close-codes'].map((c) => c.code).sort()).toEqual([1001, 1002, 1003, 1007, 1008, 1009, 1011, 1013, 4008, 4009, 4401, 4429]);
    expect(messageProblem({ type: 'pong' })).toBeUndefined();
    expect(messageProblem({ type: 'pong', extra: 1 })).toMatch(/additional/);
    expect(messageProblem({ type: 'nope' })).toMatch(/undocumented/);
  });
});

describe('WS /api/play/stream', () => {
  let app: TestApp;
  const clients: StreamClient[] = [];
  const track = <T extends StreamClient>(c: T): T => {
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => {});
    await app?.close();
  });

  describe('authentication', () => {
    it('closes with 4401 without a key, with an unknown key, a revoked key, or a key of an inactive user', async () => {
      const missing = track(await openStream(app, null));
      expect(await missing.closed).toEqual({ code: 4401, reason: 'missing api_key' });
      const empty = track(await openStream(app, ''));
      expect(await empty.closed).toEqual({ code: 4401, reason: 'missing api_key' });
      const unknown = track(await openStream(app, 'qp_not-a-real-key'));
      expect(await unknown.closed).toEqual({ code: 4401, reason: 'invalid API key' });

      const loggedOut = await registerUser(app);
      expect((await app.request('POST', '/api/auth/logout', { token: loggedOut.token })).status).toBe(204);
      const revoked = track(await openStream(app, loggedOut.token));
      expect(await revoked.closed).toEqual({ code: 4401, reason: 'invalid API key' });

      const inactive = await registerUser(app);
      await app.services.database.db.update(users).set({ isActive: false }).where(eq(users.id, inactive.id));
      const gone = track(await openStream(app, inactive.token));
      expect(await gone.closed).toEqual({ code: 4401, reason: 'invalid API key' });
      expect(missing.messages).toEqual([]);
      expect(gone.messages).toEqual([]);
      await waitForHub(app, (s) => s.sockets === 0);
    });

    it('answers upgrades of any other path with 404', async () => {
      for (const path of ['/api/play/stream/', '/api/play', '/ws', '/api/play/stream2']) {
        const key = (await registerUser(app)).token;
        const url = `${app.url.replace(/^http/, 'ws')}${path}?api_key=${key}`;
        await expect(openStream(app, key, { url })).rejects.toThrow('handshake refused: HTTP 404');
      }
    });

    it('is not an HTTP operation: a plain GET of the path is a 404 with the error body', async () => {
      expectError(await app.request('GET', '/api/play/stream'), httpErrors.routeNotFound);
    });
  });

  describe('on connect', () => {
    it('sends hello, then the open questions of every followed match (both kinds) with the caller answers', async () => {
      const user = await registerUser(app);
      const followed = await createMatch(app);
      const other = await createMatch(app);
      await follow(app, user.id, followed.id);
      const inGame = await insertIssuance(app, { matchId: followed.id });
      const pre = await insertIssuance(app, { matchId: followed.id, kind: 'match', triggerEventId: null, closesAt: followed.scheduled });
      await insertIssuance(app, { matchId: other.id });
      await insertIssuance(app, { matchId: followed.id, status: 'resolved' });
      await answer(app, user, inGame.id, 'away');

      const client = track(await openStream(app, user.token));
      const { hello, open } = await client.ready();
      expect(client.messages.slice(0, 2)).toEqual([hello, open]);
      expect(hello).toMatchObject({
        type: 'hello',
        protocol: 1,
        user_id: user.id,
        heartbeat_seconds: 30,
        followed_match_ids: [followed.id],
        web_push_public_key: null,
      });
      expect(open.match_id).toBeNull();
      expect(open.questions.map((q: any) => q.question_issuance_id).sort()).toEqual([inGame.id, pre.id].sort());
      const q = open.questions.find((x: any) => x.question_issuance_id === inGame.id);
      expect(q).toMatchObject({ kind: 'in_game', current_answer: 'away', points: 10, match: { id: followed.id } });
      expect(q.seconds_remaining).toBeGreaterThanOrEqual(Math.floor((inGame.closesAt!.getTime() - Date.now()) / 1000));
      expect(open.questions.find((x: any) => x.question_issuance_id === pre.id).kind).toBe('match');
      // With the state of every followed match, for a live header.
      expect(open.matches).toEqual([
        { match_id: followed.id, status: 'scheduled', period: null, clock_seconds: null, home_score: null, away_score: null, resolution_seq: 0 },
      ]);
      // The snapshot is the catch-up endpoint's list.
      const catchUp = await app.request('GET', '/api/question-answers/open', { token: user.token });
      expect(catchUp.body.map((x: any) => x.question_issuance_id).sort()).toEqual(open.questions.map((x: any) => x.question_issuance_id).sort());
    });
  });

  describe('delivery', () => {
    it('pushes a new question to every socket of its followers, and to no one else', async () => {
      const match = await createMatch(app);
      const fan = await registerUser(app);
      const bystander = await registerUser(app);
      await follow(app, fan.id, match.id);
      const phone = track(await connected(app, fan));
      const laptop = track(await connected(app, fan));
      const other = track(await connected(app, bystander));

      const row = await insertIssuance(app, { matchId: match.id, questionText: 'Who scores next?' });
      await issued(app, row);
      for (const c of [phone, laptop]) {
        const { question } = await c.take('question');
        expect(question).toMatchObject({
          question_issuance_id: row.id,
          kind: 'in_game',
          question_text: 'Who scores next?',
          current_answer: null,
          match: { id: match.id },
        });
        // What was left when it was sent: at least what is left now, however long that took on a busy machine.
        expect(question.seconds_remaining).toBeGreaterThanOrEqual(Math.floor((row.closesAt!.getTime() - Date.now()) / 1000));
        expect(question.seconds_remaining).toBeLessThanOrEqual(60);
      }
      await other.expectNone('question');
    });

    it('looks an issuance up once per process, however many sockets receive it, and the answer path never notifies', async () => {
      const count = async (sockets: number) => {
        const match = await createMatch(app);
        const receivers: StreamClient[] = [];
        for (let i = 0; i < sockets; i++) {
          const u = await registerUser(app);
          await follow(app, u.id, match.id);
          receivers.push(track(await connected(app, u)));
        }
        const row = await insertIssuance(app, { matchId: match.id });
        const { statements } = await statementsDuring(app, async () => {
          await issued(app, row);
          for (const c of receivers) await c.take('question');
          await settle(app, row, 'voided');
          for (const c of receivers) await c.take('resolution');
          await app.services.push.subscriber.idle();
          // The settlement also asks for the match's leaderboard (none here: the question was voided): counted once done.
          await app.live.hub.idle();
        });
        return statements;
      };
      await count(1);
      const one = await count(1);
      const many = await count(6);
      expect(many.length).toBe(one.length);
      expect(one.filter((q) => q.includes('pg_notify'))).toHaveLength(2);

      const match = await createMatch(app);
      const user = await registerUser(app);
      await follow(app, user.id, match.id);
      const row = await insertIssuance(app, { matchId: match.id });
      const { statements } = await statementsDuring(app, () => answer(app, user, row.id, 'home'));
      expect(statements.length).toBeGreaterThan(0);
      expect(statements.filter((q) => q.includes('pg_notify'))).toEqual([]);
    });

    it('sends each receiver a resolution with their own answer, outcome and points', async () => {
      const match = await createMatch(app);
      const [right, wrong, silent, away] = [await registerUser(app), await registerUser(app), await registerUser(app), await registerUser(app)];
      for (const u of [right, wrong, silent]) await follow(app, u.id, match.id);
      const row = await insertIssuance(app, { matchId: match.id, points: 25 });
      await answer(app, right, row.id, 'home');
      await answer(app, wrong, row.id, 'away');
      const sockets = {
        right: track(await connected(app, right)),
        wrong: track(await connected(app, wrong)),
        silent: track(await connected(app, silent)),
        away: track(await connected(app, away)),
      };

      await settle(app, row, 'resolved', 'home');
      // Self-contained: the match, the question and its choices come with the outcome.
      const base = {
        type: 'resolution',
        question_issuance_id: row.id,
        match_id: match.id,
        kind: 'in_game',
        match: {
          id: match.id,
          league: 'wc',
          home_team: match.homeTeam,
          away_team: match.awayTeam,
          scheduled: match.scheduled.toISOString(),
          status: match.status,
          is_test: false,
        },
        question_text: row.questionText,
        choices: row.choices,
        status: 'resolved',
        correct_answer_identifier: 'home',
        points_possible: 25,
      };
      expect(await sockets.right.take('resolution')).toMatchObject({
        ...base,
        answer: { selected_answer_identifier: 'home', outcome: 'correct', points_awarded: 25 },
      });
      expect(await sockets.wrong.take('resolution')).toMatchObject({
        ...base,
        answer: { selected_answer_identifier: 'away', outcome: 'incorrect', points_awarded: 0 },
      });
      const none = await sockets.silent.take('resolution');
      expect(none).toMatchObject({ ...base, answer: null });
      // How everyone answered, final, whether or not the receiver did.
      expect(none.crowd).toEqual({
        answer_count: 2,
        choices: [
          { identifier: 'home', count: 1, percent: 50 },
          { identifier: 'away', count: 1, percent: 50 },
        ],
      });
      expect(Date.parse(none.resolved_at)).toBeGreaterThan(Date.now() - 60_000);
      await sockets.away.expectNone('resolution');

      // Voided: no correct answer, the answer scores nothing.
      const second = await insertIssuance(app, { matchId: match.id });
      await answer(app, right, second.id, 'away');
      await settle(app, second, 'voided');
      expect(await sockets.right.take((m) => m.type === 'resolution' && m.question_issuance_id === second.id)).toMatchObject({
        status: 'voided',
        correct_answer_identifier: null,
        answer: { selected_answer_identifier: 'away', outcome: 'void', points_awarded: 0 },
      });
    });

    it('sends locked for Match questions at kick-off, match_state as play moves, and match_closed once when a followed match is over', async () => {
      const match = await createMatch(app);
      const user = await registerUser(app);
      await follow(app, user.id, match.id);
      const client = track(await connected(app, user));
      const pre = await insertIssuance(app, { matchId: match.id, kind: 'match', triggerEventId: null, closesAt: new Date(Date.now() + 60_000) });
      await issued(app, pre);
      expect((await client.take('question')).question.kind).toBe('match');

      const [locked] = await app.services.database.db.update(questionIssuances).set({ status: 'locked' }).where(eq(questionIssuances.id, pre.id)).returning();
      await app.services.engine.hooks.onSettled!(locked!);
      expect(await client.take('locked')).toEqual({ type: 'locked', question_issuance_id: pre.id, match_id: match.id });

      // As the engine does: the row is written, then the subscribers are told.
      const change = async (id: string, values: Partial<typeof matches.$inferInsert>) => {
        await app.services.database.db.update(matches).set(values).where(eq(matches.id, id));
        await app.services.engine.hooks.onMatchChanged!(id, values);
      };
      const state = (values: Record<string, unknown>) => ({
        type: 'match_state',
        match: { match_id: match.id, status: 'live', period: '1', clock_seconds: 60, home_score: 1, away_score: 0, resolution_seq: 0, ...values },
      });
      await change(match.id, { status: 'live', period: '1', clockSeconds: 60, homeScore: 1, awayScore: 0 });
      expect(await client.take('match_state')).toEqual(state({}));
      await change(match.id, { homeScore: 2, clockSeconds: 1200 });
      expect(await client.take('match_state')).toEqual(state({ home_score: 2, clock_seconds: 1200 }));
      await client.expectNone('match_closed');

      await change(match.id, { status: 'ended' });
      expect(await client.take('match_closed')).toEqual({ type: 'match_closed', match_id: match.id, status: 'ended' });
      expect(await client.take('match_state')).toEqual(state({ status: 'ended', home_score: 2, clock_seconds: 1200 }));
      // A socket opened now sees the match over in its snapshot.
      const late = track(await connected(app, user));
      expect(late.open.matches).toEqual([state({ status: 'ended', home_score: 2, clock_seconds: 1200 }).match]);
      await change(match.id, { status: 'closed' });
      // Closed after ended: the state says so, no second match_closed (on either socket).
      expect(await client.take('match_state')).toEqual(state({ status: 'closed', home_score: 2, clock_seconds: 1200 }));
      expect((await late.take('match_state')).match.status).toBe('closed');
      await client.expectNone('match_closed');
      await late.expectNone('match_closed');
      // Match questions still resolve after the match closed.
      await settle(app, locked!, 'resolved', 'home');
      expect(await client.take('resolution')).toMatchObject({ question_issuance_id: pre.id, kind: 'match', status: 'resolved' });

      const cancelled = await createMatch(app);
      await follow(app, user.id, cancelled.id);
      const again = track(await connected(app, user));
      await change(cancelled.id, { status: 'cancelled' });
      expect(await again.take('match_closed')).toEqual({ type: 'match_closed', match_id: cancelled.id, status: 'cancelled' });
      await client.expectNone((m) => m.type === 'match_closed' && m.match_id === cancelled.id);
    });

    it('starts delivery on an open socket when the user follows a match (with its open questions), and stops it on unfollow', async () => {
      const match = await createMatch(app, { isTest: true });
      const user = await registerUser(app);
      const client = track(await connected(app, user));
      expect(client.hello.followed_match_ids).toEqual([]);
      const before = await insertIssuance(app, { matchId: match.id });
      await issued(app, before);
      await client.expectNone('question');

      expect((await app.request('POST', `/api/matches/${match.id}/follow`, { token: user.token })).status).toBe(200);
      const snapshot = await client.take('open_questions');
      expect(snapshot.match_id).toBe(match.id);
      expect(snapshot.questions.map((q: any) => q.question_issuance_id)).toEqual([before.id]);
      // Following again changes nothing and sends nothing.
      expect((await app.request('POST', `/api/matches/${match.id}/follow`, { token: user.token })).status).toBe(200);
      await client.expectNone('open_questions');

      const during = await insertIssuance(app, { matchId: match.id });
      await issued(app, during);
      expect((await client.take('question')).question.question_issuance_id).toBe(during.id);

      expect((await app.request('DELETE', `/api/matches/${match.id}/follow`, { token: user.token })).status).toBe(200);
      expect(await client.take('unfollowed')).toEqual({ type: 'unfollowed', match_id: match.id });
      const after = await insertIssuance(app, { matchId: match.id });
      await issued(app, after);
      await settle(app, during, 'voided');
      await client.expectNone((m) => m.type === 'question' || m.type === 'resolution');
    });
  });

  describe('keys revoked while a socket is open', () => {
    it('closes a socket with 4401 when its key is revoked by a new login or by logout, and only that socket', async () => {
      const user = await registerUser(app);
      const bystander = track(await connected(app, await registerUser(app)));
      const first = track(await connected(app, user));
      const login = await app.request('POST', '/api/auth/login', { body: { username: user.username, password: user.password } });
      expect(login.status).toBe(200);
      // The login revoked the key the first socket uses.
      expect(await first.closed).toEqual({ code: 4401, reason: 'API key revoked' });
      const second = track(await connected(app, login.body.api_key));
      // The socket opened with the new key lives on.
      second.send({ type: 'ping' });
      await second.take('pong');
      expect((await app.request('POST', '/api/auth/logout', { token: login.body.api_key })).status).toBe(204);
      expect(await second.closed).toEqual({ code: 4401, reason: 'API key revoked' });
      await bystander.expectNone(() => true);
      expect(bystander.ws.readyState).toBe(WebSocket.OPEN);
    });

    it('closes a socket whose key was revoked between its authentication and its setup', async () => {
      const user = await registerUser(app);
      const auth = app.services.auth;
      const authenticate = auth.authenticate;
      // The revocation commits right after the key was checked, and no event reaches the hub in time.
      auth.authenticate = async (token: string) => {
        const ctx = await authenticate.call(auth, token);
        if (ctx) await app.services.database.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, ctx.keyId));
        return ctx;
      };
      try {
        const client = track(await openStream(app, user.token));
        expect(await client.closed).toEqual({ code: 4401, reason: 'API key revoked' });
        expect(client.messages).toEqual([]);
      } finally {
        auth.authenticate = authenticate;
      }
    });

    it('closes the sockets of a user an admin deactivates or gives a new password', async () => {
      const admin = await createAdmin(app);
      const deactivated = await registerUser(app);
      const reset = await registerUser(app);
      const a = track(await connected(app, deactivated));
      const b = track(await connected(app, reset));
      expect((await app.request('DELETE', `/api/users/${deactivated.id}`, { token: admin.token })).status).toBe(204);
      expect(await a.closed).toEqual({ code: 4401, reason: 'API key revoked' });
      expect(b.ws.readyState).toBe(WebSocket.OPEN);
      expect((await app.request('PATCH', `/api/users/${reset.id}`, { token: admin.token, body: { password: 'a brand new password' } })).status).toBe(200);
      expect(await b.closed).toEqual({ code: 4401, reason: 'API key revoked' });
    });

    it("closes the socket of an operator-UI key when its session signs out, and leaves the admin's own key's socket open", async () => {
      const admin = await createAdmin(app);
      const { adminSessions } = app.services;
      const { token, session } = await adminSessions.login({ login: admin.username, password: admin.password, ip: '127.0.0.1' });
      const { apiKey } = await adminSessions.apiKey({ token, csrf: session.csrfToken });
      const ui = track(await connected(app, apiKey));
      const own = track(await connected(app, admin));
      await adminSessions.logout(token);
      expect(await ui.closed).toEqual({ code: 4401, reason: 'API key revoked' });
      own.send({ type: 'ping' });
      await own.take('pong');
      expect(own.ws.readyState).toBe(WebSocket.OPEN);
    });
  });

  describe('matches changed outside the live engine', () => {
    it('makes the creator of a clone receive the test match on open sockets', async () => {
      const admin = await createAdmin(app);
      const original = await createMatch(app, { status: 'closed', scheduled: new Date(Date.now() - 7_200_000) });
      const listener = await insertListener(app, { matchId: original.id, status: 'completed', source: 'feed' });
      await insertListenerEvents(app, listener, [feedEvent({ seq: 1 })]);
      const client = track(await connected(app, admin));
      const res = await app.request('POST', `/api/matches/${original.id}/clone`, { token: admin.token });
      expect(res.status).toBe(201);
      expect(await client.take('open_questions')).toEqual({
        type: 'open_questions',
        match_id: res.body.id,
        questions: [],
        matches: [{ match_id: res.body.id, status: 'scheduled', period: null, clock_seconds: null, home_score: null, away_score: null, resolution_seq: 0 }],
      });
      const question = await insertIssuance(app, { matchId: res.body.id });
      await issued(app, question);
      expect((await client.take('question')).question.question_issuance_id).toBe(question.id);
    });

    it('tells the followers of a deleted test match that they no longer follow it', async () => {
      const admin = await createAdmin(app);
      const match = await createMatch(app, { isTest: true });
      const user = await registerUser(app);
      await follow(app, user.id, match.id);
      const client = track(await connected(app, user));
      expect(client.hello.followed_match_ids).toEqual([match.id]);
      expect((await app.request('DELETE', `/api/matches/${match.id}`, { token: admin.token })).status).toBe(204);
      expect(await client.take('unfollowed')).toEqual({ type: 'unfollowed', match_id: match.id });
    });

    it('sends match_closed when a schedule sync closes or cancels a followed match', async () => {
      const league = 'wc';
      const srId = `sync-close-${Date.now()}`;
      const kickoff = new Date(Date.now() + 3_600_000);
      const fixture = { srId, league, homeTeam: 'Sync Home', awayTeam: 'Sync Away', scheduled: kickoff };
      const sync = (m: ScheduledMatch) =>
        syncSchedule({
          db: app.services.database.db,
          provider: { name: 'test', fetch: async () => [m] },
          onStatusChanged: publishMatchStatus(app.services.liveBus),
        });
      await sync(fixture);
      const [row] = await app.services.database.db.select().from(matches).where(eq(matches.srId, srId));
      const user = await registerUser(app);
      await follow(app, user.id, row!.id);
      const client = track(await connected(app, user));
      // Nothing changed: nothing sent.
      await sync(fixture);
      await client.expectNone('match_closed');
      await sync({ ...fixture, status: 'cancelled' });
      expect(await client.take('match_closed')).toEqual({ type: 'match_closed', match_id: row!.id, status: 'cancelled' });
    });
  });

  describe('client messages', () => {
    it('answers an application ping with a pong and anything else with an error, keeping the socket', async () => {
      const client = track(await connected(app, await registerUser(app)));
      client.send({ type: 'ping' });
      expect(await client.take('pong')).toEqual({ type: 'pong' });
      client.send('not json');
      expect((await client.take('error')).detail).toMatch(/ping/);
      client.send({ type: 'subscribe', match_id: 'x' });
      await client.take('error');
      client.send({ type: 'ping' });
      await client.take('pong');
      expect(client.ws.readyState).toBe(WebSocket.OPEN);
    });

    it('closes with 1003 on a binary frame and 1009 on a message over 4 KiB', async () => {
      const binary = track(await connected(app, await registerUser(app)));
      binary.ws.send(Buffer.from('{"type":"ping"}'), { binary: true });
      expect((await binary.closed).code).toBe(1003);
      const big = track(await connected(app, await registerUser(app)));
      big.send({ type: 'ping', pad: 'x'.repeat(5000) });
      expect((await big.closed).code).toBe(1009);
    });
  });
});

describe('keys and follows the bus did not report', () => {
  it('closes a socket whose key stopped authenticating without a keys event (an operator-UI key whose session ran out)', async () => {
    const app = await startTestApp({ live: { keyRecheckMs: 100 } });
    try {
      const user = await registerUser(app);
      const client = await connected(app, user);
      // No event says so: the key simply expires.
      await app.services.database.db
        .update(apiKeys)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(apiKeys.userId, user.id));
      expect(await client.closed).toEqual({ code: 4401, reason: 'API key revoked' });
    } finally {
      await app.close();
    }
  });

  it("after a bus gap, reloads every socket's follows (a follow or unfollow it missed takes effect) and checks keys", async () => {
    const app = await startTestApp();
    try {
      const user = await registerUser(app);
      const [kept, dropped, added] = [await createMatch(app), await createMatch(app), await createMatch(app)];
      for (const m of [kept, dropped]) await follow(app, user.id, m.id);
      const client = await connected(app, user);
      const other = await registerUser(app);
      const revoked = await connected(app, other);
      // Changes committed while this process heard nothing (written straight to the tables, no NOTIFY).
      const db = app.services.database.db;
      await db
        .update(matchFollows)
        .set({ following: false })
        .where(and(eq(matchFollows.userId, user.id), eq(matchFollows.matchId, dropped.id)));
      await db.insert(matchFollows).values({ userId: user.id, matchId: added.id, following: true });
      await db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.userId, other.id));
      app.live.hub.onResync!();
      expect((await client.take('resync')).type).toBe('resync');
      expect((await client.take('unfollowed')).match_id).toBe(dropped.id);
      expect(await revoked.closed).toEqual({ code: 4401, reason: 'API key revoked' });
      // A question on the newly followed match reaches the socket; none on the dropped one.
      const onDropped = await insertIssuance(app, { matchId: dropped.id });
      await issued(app, onDropped);
      const onAdded = await insertIssuance(app, { matchId: added.id });
      await issued(app, onAdded);
      expect((await client.take('question')).question.question_issuance_id).toBe(onAdded.id);
      expect(client.messages.filter((m) => m.type === 'question').map((m) => m.question.question_issuance_id)).toEqual([onAdded.id]);
      // Match states changed in the gap went unheard: the state of every followed match follows the resync.
      const states = [await client.take('match_state'), await client.take('match_state')];
      expect(states.map((m) => m.match.match_id).sort()).toEqual([kept.id, added.id].sort());
      await client.close();
    } finally {
      await app.close();
    }
  });
});

describe('match_state throttling', () => {
  const change = async (app: TestApp, id: string, values: Partial<typeof matches.$inferInsert>) => {
    await app.services.database.db.update(matches).set(values).where(eq(matches.id, id));
    await app.services.engine.hooks.onMatchChanged!(id, values);
  };

  it('sends the first change at once and holds later ones until the interval is over', async () => {
    const app = await startTestApp({ live: { matchStateIntervalMs: 600_000 } });
    try {
      const match = await createMatch(app);
      const user = await registerUser(app);
      await follow(app, user.id, match.id);
      const client = await connected(app, user);
      await change(app, match.id, { status: 'live', period: '1', clockSeconds: 0, homeScore: 0, awayScore: 0 });
      expect((await client.take('match_state')).match).toMatchObject({ status: 'live', home_score: 0 });
      await change(app, match.id, { homeScore: 1 });
      await change(app, match.id, { homeScore: 2 });
      await client.expectNone('match_state', 500);
      // A status change is not held back where it matters: match_closed goes out at once.
      await change(app, match.id, { status: 'ended' });
      await client.take('match_closed');
      await client.expectNone('match_state', 300);
      await client.close();
    } finally {
      await app.close();
    }
  });

  it('merges the changes of an interval into one message with the state at its end', async () => {
    const app = await startTestApp({ live: { matchStateIntervalMs: 200 } });
    try {
      const match = await createMatch(app);
      const user = await registerUser(app);
      await follow(app, user.id, match.id);
      const client = await connected(app, user);
      await change(app, match.id, { status: 'live', period: '1', clockSeconds: 0, homeScore: 0, awayScore: 0 });
      expect((await client.take('match_state')).match.home_score).toBe(0);
      // Both goals are committed before either is reported: whatever goes out next reads the later.
      const db = app.services.database.db;
      await db.update(matches).set({ homeScore: 1 }).where(eq(matches.id, match.id));
      await db.update(matches).set({ homeScore: 2, period: '2' }).where(eq(matches.id, match.id));
      await app.services.engine.hooks.onMatchChanged!(match.id, { homeScore: 1 });
      await app.services.engine.hooks.onMatchChanged!(match.id, { homeScore: 2, period: '2' });
      expect((await client.take('match_state')).match).toEqual({
        match_id: match.id,
        status: 'live',
        period: '2',
        clock_seconds: 0,
        home_score: 2,
        away_score: 0,
        resolution_seq: 0,
      });
      // An unchanged state is not sent again.
      await app.services.engine.hooks.onMatchChanged!(match.id, { homeScore: 2 });
      await client.expectNone('match_state', 500);
      await client.close();
    } finally {
      await app.close();
    }
  });
});

describe('sockets per user', () => {
  it('closes the oldest socket of a user with 4009 when one more than allowed opens, and leaves other users alone', async () => {
    const app = await startTestApp({ live: { maxSocketsPerUser: 2 } });
    try {
      const user = await registerUser(app);
      const other = await connected(app, await registerUser(app));
      const first = await connected(app, user);
      const second = await connected(app, user);
      const third = await connected(app, user);
      expect(await first.closed).toEqual({ code: 4009, reason: 'too many open sockets for this user; the oldest was closed' });
      for (const c of [second, third, other]) {
        c.send({ type: 'ping' });
        await c.take('pong');
      }
      await waitForHub(app, (s) => s.sockets === 3 && s.users === 2);
      for (const c of [second, third, other]) await c.close();
    } finally {
      await app.close();
    }
  });

  it('takes its limits from the configuration (STREAM_* variables)', () => {
    expect(loadConfig({ APP_ENV: 'test' }).stream).toEqual({
      heartbeatMs: 30_000,
      maxBufferedBytes: 1024 * 1024,
      maxSocketsPerUser: 10,
      connectBudget: { perKey: 0, perAddress: 0, windowSeconds: 60 },
      matchStateIntervalMs: 1000,
      leaderboardIntervalMs: 5000,
    });
    expect(
      loadConfig({
        APP_ENV: 'test',
        STREAM_HEARTBEAT_SECONDS: '5',
        STREAM_MAX_BUFFERED_BYTES: '65536',
        STREAM_MAX_SOCKETS_PER_USER: '3',
        STREAM_MATCH_STATE_INTERVAL_MS: '250',
      }).stream,
    ).toEqual({
      heartbeatMs: 5000,
      maxBufferedBytes: 65536,
      maxSocketsPerUser: 3,
      connectBudget: { perKey: 0, perAddress: 0, windowSeconds: 60 },
      matchStateIntervalMs: 250,
      leaderboardIntervalMs: 5000,
    });
    expect(() => loadConfig({ APP_ENV: 'test', STREAM_MAX_SOCKETS_PER_USER: '0' })).toThrow(/STREAM_MAX_SOCKETS_PER_USER/);
  });
});

describe('hello of a service that sends Web Push', () => {
  it('tells the client the VAPID public key to subscribe with', async () => {
    const vapid = webpush.generateVAPIDKeys();
    const app = await startTestApp({
      config: { push: { provider: 'webpush', vapid: { ...vapid, subject: 'mailto:ops@question-play.example' }, allowHttpEndpoints: false } },
    });
    try {
      const client = await connected(app, await registerUser(app));
      expect(client.hello.web_push_public_key).toBe(vapid.publicKey);
      await client.close();
    } finally {
      await app.close();
    }
  });
});

describe('a socket that connects while a resolution is being looked up', () => {
  it('gets the resolution with its own answer, not "not answered"', async () => {
    let hold: { id: string; entered: () => void; release: Promise<void> } | null = null;
    const { settledForDelivery } = await import('../../src/modules/issuances/issuances.public.js');
    const app = await startTestApp({
      live: {
        lookups: {
          // The first lookup of the held question waits until the test lets it go.
          settledForDelivery: async (args) => {
            const h = hold;
            if (h && args.id === h.id) {
              hold = null;
              h.entered();
              await h.release;
            }
            return settledForDelivery(args);
          },
        },
      },
    });
    const clients: StreamClient[] = [];
    try {
      const match = await createMatch(app);
      const [early, late] = [await registerUser(app), await registerUser(app)];
      for (const u of [early, late]) await follow(app, u.id, match.id);
      const row = await insertIssuance(app, { matchId: match.id, points: 15 });
      await answer(app, late, row.id, 'home');
      clients.push(await connected(app, early));

      let entered!: () => void;
      const inLookup = new Promise<void>((resolve) => (entered = resolve));
      let release!: () => void;
      hold = { id: row.id, entered, release: new Promise<void>((resolve) => (release = resolve)) };
      await settle(app, row, 'resolved', 'home');
      await inLookup;
      // The late player's socket connects (and starts receiving the match) during the lookup.
      const lateSocket = await connected(app, late);
      clients.push(lateSocket);
      release();
      const base = { type: 'resolution', question_issuance_id: row.id, status: 'resolved', correct_answer_identifier: 'home' };
      expect(await clients[0]!.take('resolution')).toMatchObject({ ...base, answer: null });
      expect(await lateSocket.take('resolution')).toMatchObject({
        ...base,
        answer: { selected_answer_identifier: 'home', outcome: 'correct', points_awarded: 15 },
      });
    } finally {
      for (const c of clients) await c.close();
      await app.close();
    }
  });
});

describe('heartbeats, slow clients and shutdown', () => {
  it('pings every socket and terminates one that does not answer', async () => {
    const app = await startTestApp({ live: { heartbeatMs: 150 } });
    try {
      const user = await registerUser(app);
      const healthy = await openStream(app, user.token);
      expect((await healthy.ready()).hello.heartbeat_seconds).toBe(1);
      let pings = 0;
      healthy.ws.on('ping', () => pings++);
      // The mute socket may be terminated before or after its hello (a loaded machine is slow to send it): only its end matters.
      const mute = await openStream(app, user.token, { autoPong: false });
      const { code } = await mute.closed;
      expect(code).toBe(1006);
      // The healthy socket, pinged on every beat, answers and stays.
      await waitFor(async () => pings >= 2, { what: 'two pings to the healthy socket', timeoutMs: 10_000 });
      expect(healthy.ws.readyState).toBe(WebSocket.OPEN);
      expect(app.live.hub.stats().sockets).toBe(1);
      await healthy.close();
    } finally {
      await app.close();
    }
  });

  it('closes a client that reads too slowly with 4008 instead of buffering without bound', async () => {
    const app = await startTestApp({ live: { maxBufferedBytes: 64 * 1024 } });
    try {
      const match = await createMatch(app);
      const slowUser = await registerUser(app);
      const fastUser = await registerUser(app);
      await follow(app, slowUser.id, match.id);
      await follow(app, fastUser.id, match.id);
      const slow = await connected(app, slowUser);
      const fast = await connected(app, fastUser);
      // The client stops reading: the kernel buffers fill, then the server's send buffer grows.
      const socket = (slow.ws as unknown as { _socket: import('node:net').Socket })._socket;
      socket.pause();
      const text = 'Who scores next? '.repeat(30_000); // ~0.5 MB per message
      let sent = 0;
      while (app.live.hub.stats().sockets === 2) {
        if (++sent > 200) throw new Error('the slow client was never cut off');
        const row = await insertIssuance(app, { matchId: match.id, questionText: text });
        await issued(app, row);
        await fast.take((m) => m.type === 'question' && m.question.question_issuance_id === row.id, 10_000);
      }
      expect(app.live.hub.stats()).toMatchObject({ sockets: 1, users: 1 });
      socket.resume();
      expect(await slow.closed).toEqual({ code: 4008, reason: 'too slow; reconnect and catch up with GET /api/question-answers/open' });
      expect(fast.ws.readyState).toBe(WebSocket.OPEN);
      await fast.close();
    } finally {
      await app.close();
    }
  });

  it('closes every socket with 1001 when the server shuts down', async () => {
    const app = await startTestApp();
    const user = await registerUser(app);
    const a = await connected(app, user);
    const b = await connected(app, user);
    await app.close();
    expect(await a.closed).toEqual({ code: 1001, reason: 'server shutting down' });
    expect((await b.closed).code).toBe(1001);
  });
});

describe('across processes (PostgreSQL)', () => {
  let a: TestApp;
  let b: TestApp | undefined;

  beforeAll(async () => {
    a = await startTestApp();
    // A second app with its own connections and bus on the same database, as another process.
    if (a.db.url) b = await startTestApp({ databaseUrl: a.db.url });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('delivers an issuance published in one process to a socket connected to another', async (ctx) => {
    if (!b) return ctx.skip();
    const match = await createMatch(a);
    const user = await registerUser(a);
    await follow(a, user.id, match.id);
    const onB = await connected(b, user);
    const onA = await connected(a, user);
    const row = await insertIssuance(a, { matchId: match.id });
    await issued(a, row);
    expect((await onB.take('question')).question.question_issuance_id).toBe(row.id);
    expect((await onA.take('question')).question.question_issuance_id).toBe(row.id);

    // A follow made through one process takes effect on the socket of the other.
    const second = await createMatch(a, { isTest: true });
    expect((await a.request('POST', `/api/matches/${second.id}/follow`, { token: user.token })).status).toBe(200);
    expect((await onB.take('open_questions')).match_id).toBe(second.id);
    await answer(a, user, row.id, 'home');
    await settle(a, row, 'resolved', 'home');
    expect((await onB.take('resolution')).answer).toEqual({ selected_answer_identifier: 'home', outcome: 'correct', points_awarded: 10 });
    await onA.close();
    await onB.close();
  });

  it('tells clients to resync when its LISTEN connection was lost, and keeps delivering', async (ctx) => {
    if (!b) return ctx.skip();
    const match = await createMatch(a);
    const user = await registerUser(a);
    await follow(a, user.id, match.id);
    const onB = await connected(b, user);
    await b.services.database.rows(
      (await import('drizzle-orm'))
        .sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'question-play-live' and datname = current_database() and pid <> pg_backend_pid()`,
    );
    expect((await onB.take('resync', 10_000)).detail).toMatch(/GET \/api\/question-answers\/open/);
    const row = await insertIssuance(a, { matchId: match.id });
    await issued(a, row);
    expect((await onB.take('question')).question.question_issuance_id).toBe(row.id);
    await onB.close();
  });
});

describe('logging', () => {
  it('never logs the api_key, whatever happens on the stream', async () => {
    const app = await startTestApp();
    const logger = app.services.logger;
    const original = { level: logger.level, authenticate: app.services.auth.authenticate };
    const lines: string[] = [];
    logger.level = 'debug';
    for (const level of ['debug', 'info', 'warn', 'error'] as const) {
      (logger as unknown as Record<string, (...args: unknown[]) => void>)[level] = (...args: unknown[]) => {
        lines.push(`${level} ${JSON.stringify(args, (_k, v) => (v instanceof Error ? { message: v.message, stack: v.stack } : v))}`);
      };
    }
    try {
      const user = await registerUser(app);
      const match = await createMatch(app);
      await follow(app, user.id, match.id);
      // A delivery (debug log of the hub) to a valid socket.
      const client = await connected(app, user);
      const row = await insertIssuance(app, { matchId: match.id });
      await issued(app, row);
      await client.take('question');
      await client.close();
      // A key that does not exist, and a plain GET with the key in the query.
      expect((await (await openStream(app, `${user.token}x`)).closed).code).toBe(4401);
      expect((await app.request('GET', '/api/play/stream', { query: { api_key: user.token } })).status).toBe(404);
      // Authentication failing (the database down, say): 1011, logged with the path only.
      app.services.auth.authenticate = async () => {
        throw new Error('connection terminated unexpectedly');
      };
      expect(await (await openStream(app, user.token)).closed).toEqual({ code: 1011, reason: 'internal error; reconnect later' });
      expect(lines.some((l) => l.includes('live stream: authentication failed') && l.includes('/api/play/stream'))).toBe(true);
      expect(lines.some((l) => l.includes('live: delivered'))).toBe(true);
      const secret = user.token.slice(3);
      expect(lines.filter((l) => l.includes(secret))).toEqual([]);
    } finally {
      app.services.auth.authenticate = original.authenticate;
      logger.level = original.level;
      await app.close();
    }
  });
});

import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createMatchQuestions } from '../../src/engine/match-questions.js';
import { syncSchedule } from '../../src/engine/schedule/schedule-sync.js';
import { answerErrors } from '../../src/modules/answers/answers.errors.js';
import { questionAnswers } from '../../src/modules/answers/answers.table.js';
import { issuanceErrors } from '../../src/modules/issuances/issuances.errors.js';
import { questionIssuances } from '../../src/modules/issuances/issuances.table.js';
import { matches, matchFollows } from '../../src/modules/matches/matches.table.js';
import { userErrors } from '../../src/modules/users/users.errors.js';
import { users } from '../../src/modules/users/users.table.js';
import { matchDefinitionInput } from '../helpers/definitions.js';
import { insertIssuance } from '../helpers/engine-rows.js';
import { expectError } from '../helpers/errors.js';
import { createMatch, follow, UNKNOWN_ID } from '../helpers/factories.js';
import { registerUser, type TestUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const { app, admin } = useTestApp();
const inMinutes = (m: number) => new Date(Date.now() + m * 60_000);

const db = () => app.services.database.db;
const answer = (user: TestUser, issuanceId: string, choice: string) =>
  app.request('PUT', '/api/question-answers', { token: user.token, body: { question_issuance_id: issuanceId, selected_answer_identifier: choice } });
/** Settles an issuance the way the engine does (scoring inside the transaction). */
const settle = (id: string, status: 'resolved' | 'voided' | 'revoked', correct: string | null) =>
  app.services.engine.store.settleIssuance({ id, status, correct, resolvedSeq: null, resolutionEventId: null });

async function liveQuestion(overrides: Parameters<typeof insertIssuance>[1] extends infer T ? Partial<T> : never = {}) {
  const match = await createMatch(app, { status: 'live', scheduled: inMinutes(-30) });
  const issuance = await insertIssuance(app, { matchId: match.id, status: 'open', closesAt: inMinutes(2), points: 15, ...overrides });
  return { match, issuance };
}

describe('PUT /api/question-answers', () => {
  it('creates the answer (201), then replaces it (200), one per user and question', async () => {
    const player = await registerUser(app);
    const { match, issuance } = await liveQuestion();
    await follow(app, player.id, match.id);
    const first = await answer(player, issuance.id, 'home');
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ question_issuance_id: issuance.id, selected_answer_identifier: 'home' });
    const second = await answer(player, issuance.id, 'away');
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
    const rows = await db().select().from(questionAnswers).where(eq(questionAnswers.questionIssuanceId, issuance.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.selectedAnswerIdentifier).toBe('away');
  });

  it('answers 400 for a choice the question does not have, writing nothing', async () => {
    const player = await registerUser(app);
    const { match, issuance } = await liveQuestion();
    await follow(app, player.id, match.id);
    const res = await answer(player, issuance.id, 'draw');
    expectError(res, answerErrors.invalidChoice);
    // The message names the choice sent and the question's choices.
    expect(res.body.detail).toMatch(/'draw' is not a choice.*home, away/);
    expect(await db().select().from(questionAnswers).where(eq(questionAnswers.questionIssuanceId, issuance.id))).toHaveLength(0);
  });

  it('answers 403 to a player who does not follow the match; unrestricted players still need to follow for live questions', async () => {
    const restricted = await registerUser(app);
    const unrestricted = await registerUser(app);
    await db().update(users).set({ matchDailyFollowCount: null }).where(eq(users.id, unrestricted.id));
    const { match, issuance } = await liveQuestion();
    expectError(await answer(restricted, issuance.id, 'home'), answerErrors.notFollowing);
    expectError(await answer(unrestricted, issuance.id, 'home'), answerErrors.notFollowing);
    // A spent follow row (unfollowed after kick-off) is not following.
    await db().insert(matchFollows).values({ userId: restricted.id, matchId: match.id, following: false });
    expectError(await answer(restricted, issuance.id, 'home'), answerErrors.notFollowing);
  });

  it('lets unrestricted players answer Match questions without following; restricted ones must follow', async () => {
    const restricted = await registerUser(app);
    const unrestricted = await registerUser(app);
    await db().update(users).set({ matchDailyFollowCount: null }).where(eq(users.id, unrestricted.id));
    const match = await createMatch(app, { scheduled: inMinutes(60) });
    const issuance = await insertIssuance(app, { matchId: match.id, kind: 'match', status: 'open', closesAt: match.scheduled, triggerEventId: null });
    expect((await answer(unrestricted, issuance.id, 'home')).status).toBe(201);
    const refused = await answer(restricted, issuance.id, 'home');
    expectError(refused, answerErrors.notFollowing);
    // The message says why a Match question needs a follow here.
    expect(refused.body.detail).toMatch(/daily follow quota/);
  });

  it('answers 404 for an unknown question, 401 without a key, 422 for a malformed body', async () => {
    const player = await registerUser(app);
    const res = await answer(player, UNKNOWN_ID, 'home');
    expectError(res, issuanceErrors.notFound);
    expect((await app.request('PUT', '/api/question-answers', { body: { question_issuance_id: UNKNOWN_ID, selected_answer_identifier: 'x' } })).status).toBe(
      401,
    );
    expect((await app.request('PUT', '/api/question-answers', { token: player.token, body: { question_issuance_id: 'x' } })).status).toBe(422);
  });

  it.each(['resolved', 'voided', 'revoked'] as const)('answers 409 once the question is %s', async (status) => {
    const player = await registerUser(app);
    const { match, issuance } = await liveQuestion();
    await follow(app, player.id, match.id);
    await settle(issuance.id, status, status === 'resolved' ? 'home' : null);
    const res = await answer(player, issuance.id, 'home');
    expectError(res, answerErrors.alreadyResolved);
    expect(res.body.detail).toContain(status);
  });

  it('answers 410 when the answer window has expired, and for a Match question after kick-off (locked)', async () => {
    const player = await registerUser(app);
    const { match, issuance } = await liveQuestion({ closesAt: inMinutes(-0.05) });
    await follow(app, player.id, match.id);
    const late = await answer(player, issuance.id, 'home');
    expectError(late, answerErrors.windowExpired);
    const pre = await createMatch(app, { scheduled: inMinutes(-1), status: 'live' });
    await follow(app, player.id, pre.id);
    const locked = await insertIssuance(app, { matchId: pre.id, kind: 'match', status: 'locked', closesAt: pre.scheduled, triggerEventId: null });
    const res = await answer(player, locked.id, 'home');
    expectError(res, answerErrors.locked);
  });
});

describe('scoring at resolution', () => {
  it('scores the issue-time points for a correct answer, nothing for a wrong one or a voided question, and never re-grades', async () => {
    const [right, wrong, late] = [await registerUser(app), await registerUser(app), await registerUser(app)];
    const { match, issuance } = await liveQuestion({ points: 25 });
    for (const u of [right, wrong, late]) await follow(app, u.id, match.id);
    await answer(right, issuance.id, 'home');
    await answer(wrong, issuance.id, 'away');
    expect((await settle(issuance.id, 'resolved', 'home'))?.status).toBe('resolved');
    const byUser = async (u: TestUser) => (await db().select().from(questionAnswers).where(eq(questionAnswers.userId, u.id)))[0]!;
    expect(await byUser(right)).toMatchObject({ outcome: 'correct', pointsAwarded: 25 });
    expect(await byUser(wrong)).toMatchObject({ outcome: 'incorrect', pointsAwarded: 0 });
    // A second settling (another process, a correction) changes nothing.
    expect(await settle(issuance.id, 'resolved', 'away')).toBeUndefined();
    expect(await byUser(right)).toMatchObject({ outcome: 'correct', pointsAwarded: 25 });
    const voided = await liveQuestion();
    await follow(app, late.id, voided.match.id);
    await answer(late, voided.issuance.id, 'home');
    await settle(voided.issuance.id, 'voided', null);
    expect(await byUser(late)).toMatchObject({ outcome: 'void', pointsAwarded: 0 });
  });
});

describe('GET /api/question-answers/open', () => {
  it("lists open questions of both kinds on followed live or soon-scheduled matches, with the caller's answer and the time left", async () => {
    const player = await registerUser(app);
    const brand = { id: UNKNOWN_ID, name: 'Acme', primary_color: '#ff0000', secondary_color: null, logo_url: null };
    const live = await liveQuestion({ sponsorBrand: brand, matchSponsorBrand: brand, closesAt: inMinutes(1) });
    const soon = await createMatch(app, { scheduled: inMinutes(120) });
    const pre = await insertIssuance(app, { matchId: soon.id, kind: 'match', status: 'open', closesAt: soon.scheduled, triggerEventId: null });
    // The window reaches 14 days ahead (the longest issue lead of a Match question); beyond it, nothing is listed.
    const fiveDays = await createMatch(app, { scheduled: inMinutes(60 * 24 * 5) });
    const ahead = await insertIssuance(app, { matchId: fiveDays.id, kind: 'match', status: 'open', closesAt: fiveDays.scheduled, triggerEventId: null });
    const far = await createMatch(app, { scheduled: inMinutes(60 * 24 * 15) });
    await insertIssuance(app, { matchId: far.id, kind: 'match', status: 'open', closesAt: far.scheduled, triggerEventId: null });
    const unfollowed = await liveQuestion();
    const expired = await insertIssuance(app, { matchId: live.match.id, status: 'open', closesAt: inMinutes(-1), triggerEventId: 'old' });
    const settled = await insertIssuance(app, { matchId: live.match.id, status: 'resolved', closesAt: inMinutes(1), triggerEventId: 'done' });
    for (const m of [live.match.id, soon.id, fiveDays.id, far.id]) await follow(app, player.id, m);
    await answer(player, live.issuance.id, 'away');
    const res = await app.request('GET', '/api/question-answers/open', { token: player.token });
    expect(res.status).toBe(200);
    const ids = res.body.map((q: { question_issuance_id: string }) => q.question_issuance_id);
    expect(ids).toEqual([live.issuance.id, pre.id, ahead.id]);
    expect(ids).not.toContain(unfollowed.issuance.id);
    expect(ids).not.toContain(expired.id);
    expect(ids).not.toContain(settled.id);
    expect(res.body[0]).toMatchObject({
      kind: 'in_game',
      current_answer: 'away',
      sponsor_brand: brand,
      match_sponsor_brand: brand,
      match: { id: live.match.id, status: 'live' },
    });
    // What was left when it was read: at least what is left now, however long that took on a busy machine.
    expect(res.body[0].seconds_remaining).toBeGreaterThanOrEqual(Math.floor((live.issuance.closesAt!.getTime() - Date.now()) / 1000));
    expect(res.body[0].seconds_remaining).toBeLessThanOrEqual(60);
    expect(res.body[1]).toMatchObject({ kind: 'match', current_answer: null });
    expect((await app.request('GET', '/api/question-answers/open')).status).toBe(401);
  });
});

describe('answer history', () => {
  it('shows every answer with its outcome and points, newest first; locked pending Match answers first and outside the limit', async () => {
    const player = await registerUser(app);
    const qs = [await liveQuestion({ points: 10 }), await liveQuestion({ points: 20 }), await liveQuestion({ points: 30 })];
    for (const q of qs) await follow(app, player.id, q.match.id);
    await answer(player, qs[0]!.issuance.id, 'home');
    await answer(player, qs[1]!.issuance.id, 'home');
    await answer(player, qs[2]!.issuance.id, 'away');
    await settle(qs[0]!.issuance.id, 'resolved', 'home');
    await settle(qs[1]!.issuance.id, 'resolved', 'away');
    const pre = await createMatch(app, { scheduled: inMinutes(1), status: 'scheduled' });
    await follow(app, player.id, pre.id);
    const locked = await insertIssuance(app, { matchId: pre.id, kind: 'match', status: 'open', closesAt: pre.scheduled, triggerEventId: null });
    await answer(player, locked.id, 'home');
    await db().update(questionIssuances).set({ status: 'locked' }).where(eq(questionIssuances.id, locked.id));
    const all = await app.request('GET', '/api/question-answers', { token: player.token });
    expect(all.body.map((r: { question_issuance_id: string }) => r.question_issuance_id)).toEqual([
      locked.id,
      qs[2]!.issuance.id,
      qs[1]!.issuance.id,
      qs[0]!.issuance.id,
    ]);
    expect(all.body[0]).toMatchObject({ kind: 'match', issuance_status: 'locked', outcome: 'pending', points_awarded: 0 });
    expect(all.body[1]).toMatchObject({ outcome: 'pending', correct_answer_identifier: null, points_possible: 30 });
    expect(all.body[2]).toMatchObject({ outcome: 'incorrect', correct_answer_identifier: 'away', points_awarded: 0, points_possible: 20 });
    expect(all.body[3]).toMatchObject({ outcome: 'correct', points_awarded: 10, issuance_status: 'resolved' });
    const limited = await app.request('GET', '/api/question-answers', { token: player.token, query: { limit: 1 } });
    expect(limited.body.map((r: { question_issuance_id: string }) => r.question_issuance_id)).toEqual([locked.id, qs[2]!.issuance.id]);
    const one = await app.request('GET', '/api/question-answers', { token: player.token, query: { match_id: qs[0]!.match.id } });
    expect(one.body).toHaveLength(1);

    // Pages of one: the locked pending answer on the first page only, every other answer once.
    const ids = async (query: Record<string, number>, path = '/api/question-answers', token = player.token) =>
      (await app.request('GET', path, { token, query })).body.map((r: { question_issuance_id: string }) => r.question_issuance_id);
    expect(await ids({ limit: 1, offset: 0 })).toEqual([locked.id, qs[2]!.issuance.id]);
    expect(await ids({ limit: 1, offset: 1 })).toEqual([qs[1]!.issuance.id]);
    expect(await ids({ limit: 1, offset: 2 })).toEqual([qs[0]!.issuance.id]);
    expect(await ids({ limit: 1, offset: 3 })).toEqual([]);
    expect(await ids({ offset: 1 })).toEqual([qs[1]!.issuance.id, qs[0]!.issuance.id]);
    expect(await ids({ limit: 2, offset: 1 }, `/api/users/${player.id}/question-answers`, admin.token)).toEqual([qs[1]!.issuance.id, qs[0]!.issuance.id]);
    for (const offset of [-1, 1_000_001])
      expect((await app.request('GET', '/api/question-answers', { token: player.token, query: { offset } })).status).toBe(422);
  });

  it('is the same for admins looking at a user, 404 for an unknown user, 403 for players', async () => {
    const player = await registerUser(app);
    const q = await liveQuestion();
    await follow(app, player.id, q.match.id);
    await answer(player, q.issuance.id, 'home');
    const own = await app.request('GET', '/api/question-answers', { token: player.token });
    const viaAdmin = await app.request('GET', `/api/users/${player.id}/question-answers`, { token: admin.token });
    expect(viaAdmin.body).toEqual(own.body);
    expectError(await app.request('GET', `/api/users/${UNKNOWN_ID}/question-answers`, { token: admin.token }), userErrors.notFound);
    expect((await app.request('GET', `/api/users/${player.id}/question-answers`, { token: player.token })).status).toBe(403);
  });
});

describe('points', () => {
  it("totals all time and per calendar period in the user's time zone, consistent with the history", async () => {
    const player = await registerUser(app);
    await app.request('PATCH', '/api/users/me', { token: player.token, body: { match_follow_timezone: 'Pacific/Kiritimati' } });
    const qs = [await liveQuestion({ points: 10 }), await liveQuestion({ points: 40 }), await liveQuestion({ points: 5 })];
    for (const q of qs) await follow(app, player.id, q.match.id);
    for (const q of qs) await answer(player, q.issuance.id, 'home');
    await settle(qs[0]!.issuance.id, 'resolved', 'home');
    await settle(qs[1]!.issuance.id, 'resolved', 'home');
    await settle(qs[2]!.issuance.id, 'resolved', 'away');
    // One of the correct answers was scored last year.
    const lastYear = new Date(Date.UTC(new Date().getUTCFullYear() - 1, 5, 1));
    await db().update(questionAnswers).set({ scoredAt: lastYear }).where(eq(questionAnswers.questionIssuanceId, qs[1]!.issuance.id));
    const res = await app.request('GET', '/api/users/me/points', { token: player.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      user_id: player.id,
      timezone: 'Pacific/Kiritimati',
      all_time: { points: 50, answered_count: 3, resolved_count: 3, correct_count: 2 },
    });
    const period = (key: string) => res.body.periods.find((p: { period: string }) => p.period === key);
    expect(period('today')).toMatchObject({ points: 10, answered_count: 2, correct_count: 1 });
    expect(period('this_year')).toMatchObject({ points: 10 });
    // Kiritimati is UTC+14: its day starts at 10:00 UTC of the previous UTC day.
    expect(period('today').starts_at).toMatch(/T10:00:00\.000Z$/);
    const history = (await app.request('GET', '/api/question-answers', { token: player.token })).body as { points_awarded: number }[];
    expect(history.reduce((s, r) => s + r.points_awarded, 0)).toBe(res.body.all_time.points);
    const viaAdmin = await app.request('GET', `/api/users/${player.id}/points`, { token: admin.token });
    expect(viaAdmin.body.all_time).toEqual(res.body.all_time);
    expectError(await app.request('GET', `/api/users/${UNKNOWN_ID}/points`, { token: admin.token }), userErrors.notFound);
  });
});

describe('Match questions', () => {
  it('are issued ahead of kick-off, lock at kick-off, and resolve from the final result with scoring', async () => {
    const league = 'mls';
    const post = async (body: unknown) => (await app.request('POST', '/api/match-question-definitions', { token: admin.token, query: { league }, body })).body;
    const winner = await post(matchDefinitionInput({ issue_lead_seconds: 3600, points: 20 }));
    const goals = await post(
      matchDefinitionInput({
        name: `Goals ${Date.now()}`,
        issue_lead_seconds: 600,
        question_text_template: '{{ match.home_team }}: 3 goals or more?',
        choices: [
          { identifier: 'yes', label_template: 'Yes' },
          { identifier: 'no', label_template: 'No' },
        ],
        resolution: { correct_choice: 'result.home_score + result.away_score >= 3 ? "yes" : "no"' },
      }),
    );
    const inactive = await post(matchDefinitionInput({ is_active: false }));
    const match = await createMatch(app, { league, scheduled: inMinutes(30), homeTeam: 'Austin', awayTeam: 'Dallas' });
    const mq = createMatchQuestions({
      db: db(),
      store: app.services.engine.store,
      hooks: app.services.engine.hooks,
      logger: app.services.logger,
      brandSnapshot: app.services.engine.brandSnapshot,
    });
    expect((await mq.tick()).issued).toBeGreaterThanOrEqual(1);
    const issued = await db().select().from(questionIssuances).where(eq(questionIssuances.matchId, match.id));
    expect(issued.map((r) => r.matchQuestionDefinitionId)).toEqual([winner.id]);
    expect(issued[0]).toMatchObject({ kind: 'match', status: 'open', questionText: 'Austin vs Dallas: who wins?', points: 20, questionNumber: null });
    expect(issued[0]!.closesAt.getTime()).toBe(match.scheduled.getTime());
    await mq.tick();
    expect(await db().select().from(questionIssuances).where(eq(questionIssuances.matchId, match.id))).toHaveLength(1);
    expect(issued.map((r) => r.matchQuestionDefinitionId)).not.toContain(inactive.id);

    const player = await registerUser(app);
    await follow(app, player.id, match.id);
    expect((await answer(player, issued[0]!.id, 'home')).status).toBe(201);
    // Kick-off passes: the question locks.
    await db()
      .update(matches)
      .set({ scheduled: inMinutes(-1), status: 'live' })
      .where(eq(matches.id, match.id));
    await db()
      .update(questionIssuances)
      .set({ closesAt: inMinutes(-1) })
      .where(eq(questionIssuances.matchId, match.id));
    await mq.tick();
    const [locked] = await db().select().from(questionIssuances).where(eq(questionIssuances.id, issued[0]!.id));
    expect(locked!.status).toBe('locked');
    expectError(await answer(player, issued[0]!.id, 'away'), answerErrors.locked);
    expect((await db().select().from(questionIssuances).where(eq(questionIssuances.matchId, match.id))).map((r) => r.matchQuestionDefinitionId)).not.toContain(
      goals.id,
    );
    // The result arrives.
    await db()
      .update(matches)
      .set({ status: 'closed', result: { home_score: 2, away_score: 1, winner: 'home', goals: [] } })
      .where(eq(matches.id, match.id));
    await mq.tick();
    const [resolved] = await db().select().from(questionIssuances).where(eq(questionIssuances.id, issued[0]!.id));
    expect(resolved).toMatchObject({ status: 'resolved', correctAnswerIdentifier: 'home' });
    const [scored] = await db().select().from(questionAnswers).where(eq(questionAnswers.questionIssuanceId, issued[0]!.id));
    expect(scored).toMatchObject({ outcome: 'correct', pointsAwarded: 20 });
  });

  it("carry the in-game shape: store_state writes the match's state store, the extract is snapshotted, the pivotal flag and the group's points apply", async () => {
    const league = 'nfl';
    const group = await app.request('POST', '/api/question-groups', {
      token: admin.token,
      query: { league },
      body: { slug: `pre-${Date.now().toString(36)}`, name: 'Pre-game', points: 35 },
    });
    expect(group.status).toBe(201);
    const post = async (body: unknown) => {
      const res = await app.request('POST', '/api/match-question-definitions', { token: admin.token, query: { league }, body });
      expect(res.status, res.text).toBe(201);
      return res.body as { id: string };
    };
    const counted = { pre_game_questions: '(state.pre_game_questions ? state.pre_game_questions : 0) + 1' };
    const pivotal = await post(
      matchDefinitionInput({
        issue_lead_seconds: 1209600,
        is_pivotal_moment: true,
        group_id: group.body.id,
        store_state: counted,
        issuance_state_extract: { kickoff_hour: '$number($substring(match.scheduled, 11, 2))', asked_before: 'state.pre_game_questions' },
        question_text_template: '{{ match.home_team }} at {{ extract.kickoff_hour }}h: who wins?',
        resolution: { correct_choice: 'issuance.state.kickoff_hour = 18 ? result.winner : "draw"' },
      }),
    );
    const plain = await post(matchDefinitionInput({ issue_lead_seconds: 1209600, store_state: counted }));
    const match = await createMatch(app, {
      league,
      scheduled: new Date(Math.ceil(Date.now() / 86_400_000) * 86_400_000 + 18 * 3_600_000),
      homeTeam: 'Chiefs',
      awayTeam: 'Bills',
    });
    const mq = createMatchQuestions({
      db: db(),
      store: app.services.engine.store,
      hooks: app.services.engine.hooks,
      logger: app.services.logger,
      brandSnapshot: app.services.engine.brandSnapshot,
    });
    await mq.tick();
    const issued = await db().select().from(questionIssuances).where(eq(questionIssuances.matchId, match.id));
    const byDefinition = new Map(issued.map((r) => [r.matchQuestionDefinitionId, r]));
    const first = byDefinition.get(pivotal.id)!;
    expect(first).toMatchObject({ isPivotalMoment: true, groupId: group.body.id, points: 35, questionText: 'Chiefs at 18h: who wins?' });
    // The extract saw the store as the pivotal question's own store_state left it, and the other question (in either order) counted too.
    expect(first.state.kickoff_hour).toBe(18);
    expect([1, 2]).toContain(first.state.asked_before);
    expect(byDefinition.get(plain.id)).toMatchObject({ isPivotalMoment: false, groupId: null });
    const [row] = await db().select({ stateStore: matches.stateStore }).from(matches).where(eq(matches.id, match.id));
    expect(row!.stateStore).toEqual({ pre_game_questions: 2 });
    // A follower sees the flag on the open question.
    const player = await registerUser(app);
    await follow(app, player.id, match.id);
    const open = (await app.request('GET', '/api/question-answers/open', { token: player.token })).body as {
      question_issuance_id: string;
      is_pivotal_moment: boolean;
    }[];
    expect(open.find((q) => q.question_issuance_id === first.id)).toMatchObject({ is_pivotal_moment: true });
    // Issued once: a second tick writes nothing more to the store.
    await mq.tick();
    expect((await db().select({ stateStore: matches.stateStore }).from(matches).where(eq(matches.id, match.id)))[0]!.stateStore).toEqual({
      pre_game_questions: 2,
    });
    // The resolution reads the snapshot (issuance.state).
    await db().update(questionIssuances).set({ status: 'locked' }).where(eq(questionIssuances.matchId, match.id));
    await db()
      .update(matches)
      .set({ status: 'closed', result: { home_score: 3, away_score: 1, winner: 'home' } })
      .where(eq(matches.id, match.id));
    await mq.tick();
    const [settled] = await db().select().from(questionIssuances).where(eq(questionIssuances.id, first.id));
    expect(settled).toMatchObject({ status: 'resolved', correctAnswerIdentifier: 'home' });
  });

  it('lock at the kick-off in force: a rescheduled match moves the lock, a match that starts early locks them at once; listed while answerable, up to 14 days ahead', async () => {
    const league = 'nhl';
    const def = await app.request('POST', '/api/match-question-definitions', {
      token: admin.token,
      query: { league },
      body: matchDefinitionInput({ issue_lead_seconds: 1209600 }),
    });
    expect(def.status).toBe(201);
    const srId = `resched:${Date.now()}`;
    const kickoff = inMinutes(5 * 24 * 60);
    const provider = (scheduled: Date) => ({ name: 'test', fetch: async () => [{ srId, league, homeTeam: 'Bruins', awayTeam: 'Rangers', scheduled }] });
    await syncSchedule({ db: db(), provider: provider(kickoff) });
    const [match] = await db().select().from(matches).where(eq(matches.srId, srId));
    const mq = createMatchQuestions({
      db: db(),
      store: app.services.engine.store,
      hooks: app.services.engine.hooks,
      logger: app.services.logger,
      brandSnapshot: app.services.engine.brandSnapshot,
    });
    await mq.tick();
    const [issued] = await db().select().from(questionIssuances).where(eq(questionIssuances.matchId, match!.id));
    expect(issued!.closesAt.getTime()).toBe(kickoff.getTime());
    // Five days ahead, it is in the catch-up list of a follower.
    const player = await registerUser(app);
    await follow(app, player.id, match!.id);
    const openIds = async () =>
      ((await app.request('GET', '/api/question-answers/open', { token: player.token })).body as { question_issuance_id: string }[]).map(
        (q) => q.question_issuance_id,
      );
    expect(await openIds()).toContain(issued!.id);

    // Postponed by two hours, then brought forward to in ten minutes: the lock follows each time.
    for (const moved of [new Date(kickoff.getTime() + 2 * 3600_000), inMinutes(10)]) {
      await syncSchedule({ db: db(), provider: provider(moved) });
      const [row] = await db().select().from(questionIssuances).where(eq(questionIssuances.id, issued!.id));
      expect(row!.closesAt.getTime()).toBe(moved.getTime());
    }
    expect((await answer(player, issued!.id, 'home')).status).toBe(201);

    // The feed says the match has begun before its scheduled time: answers are refused at once, and the worker locks it.
    await db().update(matches).set({ status: 'live' }).where(eq(matches.id, match!.id));
    const late = await answer(player, issued!.id, 'away');
    expectError(late, answerErrors.locked);
    expect(await openIds()).not.toContain(issued!.id);
    expect((await mq.tick()).locked).toBeGreaterThanOrEqual(1);
    expect((await db().select().from(questionIssuances).where(eq(questionIssuances.id, issued!.id)))[0]!.status).toBe('locked');
  });

  it('never let pairs the allowlists exclude hold up the due ones, however many there are', async () => {
    const league = 'nba';
    await app.request('POST', '/api/match-question-definitions', {
      token: admin.token,
      query: { league },
      body: matchDefinitionInput({ issue_lead_seconds: 7200 }),
    });
    // Earlier kick-offs whose allowlists exclude every definition come first in the order of work.
    for (const minutes of [2, 3, 4]) await createMatch(app, { league, scheduled: inMinutes(minutes), matchQuestionDefinitionAllowlist: [] });
    const due = await createMatch(app, { league, scheduled: inMinutes(10) });
    const mq = createMatchQuestions({
      db: db(),
      store: app.services.engine.store,
      hooks: app.services.engine.hooks,
      logger: app.services.logger,
      brandSnapshot: app.services.engine.brandSnapshot,
      batch: 1,
    });
    const issuedFor = async () => db().select().from(questionIssuances).where(eq(questionIssuances.matchId, due.id));
    // One pair per tick: other tests' due pairs may go first, but the excluded ones never block.
    for (let i = 0; i < 50 && (await issuedFor()).length === 0; i++) await mq.issueDue();
    expect((await issuedFor()).length).toBeGreaterThanOrEqual(1);
  });

  it('never let definitions that do not render hold up the due ones', async () => {
    const league = 'mlb';
    const post = async (body: unknown) => {
      const res = await app.request('POST', '/api/match-question-definitions', { token: admin.token, query: { league }, body });
      expect(res.status).toBe(201);
      return res.body;
    };
    // Renders to an empty text for every match: it can never be issued.
    await post(
      matchDefinitionInput({
        name: `Broken ${Date.now()}`,
        issue_lead_seconds: 7200,
        question_text_template: '{% if match.home_team == "nobody" %}Who?{% endif %}',
      }),
    );
    const good = await post(matchDefinitionInput({ issue_lead_seconds: 7200 }));
    const ms = [
      await createMatch(app, { league, scheduled: inMinutes(5) }),
      await createMatch(app, { league, scheduled: inMinutes(6) }),
      await createMatch(app, { league, scheduled: inMinutes(7) }),
    ];
    const mq = createMatchQuestions({
      db: db(),
      store: app.services.engine.store,
      hooks: app.services.engine.hooks,
      logger: app.services.logger,
      brandSnapshot: app.services.engine.brandSnapshot,
      batch: 1,
    });
    const goodIssued = async () =>
      (
        await db()
          .select()
          .from(questionIssuances)
          .where(
            and(
              inArray(
                questionIssuances.matchId,
                ms.map((m) => m.id),
              ),
              eq(questionIssuances.matchQuestionDefinitionId, good.id),
            ),
          )
      ).length;
    for (let i = 0; i < 50 && (await goodIssued()) < 3; i++) await mq.issueDue();
    expect(await goodIssued()).toBe(3);
  });

  it('follow the league allowlist when the match has none', async () => {
    const league = 'mlb';
    const listed = (
      await app.request('POST', '/api/match-question-definitions', {
        token: admin.token,
        query: { league },
        body: matchDefinitionInput({ issue_lead_seconds: 7200 }),
      })
    ).body;
    const unlisted = (
      await app.request('POST', '/api/match-question-definitions', {
        token: admin.token,
        query: { league },
        body: matchDefinitionInput({ issue_lead_seconds: 7200 }),
      })
    ).body;
    expect(
      (await app.request('PATCH', `/api/leagues/${league}`, { token: admin.token, body: { match_question_definition_allowlist: [listed.id] } })).status,
    ).toBe(200);
    try {
      const match = await createMatch(app, { league, scheduled: inMinutes(30) });
      const mq = createMatchQuestions({
        db: db(),
        store: app.services.engine.store,
        hooks: app.services.engine.hooks,
        logger: app.services.logger,
        brandSnapshot: app.services.engine.brandSnapshot,
      });
      await mq.issueDue();
      const rows = await db().select().from(questionIssuances).where(eq(questionIssuances.matchId, match.id));
      expect(rows.map((r) => r.matchQuestionDefinitionId)).toEqual([listed.id]);
      expect(rows.map((r) => r.matchQuestionDefinitionId)).not.toContain(unlisted.id);
      expect(rows[0]!.decisionTrace[0]).toMatchObject({ step: 'definition_allowed', passed: true, detail: 'included (league)' });
    } finally {
      await app.request('PATCH', `/api/leagues/${league}`, { token: admin.token, body: { match_question_definition_allowlist: null } });
    }
  });

  it('are voided when the match is cancelled, and follow the allowlists', async () => {
    const league = 'nhl';
    const def = (
      await app.request('POST', '/api/match-question-definitions', {
        token: admin.token,
        query: { league },
        body: matchDefinitionInput({ issue_lead_seconds: 7200 }),
      })
    ).body;
    const other = (
      await app.request('POST', '/api/match-question-definitions', {
        token: admin.token,
        query: { league },
        body: matchDefinitionInput({ issue_lead_seconds: 7200 }),
      })
    ).body;
    const match = await createMatch(app, { league, scheduled: inMinutes(60), matchQuestionDefinitionAllowlist: [def.id] });
    const mq = createMatchQuestions({
      db: db(),
      store: app.services.engine.store,
      hooks: app.services.engine.hooks,
      logger: app.services.logger,
      brandSnapshot: app.services.engine.brandSnapshot,
    });
    await mq.tick();
    const rows = await db().select().from(questionIssuances).where(eq(questionIssuances.matchId, match.id));
    expect(rows.map((r) => r.matchQuestionDefinitionId)).toEqual([def.id]);
    expect(rows.map((r) => r.matchQuestionDefinitionId)).not.toContain(other.id);
    await db().update(matches).set({ status: 'cancelled' }).where(eq(matches.id, match.id));
    await mq.tick();
    expect((await db().select().from(questionIssuances).where(eq(questionIssuances.matchId, match.id)))[0]!.status).toBe('voided');
  });
});

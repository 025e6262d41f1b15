/**
 * An exact takeover, under fire: a synthetic match (seeded) is played twice
 * with the same ENGINE_SEED, once by one process without interruption, once
 * by two worker processes of which the one running the listener is killed
 * (SIGKILL) at many points, each time replaced, the survivor taking the
 * listener over. Both runs must give, row by row, the same issuances
 * (definition, trigger, number, text, choices, snapshot, points, sponsor
 * slot, trace), denials (failed step and detail), resolutions, answer
 * points, listener counters, state store, recording and match result; only
 * wall-clock times may differ. The catalogue has what diverged before the
 * engine committed each batch whole: one-question group lanes, store_state
 * counters shown in question texts, denials, timeouts, a pivotal moment.
 * Needs PostgreSQL (processes share it).
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedEvent } from '../../src/domain/sports/events.js';
import { startPushFeedServer, type PushFeedServer } from '../../src/engine/feed/push-server.js';
import { mulberry32, syntheticFootballMatch } from '../../src/engine/feed/synthetic.js';
import { questionAnswers } from '../../src/modules/answers/answers.table.js';
import { brands } from '../../src/modules/brands/brands.table.js';
import { rebuildAll } from '../../src/modules/leaderboards/leaderboards.applier.repository.js';
import { leaderboardScores } from '../../src/modules/leaderboards/leaderboards.table.js';
import { questionIssuanceDenials } from '../../src/modules/denials/denials.table.js';
import { questionIssuances } from '../../src/modules/issuances/issuances.table.js';
import { listenerEvents, listenerLogLines, matchListeners } from '../../src/modules/listeners/listeners.table.js';
import { matches } from '../../src/modules/matches/matches.table.js';
import { questionSponsorships } from '../../src/modules/sponsorships/sponsorships.table.js';
import { spawnWorkerProcess, startWorker, waitFor, type WorkerProcess } from '../helpers/engine.js';
import { createInLeague } from '../helpers/definitions.js';
import { createMatch } from '../helpers/factories.js';
import { testDatabaseUrl } from '../helpers/pg-url.js';
import { createAdmin, registerUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app.js';

const SEED = 'kill-test-seed';
const KILLS = 8;
const LEASE_MS = 800;
const HEARTBEAT_MS = 100;

const yesNo = [
  { identifier: 'yes', label_template: 'Yes' },
  { identifier: 'no', label_template: 'No' },
];

/** The demo's kinds of definitions, with the state store shown in the texts. */
async function createCatalogue(app: TestApp, admin: TestUser): Promise<void> {
  const post = (path: string, body: unknown) => createInLeague(app, admin, path, 'wc', body);
  const goals = (await post('/api/question-groups', { slug: 'k-goals', name: 'Goals', max_open_questions: 1, min_interval_seconds: 0 })).id;
  const setPieces = (await post('/api/question-groups', { slug: 'k-set-pieces', name: 'Set pieces', max_open_questions: 1, min_interval_seconds: 0 })).id;
  const discipline = (await post('/api/question-groups', { slug: 'k-discipline', name: 'Discipline', max_open_questions: 1, min_interval_seconds: 60 })).id;
  await post('/api/question-definitions', {
    name: 'Next goal',
    group_id: goals,
    trigger: { event_type: 'score_change' },
    question_text_template:
      'Goal {{ state.goals }}: {{ match.home_team }} {{ event.score.home }}-{{ event.score.away }} {{ match.away_team }}. Who scores next?',
    choices: [
      { identifier: 'home', label_template: '{{ match.home_team }}' },
      { identifier: 'away', label_template: '{{ match.away_team }}' },
      { identifier: 'none', label_template: 'Nobody' },
    ],
    issuance_state_extract: { score_at_issue: 'event.score' },
    store_state: { goals: '(state.goals ? state.goals : 0) + 1' },
    resolution: {
      rules: [
        { event_type: 'score_change', correct_choice: 'event.team' },
        { event_type: 'match_status', condition: 'event.data.status = "ended"', correct_choice: '"none"' },
      ],
    },
  });
  await post('/api/question-definitions', {
    name: 'Shot after a corner',
    group_id: setPieces,
    trigger: { event_type: 'corner' },
    question_text_template: "Corner number {{ state.corners }} ({{ extract.minute }}'). A shot within 5 minutes?",
    choices: yesNo,
    issuance_state_extract: { team: 'event.team', minute: '$floor(event.clock_seconds / 60) + 1' },
    store_state: { corners: '(state.corners ? state.corners : 0) + 1' },
    resolution: {
      rules: [{ event_type: 'shot', condition: 'event.team = issuance.state.team', correct_choice: '"yes"' }],
      timeout: { after_seconds: 300, correct_choice: 'no' },
    },
  });
  await post('/api/question-definitions', {
    name: 'Card after a foul',
    group_id: discipline,
    trigger: { event_type: 'foul' },
    probability: 0.6,
    question_text_template: 'Foul number {{ state.fouls }}. A card in the next two minutes?',
    choices: yesNo,
    store_state: { fouls: '(state.fouls ? state.fouls : 0) + 1' },
    resolution: { rules: [{ event_type: 'card', correct_choice: '"yes"' }], timeout: { after_seconds: 120, correct_choice: 'no' } },
  });
  await post('/api/question-definitions', {
    name: 'Shot on target',
    trigger: { event_type: 'shot' },
    probability: 0.35,
    question_text_template:
      'Shot {{ state.shots }} by {% if event.team == "home" %}{{ match.home_team }}{% else %}{{ match.away_team }}{% endif %}: the next shot on target?',
    choices: [
      { identifier: 'home', label_template: '{{ match.home_team }}' },
      { identifier: 'away', label_template: '{{ match.away_team }}' },
    ],
    store_state: { shots: '(state.shots ? state.shots : 0) + 1' },
    resolution: { rules: [{ event_type: 'shot', condition: 'event.data.outcome = "on_target" or event.data.outcome = "goal"', correct_choice: 'event.team' }] },
  });
  await post('/api/question-definitions', {
    name: 'Card before half-time',
    is_pivotal_moment: true,
    trigger: { event_type: 'period_start', condition: 'event.period = "1"' },
    question_text_template: 'Will anyone be booked before half-time?',
    choices: yesNo,
    resolution: {
      rules: [
        { event_type: 'card', condition: 'event.period = "1"', correct_choice: '"yes"' },
        { event_type: 'period_end', condition: 'event.period = "1"', correct_choice: '"no"' },
      ],
    },
  });
}

const runnable = Boolean(testDatabaseUrl());

describe.skipIf(!runnable)('a listener killed at many points (PostgreSQL, two worker processes)', () => {
  let app: TestApp;
  let admin: TestUser;
  let events: FeedEvent[];
  let bots: TestUser[];
  const feeds: PushFeedServer[] = [];
  const processes: WorkerProcess[] = [];

  beforeAll(async () => {
    app = await startTestApp();
    admin = await createAdmin(app);
    await createCatalogue(app, admin);
    ({ events } = syntheticFootballMatch({ seed: 20260614, homeTeam: 'Lions', awayTeam: 'Tigers', kickoff: new Date(Date.now() - 3_600_000) }));
    bots = [await registerUser(app), await registerUser(app)];
    // Two players answer every question the moment it is issued (in its transaction), one the first choice, one the last:
    // answer points then depend only on what the engine decided.
    await app.services.database.rows(
      sql.raw(`create function qp_test_answer_bots() returns trigger language plpgsql as $$ begin
        insert into question_answers (user_id, question_issuance_id, match_id, selected_answer_identifier) values
          ('${bots[0]!.id}', new.id, new.match_id, new.choices->0->>'identifier'),
          ('${bots[1]!.id}', new.id, new.match_id, new.choices->-1->>'identifier');
        return new; end $$`),
    );
    await app.services.database.rows(
      sql.raw(
        `create trigger qp_test_answer_bots after insert on question_issuances for each row when (new.kind = 'in_game') execute function qp_test_answer_bots()`,
      ),
    );
  });

  afterAll(async () => {
    for (const p of processes) p.child.kill('SIGKILL');
    for (const f of feeds) await f.close();
    await app?.close();
  });

  /** A match of the recording with its own sponsorship slots (the same on both runs). */
  async function matchWithSlots(feedUrl: string): Promise<string> {
    const match = await createMatch(app, {
      homeTeam: 'Lions',
      awayTeam: 'Tigers',
      scheduled: new Date(),
      feedUrl,
      questionMaxCount: 30,
      questionPeriodDistribution: { '1': 15, '2': 15 },
      questionMinIntervalSeconds: null,
    });
    const slots = [
      { strategy: 'question_number', target: 3 },
      { strategy: 'period', target: '1', best_effort: true },
      { strategy: 'period', target: '2' },
      { strategy: 'next_available' },
      { strategy: 'next_available' },
    ];
    for (const [i, slot] of slots.entries()) {
      const [brand] = await app.services.database.db
        .insert(brands)
        .values({ name: `Kill test slot ${i} ${match.id}`, primaryColor: '#112233' })
        .returning();
      const res = await app.request('POST', `/api/brands/${brand!.id}/question-sponsorships`, {
        token: admin.token,
        body: { match_ids: [match.id], slots: [slot] },
      });
      if (res.status !== 200) throw new Error(`slot: ${res.status} ${res.text}`);
    }
    return match.id;
  }

  /** Everything both runs must agree on, keyed by what does not depend on the run (trigger, definition, slot number). */
  async function outcome(matchId: string) {
    const db = app.services.database.db;
    const slotName = (name: string | undefined) => name?.replace(/ [0-9a-f-]{36}$/, '') ?? null;
    const issued = await db
      .select()
      .from(questionIssuances)
      .where(eq(questionIssuances.matchId, matchId))
      .orderBy(asc(questionIssuances.questionNumber), asc(questionIssuances.triggerSeq), asc(questionIssuances.definitionName));
    const byId = new Map(issued.map((i) => [i.id, `${i.definitionName}|${i.triggerEventId}`]));
    const answers = await db.select().from(questionAnswers).where(eq(questionAnswers.matchId, matchId));
    const denials = await db.select().from(questionIssuanceDenials).where(eq(questionIssuanceDenials.matchId, matchId));
    const [listener] = await db.select().from(matchListeners).where(eq(matchListeners.matchId, matchId));
    const [match] = await db.select().from(matches).where(eq(matches.id, matchId));
    const recorded = await db
      .select({ key: listenerEvents.eventKey })
      .from(listenerEvents)
      .where(eq(listenerEvents.matchId, matchId))
      .orderBy(asc(listenerEvents.id));
    const slots = await db
      .select({ brand: brands.name, issuance: questionSponsorships.questionIssuanceId })
      .from(questionSponsorships)
      .innerJoin(brands, eq(brands.id, questionSponsorships.brandId))
      .where(eq(questionSponsorships.matchId, matchId));
    return {
      issuances: issued.map((i) => ({
        key: `${i.definitionName}|${i.triggerEventId}`,
        definitionId: i.definitionId,
        questionNumber: i.questionNumber,
        lane: i.lane,
        pivotal: i.isPivotalMoment,
        text: i.questionText,
        choices: i.choices,
        state: i.state,
        points: i.points,
        window: i.answerWindowSeconds,
        triggerSeq: i.triggerSeq,
        period: i.period,
        clock: i.clockSeconds,
        trace: i.decisionTrace,
        sponsor: slotName(i.sponsorBrand?.name),
        status: i.status,
        correct: i.correctAnswerIdentifier,
        resolvedBy: i.resolutionEventId,
        resolvedSeq: i.resolvedSeq,
      })),
      denials: denials
        .map((d) => ({
          definitionId: d.definitionId,
          trigger: d.triggerEventId,
          type: d.triggerEventType,
          step: d.failedStep,
          detail: d.detail,
          period: d.period,
          clock: d.clockSeconds,
        }))
        .sort((a, b) => `${a.trigger}|${a.definitionId}`.localeCompare(`${b.trigger}|${b.definitionId}`)),
      answers: answers.map((a) => `${byId.get(a.questionIssuanceId)}|${a.userId}|${a.selectedAnswerIdentifier}|${a.outcome}|${a.pointsAwarded}`).sort(),
      slots: slots.map((s) => `${slotName(s.brand)} -> ${s.issuance ? byId.get(s.issuance) : 'unused'}`).sort(),
      listener: {
        status: listener!.status,
        error: listener!.error,
        issued: listener!.issuedCount,
        denied: listener!.deniedCount,
        resolved: listener!.resolvedCount,
        consumed: listener!.eventsConsumed,
        lastSeq: listener!.lastSeq,
        stateStore: listener!.stateStore,
      },
      match: {
        status: match!.status,
        period: match!.period,
        clock: match!.clockSeconds,
        home: match!.homeScore,
        away: match!.awayScore,
        result: match!.result,
        startedAt: match!.startedAt,
        archived: match!.listenerEventsArchived,
      },
      recording: recorded.map((r) => r.key),
    };
  }

  it('gives exactly what one uninterrupted run gives', async () => {
    const db = app.services.database.db;

    // The clean run: one in-process worker, the feed at full speed.
    const cleanFeed = await startPushFeedServer({ events, speed: Infinity, heartbeatMs: HEARTBEAT_MS });
    feeds.push(cleanFeed);
    const cleanId = await matchWithSlots(cleanFeed.url);
    const worker = startWorker(app, { seed: SEED, staleAfterMs: 60_000 });
    try {
      await waitFor(async () => (await db.select().from(matchListeners).where(eq(matchListeners.matchId, cleanId)))[0]?.status === 'completed', {
        what: 'the clean run',
        // A whole match through the engine: minutes on a busy machine.
        timeoutMs: 300_000,
      });
    } finally {
      await worker.stop();
    }
    const clean = await outcome(cleanId);
    // What diverged before: one-question lanes, store_state counters in texts, denials at several gates. Which gates
    // deny depends on the draws, and the draws on the definitions' ids (new each run): a run whose draws fill a
    // period's quota early denies at period_quota where another denies at min_interval. So: at least three gates.
    const gates = new Set(clean.denials.map((d) => d.step));
    expect(gates.size, [...gates].join(', ')).toBeGreaterThanOrEqual(3);
    expect(
      [...gates].some((g) => ['group_lane', 'min_interval', 'period_quota', 'match_cap'].includes(g!)),
      [...gates].join(', '),
    ).toBe(true);
    expect(clean.issuances.length).toBeGreaterThan(15);
    expect(clean.slots.filter((s) => !s.endsWith('unused')).length).toBeGreaterThan(3);
    expect(clean.match.status).toBe('closed');

    // The killed run: the same recording live, read by one of two worker processes at a time. The test publishes it,
    // up to the next kill point at a time, so every kill point comes while the match is on however slow the machine
    // (a recording replayed against the clock could end while a takeover waits for a core, with kills left to do).
    const feed = await startPushFeedServer({ events: [], speed: Infinity, holdOpen: true, heartbeatMs: HEARTBEAT_MS });
    feeds.push(feed);
    let published = 0;
    const publishTo = (n: number) => {
      while (published < Math.min(n, events.length)) feed.publish(events[published++]!);
    };
    const spawn = () => {
      const p = spawnWorkerProcess(app, { leaseMs: LEASE_MS, heartbeatMs: HEARTBEAT_MS, staleAfterMs: 60_000, seed: SEED });
      processes.push(p);
      return p;
    };
    spawn();
    spawn();
    const killedId = await matchWithSlots(feed.url);
    const listenerRow = async () => (await db.select().from(matchListeners).where(eq(matchListeners.matchId, killedId)))[0];
    // Kill points spread over the match, each moved by a seeded jitter (and the poll's own timing).
    const random = mulberry32(Date.now() % 100_000);
    const points = Array.from({ length: KILLS }, (_, i) => Math.floor(((i + 0.3 + 0.5 * random()) / (KILLS + 0.5)) * events.length));
    const kills: { at: number; pid: number }[] = [];
    for (const [i, point] of points.entries()) {
      publishTo(points[i + 1] ?? events.length);
      const row = await waitFor(
        async () => {
          const l = await listenerRow();
          const over = l && !['queued', 'running'].includes(l.status);
          return l && (over || (l.status === 'running' && l.eventsConsumed >= point)) ? l : undefined;
        },
        // The first waits for a worker process to start too, which a busy machine takes minutes over.
        { what: `the listener to pass event ${point}\n${processes.map((p) => p.output()).join('\n')}`, timeoutMs: 240_000, intervalMs: 10 },
      );
      if (row.status !== 'running') break;
      await new Promise((r) => setTimeout(r, Math.floor(random() * 120)));
      const pid = Number(row.claimedBy!.split(':')[1]);
      const victim = processes.find((p) => p.child.pid === pid && p.child.exitCode === null);
      if (!victim) continue;
      victim.child.kill('SIGKILL');
      await new Promise((r) => victim.child.once('exit', r));
      kills.push({ at: (await listenerRow())!.eventsConsumed, pid });
      spawn();
      // The survivor takes it over once the dead one's lease has run out.
      await waitFor(
        async () => {
          const l = await listenerRow();
          return l && (l.status !== 'running' || !l.claimedBy!.includes(`:${pid}:`));
        },
        { what: 'a takeover', timeoutMs: 30_000, intervalMs: 10 },
      );
    }
    publishTo(events.length);
    feed.end();
    await waitFor(async () => (await listenerRow())?.status === 'completed', {
      what: `the killed run to complete\n${processes.map((p) => p.output()).join('\n')}`,
      timeoutMs: 300_000,
    });
    expect(kills.length, `kills at ${JSON.stringify(kills)}`).toBeGreaterThanOrEqual(5);
    const l = (await listenerRow())!;
    const takeovers = await db
      .select()
      .from(listenerLogLines)
      .where(and(eq(listenerLogLines.listenerId, l.id), sql`${listenerLogLines.message} like 'claimed by %taking over%'`));
    expect(takeovers.length).toBeGreaterThanOrEqual(kills.length);

    const killed = await outcome(killedId);
    expect(killed.listener).toEqual(clean.listener);
    expect(killed.match).toEqual(clean.match);
    expect(killed.issuances).toEqual(clean.issuances);
    expect(killed.denials).toEqual(clean.denials);
    expect(killed.answers).toEqual(clean.answers);
    expect(killed.slots).toEqual(clean.slots);
    expect(killed.recording).toEqual(clean.recording);
    expect(killed.recording).toHaveLength(events.length);
    // The boards, as the workers' appliers (killed with them at times) left them and once the queue drained: the killed
    // run's match board is the clean run's, and every board equals a rebuild from the answers.
    await app.services.leaderboards.drain();
    const board = async (matchId: string) =>
      ((await app.request('GET', `/api/leaderboards/matches/${matchId}`, { query: { limit: 100 } })).body.rows as Record<string, unknown>[])
        .map((r) => `${r.user_id}|${r.points}|${r.correct_count}|${r.answered_count}|${r.current_streak}|${r.best_streak}`)
        .sort();
    expect(await board(killedId)).toEqual(await board(cleanId));
    expect((await board(cleanId)).length).toBeGreaterThan(0);
    const scores = async () =>
      (await db.select().from(leaderboardScores))
        .map((r) => `${r.leaderboardId}|${r.userId}|${r.points}|${r.correct}|${r.answered}|${r.currentStreak}|${r.bestStreak}|${r.reachedAt.toISOString()}`)
        .sort();
    const maintained = await scores();
    await db.transaction((tx) => rebuildAll({ tx }));
    expect(await scores()).toEqual(maintained);
    // No question was left open, none voided for want of a listener.
    expect(
      await db
        .select()
        .from(questionIssuances)
        .where(and(inArray(questionIssuances.matchId, [cleanId, killedId]), eq(questionIssuances.status, 'open'))),
    ).toEqual([]);
  }, 600_000);
});

/**
 * No path leaves an in-game question open once nothing can resolve it: its
 * match cancelled, closed or postponed, or no listener left to run it. The
 * worker's sweep voids them (the safety net) and followers' sockets are
 * told; a running listener whose match is called off elsewhere completes;
 * the demo's restart voids what the previous `npm start` left open. A
 * listener whose process died is not given up on: its questions wait for
 * the takeover.
 */
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LiveDemo } from '../../src/demo/live-demo.js';
import { EngineWorker, DEFAULT_WORKER_OPTIONS } from '../../src/engine/worker.js';
import { questionAnswers } from '../../src/modules/answers/answers.table.js';
import { questionIssuances } from '../../src/modules/issuances/issuances.table.js';
import { matchListeners } from '../../src/modules/listeners/listeners.table.js';
import { matches } from '../../src/modules/matches/matches.table.js';
import { waitFor } from '../helpers/engine.js';
import { insertIssuance, insertListener } from '../helpers/engine-rows.js';
import { createMatch } from '../helpers/factories.js';
import { openStream } from '../helpers/live-client.js';
import { registerUser } from '../helpers/test-app.js';
import { cleanup, define, ev, OPEN_MATCH, startHarness, startLive, type Harness } from './engine-scenario.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterEach(() => cleanup(h));
afterAll(() => h?.app.close());

const db = () => h.app.services.database.db;
const statusOf = async (id: string) =>
  (await db().select({ status: questionIssuances.status }).from(questionIssuances).where(eq(questionIssuances.id, id)))[0]?.status;

/** One round of a worker that claims nothing (so only the sweep can settle anything). */
async function sweepOnce(): Promise<void> {
  const { engine, logger } = h.app.services;
  const worker = new EngineWorker({
    store: engine.store,
    hooks: engine.hooks,
    logger,
    brandSnapshot: engine.brandSnapshot,
    options: { ...DEFAULT_WORKER_OPTIONS, autoDispatch: false, maxListeners: 0 },
  });
  await worker.tick();
}

describe("the worker's sweep", () => {
  it("voids the open questions of a match cancelled behind the engine's back, scores their answers void and tells followers' sockets", async () => {
    const match = await createMatch(h.app, { scheduled: new Date(), status: 'live' });
    await insertListener(h.app, { matchId: match.id, status: 'running', claimedBy: 'a-live-process', leaseExpiresAt: new Date(Date.now() + 60_000) });
    const issuance = await insertIssuance(h.app, { matchId: match.id });
    const player = await registerUser(h.app);
    expect((await h.app.request('POST', `/api/matches/${match.id}/follow`, { token: player.token })).status).toBe(200);
    await db().insert(questionAnswers).values({ userId: player.id, questionIssuanceId: issuance.id, matchId: match.id, selectedAnswerIdentifier: 'home' });
    const stream = await openStream(h.app, player.token);
    try {
      await stream.ready();
      // What a schedule sync does when the provider calls the match off.
      await db().update(matches).set({ status: 'cancelled' }).where(eq(matches.id, match.id));
      await sweepOnce();
      expect(await statusOf(issuance.id)).toBe('voided');
      const told = await stream.take((m) => m.type === 'resolution' && m.question_issuance_id === issuance.id, 10_000);
      expect(told).toMatchObject({ status: 'voided', correct_answer_identifier: null, answer: { outcome: 'void', points_awarded: 0 } });
    } finally {
      await stream.close();
    }
  });

  it('voids the open questions of a match with no queued or running listener (its listener failed, or none is left)', async () => {
    const failed = await createMatch(h.app, { scheduled: new Date(), status: 'live' });
    await insertListener(h.app, { matchId: failed.id, status: 'failed' });
    const orphan = await insertIssuance(h.app, { matchId: failed.id });
    const closed = await createMatch(h.app, { scheduled: new Date(), status: 'closed' });
    const ofClosed = await insertIssuance(h.app, { matchId: closed.id });
    const spy = vi.spyOn(h.app.services.engine.hooks, 'onSettled');
    try {
      await sweepOnce();
      expect(await statusOf(orphan.id)).toBe('voided');
      expect(await statusOf(ofClosed.id)).toBe('voided');
      expect(spy.mock.calls.map(([row]) => row.id)).toEqual(expect.arrayContaining([orphan.id, ofClosed.id]));
    } finally {
      spy.mockRestore();
    }
  });

  it('leaves alone the questions of a listener that is queued, running, or whose process died and awaits its takeover; and Match questions', async () => {
    const waiting = await createMatch(h.app, { scheduled: new Date(), status: 'live' });
    await insertListener(h.app, { matchId: waiting.id, status: 'running', claimedBy: 'a-dead-process', leaseExpiresAt: new Date(Date.now() - 60_000) });
    const kept = await insertIssuance(h.app, { matchId: waiting.id });
    const released = await createMatch(h.app, { scheduled: new Date(), status: 'live' });
    await insertListener(h.app, { matchId: released.id, status: 'queued' });
    const keptToo = await insertIssuance(h.app, { matchId: released.id });
    const preGame = await createMatch(h.app, { scheduled: new Date(Date.now() + 3_600_000) });
    const matchQuestion = await insertIssuance(h.app, { matchId: preGame.id, kind: 'match', triggerEventId: null });
    await sweepOnce();
    expect(await statusOf(kept.id)).toBe('open');
    expect(await statusOf(keptToo.id)).toBe('open');
    expect(await statusOf(matchQuestion.id)).toBe('open');
  });
});

describe('a running listener whose match is called off elsewhere', () => {
  it('completes and voids what it had open', async () => {
    await define(h); // a shot question its rule keeps open until a card
    const feed = await startLive(h, { worker: { catalogRefreshMs: 50 } });
    try {
      await feed.push(ev(1, 'shot'));
      const [issued] = await db().select().from(questionIssuances).where(eq(questionIssuances.matchId, feed.match.id));
      expect(issued).toMatchObject({ status: 'open' });
      await db().update(matches).set({ status: 'cancelled' }).where(eq(matches.id, feed.match.id));
      await waitFor(async () => (await db().select().from(matchListeners).where(eq(matchListeners.id, feed.listener.id)))[0]?.status === 'completed', {
        what: 'the listener to complete',
      });
      expect(await statusOf(issued!.id)).toBe('voided');
      const out = await feed.produced();
      // The listener voids it, or the worker's sweep got there first: either way, once.
      expect(out.log).toContain('info the match was cancelled elsewhere: the listener completes');
      expect(out.issuances).toHaveLength(1);
    } finally {
      await feed.close();
    }
  });
});

describe('the demo, started again', () => {
  it('cancels the demo match the previous `npm start` left live, stops its listener and voids its open questions', async () => {
    // What stopping `npm start` mid-match leaves: the match live, its listener handed back to the queue, a question open.
    const match = await createMatch(h.app, { srId: `demo-live:${Date.now()}`, scheduled: new Date(), status: 'live', ...OPEN_MATCH });
    const listener = await insertListener(h.app, { matchId: match.id, status: 'queued' });
    const issuance = await insertIssuance(h.app, { matchId: match.id });
    const spy = vi.spyOn(h.app.services.events, 'emit');
    const demo = new LiveDemo(h.app.services, { kickoffInSeconds: 3600, durationScale: 0.09 });
    try {
      await demo.start();
      expect((await db().select().from(matches).where(eq(matches.id, match.id)))[0]!.status).toBe('cancelled');
      expect((await db().select().from(matchListeners).where(eq(matchListeners.id, listener.id)))[0]!.status).toBe('stopped');
      expect(await statusOf(issuance.id)).toBe('voided');
      expect(spy.mock.calls.flatMap(([e]) => (e.type === 'settled' ? [e.row.id] : []))).toContain(issuance.id);
    } finally {
      spy.mockRestore();
      await demo.stop();
    }
  });
});

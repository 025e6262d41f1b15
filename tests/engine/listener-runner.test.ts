/**
 * The listener runner's own bookkeeping: the run loop and the heartbeat both
 * flush what was handled (recorded events, log lines, progress), and a slow
 * write must not let two flushes step on each other; a stopped listener
 * revokes what it still has open, as any settling does (answers scored); a
 * listener starts from the state store the match's Match questions wrote.
 */
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LeaseLostError, type EngineStore } from '../../src/engine/store.js';
import { questionAnswers } from '../../src/modules/answers/answers.table.js';
import { questionIssuances } from '../../src/modules/issuances/issuances.table.js';
import { listenerLogLines, matchListeners } from '../../src/modules/listeners/listeners.table.js';
import { matches } from '../../src/modules/matches/matches.table.js';
import { startWorker, waitFor } from '../helpers/engine.js';
import { createMatch } from '../helpers/factories.js';
import { registerUser } from '../helpers/test-app.js';
import { cleanup, define, ev, OPEN_MATCH, runFeed, startHarness, startLive, type Harness } from './engine-scenario.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterEach(() => cleanup(h));
afterAll(() => h?.app.close());

describe('flushes', () => {
  it('lose no log line and record every event when writes are slow and the heartbeat flushes in between', async () => {
    const def = await define(h, { probability: 0 });
    const n = 100;
    const events = Array.from({ length: n }, (_, i) => ev(i + 1, 'shot'));
    const { engine } = h.app.services;
    // Log writes take 30 ms while the heartbeat flushes every 5 ms and the run loop every 5 events.
    const store: EngineStore = {
      ...engine.store,
      log: async (args) => {
        await new Promise((r) => setTimeout(r, 30));
        await engine.store.log(args);
      },
    };
    const out = await runFeed(h, events, {}, { heartbeatMs: 5, flushEvery: 5 }, store);
    expect(out.listener).toMatchObject({ status: 'completed', error: null, lastSeq: n, eventsConsumed: n, deniedCount: n });
    expect(out.denials).toHaveLength(n);
    expect(out.log.filter((l) => l.startsWith(`debug denied '${def.name}' on e`))).toHaveLength(n);
    expect(out.log.at(-1)).toBe('info listener completed');
    const numbers = (await h.app.services.database.db.select({ n: listenerLogLines.lineNo }).from(listenerLogLines).where(eq(listenerLogLines.listenerId, out.listener.id))).map((r) => r.n);
    expect(numbers.sort((a, b) => a - b)).toEqual(Array.from({ length: out.log.length }, (_, i) => i + 1));
  });
});

describe('denials', () => {
  it('are written with the events they came from, a batch per flush, not a statement each', async () => {
    const def = await define(h, { probability: 0 });
    const n = 120;
    const events = Array.from({ length: n }, (_, i) => ev(i + 1, 'shot'));
    const { engine } = h.app.services;
    const writes: number[] = [];
    const store: EngineStore = {
      ...engine.store,
      insertDenials: async (values) => {
        if (values.length) writes.push(values.length);
        await engine.store.insertDenials(values);
      },
    };
    const out = await runFeed(h, events, {}, { heartbeatMs: 60_000, flushEvery: 50 }, store);
    expect(out.listener).toMatchObject({ status: 'completed', deniedCount: n });
    // 50 + 50 + 20: three writes for 120 denials.
    expect(writes).toEqual([50, 50, 20]);
    expect(out.denials.map((d) => d.triggerEventId)).toEqual(events.map((e) => e.provider_event_id));
    expect(out.denials.every((d) => d.definitionId === def.id && d.failedStep === 'probability')).toBe(true);
  });
});

describe('a stop', () => {
  it('revokes the questions the listener has open and scores their answers void', async () => {
    const db = h.app.services.database.db;
    await define(h); // a shot question its rule keeps open until a card
    const live = await startLive(h);
    try {
      await live.push(ev(1, 'shot'));
      const [issued] = await db.select().from(questionIssuances).where(eq(questionIssuances.matchId, live.match.id));
      expect(issued).toMatchObject({ status: 'open', triggerEventId: 'e1' });
      const player = await registerUser(h.app);
      await db.insert(questionAnswers).values({ userId: player.id, questionIssuanceId: issued!.id, matchId: live.match.id, selectedAnswerIdentifier: 'home' });
      // A stop asked of the store alone (as the live demo does): the listener revokes at its next heartbeat.
      expect(await h.app.services.engine.store.requestStop(live.match.id)).toEqual([live.listener.id]);
      await waitFor(async () => (await db.select().from(matchListeners).where(eq(matchListeners.id, live.listener.id)))[0]?.status === 'stopped', { what: 'the listener to stop' });
      const [revoked] = await db.select().from(questionIssuances).where(eq(questionIssuances.id, issued!.id));
      expect(revoked).toMatchObject({ status: 'revoked', correctAnswerIdentifier: null });
      const [scored] = await db.select().from(questionAnswers).where(eq(questionAnswers.questionIssuanceId, issued!.id));
      expect(scored).toMatchObject({ outcome: 'void', pointsAwarded: 0 });
      expect(scored!.scoredAt).not.toBeNull();
    } finally {
      await live.close();
    }
  });
});

describe('a feed that ends before the match closes', () => {
  it('voids the questions still open (nothing can resolve them) and scores their answers void', async () => {
    const db = h.app.services.database.db;
    await define(h); // a shot question its rule keeps open until a card
    const live = await startLive(h);
    const player = await registerUser(h.app);
    await live.push(ev(1, 'shot'));
    const [issued] = await db.select().from(questionIssuances).where(eq(questionIssuances.matchId, live.match.id));
    expect(issued).toMatchObject({ status: 'open' });
    await db.insert(questionAnswers).values({ userId: player.id, questionIssuanceId: issued!.id, matchId: live.match.id, selectedAnswerIdentifier: 'home' });
    const out = await live.finish();
    expect(out.match.status).not.toBe('closed');
    expect(out.issuances).toMatchObject([{ id: issued!.id, status: 'voided', correctAnswerIdentifier: null }]);
    expect(out.log).toContain('info 1 open question voided: they can no longer resolve');
    const [scored] = await db.select().from(questionAnswers).where(eq(questionAnswers.questionIssuanceId, issued!.id));
    expect(scored).toMatchObject({ outcome: 'void', pointsAwarded: 0 });
  });
});

describe('a stop whose process is gone', () => {
  it('is completed by another worker, which revokes the questions left open', async () => {
    const db = h.app.services.database.db;
    const store = h.app.services.engine.store;
    const match = await createMatch(h.app, { scheduled: new Date(), status: 'live', ...OPEN_MATCH });
    const issuance = await db
      .insert(questionIssuances)
      .values({ matchId: match.id, kind: 'in_game', definitionName: 'x', questionText: 'x', choices: [{ identifier: 'a', label: 'A' }], resolution: {}, closesAt: new Date(Date.now() + 60_000), points: 5 })
      .returning();
    // A running listener whose process died after a stop was asked: its lease has run out.
    const [listener] = await db
      .insert(matchListeners)
      .values({ matchId: match.id, source: 'feed', status: 'running', claimedBy: 'dead-process', stopRequested: true, leaseExpiresAt: new Date(Date.now() - 1000) })
      .returning();
    const worker = startWorker(h.app);
    try {
      await waitFor(async () => (await db.select().from(matchListeners).where(eq(matchListeners.id, listener!.id)))[0]?.status === 'stopped', { what: 'the listener to be reaped' });
      await waitFor(async () => (await db.select().from(questionIssuances).where(eq(questionIssuances.id, issuance[0]!.id)))[0]?.status === 'revoked', { what: 'the open question to be revoked' });
    } finally {
      await worker.stop();
    }
  });
});

describe('the state store', () => {
  it("starts from what the match's Match questions stored before kick-off, and keeps it", async () => {
    await define(h, {
      probability: 1,
      trigger: { event_type: 'shot', condition: 'state.pre_game_questions = 2' },
      question_text_template: 'After {{ state.pre_game_questions }} pre-game questions and {{ state.shots }} shot(s): who is booked next?',
      store_state: { shots: '(state.shots ? state.shots : 0) + 1' },
    });
    const live = await startLive(h, { match: { stateStore: { pre_game_questions: 2 } } });
    try {
      await live.push(ev(1, 'shot'));
      const out = await live.produced();
      expect(out.issuances.map((i) => i.questionText)).toEqual(['After 2 pre-game questions and 1 shot(s): who is booked next?']);
    } finally {
      await live.close();
    }
    const [listener] = await h.app.services.database.db.select().from(matchListeners).where(eq(matchListeners.matchId, live.match.id));
    expect(listener!.stateStore).toEqual({ pre_game_questions: 2, shots: 1 });
    // The match's own store is what Match questions wrote; the listener keeps its store apart.
    const [match] = await h.app.services.database.db.select({ stateStore: matches.stateStore }).from(matches).where(eq(matches.id, live.match.id));
    expect(match!.stateStore).toEqual({ pre_game_questions: 2 });
  });
});

describe('a listener that lost its lease', () => {
  it('issues nothing once another process holds the listener, and stops writing', async () => {
    await define(h, { probability: 1 });
    // No heartbeat during the test: only the issuance's own lease check can notice the takeover.
    const live = await startLive(h, { worker: { heartbeatMs: 600_000 } });
    const warn = vi.spyOn(h.app.services.logger, 'warn');
    const db = h.app.services.database.db;
    try {
      // Another process took the listener over (its lease ran out while this one could not reach the database).
      await db.update(matchListeners).set({ claimedBy: 'another-process', leaseExpiresAt: new Date(Date.now() + 60_000) }).where(eq(matchListeners.id, live.listener.id));
      live.feed.publish(ev(1, 'shot'));
      await waitFor(async () => warn.mock.calls.some((c) => String(c[1]).includes('lease lost')), { what: 'the lease loss to be noticed', timeoutMs: 10_000, intervalMs: 20 });
      expect((await live.produced()).issuances).toEqual([]);
      // The new owner's row is left alone.
      const [row] = await db.select().from(matchListeners).where(eq(matchListeners.id, live.listener.id));
      expect(row).toMatchObject({ claimedBy: 'another-process', status: 'running' });
    } finally {
      warn.mockRestore();
      await live.close();
    }
  });

  it('cannot insert an issuance through the store either (the lease is checked in the same transaction)', async () => {
    const def = await define(h);
    const live = await startLive(h);
    const db = h.app.services.database.db;
    try {
      const values = {
        matchId: live.match.id,
        kind: 'in_game',
        definitionId: def.id,
        definitionName: def.name,
        questionText: 'x',
        choices: [{ identifier: 'home', label: 'Home' }],
        resolution: { rules: [] },
        triggerEventId: 'e-lease',
        closesAt: new Date(Date.now() + 60_000),
        points: 10,
      };
      const store = h.app.services.engine.store;
      await expect(store.insertIssuance({ values, earlierPeriods: [], lease: { listenerId: live.listener.id, workerId: 'not-the-owner' } })).rejects.toBeInstanceOf(LeaseLostError);
      expect((await live.produced()).issuances).toEqual([]);
    } finally {
      await live.close();
    }
  });
});

/**
 * The listener runner end to end (a feed served on loopback, an in-process
 * worker, the database): what only a whole run shows. Each commit holds the
 * events, what was decided on them, the log and the resume point together;
 * batches are few (denials and the state store wait for the next commit);
 * a failed write is retried whole; a stop revokes what is open; a lost lease
 * writes nothing; a feed whose heartbeats stop is stale even while events
 * flow; a feed that ends before the match is over never completes the
 * listener; sponsorship slots are stamped at issue time; a second listener
 * reading the same feed decides nothing again.
 */
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PushFeedClient } from '../../src/engine/feed/push-client.js';
import { startPushFeedServer } from '../../src/engine/feed/push-server.js';
import { LISTENER_REMOVED } from '../../src/engine/listener-runner.js';
import { deleteListenersOfMatch } from '../../src/modules/listeners/listeners.repository.js';
import { LeaseLostError, type EngineStore } from '../../src/engine/store.js';
import { questionAnswers } from '../../src/modules/answers/answers.table.js';
import { brands } from '../../src/modules/brands/brands.table.js';
import { questionIssuances } from '../../src/modules/issuances/issuances.table.js';
import { listenerEvents, listenerLogLines, matchListeners } from '../../src/modules/listeners/listeners.table.js';
import { matches } from '../../src/modules/matches/matches.table.js';
import { questionSponsorships } from '../../src/modules/sponsorships/sponsorships.table.js';
import { startWorker, waitFor } from '../helpers/engine.js';
import { createMatch } from '../helpers/factories.js';
import { registerUser } from '../helpers/test-app.js';
import {
  cleanup,
  closed,
  closing,
  define,
  definitionBody,
  ev,
  listenerDone,
  OPEN_MATCH,
  produced,
  runFeed,
  runFeeds,
  startHarness,
  startLive,
  unique,
  type Harness,
} from './engine-scenario.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterEach(() => cleanup(h));
afterAll(() => h?.app.close());

const live = (seq = 1) => ev(seq, 'match_status', { data: { status: 'live' } });
const shots = (n: number, from = 2) => Array.from({ length: n }, (_, i) => ev(from + i, 'shot'));

describe('commits', () => {
  it('lose no log line and record every event when writes are slow and the heartbeat commits in between', async () => {
    const def = await define(h, { probability: 0 });
    const n = 100;
    const { engine } = h.app.services;
    // Log writes take 30 ms while the heartbeat commits every 5 ms and the run loop every 5 events.
    const store: EngineStore = {
      ...engine.store,
      writeLog: async (args, q) => {
        await new Promise((r) => setTimeout(r, 30));
        await engine.store.writeLog(args, q);
      },
    };
    const out = await runFeed(h, [live(), ...shots(n)], {}, { heartbeatMs: 5, flushEvery: 5 }, store);
    expect(out.listener).toMatchObject({ status: 'completed', error: null, lastSeq: n + 2, eventsConsumed: n + 2, deniedCount: n });
    expect(out.denials).toHaveLength(n);
    expect(out.log.filter((l) => l.startsWith(`debug denied '${def.name}' on e`))).toHaveLength(n);
    expect(out.log.at(-1)).toBe('info listener completed');
    const numbers = (
      await h.app.services.database.db.select({ n: listenerLogLines.lineNo }).from(listenerLogLines).where(eq(listenerLogLines.listenerId, out.listener.id))
    ).map((r) => r.n);
    expect(numbers.sort((a, b) => a - b)).toEqual(Array.from({ length: out.log.length }, (_, i) => i + 1));
  });

  it('write denials with the events they came from, a batch per commit, not a statement each; what players see commits at once', async () => {
    const def = await define(h, { probability: 0 });
    const n = 120;
    const { engine } = h.app.services;
    const denialWrites: number[] = [];
    const eventWrites: number[] = [];
    const store: EngineStore = {
      ...engine.store,
      insertDenials: async (values, q) => {
        if (values.length) denialWrites.push(values.length);
        await engine.store.insertDenials(values, q);
      },
      recordEvents: async (args, q) => {
        if (args.events.length) eventWrites.push(args.events.length);
        await engine.store.recordEvents(args, q);
      },
    };
    const out = await runFeed(h, [live(), ...shots(n)], {}, { heartbeatMs: 60_000, flushEvery: 50 }, store);
    expect(out.listener).toMatchObject({ status: 'completed', deniedCount: n, eventsConsumed: n + 2 });
    // The kick-off (the match goes live) commits at once; then 50 + 50 + 20 denials, the last with the closing event.
    expect(denialWrites).toEqual([50, 50, 20]);
    expect(eventWrites).toEqual([1, 50, 50, 21]);
    expect(out.denials.map((d) => d.triggerEventId)).toEqual(shots(n).map((e) => e.provider_event_id));
    expect(out.denials.every((d) => d.definitionId === def.id && d.failedStep === 'probability')).toBe(true);
  });

  it('retry a batch whose write failed, whole: nothing lost, nothing twice', async () => {
    await define(h, { store_state: { shots: '(state.shots ? state.shots : 0) + 1' }, question_text_template: 'Shot {{ state.shots }}: who is booked next?' });
    const { engine } = h.app.services;
    let failures = 0;
    let saveCalls = 0;
    const store: EngineStore = {
      ...engine.store,
      // The third and fourth commits fail after writing part of the batch (the transaction rolls it back).
      saveProgress: async (args, q) => {
        const calls = ++saveCalls;
        if (calls === 3 || calls === 4) {
          failures += 1;
          throw new Error('connection lost (injected)');
        }
        return engine.store.saveProgress(args, q);
      },
    };
    const out = await runFeed(h, [live(), ...shots(6)], {}, { heartbeatMs: 60_000 }, store);
    expect(failures).toBe(2);
    expect(out.issuances.map((i) => [i.triggerEventId, i.questionNumber, i.questionText])).toEqual(
      shots(6).map((e, i) => [e.provider_event_id, i + 1, `Shot ${i + 1}: who is booked next?`]),
    );
    expect(out.listener).toMatchObject({ status: 'completed', issuedCount: 6, resolvedCount: 6, eventsConsumed: 8, stateStore: { shots: 6 } });
    const recorded = await h.app.services.database.db.select().from(listenerEvents).where(eq(listenerEvents.listenerId, out.listener.id));
    expect(recorded).toHaveLength(8);
  });
});

describe('a stop', () => {
  it('revokes the questions the listener has open and scores their answers void', async () => {
    const db = h.app.services.database.db;
    await define(h); // a shot question its rule keeps open until a card
    const feed = await startLive(h);
    try {
      await feed.push(ev(1, 'shot'));
      const [issued] = await db.select().from(questionIssuances).where(eq(questionIssuances.matchId, feed.match.id));
      expect(issued).toMatchObject({ status: 'open', triggerEventId: 'e1' });
      const player = await registerUser(h.app);
      await db.insert(questionAnswers).values({ userId: player.id, questionIssuanceId: issued!.id, matchId: feed.match.id, selectedAnswerIdentifier: 'home' });
      // A stop asked of the store alone: the listener revokes at its next heartbeat.
      expect(await h.app.services.engine.store.requestStop(feed.match.id)).toEqual([feed.listener.id]);
      await waitFor(async () => (await db.select().from(matchListeners).where(eq(matchListeners.id, feed.listener.id)))[0]?.status === 'stopped', {
        what: 'the listener to stop',
      });
      const [revoked] = await db.select().from(questionIssuances).where(eq(questionIssuances.id, issued!.id));
      expect(revoked).toMatchObject({ status: 'revoked', correctAnswerIdentifier: null });
      const [scored] = await db.select().from(questionAnswers).where(eq(questionAnswers.questionIssuanceId, issued!.id));
      expect(scored).toMatchObject({ outcome: 'void', pointsAwarded: 0 });
      expect(scored!.scoredAt).not.toBeNull();
      expect((await feed.produced()).log.slice(-3)).toEqual([
        'info stop requested by an operator',
        'info 1 open question revoked: the listener was stopped, they can no longer resolve',
        'info listener stopped',
      ]);
    } finally {
      await feed.close();
    }
  });

  it('whose process is gone is completed by another worker, which revokes the questions left open', async () => {
    const db = h.app.services.database.db;
    const match = await createMatch(h.app, { scheduled: new Date(), status: 'live', ...OPEN_MATCH });
    const issuance = await db
      .insert(questionIssuances)
      .values({
        matchId: match.id,
        kind: 'in_game',
        definitionName: 'x',
        questionText: 'x',
        choices: [{ identifier: 'a', label: 'A' }],
        resolution: { rules: [] },
        closesAt: new Date(Date.now() + 60_000),
        points: 5,
      })
      .returning();
    // A running listener whose process died after a stop was asked: its lease has run out.
    const [listener] = await db
      .insert(matchListeners)
      .values({
        matchId: match.id,
        source: 'feed',
        status: 'running',
        claimedBy: 'dead-process',
        stopRequested: true,
        leaseExpiresAt: new Date(Date.now() - 1000),
      })
      .returning();
    const worker = startWorker(h.app);
    try {
      await waitFor(async () => (await db.select().from(matchListeners).where(eq(matchListeners.id, listener!.id)))[0]?.status === 'stopped', {
        what: 'the listener to be reaped',
      });
      await waitFor(async () => (await db.select().from(questionIssuances).where(eq(questionIssuances.id, issuance[0]!.id)))[0]?.status === 'revoked', {
        what: 'the open question to be revoked',
      });
    } finally {
      await worker.stop();
    }
  });
});

describe('a feed that ends before the match is over', () => {
  it('never completes the listener: it alerts (log, error) and reconnects; the questions stay open; events again clear the alert', async () => {
    await define(h); // a shot question its rule keeps open until a card
    const events = closed([live(), ev(2, 'shot'), ev(3, 'corner'), ev(4, 'card', { team: 'away' }), ev(5, 'shot')]);
    // The provider says `end` after the shot, then (on the reconnect) serves the rest.
    const feed = await startPushFeedServer({ events, speed: Infinity, heartbeatMs: 50, faults: { endAfter: 2 } });
    try {
      const match = await createMatch(h.app, { scheduled: new Date(), feedUrl: feed.url, ...OPEN_MATCH });
      const worker = startWorker(h.app);
      try {
        const l = await listenerDone(h, match.id, 'the listener to complete');
        const out = await produced(h, match.id, l.id);
        expect(out.listener).toMatchObject({ status: 'completed', error: null, eventsConsumed: events.length });
        expect(out.log).toContain('warn the feed ended before the match was over (status live): reconnecting with back-off');
        expect(out.log).toContain('info events again after the feed ended early');
        expect(out.log.indexOf('info events again after the feed ended early')).toBeGreaterThan(
          out.log.indexOf('warn the feed ended before the match was over (status live): reconnecting with back-off'),
        );
        // The question asked before the early end was resolved by the card that came after it.
        expect(out.issuances.map((i) => [i.triggerEventId, i.status, i.correctAnswerIdentifier])).toEqual([
          ['e2', 'resolved', 'away'],
          ['e5', 'voided', null],
        ]);
      } finally {
        await worker.stop();
      }
    } finally {
      await feed.close();
    }
  });

  it('keeps the alert on the listener while the feed stays ended', async () => {
    const db = h.app.services.database.db;
    const feed = await startPushFeedServer({ events: [live(), ev(2, 'shot')], speed: Infinity, heartbeatMs: 50 });
    try {
      const match = await createMatch(h.app, { scheduled: new Date(), feedUrl: feed.url, ...OPEN_MATCH });
      const worker = startWorker(h.app);
      try {
        const row = async () => (await db.select().from(matchListeners).where(eq(matchListeners.matchId, match.id)))[0];
        const alerted = await waitFor(async () => ((await row())?.error ? row() : undefined), { what: 'the alert' });
        expect(alerted).toMatchObject({ status: 'running', error: 'the feed ended before the match was over (status live): reconnecting with back-off' });
        // It reconnects (with back-off) rather than finishing.
        await waitFor(async () => feed.stats.connections >= 3, { what: 'reconnections', timeoutMs: 15_000 });
        expect((await row())!.status).toBe('running');
      } finally {
        await worker.stop();
      }
    } finally {
      await feed.close();
    }
  });
});

describe('a completed listener', () => {
  it.each([
    ['its match closed (the provider keeps the stream open)', false],
    ['the feed said it ended once play was over (a client that reconnects after an early end)', true],
  ])('leaves nothing of its feed behind when %s: the connection, the client, its timers and its log lines all stop', async (_, ends) => {
    const start = vi.spyOn(PushFeedClient.prototype, 'start');
    const warn = vi.spyOn(h.app.services.logger, 'warn');
    const feed = await startLive(h, { events: [live(), ev(2, 'shot')], worker: { staleAfterMs: 60_000 } });
    try {
      const client = start.mock.contexts.at(-1) as PushFeedClient;
      expect(client.active).toBe(true);
      await feed.push(ev(3, 'match_status', { data: { status: 'ended' } }));
      if (ends) feed.feed.end();
      else feed.feed.publish(closing(4));
      const done = await listenerDone(h, feed.match.id, 'the listener to complete');
      expect(done.status).toBe('completed');
      // The client stopped with the run: its loop has returned (no reconnect can follow), no timer is armed, nobody listens.
      await client.start();
      expect(client.active).toBe(false);
      expect(client.eventNames()).toEqual([]);
      // The provider still serves the stream (or would serve a reconnect): the listener hung up and stays away.
      await waitFor(async () => feed.feed.stats.open === 0, { what: 'the feed connection to close' });
      expect(feed.feed.stats.connections).toBe(1);
      // Nothing of the listener in the log after it completed, whatever the provider does then.
      const after = warn.mock.calls.length;
      if (!ends) {
        feed.feed.publish(ev(5, 'shot'));
        feed.feed.end();
      }
      feed.feed.dropConnections();
      expect(warn.mock.calls.slice(after).filter(([details]) => (details as { listener?: string })?.listener === done.id)).toEqual([]);
    } finally {
      start.mockRestore();
      warn.mockRestore();
      await feed.close();
    }
  });
});

describe('listener_running', () => {
  it('closes when heartbeats stop even while events keep coming (stale means no heartbeat), and opens again with the next heartbeat', async () => {
    const def = await define(h);
    // Three seconds without a heartbeat: sixty of the feed's intervals, so the feed is fresh until the heartbeats pause
    // however long this process stalls between two of them on a busy machine.
    const feed = await startLive(h, { worker: { staleAfterMs: 3000 }, feed: { heartbeatMs: 50 } });
    try {
      await feed.push(ev(1, 'shot'));
      feed.feed.pauseHeartbeats();
      // Events every 50 ms until the listener said the feed went stale (each well within the window: only heartbeats
      // keep a feed fresh), then one more, which must be denied.
      let stale = false;
      const staleLogged = feed.logged(/^feed stale: /).then(() => (stale = true));
      let seq = 2;
      while (!stale) {
        await feed.push(ev(seq++, 'shot'));
        await Promise.race([staleLogged, new Promise((r) => setTimeout(r, 50))]);
      }
      await feed.push(ev(seq++, 'shot'));
      const last = seq - 1;
      feed.feed.resumeHeartbeats();
      await feed.logged(/^feed fresh again$/);
      await feed.push(ev(seq, 'shot'));
      const out = await feed.finish();
      const denied = out.denials.map((d) => d.triggerEventId);
      // At least the event sent once the listener said the feed was stale was denied...
      expect(denied).toContain(`e${last}`);
      for (const d of out.denials)
        expect(d).toMatchObject({ definitionId: def.id, failedStep: 'listener_running', detail: 'the feed is stale: no heartbeat for more than 3 s' });
      // ...and the first, before the pause, and the one after the heartbeats came back were issued.
      const issued = out.issuances.map((i) => i.triggerEventId);
      expect(issued[0]).toBe('e1');
      expect(issued.at(-1)).toBe(`e${seq}`);
      expect(out.log).toContainEqual(expect.stringMatching(/^warn feed stale: no heartbeat for [\d.]+ s; not issuing until one arrives$/));
    } finally {
      await feed.close();
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
    const feed = await startLive(h, { match: { stateStore: { pre_game_questions: 2 } } });
    try {
      await feed.push(ev(1, 'shot'));
      const out = await feed.produced();
      expect(out.issuances.map((i) => i.questionText)).toEqual(['After 2 pre-game questions and 1 shot(s): who is booked next?']);
    } finally {
      await feed.close();
    }
    const [listener] = await h.app.services.database.db.select().from(matchListeners).where(eq(matchListeners.matchId, feed.match.id));
    expect(listener!.stateStore).toEqual({ pre_game_questions: 2, shots: 1 });
    // The match's own store is what Match questions wrote; the listener keeps its store apart.
    const [match] = await h.app.services.database.db.select({ stateStore: matches.stateStore }).from(matches).where(eq(matches.id, feed.match.id));
    expect(match!.stateStore).toEqual({ pre_game_questions: 2 });
  });
});

describe('a listener that lost its lease', () => {
  it('issues nothing once another process holds the listener, and stops writing', async () => {
    await define(h, { probability: 1 });
    // No heartbeat during the test: only the commit's own lease fence can notice the takeover.
    const feed = await startLive(h, { worker: { heartbeatMs: 600_000 } });
    const warn = vi.spyOn(h.app.services.logger, 'warn');
    const db = h.app.services.database.db;
    try {
      // Another process took the listener over (its lease ran out while this one could not reach the database).
      await db
        .update(matchListeners)
        .set({ claimedBy: 'another-process', leaseExpiresAt: new Date(Date.now() + 60_000) })
        .where(eq(matchListeners.id, feed.listener.id));
      feed.feed.publish(ev(1, 'shot'));
      await waitFor(async () => warn.mock.calls.some((c) => String(c[1]).includes('lease lost')), {
        what: 'the lease loss to be noticed',
        timeoutMs: 10_000,
        intervalMs: 20,
      });
      const out = await feed.produced();
      expect(out.issuances).toEqual([]);
      expect(await db.select().from(listenerEvents).where(eq(listenerEvents.listenerId, feed.listener.id))).toEqual([]);
      // The new owner's row is left alone.
      expect(out.listener).toMatchObject({ claimedBy: 'another-process', status: 'running', eventsConsumed: 0, issuedCount: 0 });
    } finally {
      warn.mockRestore();
      await feed.close();
    }
  });

  it.each([
    ['its next commit', { heartbeatMs: 600_000 }],
    ['its next heartbeat', { heartbeatMs: 50 }],
  ])('whose row was removed (a restarted replay) says so at %s, not that another process took it over', async (_when, worker) => {
    await define(h, { probability: 1 });
    const feed = await startLive(h, { worker });
    const warn = vi.spyOn(h.app.services.logger, 'warn');
    const info = vi.spyOn(h.app.services.logger, 'info');
    const db = h.app.services.database.db;
    try {
      // What a restart of the replay does to the listener of the match (match control, in one transaction).
      await db.transaction((tx) => deleteListenersOfMatch({ tx, matchId: feed.match.id }));
      feed.feed.publish(ev(1, 'shot'));
      await waitFor(async () => info.mock.calls.some((c) => c[1] === LISTENER_REMOVED), {
        what: 'the removal to be noticed',
        timeoutMs: 10_000,
        intervalMs: 20,
      });
      expect(warn.mock.calls.filter((c) => String(c[1]).includes('lease lost'))).toEqual([]);
      expect(await db.select().from(questionIssuances).where(eq(questionIssuances.matchId, feed.match.id))).toEqual([]);
    } finally {
      warn.mockRestore();
      info.mockRestore();
      await feed.close();
    }
  });

  it('cannot write through the store either: the fence is in the batch transaction, and fails it whole', async () => {
    const def = await define(h);
    const feed = await startLive(h);
    const db = h.app.services.database.db;
    try {
      const store = h.app.services.engine.store;
      const values = {
        matchId: feed.match.id,
        kind: 'in_game' as const,
        definitionId: def.id,
        definitionName: def.name,
        questionText: 'x',
        choices: [{ identifier: 'home', label: 'Home' }],
        resolution: { rules: [] },
        triggerEventId: 'e-lease',
        closesAt: new Date(Date.now() + 60_000),
        points: 10,
      };
      await expect(
        store.transaction(async (tx) => {
          await store.insertIssuance({ values, earlierPeriods: [] }, tx);
          await store.holdLease({ listenerId: feed.listener.id, workerId: 'not-the-owner' }, tx);
        }),
      ).rejects.toBeInstanceOf(LeaseLostError);
      expect(await db.select().from(questionIssuances).where(eq(questionIssuances.matchId, feed.match.id))).toEqual([]);
    } finally {
      await feed.close();
    }
  });
});

describe('the catalogue', () => {
  it('is reread while the listener runs: an issued question keeps its snapshot, later ones take the change', async () => {
    const body = definitionBody({
      name: unique('Editable'),
      question_text_template: 'Version one: who is booked next?',
      choices: [
        { identifier: 'home', label_template: 'Home v1' },
        { identifier: 'away', label_template: 'Away v1' },
      ],
      points: 20,
    });
    const def = await define(h, body);
    const feed = await startLive(h, { match: { answerWindowSeconds: 30 }, worker: { catalogRefreshMs: 100 } });
    try {
      await feed.push(ev(1, 'shot'));
      const res = await h.app.request('PUT', `/api/question-definitions/${def.id}`, {
        token: h.admin.token,
        body: {
          ...body,
          question_text_template: 'Version two: who is booked next?',
          choices: [
            { identifier: 'home', label_template: 'Home v2' },
            { identifier: 'away', label_template: 'Away v2' },
          ],
          points: 40,
        },
      });
      expect(res.status).toBe(200);
      // The listener rereads its catalog every 100 ms here: wait for a read that began after the change.
      const store = h.app.services.engine.store;
      const original = store.matchCatalog;
      let reads = 0;
      store.matchCatalog = async (...args) => {
        const ctx = await original.apply(store, args);
        reads += 1;
        return ctx;
      };
      try {
        await waitFor(async () => reads >= 1, { what: 'the listener to reread its catalog', timeoutMs: 10_000, intervalMs: 20 });
      } finally {
        store.matchCatalog = original;
      }
      await feed.push(ev(2, 'shot'));
      const out = await feed.finish();
      expect(
        out.issuances.map((i) => ({ text: i.questionText, labels: i.choices.map((c) => c.label), points: i.points, window: i.answerWindowSeconds })),
      ).toEqual([
        { text: 'Version one: who is booked next?', labels: ['Home v1', 'Away v1'], points: 20, window: 30 },
        { text: 'Version two: who is booked next?', labels: ['Home v2', 'Away v2'], points: 40, window: 30 },
      ]);
    } finally {
      await feed.close();
    }
  });
});

describe('sponsorship slots', () => {
  it('stamps a question number slot, else a definition slot, else a period slot, else an earlier best-effort period slot, else next_available; pivotal moments take only definition slots', async () => {
    const db = h.app.services.database.db;
    const targeted = await define(h);
    const untargeted = await define(h, { trigger: { event_type: 'corner' } });
    const pivotal = await define(h, {
      is_pivotal_moment: true,
      trigger: { event_type: 'card' },
      resolution: { rules: [{ event_type: 'period_end', correct_choice: '"home"' }] },
    });
    const brand = async (name: string) =>
      (
        await db
          .insert(brands)
          .values({ name: unique(name), primaryColor: '#112233' })
          .returning()
      )[0]!;
    const matchSponsor = await brand('Match sponsor');
    const slotBrands: Record<string, string> = {};
    const place = async (matchId: string, key: string, slot: Record<string, unknown>) => {
      const b = await brand(key);
      slotBrands[b.id] = key;
      const res = await h.app.request('POST', `/api/brands/${b.id}/question-sponsorships`, {
        token: h.admin.token,
        body: { match_ids: [matchId], slots: [slot] },
      });
      expect(res.status, res.text).toBe(200);
    };
    const p2 = { period: '2' };
    const [out] = await runFeeds(h, [
      {
        events: [
          ev(1, 'corner'),
          ev(2, 'shot'),
          ev(3, 'shot'),
          ev(4, 'card'),
          ev(5, 'card'),
          ev(6, 'corner', p2),
          ev(7, 'corner', p2),
          ev(8, 'corner', p2),
          ev(9, 'corner', p2),
        ],
        match: { sponsorBrandId: matchSponsor.id },
        // Created one after the other: among slots of equal rank the oldest goes first.
        prepare: async (m) => {
          await place(m.id, 'period 1 lapsing', { strategy: 'period', target: '1', best_effort: false });
          await place(m.id, 'period 1 lapsing, unused', { strategy: 'period', target: '1', best_effort: false });
          await place(m.id, 'period 1 best effort', { strategy: 'period', target: '1', best_effort: true });
          await place(m.id, 'period 2', { strategy: 'period', target: '2' });
          await place(m.id, 'next available', { strategy: 'next_available' });
          await place(m.id, 'definition', { strategy: 'definition', target: targeted.id });
          await place(m.id, 'pivotal definition', { strategy: 'definition', target: pivotal.id });
          await place(m.id, 'number 2', { strategy: 'question_number', target: 2 });
        },
      },
    ]);
    const stamped = out!.issuances.map((i) => [i.triggerEventId, i.definitionId, i.questionNumber, i.sponsorBrandId ? slotBrands[i.sponsorBrandId] : null]);
    expect(stamped).toEqual([
      ['e1', untargeted.id, 1, 'period 1 lapsing'], // period before next_available
      ['e2', targeted.id, 2, 'number 2'], // number before definition and period
      ['e3', targeted.id, 3, 'definition'], // definition before period
      ['e4', pivotal.id, null, 'pivotal definition'],
      ['e5', pivotal.id, null, null], // period and next_available slots are free, but not for a pivotal moment
      ['e6', untargeted.id, 4, 'period 2'], // this period before an earlier one
      ['e7', untargeted.id, 5, 'period 1 best effort'], // an earlier best-effort period slot before next_available
      ['e8', untargeted.id, 6, 'next available'],
      ['e9', untargeted.id, 7, null], // the lapsed period-1 slot without best effort is never used
    ]);
    for (const i of out!.issuances) {
      expect(i.matchSponsorBrand).toEqual({ id: matchSponsor.id, name: matchSponsor.name, primary_color: '#112233', secondary_color: null, logo_url: null });
      if (i.sponsorBrandId) expect(i.sponsorBrand).toMatchObject({ id: i.sponsorBrandId, name: expect.stringContaining(slotBrands[i.sponsorBrandId]!) });
      else expect(i.sponsorBrand).toBeNull();
    }
    const slots = await db.select().from(questionSponsorships).where(eq(questionSponsorships.matchId, out!.match.id));
    const byIssuance = new Map(out!.issuances.map((i) => [i.id, i]));
    for (const s of slots) {
      if (slotBrands[s.brandId] === 'period 1 lapsing, unused') {
        expect(s.questionIssuanceId).toBeNull();
        continue;
      }
      expect(s.stampedAt).not.toBeNull();
      expect(byIssuance.get(s.questionIssuanceId!)!.sponsorBrandId).toBe(s.brandId);
    }
  });
});

describe('a second listener of the match', () => {
  it('reading the same feed again issues and denies nothing twice', async () => {
    const db = h.app.services.database.db;
    const store = h.app.services.engine.store;
    const def = await define(h, { resolution: { rules: [{ event_type: 'card', correct_choice: 'event.team' }] } });
    const events = [...shots(4, 1), ev(5, 'card', { team: 'away' }), ev(6, 'shot')];
    // The feed ends without closing the match: each listener is stopped once it has consumed it all.
    const feed = await startPushFeedServer({ events, speed: Infinity, heartbeatMs: 100 });
    const runUntilConsumed = async (listenerId: () => Promise<string | undefined>) => {
      const id = await waitFor(listenerId, { what: 'the listener' });
      await waitFor(async () => (await db.select().from(matchListeners).where(eq(matchListeners.id, id)))[0]?.eventsConsumed === events.length, {
        what: 'the whole feed consumed',
      });
      return id;
    };
    try {
      const match = await createMatch(h.app, { scheduled: new Date(), feedUrl: feed.url, ...OPEN_MATCH, questionMaxCount: 3 });
      const worker = startWorker(h.app);
      try {
        const firstId = await runUntilConsumed(async () => (await db.select().from(matchListeners).where(eq(matchListeners.matchId, match.id)))[0]?.id);
        await store.requestStop(match.id);
        await waitFor(async () => (await db.select().from(matchListeners).where(eq(matchListeners.id, firstId)))[0]?.status === 'stopped', {
          what: 'the first listener to stop',
        });
        const before = await produced(h, match.id, firstId);
        expect(before.issuances.map((i) => [i.triggerEventId, i.questionNumber, i.status, i.correctAnswerIdentifier])).toEqual([
          ['e1', 1, 'resolved', 'away'],
          ['e2', 2, 'resolved', 'away'],
          ['e3', 3, 'resolved', 'away'],
        ]);
        expect(before.denials.map((d) => [d.triggerEventId, d.failedStep])).toEqual([
          ['e4', 'match_cap'],
          ['e6', 'match_cap'],
        ]);
        expect(before.listener).toMatchObject({ issuedCount: 3, deniedCount: 2, resolvedCount: 3 });

        // Another listener of the same match reads the whole feed again from its start.
        const { listener: second, created } = await store.enqueue({ matchId: match.id, source: 'feed', feedUrl: feed.url });
        expect(created).toBe(true);
        await runUntilConsumed(async () => second.id);
        await store.requestStop(match.id);
        await waitFor(async () => (await db.select().from(matchListeners).where(eq(matchListeners.id, second.id)))[0]?.status === 'stopped', {
          what: 'the second listener to stop',
        });
        const after = await produced(h, match.id, second.id);
        expect(after.listener).toMatchObject({ eventsConsumed: events.length, issuedCount: 0, deniedCount: 0, resolvedCount: 0 });
        expect(after.issuances).toEqual(before.issuances);
        expect(after.denials).toEqual(before.denials);
        expect(after.log.some((l) => l.includes(`issued '${def.name}'`) || l.includes(`denied '${def.name}'`))).toBe(false);
      } finally {
        await worker.stop();
      }
    } finally {
      await feed.close();
    }
  });
});

/**
 * A process that stalled past its lease and claimed its own listener back:
 * the lease fence tells the new claim from the earlier one (a fencing token
 * per claim, not per process), so the earlier run, still holding its feed
 * connection and its in-memory state, writes nothing more, and the match
 * ends exactly as one uninterrupted run ends it. Found by the kill test on a
 * loaded machine (a stalled process re-claimed, its stale run overwrote the
 * counters and lost a state-store update).
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startPushFeedServer } from '../../src/engine/feed/push-server.js';
import { questionIssuances } from '../../src/modules/issuances/issuances.table.js';
import { listenerEvents, listenerLogLines, matchListeners } from '../../src/modules/listeners/listeners.table.js';
import { startWorker, waitFor } from '../helpers/engine.js';
import { createMatch } from '../helpers/factories.js';
import { cleanup, closing, define, ev, listenerDone, OPEN_MATCH, produced, startHarness, type Harness } from './engine-scenario.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterEach(() => cleanup(h));
afterAll(() => h?.app.close());

describe('a claim', () => {
  it('is on record at once, before any event: a process killed before its first batch does not take the record with it', async () => {
    // A feed that sends nothing, and no heartbeat in the test's time: nothing else would write a batch.
    const feed = await startPushFeedServer({ events: [], speed: Infinity, heartbeatMs: 50, holdOpen: true });
    const worker = startWorker(h.app, { leaseMs: 120_000, heartbeatMs: 60_000 });
    const db = h.app.services.database.db;
    try {
      const match = await createMatch(h.app, { scheduled: new Date(), feedUrl: feed.url, ...OPEN_MATCH });
      const listener = await waitFor(async () => (await db.select().from(matchListeners).where(eq(matchListeners.matchId, match.id)))[0], {
        what: 'the listener',
      });
      const lines = await waitFor(
        async () => {
          const rows = await db.select().from(listenerLogLines).where(eq(listenerLogLines.listenerId, listener.id));
          return rows.length ? rows : undefined;
        },
        { what: 'the claim on record', timeoutMs: 10_000 },
      );
      expect(lines).toHaveLength(1);
      expect(lines[0]!.message).toMatch(/^claimed by \S+#\d+$/);
      expect(lines[0]!.message.startsWith(`claimed by ${worker.workerId}#`)).toBe(true);
    } finally {
      await worker.stop();
      await feed.close();
    }
  });
});

describe('a listener claimed back by the process that lost its lease', () => {
  it('is run by the new claim only: the earlier run is fenced out and the outcome is exact', async () => {
    await define(h, {
      trigger: { event_type: 'corner' },
      question_text_template: 'Corner. Who shoots next?',
      resolution: { rules: [{ event_type: 'shot', correct_choice: 'event.team' }] },
    });
    const first = [ev(1, 'match_status', { data: { status: 'live' } }), ev(2, 'corner'), ev(3, 'shot', { team: 'away' })];
    const rest = [ev(4, 'corner'), ev(5, 'shot', { team: 'home' }), closing(6)];
    const feed = await startPushFeedServer({ events: first, speed: Infinity, heartbeatMs: 50, holdOpen: true });
    // Long lease and heartbeat: the lease runs out only when the test says so, as if the process had stalled,
    // and the earlier run does not renew (and so learn of its loss) before its next batch.
    const worker = startWorker(h.app, { leaseMs: 60_000, heartbeatMs: 60_000 });
    const db = h.app.services.database.db;
    try {
      const match = await createMatch(h.app, { scheduled: new Date(), feedUrl: feed.url, ...OPEN_MATCH });
      const row = async () => (await db.select().from(matchListeners).where(eq(matchListeners.matchId, match.id)))[0];
      // The first part consumed and committed (the run then idles: nothing more to write until the feed goes on).
      await waitFor(async () => (await row())?.eventsConsumed === first.length, { what: 'the first part' });
      await waitFor(async () => (await db.select().from(questionIssuances).where(eq(questionIssuances.matchId, match.id))).length === 1, {
        what: 'the first question',
      });
      const firstClaim = (await row())!.claimedBy!;
      expect(firstClaim.startsWith(`${worker.workerId}#`)).toBe(true);

      // The stall: the lease runs out while the run goes on; the same process's next round claims the listener again.
      await db
        .update(matchListeners)
        .set({ leaseExpiresAt: sql`now() - interval '1 second'` })
        .where(eq(matchListeners.matchId, match.id));
      // Claimed again: a new lease (and, with a token per claim, a new holder).
      const reclaimed = await waitFor(
        async () => {
          const l = await row();
          return l && l.leaseExpiresAt! > new Date(Date.now() + 30_000) ? l : undefined;
        },
        { what: 'the listener to be claimed again' },
      );
      const secondClaim = reclaimed.claimedBy!;
      expect(secondClaim).not.toBe(firstClaim);
      expect(secondClaim.startsWith(`${worker.workerId}#`)).toBe(true);
      // The fence: the earlier claim's token no longer holds the lease (with one token per process, it still did).
      expect((await h.app.services.engine.store.renew({ id: reclaimed.id, workerId: firstClaim, leaseMs: 60_000 })).owned).toBe(false);

      // The rest of the match reaches both runs (the earlier one still holds its connection): only the new claim may write.
      for (const e of rest) feed.publish(e);
      const l = await listenerDone(h, match.id, 'the listener to complete');
      const out = await produced(h, match.id, l.id);
      expect(out.listener).toMatchObject({
        status: 'completed',
        claimedBy: secondClaim,
        error: null,
        eventsConsumed: 6,
        lastSeq: 6,
        issuedCount: 2,
        resolvedCount: 2,
      });
      expect(out.issuances.map((i) => [i.triggerEventId, i.status, i.correctAnswerIdentifier])).toEqual([
        ['e2', 'resolved', 'away'],
        ['e4', 'resolved', 'home'],
      ]);
      expect(out.log).toContainEqual(expect.stringMatching(/^info claimed by .*#\d+ \(taking over after \d+ events, seq \d+\)$/));
      const recorded = await db.select({ seq: listenerEvents.seq }).from(listenerEvents).where(eq(listenerEvents.listenerId, l.id));
      expect(recorded.map((r) => r.seq).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(out.match).toMatchObject({ status: 'closed' });
    } finally {
      await worker.stop();
      await feed.close();
    }
  });
});

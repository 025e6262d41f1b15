/**
 * Feeds that misbehave, through the whole engine (a push feed on loopback, a
 * worker, the database): a message numbered 2,000,000,000 does not end the
 * match; a provider that restarts its numbering after a reconnect loses
 * nothing; two messages sharing a seq are both recorded, and a download, a
 * clone's replay and a listener resuming after a restart all see both.
 */
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FeedEvent } from '../../src/domain/sports/events.js';
import { startPushFeedServer } from '../../src/engine/feed/push-server.js';
import { listenerEvents, matchListeners } from '../../src/modules/listeners/listeners.table.js';
import { startWorker, waitFor } from '../helpers/engine.js';
import { insertListener, insertListenerEvents } from '../helpers/engine-rows.js';
import { createMatch } from '../helpers/factories.js';
import { cleanup, closing, define, ev, listenerDone, OPEN_MATCH, produced, startHarness, type Harness } from './engine-scenario.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterEach(() => cleanup(h));
afterAll(() => h?.app.close());

/** "Who shoots next?" after each corner, resolved by the next shot. */
const cornerQuestion = () =>
  define(h, {
    trigger: { event_type: 'corner' },
    question_text_template: 'Corner. Who shoots next?',
    resolution: { rules: [{ event_type: 'shot', correct_choice: 'event.team' }] },
  });

const live = ev(1, 'match_status', { data: { status: 'live' } });

/** Issuances in the order they were asked (produced() sorts by seq, which misbehaving feeds scramble). */
const asked = <T extends { questionNumber: number | null }>(rows: T[]) => [...rows].sort((a, b) => a.questionNumber! - b.questionNumber!);

async function recorded(listenerId: string): Promise<FeedEvent[]> {
  const rows = await h.app.services.database.db.select().from(listenerEvents).where(eq(listenerEvents.listenerId, listenerId)).orderBy(listenerEvents.id);
  return rows.map((r) => r.event as unknown as FeedEvent);
}

describe('a message numbered 2,000,000,000', () => {
  it('does not end the match: the reconnect resumes from the last contiguous seq and the match closes with its result', async () => {
    await cornerQuestion();
    const events = [
      live,
      ev(2, 'corner'),
      ev(3, 'shot', { team: 'away' }),
      ev(4, 'corner', { seq: 2_000_000_000 }),
      ev(5, 'shot', { seq: 4, team: 'home', score: { home: 1, away: 0 } }),
      ev(6, 'corner', { seq: 5, score: { home: 1, away: 0 } }),
      ev(7, 'shot', { seq: 6, team: 'away', score: { home: 1, away: 0 } }),
      closing(7, { score: { home: 1, away: 0 } }),
    ];
    // The connection drops right after the absurd message: the reconnect decides whether the rest arrives.
    const feed = await startPushFeedServer({ events, speed: Infinity, heartbeatMs: 50, faults: { dropAfter: 4 } });
    const worker = startWorker(h.app);
    try {
      const match = await createMatch(h.app, { scheduled: new Date(), feedUrl: feed.url, ...OPEN_MATCH });
      const l = await listenerDone(h, match.id, 'the listener to complete');
      const out = await produced(h, match.id, l.id);
      expect(out.listener).toMatchObject({ status: 'completed', eventsConsumed: events.length, lastSeq: 7 });
      expect(out.match).toMatchObject({ status: 'closed', homeScore: 1, awayScore: 0, result: expect.objectContaining({ winner: 'home' }) });
      expect(asked(out.issuances).map((i) => [i.triggerEventId, i.triggerSeq, i.status, i.correctAnswerIdentifier])).toEqual([
        ['e2', 2, 'resolved', 'away'],
        ['e4', 2_000_000_000, 'resolved', 'home'],
        ['e6', 5, 'resolved', 'away'],
      ]);
      expect(out.log).toContain('warn seq jump: e4 has seq 2000000000 after 3; processed, but the resume point stays at 3 until the gap fills');
      expect(out.log).toContain('info reading feed ' + feed.url);
      // The first reconnect resumed after seq 3, never after the absurd number. (A loaded machine may miss a 50 ms heartbeat
      // and reconnect once more: such a reconnect resumes from a later contiguous seq, never from 2,000,000,000 either.)
      expect(feed.stats.afterSeqs.slice(0, 2)).toEqual([0, 3]);
      expect(feed.stats.afterSeqs).not.toContain(2_000_000_000);
    } finally {
      await worker.stop();
      await feed.close();
    }
  });
});

describe('a provider that restarts its numbering', () => {
  it('loses nothing after a reconnect: the new messages numbered from 1 are consumed and recorded', async () => {
    await cornerQuestion();
    const before = [live, ev(2, 'corner'), ev(3, 'shot', { team: 'away' }), ev(4, 'corner')];
    // A provider that cannot resume: every connection gets its whole timeline.
    const feed = await startPushFeedServer({ events: before, speed: Infinity, heartbeatMs: 50, holdOpen: true, faults: { ignoreAfterSeq: true } });
    const worker = startWorker(h.app);
    try {
      const match = await createMatch(h.app, { scheduled: new Date(), feedUrl: feed.url, ...OPEN_MATCH });
      const db = h.app.services.database.db;
      const listener = await waitFor(async () => (await db.select().from(matchListeners).where(eq(matchListeners.matchId, match.id)))[0], {
        what: 'the listener',
      });
      await waitFor(async () => (await db.select().from(matchListeners).where(eq(matchListeners.id, listener.id)))[0]!.eventsConsumed === before.length, {
        what: 'the first part',
      });
      // The provider restarts: the connection drops and the rest of the match comes numbered from 1.
      feed.dropConnections();
      const after = Array.from({ length: 20 }, (_, i) => ev(10 + i, i % 2 ? 'shot' : 'corner', { seq: i + 1, team: i % 4 === 1 ? 'home' : 'away' }));
      for (const e of after) feed.publish(e);
      feed.publish(closing(21, { at: 400 }));
      const l = await listenerDone(h, match.id, 'the listener to complete');
      const out = await produced(h, match.id, l.id);
      expect(out.listener).toMatchObject({ status: 'completed', eventsConsumed: before.length + after.length + 1 });
      expect((await recorded(l.id)).map((e) => e.provider_event_id)).toEqual([...before, ...after].map((e) => e.provider_event_id).concat('close'));
      // Every corner asked, every one resolved by the next shot.
      expect(out.issuances).toHaveLength(12);
      expect(
        asked(out.issuances)
          .slice(2)
          .map((i) => [i.triggerEventId, i.status, i.resolutionEventId]),
      ).toEqual(
        after.filter((e) => e.type === 'corner').map((e, i) => [e.provider_event_id, 'resolved', after.filter((x) => x.type === 'shot')[i]!.provider_event_id]),
      );
      expect(out.log).toContain('warn the feed restarted its numbering: e10 has seq 1 after 4; resuming from there');
      expect(out.match.status).toBe('closed');
    } finally {
      await worker.stop();
      await feed.close();
    }
  });
});

describe('two messages sharing a seq', () => {
  it('are both recorded, downloaded, replayed by a clone, and seen by a listener resuming after a restart', async () => {
    await cornerQuestion();
    const db = h.app.services.database.db;
    const first = [
      live,
      ev(2, 'corner'),
      ev(3, 'shot', { team: 'away' }),
      ev(4, 'corner', { provider_event_id: 'a' }),
      ev(5, 'corner', { seq: 4, provider_event_id: 'b' }),
    ];
    const feed = await startPushFeedServer({ events: first, speed: Infinity, heartbeatMs: 50, holdOpen: true });
    let worker = startWorker(h.app);
    try {
      const match = await createMatch(h.app, { scheduled: new Date(), feedUrl: feed.url, ...OPEN_MATCH });
      const listener = await waitFor(async () => (await db.select().from(matchListeners).where(eq(matchListeners.matchId, match.id)))[0], {
        what: 'the listener',
      });
      await waitFor(async () => (await db.select().from(matchListeners).where(eq(matchListeners.id, listener.id)))[0]!.eventsConsumed === first.length, {
        what: 'the first part',
      });
      // The process stops (the listener goes back to the queue) and another worker resumes it from its rows.
      await worker.stop();
      worker = startWorker(h.app);
      feed.publish(ev(6, 'shot', { seq: 5, team: 'home' }));
      feed.publish(closing(6));
      const l = await listenerDone(h, match.id, 'the listener to complete');
      const out = await produced(h, match.id, l.id);
      expect(out.log).toContainEqual(expect.stringMatching(/taking over after 5 events, seq 4/));
      expect(out.listener).toMatchObject({ status: 'completed', eventsConsumed: 7 });
      expect(out.issuances.map((i) => [i.triggerEventId, i.triggerSeq, i.status, i.correctAnswerIdentifier])).toEqual([
        ['e2', 2, 'resolved', 'away'],
        ['a', 4, 'resolved', 'home'],
        ['b', 4, 'resolved', 'home'],
      ]);
      const recording = await recorded(l.id);
      expect(recording.filter((e) => e.seq === 4).map((e) => e.provider_event_id)).toEqual(['a', 'b']);

      const download = await h.app.request('GET', `/api/match-listeners/${l.id}/events/download`, { token: h.admin.token });
      expect(download.status).toBe(200);
      expect((download.body as { events: FeedEvent[] }).events.map((e) => `${e.provider_event_id}@${e.seq}`)).toEqual([
        'e1@1',
        'e2@2',
        'e3@3',
        'a@4',
        'b@4',
        'e6@5',
        'close@6',
      ]);

      // A clone of the closed match replays the recording: both corners ask their question again.
      const cloneId = await h.app.services.matchControl.clone({ matchId: match.id, actorId: h.admin.id, speed: 1000 });
      const replayed = await listenerDone(h, cloneId, 'the replay to complete');
      const copy = await produced(h, cloneId, replayed.id);
      expect(copy.issuances.map((i) => [i.triggerEventId, i.triggerSeq, i.correctAnswerIdentifier])).toEqual(
        out.issuances.map((i) => [i.triggerEventId, i.triggerSeq, i.correctAnswerIdentifier]),
      );
      expect(copy.listener).toMatchObject({ eventsConsumed: 7, eventsTotal: 7 });
    } finally {
      await worker.stop();
      await feed.close();
    }
  });
});

describe('a replay taken over mid-way', () => {
  it('resumes after what it consumed (by position in the recording, whatever its seqs) and decides each event once', async () => {
    await cornerQuestion();
    const db = h.app.services.database.db;
    // A closed match whose recording misnumbers: a repeated seq and a restart.
    const original = await createMatch(h.app, { scheduled: new Date(Date.now() - 7_200_000), status: 'closed', ...OPEN_MATCH });
    const recordedBy = await insertListener(h.app, { matchId: original.id });
    const recording = [
      live,
      ev(2, 'corner'),
      ev(3, 'shot', { team: 'away' }),
      ev(4, 'corner', { seq: 3 }),
      ev(5, 'shot', { seq: 1, team: 'home' }),
      ev(6, 'corner', { seq: 2 }),
      ev(7, 'shot', { seq: 3, team: 'away' }),
      ev(8, 'corner', { seq: 4 }),
      ev(9, 'shot', { seq: 5, team: 'home' }),
      closing(6),
    ];
    await insertListenerEvents(h.app, recordedBy, recording);
    let worker = startWorker(h.app);
    try {
      const cloneId = await h.app.services.matchControl.clone({ matchId: original.id, actorId: h.admin.id, speed: 40 });
      const row = async () => (await db.select().from(matchListeners).where(eq(matchListeners.matchId, cloneId)))[0];
      await waitFor(async () => ((await row())?.eventsConsumed ?? 0) >= 3, { what: 'a few events replayed' });
      // The process stops; another resumes the replay from the listener's rows.
      await worker.stop();
      const consumed = (await row())!.eventsConsumed;
      expect(consumed).toBeLessThan(recording.length);
      worker = startWorker(h.app);
      const l = await listenerDone(h, cloneId, 'the replay to complete');
      const out = await produced(h, cloneId, l.id);
      expect(out.listener).toMatchObject({ status: 'completed', eventsConsumed: recording.length, issuedCount: 4, resolvedCount: 4 });
      expect(out.log).toContainEqual(expect.stringMatching(new RegExp(`resuming after ${consumed} consumed`)));
      expect(asked(out.issuances).map((i) => [i.triggerEventId, i.correctAnswerIdentifier, i.resolutionEventId])).toEqual([
        ['e2', 'away', 'e3'],
        ['e4', 'home', 'e5'],
        ['e6', 'away', 'e7'],
        ['e8', 'home', 'e9'],
      ]);
      expect((await recorded(l.id)).map((e) => e.provider_event_id)).toEqual(recording.map((e) => e.provider_event_id));
    } finally {
      await worker.stop();
    }
  });
});

/**
 * A listener survives the death of its process, on real data: a worker in a
 * separate process (`npm run worker`) runs the listener of a recorded match
 * (Metrica sample game 1) and is killed (SIGKILL) mid-match; the worker of
 * this process takes the listener over when its lease runs out, rebuilds its
 * state from the last commit, resumes after the resume point, and the match
 * ends with exactly the questions the data gives: none duplicated, none
 * lost, the counters equal to the rows. (kill.test.ts kills many times and
 * compares row by row with an uninterrupted run.) Needs PostgreSQL.
 */
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedEvent } from '../../src/domain/sports/events.js';
import { startPushFeedServer, type PushFeedServer } from '../../src/engine/feed/push-server.js';
import type { EngineWorker } from '../../src/engine/worker.js';
import { questionIssuances } from '../../src/modules/issuances/issuances.table.js';
import { listenerEvents, listenerLogLines, matchListeners } from '../../src/modules/listeners/listeners.table.js';
import { matches } from '../../src/modules/matches/matches.table.js';
import { spawnWorkerProcess, startWorker, waitFor, type WorkerProcess } from '../helpers/engine.js';
import { testDatabaseUrl } from '../helpers/pg-url.js';
import type { TestApp } from '../helpers/test-app.js';
import { createProofMatch, expectedFromData, producedForMatch, startProofApp, type ProofDefinitions } from './proof-match.js';

const runnable = Boolean(testDatabaseUrl());

describe.skipIf(!runnable)('listener takeover after its process dies (PostgreSQL)', () => {
  let app: TestApp;
  let feed: PushFeedServer;
  let other: WorkerProcess | undefined;
  let worker: EngineWorker | undefined;
  let events: FeedEvent[];
  let defs: ProofDefinitions;
  let matchId: string;

  beforeAll(async () => {
    const proof = await startProofApp();
    ({ app, defs } = proof);
    events = proof.recorded.events;
    // About 10 s for the whole match: long enough to kill the first process in the middle of it.
    feed = await startPushFeedServer({ events, speed: 600, maxGapMs: 3000, heartbeatMs: 100 });
    matchId = (await createProofMatch(app, proof.recorded, feed.url)).id;
    other = spawnWorkerProcess(app, { leaseMs: 1500, staleAfterMs: 60_000 });
  });

  afterAll(async () => {
    other?.child.kill('SIGKILL');
    await worker?.stop();
    await feed?.close();
    await app?.close();
  });

  it('is taken over by another process with no duplicate and no lost issuance', async () => {
    const db = app.services.database.db;
    // The other process claims the listener and issues questions.
    const first = await waitFor(
      async () => {
        const [l] = await db.select().from(matchListeners).where(eq(matchListeners.matchId, matchId));
        const [row] = await db.select({ n: count() }).from(questionIssuances).where(eq(questionIssuances.matchId, matchId));
        const n = row?.n ?? 0;
        return l?.status === 'running' && l.lastSeq > 0 && n >= 2 ? l : undefined;
      },
      { what: `the worker process to run the listener\n${other!.output()}`, timeoutMs: 60_000 },
    );
    other!.child.kill('SIGKILL');
    await new Promise((resolve) => other!.child.once('exit', resolve));
    const [atKill] = await db.select().from(matchListeners).where(eq(matchListeners.id, first.id));
    expect(atKill!.status).toBe('running');
    expect(atKill!.lastSeq).toBeLessThan(events[events.length - 1]!.seq);

    // This process's worker takes it over once the dead process's lease has run out.
    worker = startWorker(app, { leaseMs: 1500, heartbeatMs: 200, autoDispatch: false });
    const done = await waitFor(
      async () => {
        const [l] = await db.select().from(matchListeners).where(eq(matchListeners.id, first.id));
        return l && l.status !== 'running' ? l : undefined;
      },
      { what: 'the taken-over listener to complete', timeoutMs: 90_000 },
    );
    expect(done).toMatchObject({ status: 'completed', claimedBy: expect.stringMatching(/#\d+$/), error: null });
    expect(done.claimedBy!.startsWith(`${worker.workerId}#`)).toBe(true);
    expect(done.claimedBy).not.toBe(first.claimedBy);
    const log = await db.select().from(listenerLogLines).where(eq(listenerLogLines.listenerId, first.id));
    expect(log.some((l) => /taking over after \d+ events, seq \d+/.test(l.message))).toBe(true);

    // Exactly what one uninterrupted run gives.
    const expected = expectedFromData(events);
    const produced = await producedForMatch(app, matchId, defs);
    expect(produced.nextGoal.map(({ trigger, answer }) => ({ trigger, answer }))).toEqual(expected.nextGoal);
    expect(produced.corners).toEqual(expected.corners);
    expect(produced.card).toEqual([{ answer: 'yes', decidedBy: expected.card.decidedBy, pivotal: true, number: null }]);
    expect(produced.denials.map((d) => d.trigger).sort()).toEqual([...expected.cornerDenials].sort());
    // The counters are the rows; the match closed with its real score.
    const [issued] = await db.select({ n: count() }).from(questionIssuances).where(eq(questionIssuances.matchId, matchId));
    expect(done).toMatchObject({ issuedCount: issued!.n, deniedCount: produced.denials.length, resolvedCount: issued!.n, eventsConsumed: events.length });
    const [match] = await db.select().from(matches).where(eq(matches.id, matchId));
    expect(match).toMatchObject({ status: 'closed', homeScore: 3, awayScore: 1, listenerEventsArchived: true });
    // Every feed message is recorded once.
    const recorded = await db.select({ seq: listenerEvents.seq }).from(listenerEvents).where(eq(listenerEvents.listenerId, first.id));
    expect(new Set(recorded.map((r) => r.seq)).size).toBe(events.length);
    expect(recorded).toHaveLength(events.length);
  }, 180_000);
});

/**
 * Proof on real data: a full recorded match (Metrica sample game 1) is
 * converted into feed events and served as a live NDJSON push feed on
 * loopback by the push-feed command (`npm run feed:serve`, run here as its own
 * process), and consumed by a listener running realistic definitions. Issued,
 * denied and resolved questions and their correct choices are checked against
 * what the data itself says.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FeedEvent } from '../../src/domain/sports/events.js';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { EngineWorker } from '../../src/engine/worker.js';
import { listenerEvents, matchListeners } from '../../src/modules/listeners/listeners.table.js';
import { matches } from '../../src/modules/matches/matches.table.js';
import { startWorker, waitFor } from '../helpers/engine.js';
import type { TestApp } from '../helpers/test-app.js';
import { describeWithFixtures, FIXTURES_DIR, readFixture } from './feed/helpers.js';
import { createProofMatch, expectedFromData, producedForMatch, restartsFromCsv, startProofApp, type ProofDefinitions } from './proof-match.js';

describeWithFixtures('the engine on a recorded match', () => {
  let app: TestApp;
  let feed: ChildProcess;
  let worker: EngineWorker;
  let events: FeedEvent[];
  let matchId: string;
  let defs: ProofDefinitions;
  const teams = { home: '', away: '' };

  beforeAll(async () => {
    const proof = await startProofApp();
    ({ app, defs } = proof);
    events = proof.recorded.events;
    Object.assign(teams, { home: proof.recorded.homeTeam, away: proof.recorded.awayTeam });
    // The push-feed command, as an operator runs it (same match key, so provider ids match `events`).
    const root = path.resolve(import.meta.dirname, '../..');
    feed = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'scripts/feed-serve.ts',
        '--metrica-csv',
        path.join(FIXTURES_DIR, 'feeds/metrica/sample-game-1-events.csv'),
        '--match-key',
        'g1',
        '--speed',
        '1000000',
        '--heartbeat-ms',
        '200',
      ],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    const feedUrl = await new Promise<string>((resolve, reject) => {
      const onData = (d: Buffer) => {
        output += d;
        const url = /serving (http:\/\/\S+)/.exec(output)?.[1];
        if (url) resolve(url);
      };
      feed.stdout!.on('data', onData);
      feed.stderr!.on('data', onData);
      feed.once('exit', (code) => reject(new Error(`feed:serve exited (${code}):\n${output}`)));
    });
    matchId = (await createProofMatch(app, proof.recorded, feedUrl)).id;
    worker = startWorker(app);
  }, 60_000);

  afterAll(async () => {
    await worker?.stop();
    feed?.kill();
    await app?.close();
  });

  it('consumes the whole match, records it, and closes it with the real score', async () => {
    const db = app.services.database.db;
    const listener = await waitFor(
      async () => {
        const [l] = await db.select().from(matchListeners).where(eq(matchListeners.matchId, matchId));
        return l && ['completed', 'failed'].includes(l.status) ? l : undefined;
      },
      { what: 'the listener to complete', timeoutMs: 90_000 },
    );
    expect(listener).toMatchObject({ status: 'completed', error: null, eventsConsumed: events.length });
    const [match] = await db.select().from(matches).where(eq(matches.id, matchId));
    expect(match).toMatchObject({ status: 'closed', homeScore: 3, awayScore: 1, listenerEventsArchived: true });
    expect(match!.result).toMatchObject({ home_score: 3, away_score: 1, winner: 'home' });
    expect((match!.result as { goals: unknown[] }).goals).toHaveLength(4);
    expect(await db.select().from(listenerEvents).where(eq(listenerEvents.listenerId, listener.id))).toHaveLength(events.length);
  }, 120_000);

  it('asks who scores next after every goal and resolves each from the next goal, or none at full time', async () => {
    const expected = expectedFromData(events);
    const produced = await producedForMatch(app, matchId, defs);
    expect(expected.nextGoal.map((q) => q.answer)).toEqual(['away', 'home', 'home', 'none']);
    expect(produced.nextGoal.map(({ trigger, answer }) => ({ trigger, answer }))).toEqual(expected.nextGoal);
    expect(produced.nextGoal.every((q) => q.status === 'resolved')).toBe(true);
    expect(produced.nextGoal[0]!.text).toBe(`${teams.home} 1-0 ${teams.away}. Who scores next?`);
  });

  it('issues a corner question only while its lane is free, and resolves it from a shot by that team within 5 minutes', async () => {
    const expected = expectedFromData(events);
    const produced = await producedForMatch(app, matchId, defs);
    expect(produced.corners).toEqual(expected.corners);
    const cornerDenials = produced.denials.filter((d) => d.definitionId === defs.cornerShot);
    expect(cornerDenials.map((d) => d.trigger).sort()).toEqual([...expected.cornerDenials].sort());
    expect(new Set(cornerDenials.map((d) => d.step))).toEqual(new Set(['group_lane']));
    expect(expected.corners.length + expected.cornerDenials.length).toBe(11);
    expect(produced.denials).toHaveLength(expected.cornerDenials.length);
  });

  it('answers the pivotal first-half card question yes, from the first-half booking', async () => {
    const expected = expectedFromData(events);
    const produced = await producedForMatch(app, matchId, defs);
    expect(produced.card).toEqual([{ answer: 'yes', decidedBy: expected.card.decidedBy, pivotal: true, number: null }]);
  });

  it('asks after each restart following a goal (a kick_off, an event type of the data) whether that team takes the next shot, as the raw rows say', async () => {
    const produced = await producedForMatch(app, matchId, defs);
    const fromRows = restartsFromCsv(readFixture('feeds/metrica/sample-game-1-events.csv'));
    expect(fromRows).toEqual(['no', 'yes', 'no', 'yes']);
    expect(expectedFromData(events).restarts.map((r) => r.answer)).toEqual(fromRows);
    expect(produced.kickOffs).toEqual(fromRows.map((answer) => ({ answer, status: 'resolved' })));
    expect(produced.denials.filter((d) => d.definitionId === defs.kickOffShot)).toEqual([]);
  });
});

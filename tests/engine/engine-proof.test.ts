/**
 * Proof on real data: a full recorded match (Metrica sample game 1) is
 * converted into feed events and served as a live NDJSON push feed on
 * loopback by the push-feed command (`npm run feed:serve`, run here as its own
 * process), and consumed by a listener running realistic definitions. Issued,
 * denied and resolved questions and their correct choices are checked against
 * what the data itself says, and so are the match's status and score at every
 * transition (as the match read shows them) and the count of every event type
 * the mapping gives (against the raw rows).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedEvent } from '../../src/domain/sports/events.js';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { EngineWorker } from '../../src/engine/worker.js';
import { listenerEvents, matchListeners } from '../../src/modules/listeners/listeners.table.js';
import { matches } from '../../src/modules/matches/matches.table.js';
import { startWorker, waitFor } from '../helpers/engine.js';
import type { TestApp } from '../helpers/test-app.js';
import { FIXTURES_DIR, readFixture } from './feed/helpers.js';
import { countsFromRows } from './feed/metrica-rows.js';
import { createProofMatch, expectedFromData, producedForMatch, restartsFromCsv, startProofApp, type ProofDefinitions } from './proof-match.js';

describe('the engine on a recorded match', () => {
  let app: TestApp;
  let feed: ChildProcess;
  let worker: EngineWorker;
  let events: FeedEvent[];
  let matchId: string;
  let defs: ProofDefinitions;
  const teams = { home: '', away: '' };
  /** The match read after each commit that changed its status, period or score. */
  const seen: { status: string; period: string | null; score: [number | null, number | null] }[] = [];

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
    // After every commit that changed the match, the match as players read it (the runner waits for its hooks).
    const hooks = app.services.engine.hooks;
    worker = startWorker(app, {}, app.services.engine.store, {
      ...hooks,
      async onMatchChanged(id, values) {
        await hooks.onMatchChanged?.(id, values);
        if (id !== matchId) return;
        const read = await app.request<{ status: string; period: string | null; home_score: number | null; away_score: number | null }>(
          'GET',
          `/api/matches/${id}`,
        );
        seen.push({ status: read.body.status, period: read.body.period, score: [read.body.home_score, read.body.away_score] });
      },
    });
  });

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
  });

  it('records every event type the mapping gives as many times as the raw rows say', async () => {
    const recorded = await app.services.database.db.select({ event: listenerEvents.event }).from(listenerEvents).where(eq(listenerEvents.matchId, matchId));
    const byType: Record<string, number> = {};
    for (const { event } of recorded) byType[event.type] = (byType[event.type] ?? 0) + 1;
    expect(byType).toEqual(countsFromRows(readFixture('feeds/metrica/sample-game-1-events.csv')));
  });

  it('shows the match live through each half, at a break between them, with its score, at every transition', async () => {
    // From the data: a period starting is play, a period ending a break; the score is the running score.
    const expected: typeof seen = [];
    let status = 'scheduled';
    let period: string | null = null;
    for (const e of events) {
      if (e.type === 'match_status') status = String(e.data.status);
      else if (e.type === 'period_start') status = 'live';
      else if (e.type === 'period_end') status = 'break';
      period = e.period ?? period;
      const now = { status, period, score: [e.score.home, e.score.away] as [number, number] };
      if (JSON.stringify(now) !== JSON.stringify(expected.at(-1))) expected.push(now);
    }
    expect(expected.map((x) => `${x.status} ${x.period} ${x.score.join('-')}`)).toEqual([
      'live 1 0-0',
      'live 1 1-0',
      'break 1 1-0',
      'live 2 1-0',
      'live 2 1-1',
      'live 2 2-1',
      'live 2 3-1',
      'break 2 3-1',
      'ended 2 3-1',
      'closed 2 3-1',
    ]);
    expect(seen).toEqual(expected);
  });

  it('asks who scores next after every goal and resolves each from the next goal, or none at full time', async () => {
    const expected = expectedFromData(events);
    const produced = await producedForMatch(app, matchId, defs);
    expect(expected.nextGoal.map((q) => q.answer)).toEqual(['away', 'home', 'home', 'none']);
    expect(produced.nextGoal.map(({ trigger, answer }) => ({ trigger, answer }))).toEqual(expected.nextGoal);
    expect(produced.nextGoal.every((q) => q.status === 'resolved')).toBe(true);
    expect(produced.nextGoal[0]!.text).toBe(`${teams.home} 1-0 ${teams.away}. Who scores next?`);
  });

  it('issues a corner question only while its lane is free, resolves it from a shot by that team within 5 minutes, and voids it when the shot came too soon to answer', async () => {
    const expected = expectedFromData(events);
    const produced = await producedForMatch(app, matchId, defs);
    expect(produced.corners).toEqual(expected.corners);
    // A shot straight from the corner decides it within seconds: the fairness rule voids it (5 of the 8 asked).
    expect(produced.cornerStatuses).toEqual(expected.corners.map((c) => (c.answer === null ? 'voided' : 'resolved')));
    expect(produced.cornerStatuses.filter((s) => s === 'voided')).toHaveLength(5);
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

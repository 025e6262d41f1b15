/**
 * Driving the real engine end to end in a few lines: definitions and groups
 * created through the API as an admin, a match row with a feed URL, a small
 * hand-built list of feed events served as a live NDJSON push feed (closed
 * by a final `match_status: closed`: a listener never completes before its
 * match is over), and an in-process worker that dispatches, claims and runs
 * the listener. Then the rows it wrote (issuances, denials, the listener and
 * its log). What the engine decides is specified in memory (decider-spec.ts);
 * this is for what only the whole runs show.
 *
 * One app per test file: `cleanup()` after each test archives the test's
 * definitions, restores the league rows and parks every match, so the next
 * test's listener sees only its own definitions.
 */
import { randomUUID } from 'node:crypto';
import { asc, eq, inArray } from 'drizzle-orm';
import { expect } from 'vitest';
import type { FeedEvent } from '../../src/domain/sports/events.js';
import { startPushFeedServer, type PushFeedServer, type PushFeedServerOptions } from '../../src/engine/feed/push-server.js';
import type { EngineStore } from '../../src/engine/store.js';
import type { EngineWorker, WorkerOptions } from '../../src/engine/worker.js';
import { questionDefinitions } from '../../src/modules/definitions/definitions.table.js';
import { questionIssuanceDenials, type IssuanceDenialRow } from '../../src/modules/denials/denials.table.js';
import { questionIssuances, type QuestionIssuanceRow } from '../../src/modules/issuances/issuances.table.js';
import { leagues, type LeagueRow } from '../../src/modules/leagues/leagues.table.js';
import { listenerLogLines, matchListeners, type MatchListenerRow } from '../../src/modules/listeners/listeners.table.js';
import { matches, type MatchRow } from '../../src/modules/matches/matches.table.js';
import { startWorker, waitFor } from '../helpers/engine.js';
import { createMatch } from '../helpers/factories.js';
import { createAdmin, startTestApp, type TestApp, type TestAppOptions, type TestUser } from '../helpers/test-app.js';

export interface Harness {
  app: TestApp;
  admin: TestUser;
  leagues: LeagueRow[];
}

export async function startHarness(options: TestAppOptions = {}): Promise<Harness> {
  const app = await startTestApp(options);
  const admin = await createAdmin(app);
  const rows = await app.services.database.db.select().from(leagues);
  return { app, admin, leagues: rows };
}

/** After each test: nothing of it may reach the next one. */
export async function cleanup(h: Harness): Promise<void> {
  const db = h.app.services.database.db;
  await db.update(questionDefinitions).set({ isArchived: true }).where(eq(questionDefinitions.isArchived, false));
  await db.update(matches).set({ autoDispatchListener: false });
  await db
    .update(matchListeners)
    .set({ status: 'stopped' })
    .where(inArray(matchListeners.status, ['queued', 'running']));
  for (const l of h.leagues) {
    await db
      .update(leagues)
      .set({
        defaultQuestionMaxCount: l.defaultQuestionMaxCount,
        defaultQuestionMinIntervalSeconds: l.defaultQuestionMinIntervalSeconds,
        defaultQuestionPeriodDistribution: l.defaultQuestionPeriodDistribution,
        defaultQuestionPoints: l.defaultQuestionPoints,
        defaultAnswerWindowSeconds: l.defaultAnswerWindowSeconds,
        defaultQuestionProbability: l.defaultQuestionProbability,
        questionDefinitionAllowlist: l.questionDefinitionAllowlist,
        matchQuestionDefinitionAllowlist: l.matchQuestionDefinitionAllowlist,
      })
      .where(eq(leagues.id, l.id));
  }
}

const KICKOFF = Date.UTC(2026, 5, 14, 18, 0, 0);

/**
 * A feed event: `seq`, its type, and overrides. `at` is the feed time in
 * seconds after kick-off: it sets occurred_at and (unless given) the clock.
 * The provider event id defaults to `e<seq>`; events are final by default.
 */
export function ev(seq: number, type: string, overrides: Partial<FeedEvent> & { at?: number } = {}): FeedEvent {
  const { at = seq * 10, ...rest } = overrides;
  return {
    provider_event_id: `e${seq}`,
    seq,
    operation: 'create',
    type,
    period: '1',
    clock_seconds: at,
    occurred_at: new Date(KICKOFF + at * 1000).toISOString(),
    team: 'home',
    score: { home: 0, away: 0 },
    final: true,
    data: {},
    ...rest,
  };
}

/** The message that closes the match (after it, a listener completes). */
export function closing(seq: number, overrides: Partial<FeedEvent> & { at?: number } = {}): FeedEvent {
  return ev(seq, 'match_status', { provider_event_id: 'close', data: { status: 'closed' }, ...overrides });
}

/** The feed as served: a closing message after `events` unless they close the match themselves. */
export function closed(events: FeedEvent[]): FeedEvent[] {
  const last = events[events.length - 1];
  if (last?.type === 'match_status' && last.data.status === 'closed') return events;
  return [
    ...events,
    closing(
      Math.max(0, ...events.map((e) => e.seq)) + 1,
      last ? { at: Math.round((Date.parse(last.occurred_at) - KICKOFF) / 1000), period: last.period, score: last.score } : {},
    ),
  ];
}

/** A later message about an earlier event (same provider id): an `update` or a `delete`. */
export function revise(seq: number, of: FeedEvent, operation: 'update' | 'delete', overrides: Partial<FeedEvent> = {}): FeedEvent {
  return { ...of, seq, operation, ...overrides };
}

let counter = 0;
export const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}${counter++}`;

async function post(h: Harness, path: string, body: unknown, league: string): Promise<string> {
  const res = await h.app.request('POST', path, { token: h.admin.token, query: { league }, body });
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${res.text}`);
  return (res.body as { id: string }).id;
}

/** The body of a definition: a shot question whose rule waits for a card (so it stays open), with overrides. */
export function definitionBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: unique('Def'),
    trigger: { event_type: 'shot' },
    question_text_template: 'Shot by {{ event.team }}. Who is booked next?',
    choices: [
      { identifier: 'home', label_template: '{{ match.home_team }}' },
      { identifier: 'away', label_template: '{{ match.away_team }}' },
    ],
    resolution: { rules: [{ event_type: 'card', correct_choice: 'event.team' }] },
    ...overrides,
  };
}

/** Creates an in-game definition through the API; returns its id and name. */
export async function define(h: Harness, overrides: Record<string, unknown> = {}, league = 'wc'): Promise<{ id: string; name: string }> {
  const body = definitionBody(overrides);
  return { id: await post(h, '/api/question-definitions', body, league), name: body.name as string };
}

/** Creates a question group through the API; returns its id and slug. */
export async function group(h: Harness, overrides: Record<string, unknown> = {}, league = 'wc'): Promise<{ id: string; slug: string }> {
  const slug = `g-${randomUUID().slice(0, 8)}`;
  return { id: await post(h, '/api/question-groups', { slug, name: slug, ...overrides }, league), slug };
}

export type MatchValues = Partial<typeof matches.$inferInsert> & { league?: string };

/** No cap, quota or interval in the way unless a test sets one. */
export const OPEN_MATCH: MatchValues = { questionMaxCount: 50, questionMinIntervalSeconds: 0, questionPeriodDistribution: {} };

export interface Produced {
  match: MatchRow;
  listener: MatchListenerRow;
  issuances: QuestionIssuanceRow[];
  denials: IssuanceDenialRow[];
  log: string[];
}

export async function produced(h: Harness, matchId: string, listenerId?: string): Promise<Produced> {
  const db = h.app.services.database.db;
  const [match] = await db.select().from(matches).where(eq(matches.id, matchId));
  const listeners = await db.select().from(matchListeners).where(eq(matchListeners.matchId, matchId)).orderBy(asc(matchListeners.createdAt));
  const listener = listenerId ? listeners.find((l) => l.id === listenerId) : listeners[listeners.length - 1];
  const issuances = await db
    .select()
    .from(questionIssuances)
    .where(eq(questionIssuances.matchId, matchId))
    .orderBy(asc(questionIssuances.triggerSeq), asc(questionIssuances.createdAt));
  const denials = await db
    .select()
    .from(questionIssuanceDenials)
    .where(eq(questionIssuanceDenials.matchId, matchId))
    .orderBy(asc(questionIssuanceDenials.createdAt));
  const log = listener
    ? (await db.select().from(listenerLogLines).where(eq(listenerLogLines.listenerId, listener.id)).orderBy(asc(listenerLogLines.lineNo))).map(
        (l) => `${l.level} ${l.message}`,
      )
    : [];
  return { match: match!, listener: listener!, issuances, denials, log };
}

export async function listenerDone(h: Harness, matchId: string, what: string): Promise<MatchListenerRow> {
  const db = h.app.services.database.db;
  return waitFor(
    async () => {
      const rows = await db.select().from(matchListeners).where(eq(matchListeners.matchId, matchId));
      return rows.length && rows.every((l) => ['completed', 'failed', 'stopped'].includes(l.status)) ? rows[rows.length - 1] : undefined;
    },
    { what, timeoutMs: 15_000, intervalMs: 25 },
  );
}

export interface FeedRun {
  events: FeedEvent[];
  match?: MatchValues;
  /** Runs once the match exists, before any listener reads the feed (sponsorship slots, say). */
  prepare?: (match: MatchRow) => Promise<void>;
}

/**
 * Serves each feed (closed, see `closed`) at full speed to its own new match
 * and runs one worker (auto-dispatch) until every listener has completed.
 * Returns what each match produced, in order.
 */
export async function runFeeds(h: Harness, runs: FeedRun[], worker: Partial<WorkerOptions> = {}, store?: EngineStore): Promise<Produced[]> {
  const servers: PushFeedServer[] = [];
  let w: EngineWorker | undefined;
  try {
    const ids: string[] = [];
    for (const run of runs) {
      const server = await startPushFeedServer({ events: closed(run.events), speed: Infinity, heartbeatMs: 100 });
      servers.push(server);
      const match = await createMatch(h.app, { scheduled: new Date(), feedUrl: server.url, ...OPEN_MATCH, ...run.match });
      await run.prepare?.(match);
      ids.push(match.id);
    }
    w = startWorker(h.app, worker, store);
    for (const id of ids) {
      const listener = await listenerDone(h, id, `the listener of match ${id} to complete`);
      expect(listener, `listener of match ${id}`).toMatchObject({ status: 'completed', error: null });
    }
    await w.stop();
    w = undefined;
    const out: Produced[] = [];
    for (const id of ids) out.push(await produced(h, id));
    return out;
  } finally {
    await w?.stop();
    for (const s of servers) await s.close();
  }
}

export async function runFeed(
  h: Harness,
  events: FeedEvent[],
  match: MatchValues = {},
  worker: Partial<WorkerOptions> = {},
  store?: EngineStore,
): Promise<Produced> {
  return (await runFeeds(h, [{ events, match }], worker, store))[0]!;
}

export interface LiveFeed {
  match: MatchRow;
  feed: PushFeedServer;
  worker: EngineWorker;
  listener: MatchListenerRow;
  /** Publishes events and waits until the listener has handled the last one. */
  push(...events: FeedEvent[]): Promise<void>;
  /** Waits for a log line of the listener matching `re`. */
  logged(re: RegExp): Promise<void>;
  produced(): Promise<Produced>;
  /** Closes the match (a final `match_status: closed`), waits for the listener to complete, stops the worker and the feed. */
  finish(): Promise<Produced>;
  /** Stops everything without waiting (for finally blocks). */
  close(): Promise<void>;
}

/** A held-open feed the test publishes to, read by a listener of a new match. */
export async function startLive(
  h: Harness,
  opts: { events?: FeedEvent[]; match?: MatchValues; worker?: Partial<WorkerOptions>; feed?: Partial<PushFeedServerOptions> } = {},
): Promise<LiveFeed> {
  const db = h.app.services.database.db;
  const feed = await startPushFeedServer({ events: opts.events ?? [], speed: Infinity, holdOpen: true, heartbeatMs: 50, ...opts.feed });
  const match = await createMatch(h.app, { scheduled: new Date(), feedUrl: feed.url, ...OPEN_MATCH, ...opts.match });
  const worker = startWorker(h.app, opts.worker);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await worker.stop();
    await feed.close();
  };
  try {
    const listener = await waitFor(
      async () => {
        const [l] = await db.select().from(matchListeners).where(eq(matchListeners.matchId, match.id));
        return l?.status === 'running' ? l : undefined;
      },
      { what: 'the listener to run', timeoutMs: 10_000, intervalMs: 20 },
    );
    let published = opts.events?.length ?? 0;
    let maxSeq = Math.max(0, ...(opts.events ?? []).map((e) => e.seq));
    // Committed, not just received: the listener's count of consumed events reaches what was published.
    const handled = (n: number) =>
      waitFor(
        async () => {
          const [l] = await db.select().from(matchListeners).where(eq(matchListeners.id, listener.id));
          return l && l.eventsConsumed >= n;
        },
        { what: `the listener to handle ${n} events`, timeoutMs: 10_000, intervalMs: 20 },
      );
    if (published) await handled(published);
    return {
      match,
      feed,
      worker,
      listener,
      async push(...events) {
        for (const e of events) feed.publish(e);
        published += events.length;
        maxSeq = Math.max(maxSeq, ...events.map((e) => e.seq));
        await handled(published);
      },
      async logged(re) {
        await waitFor(
          async () => {
            const lines = await db.select().from(listenerLogLines).where(eq(listenerLogLines.listenerId, listener.id));
            return lines.some((l) => re.test(l.message));
          },
          { what: `a log line matching ${re}`, timeoutMs: 10_000, intervalMs: 20 },
        );
      },
      produced: () => produced(h, match.id, listener.id),
      async finish() {
        feed.publish(closing(maxSeq + 1));
        const done = await listenerDone(h, match.id, 'the listener to complete');
        expect(done).toMatchObject({ status: 'completed', error: null });
        await close();
        return produced(h, match.id, listener.id);
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/** The decision trace step of an issuance. */
export function step(row: QuestionIssuanceRow, id: string): { step: string; passed: boolean; detail: string } | undefined {
  return row.decisionTrace.find((s) => s.step === id);
}

export const byTrigger = <T extends { triggerEventId: string | null }>(rows: T[], id: string): T | undefined => rows.find((r) => r.triggerEventId === id);

/**
 * No resolution is lost across a database outage. The service runs as its
 * own process, engine included, on a private PostgreSQL cluster; a match's
 * feed (served by this test) keeps issuing questions and settling them
 * while the cluster is stopped and started again. Two players follow it, as
 * a player app would: one keeps its socket open through the outage (it gets
 * `resync`), the other goes away before it and comes back after the engine
 * settled more. Each keeps its cursor (the highest `resolution_seq` up to
 * which it holds every resolution of the match) and, after any gap (a
 * `resync`, a reconnect, a number skipped), reads
 * `GET /api/matches/{match_id}/resolutions?after=<cursor>`. At the end every
 * settlement the database made is counted against what each player received
 * on its socket or recovered: none may be missing.
 *
 * Needs the PostgreSQL server binaries: runs in the PostgreSQL pass.
 */
import { eq, inArray, and } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedEvent } from '../../src/domain/sports/events.js';
import { openDatabase, type Database } from '../../src/db/client.js';
import { startPushFeedServer, type PushFeedServer } from '../../src/engine/feed/push-server.js';
import { questionIssuances } from '../../src/modules/issuances/issuances.table.js';
import { matchListeners } from '../../src/modules/listeners/listeners.table.js';
import { users } from '../../src/modules/users/users.table.js';
import { createInLeague } from '../helpers/definitions.js';
import { waitFor } from '../helpers/engine.js';
import { feedEvent } from '../helpers/engine-rows.js';
import { createMatch } from '../helpers/factories.js';
import { openStream, type StreamClient, type StreamMessage } from '../helpers/live-client.js';
import { pgClusterAvailable, startPgCluster, type PgCluster } from '../helpers/pg-cluster.js';
import { testDatabaseUrl } from '../helpers/pg-url.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';
import type { TestApp, TestUser } from '../helpers/test-app.js';

const enabled = Boolean(testDatabaseUrl()) && pgClusterAvailable();

const SETTLED = ['resolved', 'voided', 'revoked'] as const;
/** The catch-up read's page. */
const PAGE = 100;

let cluster: PgCluster;
let service: ServiceProcess;
let db: Database;
let feed: PushFeedServer;
let matchId: string;
const users_: TestUser[] = [];

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A player app's client of one match: its socket (reconnecting when it
 * drops, unless told to stay away), and its cursor, kept as the stream's
 * document says.
 */
class PlayerClient {
  socket: StreamClient | null = null;
  /** Every resolution held, by question, with how it came. */
  readonly held = new Map<string, { seq: number; via: 'stream' | 'catch-up' }>();
  private readonly seqs = new Set<number>();
  /** The highest number up to which every resolution of the match is held. */
  cursor = 0;
  private based = false;
  resyncs = 0;
  private away = false;
  private chain: Promise<void> = Promise.resolve();

  constructor(readonly user: TestUser) {}

  async connect(): Promise<void> {
    this.away = false;
    for (;;) {
      try {
        const socket = await openStream({} as never, this.user.token, {
          url: `${service.url.replace(/^http/, 'ws')}/api/play/stream?api_key=${encodeURIComponent(this.user.token)}`,
        });
        socket.ws.on('message', (data) => this.onMessage(JSON.parse(String(data)) as StreamMessage));
        socket.ws.on('close', () => {
          // A socket closed by the server (1013 during the outage, 1001): the app reconnects, then catches up.
          if (!this.away && this.socket === socket) void pause(200).then(() => this.connect());
        });
        this.socket = socket;
        return;
      } catch {
        await pause(200);
      }
    }
  }

  /** Leaves: closes its socket and stays away until `connect()`. */
  async leave(): Promise<void> {
    this.away = true;
    const socket = this.socket;
    this.socket = null;
    await socket?.close();
  }

  private onMessage(m: StreamMessage) {
    if (m.type === 'open_questions' && m.match_id === null) {
      const state = (m.matches as { match_id: string; resolution_seq: number }[]).find((s) => s.match_id === matchId);
      if (!state) return;
      // The first snapshot is where the cursor starts; a later one (a reconnect) leaves a gap behind it.
      if (!this.based) {
        this.based = true;
        this.cursor = state.resolution_seq;
      } else this.catchUp();
    } else if (m.type === 'resolution' && m.match_id === matchId) {
      this.hold(m, 'stream');
      if ((m.resolution_seq as number) > this.cursor) this.catchUp();
    } else if (m.type === 'resync') {
      this.resyncs += 1;
      this.catchUp();
    }
  }

  private hold(m: StreamMessage, via: 'stream' | 'catch-up') {
    expect(m.match_id).toBe(matchId);
    if (!this.held.has(m.question_issuance_id)) this.held.set(m.question_issuance_id, { seq: m.resolution_seq, via });
    this.seqs.add(m.resolution_seq);
    while (this.seqs.has(this.cursor + 1)) this.cursor += 1;
  }

  /** Reads what was settled after the cursor, a page at a time; while the service answers 503, tries again. */
  private catchUp() {
    this.chain = this.chain.then(async () => {
      for (;;) {
        const res = await service
          .request('GET', `/api/matches/${matchId}/resolutions`, { token: this.user.token, query: { after: this.cursor, limit: PAGE } })
          .catch(() => null);
        if (!res || res.status === 503) {
          await pause(200);
          continue;
        }
        expect(res.status, res.text).toBe(200);
        for (const m of res.body as StreamMessage[]) this.hold(m, 'catch-up');
        if ((res.body as unknown[]).length < PAGE) return;
      }
    });
  }

  count(via: 'stream' | 'catch-up') {
    return [...this.held.values()].filter((h) => h.via === via).length;
  }
}

/** Settlements of the match in the database: question id -> number. */
async function settledInDatabase(): Promise<Map<string, number | null>> {
  const rows = await db.db
    .select({ id: questionIssuances.id, seq: questionIssuances.resolutionSeq })
    .from(questionIssuances)
    .where(and(eq(questionIssuances.matchId, matchId), inArray(questionIssuances.status, SETTLED)));
  return new Map(rows.map((r) => [r.id, r.seq]));
}

const settledCount = async () => (await settledInDatabase().catch(() => null))?.size ?? -1;

/** Publishes a corner (a question) and a shot (its resolution) every `everyMs` until stopped. */
function startPlay(everyMs: number) {
  let seq = 10;
  let running = true;
  const event = (type: string) => {
    seq += 1;
    return feedEvent({ seq, provider_event_id: `play-${seq}`, type, team: 'home', clock_seconds: seq * 2 });
  };
  const loop = (async () => {
    while (running) {
      feed.publish(event('corner'));
      feed.publish(event('shot'));
      await pause(everyMs);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
    },
  };
}

describe.skipIf(!enabled)('resolutions across a database outage (PostgreSQL cluster, the service as a process)', () => {
  beforeAll(async () => {
    cluster = await startPgCluster();
    await cluster.createDatabase('qp');
    service = await startServiceProcess({
      DATABASE_URL: cluster.url('qp'),
      ENGINE_WORKER: 'true',
      ENGINE_POLL_MS: '200',
      ENGINE_STALE_AFTER_MS: '60000',
      DB_CONNECT_TIMEOUT_MS: '2000',
      DB_STATEMENT_TIMEOUT_MS: '2000',
    });
    db = await openDatabase({
      url: cluster.url('qp'),
      migrate: false,
      limits: { connectTimeoutMs: 2000, statementTimeoutMs: 5000, idleInTransactionTimeoutMs: 10_000 },
    });
    // The harness's helpers on the service's database and API.
    const app = { services: { database: db }, request: service.request } as unknown as TestApp;
    for (let i = 0; i < 3; i++) {
      const username = `res${i}`;
      const res = await service.request('POST', '/api/auth/register', {
        body: { username, email: `${username}@example.com`, password: 'correct horse battery' },
      });
      expect(res.status).toBe(201);
      users_.push({ id: res.body.user.id, token: res.body.api_key, username, email: `${username}@example.com`, password: 'correct horse battery' });
    }
    const admin = users_[2]!;
    await db.db.update(users).set({ isAdmin: true }).where(eq(users.id, admin.id));
    await createInLeague(app, admin, '/api/question-definitions', 'wc', {
      name: 'Shot after a corner',
      trigger: { event_type: 'corner' },
      question_text_template: 'Corner. A shot next?',
      choices: [
        { identifier: 'yes', label_template: 'Yes' },
        { identifier: 'no', label_template: 'No' },
      ],
      resolution: { rules: [{ event_type: 'shot', correct_choice: '"yes"' }] },
    });
    const kickOff: FeedEvent[] = [
      feedEvent({ seq: 1, provider_event_id: 'status-live', type: 'match_status', team: null, clock_seconds: 0, data: { status: 'live' } }),
      feedEvent({ seq: 2, provider_event_id: 'period-1', type: 'period_start', team: null, clock_seconds: 0 }),
    ];
    feed = await startPushFeedServer({ events: kickOff, speed: Infinity, holdOpen: true, heartbeatMs: 100 });
    const match = await createMatch(app, {
      homeTeam: 'Lions',
      awayTeam: 'Tigers',
      scheduled: new Date(),
      feedUrl: feed.url,
      questionMaxCount: 1000,
      questionPeriodDistribution: { '1': 1000 },
      questionMinIntervalSeconds: 0,
    });
    matchId = match.id;
    for (const player of users_.slice(0, 2))
      expect((await service.request('POST', `/api/matches/${matchId}/follow`, { token: player.token })).status).toBe(200);
    await waitFor(async () => (await db.db.select().from(matchListeners).where(eq(matchListeners.matchId, matchId)))[0]?.status === 'running', {
      what: () => `the listener to run:\n${service.output().slice(-3000)}`,
      timeoutMs: 60_000,
    });
  }, 180_000);

  afterAll(async () => {
    await feed?.close();
    await service?.stop();
    await db?.close();
    await cluster?.destroy();
  });

  it('every settlement reaches every follower, on its socket or from its cursor: the one that stayed (resync) and the one that was away', async () => {
    const stayed = new PlayerClient(users_[0]!);
    const away = new PlayerClient(users_[1]!);
    await stayed.connect();
    await away.connect();
    await stayed.socket!.ready();
    await away.socket!.ready();

    const play = startPlay(150);
    try {
      await waitFor(async () => stayed.held.size >= 3 && away.held.size >= 3, { what: 'resolutions before the outage', timeoutMs: 30_000 });
      await away.leave();
      const awayCursor = away.cursor;

      await cluster.stop('fast');
      await waitFor(async () => (await service.request('GET', '/api/question-answers/open', { token: stayed.user.token }).catch(() => null))?.status === 503, {
        what: 'the service to see the outage',
        timeoutMs: 20_000,
        intervalMs: 100,
      });
      await cluster.start();
      const atReturn = await waitFor(
        async () => {
          const n = await settledCount();
          return n >= 0 ? n : undefined;
        },
        { what: 'the database to answer again', timeoutMs: 30_000, intervalMs: 100 },
      );
      // The engine settles more while the away player is still away.
      await waitFor(async () => (await settledCount()) >= atReturn + 5, {
        what: () => `settlements after the return:\n${service.output().slice(-2000)}`,
        timeoutMs: 30_000,
      });
      await away.connect();
      await waitFor(async () => stayed.resyncs > 0, { what: 'the resync of the socket that stayed', timeoutMs: 30_000 });
      // Back from behind its cursor: what was settled meanwhile came back from the catch-up read.
      await waitFor(async () => away.cursor > awayCursor + 5, { what: 'the returning player to catch up', timeoutMs: 30_000 });
    } finally {
      await play.stop();
    }
    // The match ends (a question still open is voided: one more settlement), and its feed with it.
    feed.publish(
      feedEvent({ seq: 100_000, provider_event_id: 'status-ended', type: 'match_status', team: null, clock_seconds: 5400, data: { status: 'ended' } }),
    );
    feed.end();
    await waitFor(async () => (await db.db.select().from(matchListeners).where(eq(matchListeners.matchId, matchId)))[0]?.status === 'completed', {
      what: () => `the listener to complete:\n${service.output().slice(-2000)}`,
      timeoutMs: 60_000,
    });

    const settled = await settledInDatabase();
    const numbers = [...settled.values()].sort((x, y) => x! - y!);
    // Numbered 1..n, no gaps.
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    // Three before the outage, five after the return with one player away, and the rest.
    expect(settled.size).toBeGreaterThanOrEqual(9);
    for (const [name, player] of [
      ['stayed', stayed],
      ['away', away],
    ] as const) {
      await waitFor(async () => player.cursor === settled.size, {
        what: () =>
          `${name}: cursor ${player.cursor} of ${settled.size}; held ${player.held.size} (stream ${player.count('stream')}, catch-up ${player.count('catch-up')})`,
        timeoutMs: 30_000,
      });
      const missing = [...settled.keys()].filter((id) => !player.held.has(id));
      expect(missing, `${name} never got ${missing.length} of ${settled.size} settlements`).toEqual([]);
      expect([...player.held.keys()].sort()).toEqual([...settled.keys()].sort());
    }
    // The away player missed some on its socket and got them from its cursor.
    expect(away.count('catch-up')).toBeGreaterThan(0);
    await stayed.leave();
    await away.leave();
  }, 180_000);
});

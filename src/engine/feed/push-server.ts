/**
 * A push feed server: serves recorded matches as live HTTP streams of
 * newline-delimited JSON with heartbeats, the framing of sports data push
 * feeds, so the push client, listeners and demos run against a real socket
 * (and tests can inject the faults real feeds have: drops, silences,
 * duplicates, corrections).
 *
 * Wire format, one JSON object per line:
 *   {"type":"event","event":<FeedEvent>}   {"type":"heartbeat","at":"<iso>"}   {"type":"end"}
 * Each feed has ONE live timeline (a replay at `speed`), started at the first
 * connection (or at `startAt`). A client gets, on connecting, a heartbeat, then
 * every event already published with seq > `?after_seq=N` (default 0: all),
 * then the live ones as they happen; `{"type":"end"}` and the close follow the
 * last event. Routes: `GET /feed` (the `events` option) and `GET /feeds/<key>`
 * (the `feeds` option). Loopback by default; it is a test and demo tool.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FeedEvent } from '../../domain/sports/events.js';
import { abortableSleep, replay, replayDelays } from './replay.js';

/** When each event is published, in ms from the timeline's start (the replay's waits, summed). */
export function replayOffsets(events: readonly FeedEvent[], speed: number, maxGapMs?: number): number[] {
  let t = 0;
  return replayDelays(events, speed, maxGapMs).map((d) => (t += d));
}

/** How many of the first events a timeline started `elapsedMs` ago has published by now. */
export function eventsDueAfter(events: readonly FeedEvent[], speed: number, elapsedMs: number, maxGapMs?: number): number {
  const offsets = replayOffsets(events, speed, maxGapMs);
  let n = 0;
  while (n < offsets.length && offsets[n]! <= elapsedMs) n++;
  return n;
}

export type PushFeedMessage = { type: 'event'; event: FeedEvent } | { type: 'heartbeat'; at: string } | { type: 'end' };

export interface PushFeedFaults {
  /** Close each of the first `dropConnections` connections abruptly after writing this many events to it. */
  dropAfter?: number;
  /** How many connections `dropAfter` applies to (default 1). */
  dropConnections?: number;
  /** Answer the first N requests with 503. */
  rejectFirst?: number;
  /** Start with heartbeats paused. */
  noHeartbeats?: boolean;
  /** Say `end` too early: each of the first `endConnections` connections gets `{"type":"end"}` and is closed after this many events. */
  endAfter?: number;
  /** How many connections `endAfter` applies to (default 1). */
  endConnections?: number;
  /** Ignore `?after_seq=`: every connection gets the whole timeline (a provider that cannot resume, or restarted its numbering). */
  ignoreAfterSeq?: boolean;
}

export interface PushFeedServerOptions {
  /** Served at GET /feed. */
  events?: readonly FeedEvent[];
  /** Served at GET /feeds/<key>; may be empty when the feeds come later (`addFeed`). */
  feeds?: Readonly<Record<string, readonly FeedEvent[]>>;
  /** Replay speed factor (1 = real time; Infinity = everything at once). */
  speed: number;
  port?: number;
  host?: string;
  heartbeatMs?: number;
  /** Longest recorded gap honoured between events (see replay). */
  maxGapMs?: number;
  /**
   * Start every timeline at this wall-clock time, whoever is connected: a
   * match whose first event is its kick-off then kicks off at its scheduled
   * time. When it has passed, the timeline is where the match would be now
   * (what is due is published at once, the rest at its time): a server
   * restarted mid-match resumes mid-match. Without it, each timeline starts
   * at the first connection to its feed.
   */
  startAt?: Date;
  /** Keep streams open after the last event until `end()` (tests publish more). */
  holdOpen?: boolean;
  faults?: PushFeedFaults;
  /** A client whose unsent output exceeds this is dropped (it can resume); default 8 MiB. */
  maxBufferedBytes?: number;
  /** Told of a failure of the server once it listens (an accept that failed: it goes on listening); default: ignored. */
  onError?: (err: Error) => void;
}

export interface PushFeedServer {
  /** URL of the first feed (`/feed` when `events` is given; the base URL when there is none yet). */
  url: string;
  baseUrl: string;
  port: number;
  urlFor(key?: string): string;
  /** Appends an event to a feed's timeline (e.g. an update or delete); resuming clients get it too. */
  publish(event: FeedEvent, key?: string): void;
  /** Writes a raw line to the clients connected now, outside the timeline (duplicates, garbage). */
  injectLine(line: string, key?: string): void;
  /** Ends a held-open feed. */
  end(key?: string): void;
  /** Serves another feed at `/feeds/<key>`, its timeline starting at `startAt` (else at its first connection); returns its URL. */
  addFeed(key: string, events: readonly FeedEvent[], startAt?: Date): string;
  /** Stops serving a feed: its clients get `end`, and its URL answers 404 from now on. */
  removeFeed(key: string): void;
  pauseHeartbeats(): void;
  resumeHeartbeats(): void;
  /** Abruptly closes every open client connection. */
  dropConnections(): void;
  /** Answers the next N requests with 503. */
  rejectNext(n: number): void;
  /** `afterSeqs`: the `after_seq` each accepted connection asked for, in order (where a reconnect resumed). */
  readonly stats: { requests: number; connections: number; open: number; rejected: number; afterSeqs: number[] };
  close(): Promise<void>;
}

const DEFAULT_KEY = '';

class Connection {
  sent = 0;
  private heartbeat: NodeJS.Timeout;

  constructor(
    readonly res: http.ServerResponse,
    readonly afterSeq: number,
    private readonly server: ServerState,
    private readonly dropAfter: number | null,
    heartbeatMs: number,
    private readonly endAfter: number | null = null,
  ) {
    this.heartbeat = setInterval(() => {
      if (!server.heartbeatsPaused) this.send({ type: 'heartbeat', at: new Date().toISOString() });
    }, heartbeatMs);
    if (!server.heartbeatsPaused) this.send({ type: 'heartbeat', at: new Date().toISOString() });
  }

  private cut = false;

  get open(): boolean {
    return !this.cut && !this.res.destroyed && !this.res.writableEnded;
  }

  writeLine(line: string): void {
    if (!this.open) return;
    this.res.write(line.endsWith('\n') ? line : `${line}\n`);
    if (this.res.writableLength > this.server.maxBufferedBytes) this.drop();
  }

  send(message: PushFeedMessage): void {
    this.writeLine(JSON.stringify(message));
  }

  sendEvent(event: FeedEvent): void {
    if (event.seq <= this.afterSeq || !this.open) return;
    this.send({ type: 'event', event });
    this.sent++;
    if (this.dropAfter !== null && this.sent >= this.dropAfter) this.cutAfterFlush();
    else if (this.endAfter !== null && this.sent >= this.endAfter) this.finish();
  }

  /** The injected fault: what was written still reaches the client, then the TCP stream ends mid-response. */
  private cutAfterFlush(): void {
    this.cut = true;
    clearInterval(this.heartbeat);
    this.res.socket?.end();
  }

  finish(): void {
    clearInterval(this.heartbeat);
    if (!this.open) return;
    this.send({ type: 'end' });
    this.res.end();
  }

  drop(): void {
    clearInterval(this.heartbeat);
    this.res.destroy();
  }

  dispose(): void {
    clearInterval(this.heartbeat);
  }
}

interface ServerState {
  heartbeatsPaused: boolean;
  maxBufferedBytes: number;
}

class Timeline {
  readonly published: FeedEvent[] = [];
  readonly clients = new Set<Connection>();
  ended = false;
  private started = false;

  constructor(
    private readonly events: readonly FeedEvent[],
    private readonly opts: { speed: number; maxGapMs?: number; holdOpen: boolean; signal: AbortSignal },
  ) {}

  /**
   * Starts the replay. `elapsedMs` > 0: the timeline began that long ago (its
   * start time has passed): the events it would have published by now are
   * published at once, in order, and the rest at their times, so the feed is
   * where the match is, not at its beginning.
   */
  start(elapsedMs = 0): void {
    if (this.started || this.ended) return;
    this.started = true;
    const skip = elapsedMs > 0 ? eventsDueAfter(this.events, this.opts.speed, elapsedMs, this.opts.maxGapMs) : 0;
    for (const event of this.events.slice(0, skip)) this.publish(event);
    void (async () => {
      // The first event after the catch-up waits only what is left of its gap.
      const left = skip > 0 && skip < this.events.length ? Math.max(0, replayOffsets(this.events, this.opts.speed, this.opts.maxGapMs)[skip]! - elapsedMs) : 0;
      if (left > 0 && !(await abortableSleep(left, this.opts.signal))) return;
      const rest = skip > 0 ? this.events.slice(skip) : this.events;
      if (rest.length)
        for await (const event of replay(rest, { speed: this.opts.speed, maxGapMs: this.opts.maxGapMs, signal: this.opts.signal })) {
          // Ended early (a removed feed): the rest of its replay goes nowhere.
          if (this.ended) return;
          this.publish(event);
        }
      if (!this.opts.holdOpen && !this.opts.signal.aborted) this.end();
    })();
  }

  publish(event: FeedEvent): void {
    if (this.ended) throw new Error('the feed has ended');
    this.published.push(event);
    for (const c of this.clients) c.sendEvent(event);
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    for (const c of this.clients) c.finish();
    this.clients.clear();
  }
}

export async function startPushFeedServer(opts: PushFeedServerOptions): Promise<PushFeedServer> {
  const feedsIn: Array<[string, readonly FeedEvent[]]> = [];
  const checkKey = (key: string) => {
    if (!/^[A-Za-z0-9._:-]+$/.test(key)) throw new Error(`feed key '${key}' must match [A-Za-z0-9._:-]+`);
  };
  if (opts.events) feedsIn.push([DEFAULT_KEY, opts.events]);
  for (const [key, events] of Object.entries(opts.feeds ?? {})) {
    checkKey(key);
    feedsIn.push([key, events]);
  }
  if (feedsIn.length === 0 && !opts.feeds) throw new Error('startPushFeedServer needs events or feeds');
  if (!(opts.speed > 0)) throw new Error('speed must be a positive number');
  const heartbeatMs = opts.heartbeatMs ?? 1000;
  if (!(heartbeatMs > 0)) throw new Error('heartbeatMs must be positive');
  const faults = opts.faults ?? {};
  const abort = new AbortController();
  const state: ServerState = { heartbeatsPaused: faults.noHeartbeats === true, maxBufferedBytes: opts.maxBufferedBytes ?? 8 * 1024 * 1024 };
  const newTimeline = (events: readonly FeedEvent[]) =>
    new Timeline(events, { speed: opts.speed, maxGapMs: opts.maxGapMs, holdOpen: opts.holdOpen === true, signal: abort.signal });
  const timelines = new Map(feedsIn.map(([key, events]) => [key, newTimeline(events)]));
  /** Timelines that start at their first connection (no start time of their own). */
  const startOnConnect = new Set<Timeline>(opts.startAt ? [] : timelines.values());
  /** Starts a timeline at `startAt`, or where it would be now when that has passed. */
  const startAtTime = (timeline: Timeline, startAt: Date) => {
    const at = startAt.getTime();
    const timer = setTimeout(() => timeline.start(Math.max(0, Date.now() - at)), Math.max(0, at - Date.now()));
    abort.signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  };
  const stats = { requests: 0, connections: 0, open: 0, rejected: 0, afterSeqs: [] as number[] };
  let rejectBudget = faults.rejectFirst ?? 0;
  let dropBudget = faults.dropAfter !== undefined ? (faults.dropConnections ?? 1) : 0;
  let endBudget = faults.endAfter !== undefined ? (faults.endConnections ?? 1) : 0;
  const all = new Set<Connection>();

  const fail = (res: http.ServerResponse, status: number, code: string, message: string) => {
    res.writeHead(status, { 'content-type': 'application/json', 'x-error-code': code }).end(JSON.stringify({ detail: message }));
  };

  const server = http.createServer((req, res) => {
    stats.requests++;
    const url = new URL(req.url ?? '/', 'http://localhost');
    const key = url.pathname === '/feed' ? DEFAULT_KEY : url.pathname.startsWith('/feeds/') ? decodeURIComponent(url.pathname.slice('/feeds/'.length)) : null;
    const timeline = key === null ? undefined : timelines.get(key);
    if (!timeline) return fail(res, 404, 'feed.not_found', `no feed at ${url.pathname}`);
    if (req.method !== 'GET') return fail(res, 405, 'feed.method_not_allowed', 'use GET');
    const rawAfter = url.searchParams.get('after_seq');
    const afterSeq = rawAfter === null ? 0 : Number(rawAfter);
    if (!Number.isInteger(afterSeq) || afterSeq < 0) return fail(res, 400, 'feed.bad_after_seq', 'after_seq must be a non-negative integer');
    if (rejectBudget > 0) {
      rejectBudget--;
      stats.rejected++;
      return fail(res, 503, 'feed.unavailable', 'injected fault: try again later');
    }
    res.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
    res.socket?.setNoDelay(true);
    const dropAfter = dropBudget > 0 ? faults.dropAfter! : null;
    if (dropBudget > 0) dropBudget--;
    const endAfter = endBudget > 0 ? faults.endAfter! : null;
    if (endBudget > 0) endBudget--;
    const conn = new Connection(res, faults.ignoreAfterSeq ? 0 : afterSeq, state, dropAfter, heartbeatMs, endAfter);
    stats.connections++;
    stats.afterSeqs.push(afterSeq);
    stats.open++;
    all.add(conn);
    res.on('close', () => {
      stats.open--;
      conn.dispose();
      all.delete(conn);
      timeline.clients.delete(conn);
    });
    for (const event of timeline.published) conn.sendEvent(event);
    if (!conn.open) return;
    if (timeline.ended) return conn.finish();
    timeline.clients.add(conn);
    if (startOnConnect.has(timeline)) timeline.start();
  });

  // Lasting, unlike the start's once('error'): a server that listens may still fail to accept a connection.
  let started = false;
  server.on('error', (err) => {
    if (started) opts.onError?.(err);
  });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      started = true;
      resolve();
    });
  });
  if (opts.startAt) for (const t of timelines.values()) startAtTime(t, opts.startAt);
  const port = (server.address() as AddressInfo).port;
  const baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const firstKey = feedsIn[0]?.[0];
  const urlFor = (key: string | undefined = firstKey) =>
    key === undefined ? baseUrl : key === DEFAULT_KEY ? `${baseUrl}/feed` : `${baseUrl}/feeds/${encodeURIComponent(key)}`;
  const timelineFor = (key: string | undefined = firstKey) => {
    if (key === undefined) throw new Error('the server has no feed');
    const t = timelines.get(key);
    if (!t) throw new Error(`no feed '${key}'`);
    return t;
  };

  return {
    url: urlFor(),
    baseUrl,
    port,
    urlFor,
    publish: (event, key) => timelineFor(key).publish(event),
    injectLine: (line, key) => {
      for (const c of timelineFor(key).clients) c.writeLine(line);
    },
    end: (key) => timelineFor(key).end(),
    addFeed: (key, events, startAt) => {
      checkKey(key);
      if (timelines.has(key)) throw new Error(`feed '${key}' is already served`);
      const timeline = newTimeline(events);
      timelines.set(key, timeline);
      if (startAt) startAtTime(timeline, startAt);
      else startOnConnect.add(timeline);
      return urlFor(key);
    },
    removeFeed: (key) => {
      const timeline = timelineFor(key);
      timelines.delete(key);
      startOnConnect.delete(timeline);
      timeline.end();
    },
    pauseHeartbeats: () => {
      state.heartbeatsPaused = true;
    },
    resumeHeartbeats: () => {
      state.heartbeatsPaused = false;
    },
    dropConnections: () => {
      for (const c of all) c.drop();
    },
    rejectNext: (n) => {
      rejectBudget = n;
    },
    stats,
    close: async () => {
      abort.abort();
      for (const c of all) c.drop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Client of an HTTP push feed (newline-delimited JSON with heartbeats, see
 * push-server.ts): the provider side of a match listener. Real push feeds
 * drop connections, go silent, redeliver, correct and misnumber, so this
 * client reconnects with exponential back-off and jitter, resumes with
 * `?after_seq=<resume point>` (the last contiguous seq, see sequence.ts: a
 * jump or a regression never moves it), deduplicates, and reports staleness
 * (the engine stops issuing questions while the feed is stale).
 *
 * It is an EventEmitter (typed, see PushFeedClientEvents):
 *   'event'        a FeedEvent, each delivered once (see dedupe below), in arrival order
 *   'heartbeat'    the server's timestamp
 *   'stale'        no heartbeat arrived for `staleAfterMs` (events do not count: a
 *                  backlog of old events says nothing about the feed being current)
 *   'fresh'        a heartbeat again after 'stale'
 *   'end'          the feed said it has ended; the client stops, or with
 *                  `reconnectAfterEnd` reconnects after back-off (a match that is
 *                  not over yet: the feed ended too early)
 *   'sequence'     a message whose seq jumped, regressed or restarted the numbering
 *   'connected' / 'disconnected' / 'reconnecting' / 'malformed' / 'duplicate': diagnostics
 * It never emits 'error'; failures become 'disconnected' and a retry.
 *
 * Dedupe key: provider_event_id + operation + a hash of the content (every
 * field but seq), so an exact redelivery is dropped even under a new seq, an
 * `update` with new content passes, and a `delete` passes once per id.
 * Back-off: initialMs * factor^(n-1), capped at maxMs, +/- jitter; n counts
 * consecutive failed connections and resets once a connection delivers a
 * valid message (a server that accepts and drops at once still backs off);
 * a connection that ends with `end` and brought no new event counts as failed.
 */
import { EventEmitter } from 'node:events';
import { dedupeKey, type FeedEvent } from '../../domain/sports/events.js';
import { abortableSleep } from './replay.js';

export { dedupeKey };
import { observeSequence, startSequence, type SequenceState, type SequenceVerdict } from './sequence.js';

export interface PushFeedClientLogger {
  warn(details: Record<string, unknown>, message: string): void;
}

export interface BackoffOptions {
  initialMs?: number;
  maxMs?: number;
  factor?: number;
  /** Fraction of the delay randomized either way (0..1). */
  jitter?: number;
}

export interface PushFeedClientOptions {
  url: string;
  /** Resume after this seq on the first connection. */
  afterSeq?: number;
  /** After `end`, reconnect (with back-off) instead of stopping: the reader decides when the feed is really over (close()). */
  reconnectAfterEnd?: boolean;
  staleAfterMs?: number;
  backoff?: BackoffOptions;
  /** How many dedupe keys to remember (oldest forgotten first). */
  dedupeCapacity?: number;
  /** A line longer than this is discarded as malformed. */
  maxLineBytes?: number;
  headers?: Record<string, string>;
  logger?: PushFeedClientLogger;
  fetch?: typeof fetch;
  /** Random source for jitter (tests pass a fixed one). */
  random?: () => number;
}

export interface PushFeedClientEvents {
  event: [event: FeedEvent];
  heartbeat: [at: string];
  stale: [info: { silentForMs: number }];
  fresh: [];
  end: [];
  connected: [info: { url: string; attempt: number }];
  disconnected: [info: { reason: string }];
  reconnecting: [info: { attempt: number; delayMs: number }];
  malformed: [info: { line: string; reason: string }];
  duplicate: [event: FeedEvent];
  sequence: [info: { event: FeedEvent; verdict: Exclude<SequenceVerdict, 'next'>; resumeAfter: number }];
}

export interface PushFeedClientStats {
  connections: number;
  events: number;
  duplicates: number;
  heartbeats: number;
  malformed: number;
}

const OPERATIONS = new Set(['create', 'update', 'delete']);

const consoleLogger: PushFeedClientLogger = { warn: (details, message) => console.warn(`[push-feed] ${message}`, details) };

/** The back-off delay before reconnect attempt `n` (1-based), jitter from `random`. */
export function backoffDelay(n: number, opts: Required<BackoffOptions>, random: () => number): number {
  const raw = Math.min(opts.maxMs, opts.initialMs * opts.factor ** Math.max(0, n - 1));
  const jittered = raw * (1 + opts.jitter * (2 * random() - 1));
  return Math.max(0, Math.min(opts.maxMs, Math.round(jittered)));
}

function isFeedEvent(v: unknown): v is FeedEvent {
  if (typeof v !== 'object' || v === null) return false;
  const e = v as Record<string, unknown>;
  return (
    typeof e.provider_event_id === 'string' &&
    e.provider_event_id !== '' &&
    Number.isInteger(e.seq) &&
    typeof e.operation === 'string' &&
    OPERATIONS.has(e.operation) &&
    typeof e.type === 'string' &&
    typeof e.occurred_at === 'string' &&
    typeof e.data === 'object' &&
    e.data !== null
  );
}

export class PushFeedClient extends EventEmitter<PushFeedClientEvents> {
  readonly stats: PushFeedClientStats = { connections: 0, events: 0, duplicates: 0, heartbeats: 0, malformed: 0 };
  private readonly url: URL;
  private readonly staleAfterMs: number;
  private readonly backoff: Required<BackoffOptions>;
  private readonly dedupeCapacity: number;
  private readonly maxLineBytes: number;
  private readonly logger: PushFeedClientLogger;
  private readonly fetchImpl: typeof fetch;
  private readonly random: () => number;
  private readonly seen = new Map<string, true>();
  private readonly abort = new AbortController();
  private sequence: SequenceState;
  private running: Promise<void> | null = null;
  private closed = false;
  private ended = false;
  private stale = false;
  private lastHeartbeatAt = 0;
  private staleTimer: NodeJS.Timeout | null = null;
  /** The run loop has returned and no timer is armed. */
  private stopped = false;

  constructor(private readonly opts: PushFeedClientOptions) {
    super();
    this.url = new URL(opts.url);
    this.sequence = startSequence(opts.afterSeq ?? 0);
    this.staleAfterMs = opts.staleAfterMs ?? 5000;
    this.backoff = { initialMs: 250, maxMs: 30_000, factor: 2, jitter: 0.2, ...opts.backoff };
    if (!(this.backoff.initialMs > 0) || !(this.backoff.factor >= 1) || !(this.backoff.jitter >= 0 && this.backoff.jitter <= 1)) {
      throw new Error('backoff needs initialMs > 0, factor >= 1 and jitter in 0..1');
    }
    this.dedupeCapacity = opts.dedupeCapacity ?? 100_000;
    this.maxLineBytes = opts.maxLineBytes ?? 1024 * 1024;
    this.logger = opts.logger ?? consoleLogger;
    this.fetchImpl = opts.fetch ?? fetch;
    this.random = opts.random ?? Math.random;
  }

  /** The resume point: every message numbered up to it has arrived (what a reconnect resumes after). */
  get lastSeq(): number {
    return this.sequence.resumeAfter;
  }

  /** No heartbeat for `staleAfterMs` (read at the moment asked, whether or not 'stale' has fired yet). */
  get isStale(): boolean {
    return this.stale || (!this.ended && !this.closed && Date.now() - this.lastHeartbeatAt >= this.staleAfterMs);
  }

  get hasEnded(): boolean {
    return this.ended;
  }

  /** Starts connecting (idempotent); the returned promise settles when the client ends or is closed. */
  start(): Promise<void> {
    if (!this.running) {
      this.lastHeartbeatAt = Date.now();
      this.armStaleTimer();
      this.running = this.run();
    }
    return this.running;
  }

  /** Stops for good: the connection is dropped, no reconnect or staleness check follows; resolves once the client has stopped. */
  async close(): Promise<void> {
    this.closed = true;
    this.abort.abort();
    this.clearStaleTimer();
    await this.running;
  }

  /** Connected, connecting, waiting to reconnect or watching for staleness: false once it ended or was closed and stopped. */
  get active(): boolean {
    return this.running !== null && !this.stopped;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.closed && !this.ended) {
      const url = new URL(this.url);
      url.searchParams.set('after_seq', String(this.sequence.resumeAfter));
      let delivered = false;
      let endedHere = false;
      const eventsBefore = this.stats.events;
      let reason = 'stream closed';
      try {
        const res = await this.fetchImpl(url, { signal: this.abort.signal, headers: { accept: 'application/x-ndjson', ...this.opts.headers } });
        if (res.status !== 200 || !res.body) {
          await res.body?.cancel().catch(() => {});
          throw new Error(`HTTP ${res.status}`);
        }
        this.stats.connections++;
        this.safeEmit('connected', { url: url.toString(), attempt: failures + 1 });
        for await (const line of this.lines(res.body)) {
          const handled = this.handleLine(line);
          if (handled) delivered = true;
          if (handled === 'end') {
            endedHere = true;
            break;
          }
          if (this.ended || this.closed) break;
        }
      } catch (err) {
        reason = err instanceof Error ? err.message : String(err);
      }
      if (this.closed || this.ended) break;
      if (endedHere) reason = 'the feed ended';
      // An early end that brought nothing new is a failure like any other: back off.
      failures = delivered && !(endedHere && this.stats.events === eventsBefore) ? 1 : failures + 1;
      const delayMs = backoffDelay(failures, this.backoff, this.random);
      this.safeEmit('disconnected', { reason });
      this.safeEmit('reconnecting', { attempt: failures, delayMs });
      await abortableSleep(delayMs, this.abort.signal);
    }
    this.clearStaleTimer();
    this.stopped = true;
  }

  /** Splits a byte stream into lines, tolerant of chunks that cut lines (or characters) anywhere. */
  private async *lines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
    const decoder = new TextDecoder();
    const reader = body.getReader();
    let buffer = '';
    let discarding = false;
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          if (discarding) discarding = false;
          else yield line;
          if (this.ended || this.closed) return;
        }
        if (buffer.length > this.maxLineBytes) {
          this.malformed(buffer.slice(0, 200), `line longer than ${this.maxLineBytes} bytes`);
          buffer = '';
          discarding = true;
        }
      }
      buffer += decoder.decode();
      // A final line without a newline is still a line (the peer may have closed mid-write: it
      // is then malformed and skipped, and the resume refetches it).
      if (buffer.trim() !== '' && !discarding) yield buffer;
    } finally {
      await reader.cancel().catch(() => {});
    }
  }

  /** Handles one line; true when it was a valid message ('end' for the end). */
  private handleLine(raw: string): boolean | 'end' {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return false;
    let msg: unknown;
    try {
      msg = JSON.parse(line);
    } catch {
      this.malformed(line, 'not JSON');
      return false;
    }
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) {
      this.malformed(line, 'not an object');
      return false;
    }
    const m = msg as Record<string, unknown>;
    switch (m.type) {
      case 'heartbeat':
        this.heartbeat();
        this.stats.heartbeats++;
        this.safeEmit('heartbeat', typeof m.at === 'string' ? m.at : new Date().toISOString());
        return true;
      case 'event': {
        if (!isFeedEvent(m.event)) {
          this.malformed(line, 'event lacks provider_event_id, seq, operation, type, occurred_at or data');
          return false;
        }
        const event = m.event;
        const key = dedupeKey(event);
        const isNew = !this.seen.has(key);
        const { state, verdict } = observeSequence(this.sequence, event.seq, isNew);
        this.sequence = state;
        if (!isNew) {
          this.stats.duplicates++;
          this.safeEmit('duplicate', event);
          return true;
        }
        if (verdict !== 'next') this.safeEmit('sequence', { event, verdict, resumeAfter: state.resumeAfter });
        this.seen.set(key, true);
        if (this.seen.size > this.dedupeCapacity) this.seen.delete(this.seen.keys().next().value!);
        this.stats.events++;
        this.safeEmit('event', event);
        return true;
      }
      case 'end':
        if (!this.opts.reconnectAfterEnd) {
          this.ended = true;
          this.clearStaleTimer();
        }
        this.safeEmit('end');
        return 'end';
      default:
        this.malformed(line, `unknown message type ${JSON.stringify(m.type)}`);
        return false;
    }
  }

  private malformed(line: string, reason: string): void {
    this.stats.malformed++;
    this.logger.warn({ line: line.slice(0, 200), reason }, 'push feed: malformed line skipped');
    this.safeEmit('malformed', { line, reason });
  }

  /** A listener's exception must not tear the stream down; it is logged instead. */
  private safeEmit<K extends keyof PushFeedClientEvents>(name: K, ...args: PushFeedClientEvents[K]): void {
    try {
      (this.emit as (n: K, ...a: PushFeedClientEvents[K]) => boolean)(name, ...args);
    } catch (err) {
      this.logger.warn({ listener: name, error: err instanceof Error ? err.message : String(err) }, 'push feed: a listener threw');
    }
  }

  private heartbeat(): void {
    this.lastHeartbeatAt = Date.now();
    if (this.stale) {
      this.stale = false;
      this.safeEmit('fresh');
    }
    if (!this.staleTimer && !this.ended && !this.closed) this.armStaleTimer();
  }

  private armStaleTimer(): void {
    const check = () => {
      this.staleTimer = null;
      if (this.closed || this.ended) return;
      const silent = Date.now() - this.lastHeartbeatAt;
      if (silent >= this.staleAfterMs) {
        this.stale = true;
        this.safeEmit('stale', { silentForMs: silent });
      } else this.staleTimer = setTimeout(check, this.staleAfterMs - silent);
    };
    this.staleTimer = setTimeout(check, Math.max(0, this.staleAfterMs - (Date.now() - this.lastHeartbeatAt)));
  }

  private clearStaleTimer(): void {
    if (this.staleTimer) clearTimeout(this.staleTimer);
    this.staleTimer = null;
  }
}

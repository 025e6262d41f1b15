/**
 * Runs one claimed listener: reads its feed (a live NDJSON push feed, or the
 * recording of another match replayed at a speed factor), asks the decider
 * what each event means, and applies the decisions.
 *
 * Exactly once, across crashes: the events consumed since the last commit,
 * every decision taken on them (issuances with their sponsorship slots,
 * resolutions with the answers' scoring, denials, match changes), the state
 * store, the counters, the log and the resume point are written in ONE
 * transaction, fenced by the lease (a process that lost its lease writes
 * nothing). So at every commit the database holds the result of processing
 * exactly the events up to the resume point, and a process that takes the
 * listener over (after a kill -9) rebuilds the state from those rows and
 * continues after the resume point, deciding exactly what the dead process
 * would have decided. A batch is committed at once when it holds something
 * players see (a question issued or settled, the match's status, period or
 * score changed), and otherwise every `flushEvery` events or heartbeat (the
 * claim's log line is written with the claim itself, by the store).
 * Hooks that notify players (live stream, push) run after the commit.
 */
import { stopsInGameQuestions } from '../domain/statuses.js';
import type { Logger } from '../logger.js';
import type { QuestionIssuanceRow } from '../modules/issuances/issuances.table.js';
import type { MatchListenerRow } from '../modules/listeners/listeners.table.js';
import type { MatchRow } from '../modules/matches/matches.table.js';
import type { Tx } from '../db/client.js';
import { isLive } from '../domain/vocabulary.js';
import { decide, evolve, isOver, restoreState, type Decision, type DecideContext, type EngineCatalog, type EngineState, type MatchChange } from './decider.js';
import type { FeedEvent } from '../domain/sports/events.js';
import { dedupeKey, PushFeedClient } from './feed/push-client.js';
import { abortableSleep, replay } from './feed/replay.js';
import { observeSequence, startSequence, type SequenceState } from './feed/sequence.js';
import { metrics } from '../observability/metrics.js';
import { traced } from '../observability/tracing.js';
import { LeaseLostError, type EngineStore, type LogLine, type MatchCatalogRows, type NewDenial, type ProgressValues } from './store.js';
import { publicOnlyFetch } from '../net/outbound.js';
import { nonPublicHost } from '../net/public-address.js';

/** Extension points, run after commit (scoring runs inside the settling transaction). */
export interface EngineHooks {
  onIssued?: (row: QuestionIssuanceRow) => void | Promise<void>;
  onSettled?: (row: QuestionIssuanceRow) => void | Promise<void>;
  onMatchChanged?: (matchId: string, values: Partial<MatchRow>) => void | Promise<void>;
}

export interface RunnerOptions {
  /** The claim's fencing token (`<worker id>#<n>`, new at every claim): what the lease fence checks on every write. */
  workerId: string;
  leaseMs: number;
  heartbeatMs: number;
  /** No heartbeat for this long and the feed is stale: questions stop issuing until one arrives. */
  staleAfterMs: number;
  /** Seed of the probability gate's draws. */
  seed: string;
  catalogRefreshMs: number;
  /**
   * Replays only: an open question is answerable for at least this long in
   * real time before the replay goes on (0: no hold). At x10 a question would
   * otherwise resolve a fraction of a second after it is issued.
   */
  replayMinAnswerMs?: number;
  /**
   * Feeds on local, private or reserved addresses are allowed (development,
   * tests). When false, a feed URL whose host is such an address fails the
   * listener, and names are resolved to public addresses only, at every
   * connection (a name that later resolves to a private address is refused).
   */
  feedAllowPrivateAddresses?: boolean;
  /** Events without anything players see are committed at least every this many events (and at each heartbeat). */
  flushEvery: number;
}

/**
 * How a run ended. 'lost': another process holds the lease, or the listener's row was removed; 'abandoned': a commit could not be
 * written (the database out of reach too long): this process writes nothing more and the lease
 * runs out, so another process continues from the last commit.
 */
export type RunOutcome = 'completed' | 'stopped' | 'released' | 'lost' | 'abandoned' | 'failed';

/** Logged when a running listener's row is removed under it: an operator's restart or deletion, not a takeover. */
export const LISTENER_REMOVED = 'listener removed (its test match was restarted from the beginning or deleted): this run stops, writing nothing more';

type BrandSnapshotFn = (row: NonNullable<MatchCatalogRows['matchSponsor']>) => EngineCatalog['matchSponsor'];

/** What the feed hands the run loop, in arrival order. */
type FeedItem = { kind: 'event'; event: FeedEvent } | { kind: 'duplicate'; event: FeedEvent } | { kind: 'end' };

/** A queue fed by the push client's callbacks and drained by the run loop. */
class FeedQueue {
  private items: FeedItem[] = [];
  private waiting: (() => void) | null = null;
  ended = false;
  push(item: FeedItem) {
    this.items.push(item);
    this.wake();
  }
  end() {
    this.ended = true;
    this.wake();
  }
  private wake() {
    const w = this.waiting;
    this.waiting = null;
    w?.();
  }
  async *drain(signal: AbortSignal): AsyncGenerator<FeedItem> {
    const onAbort = () => this.wake();
    signal.addEventListener('abort', onAbort);
    try {
      while (!signal.aborted) {
        const next = this.items.shift();
        if (next) {
          yield next;
          continue;
        }
        if (this.ended) return;
        await new Promise<void>((resolve) => (this.waiting = resolve));
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }
}

/** What the next commit writes: everything consumed and decided since the last one. */
interface Batch {
  events: FeedEvent[];
  decisions: Decision[];
  lines: LogLine[];
  /** The listener's alert (`error`): a text to set, null to clear, undefined to leave. */
  error?: string | null;
}

/** What a commit wrote that players are told about, after it. */
interface Applied {
  issued: QuestionIssuanceRow[];
  settled: QuestionIssuanceRow[];
  match: Partial<MatchRow>;
  /** The gate of each denial written. */
  denied: string[];
}

/** A step of the last commit (finishing, releasing), in its transaction; returns rows it settled. */
type FinalStep = (tx: Tx) => Promise<QuestionIssuanceRow[] | void>;

/** Decisions players see: committed at once. Denials, the state store and the clock wait for the next commit. */
function isOutward(d: Decision): boolean {
  if (d.type === 'issued' || d.type === 'settled') return true;
  if (d.type === 'match_changed') return Object.keys(d.values).some((k) => k !== 'clockSeconds');
  return false;
}

export class ListenerRunner {
  private readonly abort = new AbortController();
  private reason: RunOutcome | 'match_over' | null = null;
  private state!: EngineState;
  private catalog!: EngineCatalog;
  /** Dedupe keys of what this listener consumed (its recording): a redelivery is not consumed twice. */
  private readonly seen = new Set<string>();
  private sequence: SequenceState;
  private batch: Batch = { events: [], decisions: [], lines: [] };
  private nextLine = 1;
  /** listener.events_consumed = consumedBase + state.position (listeners recorded before positions existed may differ). */
  private consumedBase = 0;
  private lastEventAt: Date | null;
  private stopping = false;
  /** The feed said it ended while the match is not over: the listener is alerting (its `error`) until events come again. */
  private alerting = false;
  private client: PushFeedClient | null = null;
  private writing: Promise<void> = Promise.resolve();
  private commitsInFlight = 0;
  /** A commit gave up: nothing may be written after it (a later batch would save a resume point past the lost one). */
  private broken: Error | null = null;
  /** The match's status when it was stopped elsewhere (closed, cancelled, postponed). */
  private reasonStatus: string | null = null;

  constructor(
    readonly listener: MatchListenerRow,
    private readonly deps: { store: EngineStore; hooks: EngineHooks; logger: Logger; brandSnapshot: BrandSnapshotFn; options: RunnerOptions },
  ) {
    this.sequence = startSequence(listener.lastSeq);
    this.lastEventAt = listener.lastEventAt;
  }

  /** Stops the run: 'released' hands the listener back to the queue (shutdown), 'stopped' ends it. */
  halt(reason: RunOutcome | 'match_over'): void {
    this.reason ??= reason;
    this.abort.abort();
  }

  private log(level: LogLine['level'], message: string): void {
    this.batch.lines.push({ level, message, at: new Date() });
    if (level !== 'debug')
      this.deps.logger[level === 'error' ? 'error' : level === 'warn' ? 'warn' : 'debug'](
        { listener: this.listener.id, match: this.listener.matchId },
        message,
      );
  }

  private toCatalog(ctx: MatchCatalogRows): EngineCatalog {
    return {
      league: ctx.league,
      match: ctx.match,
      definitions: ctx.definitions,
      groups: ctx.groups,
      matchSponsor: ctx.matchSponsor ? this.deps.brandSnapshot(ctx.matchSponsor) : null,
    };
  }

  private context(): DecideContext {
    const { options } = this.deps;
    return {
      catalog: this.catalog,
      seed: options.seed,
      now: new Date(),
      // A replay has no heartbeats: its feed is the recording, always current.
      feedFresh: this.client ? !this.client.isStale : true,
      staleAfterMs: options.staleAfterMs,
      stopping: this.stopping,
    };
  }

  /** Loads what the database says this listener has done: the state to continue from. */
  private async load(): Promise<void> {
    const { store } = this.deps;
    const l = this.listener;
    const ctx = await store.matchCatalog(l.matchId);
    if (!ctx) throw new Error(`match ${l.matchId} no longer exists`);
    this.catalog = this.toCatalog(ctx);
    const { issuances, deniedKeys } = await store.matchDecisions(l.matchId);
    const recording = l.eventsConsumed > 0 ? await store.listenerRecording(l.id) : [];
    this.state = restoreState({
      match: ctx.match,
      // The store starts from what the match's Match questions stored before kick-off; what this listener saved comes on top.
      store: { ...ctx.match.stateStore, ...l.stateStore },
      counters: { issued: l.issuedCount, denied: l.deniedCount, resolved: l.resolvedCount },
      recording,
      issuances,
      deniedKeys,
    });
    for (const e of recording) this.seen.add(dedupeKey(e));
    this.sequence = startSequence(
      l.lastSeq,
      recording.map((e) => e.seq),
    );
    this.consumedBase = l.eventsConsumed - this.state.position;
  }

  private async source(): Promise<AsyncIterable<FeedItem> | string> {
    const l = this.listener;
    const { store, options } = this.deps;
    if (l.source === 'replay') {
      if (!l.replayMatchId) return 'replay listener without a match to replay';
      const events = await store.matchRecording(l.replayMatchId);
      if (!events.length) return `match ${l.replayMatchId} has no recorded events to replay`;
      if (l.eventsTotal !== events.length) await store.saveProgress({ id: l.id, workerId: options.workerId, values: { eventsTotal: events.length } });
      // A takeover resumes after what this listener consumed (the recording has no duplicates: a position is a count).
      const skip = Math.min(this.state.position, events.length);
      this.log(
        'info',
        `replaying ${events.length} recorded events of match ${l.replayMatchId} at speed ${l.speed ?? 1}${skip ? `, resuming after ${skip} consumed` : ''}`,
      );
      const signal = this.abort.signal;
      const hold = () => this.replayHold(signal);
      return (async function* () {
        for await (const event of replay(events, { speed: l.speed ?? 1, signal, skip })) {
          await hold();
          yield { kind: 'event', event } as FeedItem;
        }
      })();
    }
    if (!l.feedUrl) return 'feed listener without a feed URL';
    let publicFetch: typeof fetch | undefined;
    if (options.feedAllowPrivateAddresses === false) {
      const refusal = nonPublicHost(new URL(l.feedUrl));
      if (refusal) return `feed URL refused: ${refusal} (feeds must be on the public internet; FEED_ALLOW_PRIVATE_ADDRESSES=true allows others)`;
      publicFetch = await publicOnlyFetch();
    }
    const queue = new FeedQueue();
    const client = new PushFeedClient({
      url: l.feedUrl,
      afterSeq: this.sequence.resumeAfter,
      staleAfterMs: options.staleAfterMs,
      reconnectAfterEnd: true,
      logger: { warn: (details, message) => this.log('warn', `${message} ${JSON.stringify(details)}`) },
      ...(publicFetch ? { fetch: publicFetch } : {}),
    });
    this.client = client;
    client.on('event', (event) => queue.push({ kind: 'event', event }));
    client.on('duplicate', (event) => queue.push({ kind: 'duplicate', event }));
    client.on('end', () => queue.push({ kind: 'end' }));
    client.on('stale', ({ silentForMs }) =>
      this.log('warn', `feed stale: no heartbeat for ${Math.round(silentForMs / 100) / 10} s; not issuing until one arrives`),
    );
    client.on('fresh', () => this.log('info', 'feed fresh again'));
    client.on('connected', ({ attempt }) => this.log('info', `connected to the feed (attempt ${attempt})`));
    client.on('disconnected', ({ reason }) => this.log('warn', `feed disconnected: ${reason}`));
    this.abort.signal.addEventListener('abort', () => void client.close());
    void client.start().finally(() => queue.end());
    this.log('info', `reading feed ${l.feedUrl}${this.sequence.resumeAfter ? ` after seq ${this.sequence.resumeAfter}` : ''}`);
    return queue.drain(this.abort.signal);
  }

  /**
   * A replay waits before its next event while a question it issued has been
   * open for less than `replayMinAnswerMs` (real time): the questions of a fast
   * replay stay answerable for that long before anything can resolve them.
   * Only when events arrive changes; what they decide does not.
   */
  private async replayHold(signal: AbortSignal): Promise<void> {
    const minMs = this.deps.options.replayMinAnswerMs ?? 0;
    if (minMs <= 0) return;
    let until = 0;
    for (const q of this.state.open.values()) until = Math.max(until, Date.parse(q.issuedAt) + minMs);
    const wait = until - Date.now();
    if (wait > 0) await abortableSleep(wait, signal);
  }

  async run(): Promise<RunOutcome> {
    const { store, options, logger } = this.deps;
    const l = this.listener;
    let outcome: RunOutcome | 'match_over' | 'replay_ended' = 'completed';
    let error: string | null = null;
    const timers: NodeJS.Timeout[] = [];
    try {
      this.nextLine = await store.nextLogLine(l.id);
      await this.load();
      const source = await this.source();
      if (typeof source === 'string') throw new Error(source);
      timers.push(setInterval(() => void this.heartbeat(), options.heartbeatMs));
      timers.push(setInterval(() => void this.refreshCatalog(), options.catalogRefreshMs));

      for await (const item of source) {
        if (this.abort.signal.aborted) break;
        if (item.kind === 'end') {
          if (this.feedEnded()) break;
          continue;
        }
        if (item.kind === 'duplicate') {
          this.sequence = observeSequence(this.sequence, item.event.seq, false).state;
          continue;
        }
        await this.consume(item.event);
        if (this.state.live.status === 'closed') break;
      }
      if (this.broken) throw this.broken;
      if (this.abort.signal.aborted) outcome = this.reason ?? 'stopped';
      else if (!isOver(this.state)) outcome = 'replay_ended';
    } catch (err) {
      if (err instanceof LeaseLostError) {
        // Taken over while this process could not renew (the database was out of reach): the new owner carries on.
        // Removed (an operator restarted the replay or deleted the match): nobody carries on, and nothing is wrong.
        if (err.removed) logger.info({ listener: l.id }, LISTENER_REMOVED);
        else logger.warn({ listener: l.id }, 'lease lost: another process has taken this listener over; this one stops writing');
        outcome = 'lost';
      } else if (this.broken) {
        logger.error(
          { err, listener: l.id },
          'a commit could not be written: this process stops writing; another takes the listener over from its last commit when the lease runs out',
        );
        outcome = 'abandoned';
      } else {
        outcome = 'failed';
        error = (err as Error).message;
        this.log('error', `failed: ${error}`);
        logger.error({ err, listener: l.id }, 'listener failed');
      }
    } finally {
      for (const t of timers) clearInterval(t);
      metrics.listenerLag.remove({ listener: l.id });
      // However the run ended (the match closed, the feed said it is over, a stop, a failure): its feed client goes
      // with it, connection, back-off and staleness timers and all, and says nothing more.
      await this.closeFeed();
    }
    if (outcome === 'lost' || outcome === 'abandoned') return outcome;
    try {
      await this.finish(outcome, error);
    } catch (err) {
      if (err instanceof LeaseLostError) return 'lost';
      logger.error({ err, listener: l.id }, 'could not finish the listener');
    }
    return outcome === 'match_over' || outcome === 'replay_ended' ? 'completed' : outcome;
  }

  /** Closes the feed client, if any: no connection, reconnect, timer or log line of it outlives the run. */
  private async closeFeed(): Promise<void> {
    const client = this.client;
    if (!client) return;
    client.removeAllListeners();
    await client.close();
  }

  /** The last commit: what is pending, and how the listener ends, in one transaction. */
  private async finish(outcome: RunOutcome | 'match_over' | 'replay_ended', error: string | null): Promise<void> {
    const { store, options } = this.deps;
    const l = this.listener;
    const who = { id: l.id, workerId: options.workerId };
    const voidOpen = (status: 'revoked' | 'voided', why: string) => async (tx: Tx) => {
      const rows = await store.settleOpenOfMatch(l.matchId, status, tx);
      // Logged in the same transaction, after the batch's own lines.
      if (rows.length)
        await store.writeLog(
          {
            listenerId: l.id,
            firstLineNo: this.nextLine++,
            lines: [{ level: 'info', message: `${rows.length} open question${rows.length === 1 ? '' : 's'} ${status}: ${why}` }],
          },
          tx,
        );
      return rows;
    };
    const end = (status: 'completed' | 'stopped' | 'failed', last: string) => async (tx: Tx) => {
      await store.writeLog({ listenerId: l.id, firstLineNo: this.nextLine++, lines: [{ level: 'info', message: last }] }, tx);
      await store.finish({ ...who, status, error }, tx);
    };
    switch (outcome) {
      case 'released':
        this.log('info', 'released for another process (shutdown)');
        return this.commit((tx) => store.release(who, tx));
      case 'completed':
        this.log(
          'info',
          `match ${this.state.live.status}; ${this.consumedBase + this.state.position} events recorded${this.state.live.status === 'closed' ? ' and archived' : ''}`,
        );
        return this.commit(async (tx) => {
          if (this.state.live.status === 'closed') await store.updateMatch(l.matchId, { listenerEventsArchived: true }, tx);
          await end('completed', 'listener completed')(tx);
        });
      case 'stopped': {
        // A test match stopped in play ends (no result): nothing else would end it. Last in the transaction, after
        // whatever the batch decided, so a batch committed after the stop was asked cannot leave it live.
        const endsTest = Boolean(this.catalog?.match.isTest) && isLive.has(this.state?.live.status);
        await this.commit(async (tx) => {
          const rows = await voidOpen('revoked', 'the listener was stopped, they can no longer resolve')(tx);
          if (endsTest) await store.updateMatch(l.matchId, { status: 'ended' }, tx);
          await end('stopped', 'listener stopped')(tx);
          return rows;
        });
        if (endsTest) await this.deps.hooks.onMatchChanged?.(l.matchId, { status: 'ended' });
        return;
      }
      case 'match_over':
        return this.commit(async (tx) => {
          const rows = await voidOpen('voided', `the match is ${this.reasonStatus ?? 'over'}, they can no longer resolve`)(tx);
          await end('completed', 'listener completed')(tx);
          return rows;
        });
      case 'replay_ended':
        // The recording has nothing more and no retry can bring more: play is over without a result.
        this.log('warn', `the replay ended before the match closed (status ${this.state.live.status}): the test match ends without a result`);
        await this.commit(async (tx) => {
          const rows = await voidOpen('voided', 'the replay ended before the match closed, they can no longer resolve')(tx);
          await store.updateMatch(l.matchId, { status: 'ended' }, tx);
          await end('completed', 'listener completed')(tx);
          return rows;
        });
        // Followers see it end like any match.
        if (this.state.live.status !== 'ended') await this.deps.hooks.onMatchChanged?.(l.matchId, { status: 'ended' });
        return;
      case 'failed':
        return this.commit(end('failed', 'listener failed'));
      default:
        return;
    }
  }

  /**
   * The feed said it ended. Over (ended or closed): the listener completes. Not over: the
   * feed ended too early (a provider fault); never complete while the match is still to
   * be played: alert (log, the listener's `error`) and let the client reconnect with back-off.
   */
  private feedEnded(): boolean {
    if (isOver(this.state)) return true;
    if (!this.alerting) {
      this.alerting = true;
      const message = `the feed ended before the match was over (status ${this.state.live.status}): reconnecting with back-off`;
      this.log('warn', message);
      this.batch.error = message;
    }
    return false;
  }

  /** One event from the feed, in a span of its own when tracing runs (its decisions, commit and deliveries are its children). */
  private consume(event: FeedEvent): Promise<void> {
    const l = this.listener;
    if (l.source === 'feed') {
      const lag = (Date.now() - Date.parse(event.occurred_at)) / 1000;
      if (Number.isFinite(lag)) metrics.listenerLag.set({ listener: l.id }, Math.max(0, lag));
    }
    return traced(
      'engine.event',
      { 'qp.match_id': l.matchId, 'qp.listener_id': l.id, 'qp.event.type': event.type, 'qp.event.id': event.provider_event_id },
      () => this.consumeEvent(event),
    );
  }

  /** Dedupe, decide, fold, and commit when players should see it now. */
  private async consumeEvent(event: FeedEvent): Promise<void> {
    const key = dedupeKey(event);
    const isNew = !this.seen.has(key);
    const before = this.sequence;
    const { state: sequence, verdict } = observeSequence(before, event.seq, isNew);
    if (!isNew) {
      this.sequence = sequence;
      return;
    }
    const decisions = await decide(this.state, event, this.context());
    // From here to the commit check nothing awaits: a heartbeat's commit sees all of this event or none of it.
    this.sequence = sequence;
    if (verdict === 'jump' && before.ahead.size === 0) {
      this.log(
        'warn',
        `seq jump: ${event.provider_event_id} has seq ${event.seq} after ${before.resumeAfter}; processed, but the resume point stays at ${before.resumeAfter} until the gap fills`,
      );
    } else if (verdict === 'regression') {
      this.log(
        'warn',
        `seq regression: ${event.provider_event_id} has seq ${event.seq}, not after the resume point ${before.resumeAfter}; new content, processed`,
      );
    } else if (verdict === 'restart') {
      this.log('warn', `the feed restarted its numbering: ${event.provider_event_id} has seq 1 after ${before.resumeAfter}; resuming from there`);
    }
    let outward = false;
    for (const d of decisions) {
      this.state = evolve(this.state, d);
      this.describe(d);
      outward ||= isOutward(d);
    }
    this.seen.add(key);
    this.batch.events.push(event);
    this.batch.decisions.push(...decisions);
    this.lastEventAt = new Date();
    if (this.alerting) {
      this.alerting = false;
      this.batch.error = null;
      this.log('info', 'events again after the feed ended early');
    }
    if (outward || this.batch.events.length >= this.deps.options.flushEvery) await this.commit();
  }

  private describe(d: Decision): void {
    switch (d.type) {
      case 'issued': {
        const q = d.question;
        this.log(
          'info',
          `issued '${q.definitionName}'${q.questionNumber !== null ? ` #${q.questionNumber}` : ' (pivotal)'} on ${(q.triggerEvent as { type: string }).type} ${q.triggerEventId}: ${q.questionText}`,
        );
        return;
      }
      case 'denied':
        this.log('debug', `denied '${d.denial.definitionName}' on ${d.denial.triggerEventId} at ${d.denial.failedStep}: ${d.denial.detail}`);
        return;
      case 'settled':
        this.log('info', `${d.status} '${d.definitionName}' #${d.questionNumber ?? 'pivotal'}: ${d.reason}`);
        return;
      case 'warned':
        this.log('warn', d.message);
        return;
      default:
        return;
    }
  }

  /**
   * Writes the batch (and `final`) in one transaction, then tells players. Commits run
   * one after the other, each taking the batch as it is when it starts. A failed write
   * keeps its batch and is retried (the database may be out of reach for a while);
   * a lost lease is not retried: the new owner carries on from the last commit.
   */
  private commit(final?: FinalStep): Promise<void> {
    this.commitsInFlight += 1;
    const run = this.writing.then(() => this.write(final)).finally(() => (this.commitsInFlight -= 1));
    this.writing = run.catch(() => {});
    return run;
  }

  private async write(final?: FinalStep): Promise<void> {
    const { store, options } = this.deps;
    const l = this.listener;
    if (this.broken) throw this.broken;
    const batch = this.batch;
    if (!final && !batch.events.length && !batch.lines.length && batch.error === undefined) return;
    this.batch = { events: [], decisions: [], lines: [] };
    const firstLineNo = this.nextLine;
    this.nextLine += batch.lines.length;
    const progress: ProgressValues = {
      lastSeq: this.sequence.resumeAfter,
      eventsConsumed: this.consumedBase + this.state.position,
      lastEventAt: this.lastEventAt,
      stateStore: this.state.store,
      issuedCount: this.state.counters.issued,
      deniedCount: this.state.counters.denied,
      resolvedCount: this.state.counters.resolved,
      ...(batch.error !== undefined ? { error: batch.error } : {}),
    };
    let applied: Applied | undefined;
    for (let attempt = 1; ; attempt++) {
      try {
        applied = await store.transaction(async (tx) => {
          await store.holdLease({ listenerId: l.id, workerId: options.workerId }, tx);
          await store.recordEvents({ listenerId: l.id, matchId: l.matchId, events: batch.events }, tx);
          const out = await this.apply(tx, batch.decisions);
          await store.writeLog({ listenerId: l.id, firstLineNo, lines: batch.lines }, tx);
          await store.saveProgress({ id: l.id, workerId: options.workerId, leaseMs: options.leaseMs, values: progress }, tx);
          const settled = final ? await final(tx) : undefined;
          if (settled) out.settled.push(...settled);
          return out;
        });
        break;
      } catch (err) {
        if (err instanceof LeaseLostError) throw err;
        // Out of reach for long (or a write that can never succeed): give up; a later run starts from the last commit.
        if (attempt >= (this.abort.signal.aborted ? 3 : 30)) {
          this.broken = err as Error;
          this.halt('abandoned');
          throw err;
        }
        this.deps.logger.warn({ err, listener: l.id, attempt }, 'listener commit failed; retrying');
        await abortableSleep(Math.min(5000, 100 * 2 ** attempt));
      }
    }
    await this.afterCommit(applied!);
  }

  /** Applies decisions in the batch's transaction, in the order decided. */
  private async apply(tx: Tx, decisions: Decision[]): Promise<Applied> {
    const { store } = this.deps;
    const l = this.listener;
    const out: Applied = { issued: [], settled: [], match: {}, denied: [] };
    const denials: NewDenial[] = [];
    const match: MatchChange = {};
    for (const d of decisions) {
      switch (d.type) {
        case 'issued': {
          const q = d.question;
          const row = await store.insertIssuance(
            {
              values: {
                ...q,
                matchId: l.matchId,
                kind: 'in_game',
                status: 'open',
                closesAt: new Date(q.issuedAt.getTime() + q.answerWindowSeconds * 1000),
                listenerId: l.id,
              },
              earlierPeriods: d.earlierPeriods,
            },
            tx,
          );
          if (row) out.issued.push(row);
          break;
        }
        case 'settled': {
          const row = await store.settleByTrigger(
            {
              matchId: l.matchId,
              definitionId: d.definitionId,
              triggerEventId: d.triggerEventId,
              status: d.status,
              correct: d.correct,
              resolvedSeq: d.eventSeq,
              resolutionEventId: d.eventId,
            },
            tx,
          );
          if (row) out.settled.push(row);
          break;
        }
        case 'denied':
          denials.push({ ...d.denial, matchId: l.matchId, listenerId: l.id });
          break;
        case 'match_changed':
          Object.assign(match, d.values);
          break;
        default:
          break;
      }
    }
    await store.insertDenials(denials, tx);
    out.denied = denials.map((d) => d.failedStep);
    if (Object.keys(match).length) await store.updateMatch(l.matchId, match, tx);
    const { clockSeconds: _clock, ...seen } = match;
    out.match = seen;
    return out;
  }

  private async afterCommit(applied: Applied): Promise<void> {
    const { hooks } = this.deps;
    for (const gate of applied.denied) metrics.denials.inc({ gate });
    for (const row of applied.issued) await hooks.onIssued?.(row);
    for (const row of applied.settled) await hooks.onSettled?.(row);
    if (Object.keys(applied.match).length) await hooks.onMatchChanged?.(this.listener.matchId, applied.match);
  }

  private heartbeatBusy = false;
  /** Renews the lease, notices a stop request, and commits what waits (denials, the state store, the clock, log lines). */
  private async heartbeat(): Promise<void> {
    if (this.heartbeatBusy || this.abort.signal.aborted) return;
    this.heartbeatBusy = true;
    const { store, options, logger } = this.deps;
    try {
      const { owned, stopRequested, removed } = await store.renew({ id: this.listener.id, workerId: options.workerId, leaseMs: options.leaseMs });
      if (!owned) {
        if (removed) logger.info({ listener: this.listener.id }, LISTENER_REMOVED);
        else logger.warn({ listener: this.listener.id }, 'lease lost: another process has taken this listener over');
        this.halt('lost');
        return;
      }
      if (stopRequested) {
        this.stopping = true;
        this.log('info', 'stop requested by an operator');
        this.halt('stopped');
        return;
      }
    } catch (err) {
      // The database out of reach for a moment: the next heartbeat tries again (a commit retries on its own).
      logger.warn({ err, listener: this.listener.id }, 'heartbeat failed');
      return;
    } finally {
      this.heartbeatBusy = false;
    }
    // The run loop commits what players see at once; the rest waits for this (unless a commit is under way).
    if (this.commitsInFlight) return;
    try {
      await this.commit();
    } catch (err) {
      // A lost lease or a commit that gave up: the run loop ends on the abort.
      if (err instanceof LeaseLostError) this.halt('lost');
    }
  }

  private async refreshCatalog(): Promise<void> {
    if (!this.catalog || this.abort.signal.aborted) return;
    try {
      const ctx = await this.deps.store.matchCatalog(this.listener.matchId);
      if (!ctx) return;
      // Closed, cancelled or postponed elsewhere (schedule sync, an operator): nothing here can resolve any more.
      if (stopsInGameQuestions.has(ctx.match.status) && ctx.match.status !== this.state.live.status) {
        this.reasonStatus = ctx.match.status;
        this.log('info', `the match was ${ctx.match.status} elsewhere: the listener completes`);
        this.halt('match_over');
        return;
      }
      // Definitions, groups, overrides and the sponsor may have been edited; the live fields are the state's.
      this.catalog = this.toCatalog(ctx);
    } catch (err) {
      this.deps.logger.warn({ err, listener: this.listener.id }, 'catalog refresh failed');
    }
  }
}

/**
 * Runs one claimed listener: reads its feed (a live NDJSON push feed, or the
 * recording of another match replayed at a speed factor), hands each event to
 * the match engine, records what it consumed, writes its log, and renews its
 * lease by heartbeat. If the lease is lost (another process took over after
 * this one stalled) it stops at once; a takeover resumes after the last saved
 * feed position, and everything it repeats is idempotent.
 */
import type { Logger } from '../logger.js';
import type { QuestionIssuanceRow } from '../modules/issuances/issuances.table.js';
import type { MatchListenerRow } from '../modules/listeners/listeners.table.js';
import type { MatchRow } from '../modules/matches/matches.table.js';
import type { FeedEvent } from './feed/events.js';
import { PushFeedClient } from './feed/push-client.js';
import { replay } from './feed/replay.js';
import { MatchEngine, type EngineCatalog, type EngineEffects } from './match-engine.js';
import { LeaseLostError, type EngineStore, type LogLine, type MatchCatalogRows, type NewDenial } from './store.js';

/** Extension points, run after commit (scoring runs inside the store's settling transaction). */
export interface EngineHooks {
  onIssued?: (row: QuestionIssuanceRow) => void | Promise<void>;
  onSettled?: (row: QuestionIssuanceRow) => void | Promise<void>;
  onMatchChanged?: (matchId: string, values: Partial<MatchRow>) => void | Promise<void>;
}

export interface RunnerOptions {
  workerId: string;
  leaseMs: number;
  heartbeatMs: number;
  /** A feed silent this long is stale: questions stop issuing until it speaks again. */
  staleAfterMs: number;
  /** Seed of the probability gate's draws. */
  seed: string;
  catalogRefreshMs: number;
  /** Recorded events and progress are written at least every this many events (and at each heartbeat). */
  flushEvery: number;
}

export type RunOutcome = 'completed' | 'stopped' | 'released' | 'lost' | 'failed';

type BrandSnapshotFn = (row: NonNullable<MatchCatalogRows['matchSponsor']>) => EngineCatalog['matchSponsor'];

/** A queue fed by the push client's callbacks and drained by the run loop. */
class EventQueue {
  private items: FeedEvent[] = [];
  private waiting: (() => void) | null = null;
  ended = false;
  push(e: FeedEvent) {
    this.items.push(e);
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
  async *drain(signal: AbortSignal): AsyncGenerator<FeedEvent> {
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

export class ListenerRunner {
  private readonly abort = new AbortController();
  private reason: RunOutcome | null = null;
  private lines: LogLine[] = [];
  private nextLine = 1;
  private pending: FeedEvent[] = [];
  /** Denials decided since the last flush: written with the events they came from, one statement per flush. */
  private pendingDenials: NewDenial[] = [];
  /** The last flush started (settled either way): the next one waits for it. */
  private flushed: Promise<unknown> = Promise.resolve();
  private deferredMatch: Partial<MatchRow> = {};
  private feedFresh = true;
  private stopping = false;
  private lastSeq: number;
  private consumed: number;
  private lastEventAt: Date | null;
  private engine: MatchEngine | null = null;

  constructor(
    readonly listener: MatchListenerRow,
    private readonly deps: { store: EngineStore; hooks: EngineHooks; logger: Logger; brandSnapshot: BrandSnapshotFn; options: RunnerOptions },
  ) {
    this.lastSeq = listener.lastSeq;
    this.consumed = listener.eventsConsumed;
    this.lastEventAt = listener.lastEventAt;
  }

  /** Stops the run: 'released' hands the listener back to the queue (shutdown), 'stopped' ends it. */
  halt(reason: 'released' | 'stopped' | 'lost'): void {
    this.reason ??= reason;
    this.abort.abort();
  }

  private log(level: LogLine['level'], message: string): void {
    this.lines.push({ level, message, at: new Date() });
    if (level !== 'debug') this.deps.logger[level === 'error' ? 'error' : level === 'warn' ? 'warn' : 'debug']({ listener: this.listener.id, match: this.listener.matchId }, message);
  }

  /**
   * Writes what was handled since the last flush. The run loop and the heartbeat both flush:
   * one flush waits for the one before it, so batches are written in order and the resume
   * point saved never overtakes events another flush is still recording.
   */
  private flush(): Promise<boolean> {
    const next = this.flushed.then(() => this.writeBatch());
    this.flushed = next.catch(() => false);
    return next;
  }

  /** Writes the buffered log lines, numbering them before the write: writes that overlap never share a number. */
  private async writeLog(): Promise<void> {
    const lines = this.lines;
    this.lines = [];
    const firstLineNo = this.nextLine;
    this.nextLine += lines.length;
    await this.deps.store.log({ listenerId: this.listener.id, firstLineNo, lines });
  }

  private async writeBatch(): Promise<boolean> {
    const { store, options } = this.deps;
    // The resume point saved is the one of the events recorded by this flush, never beyond:
    // events handled meanwhile are in the next batch.
    const events = this.pending;
    this.pending = [];
    const denials = this.pendingDenials;
    this.pendingDenials = [];
    const saved = { lastSeq: this.lastSeq, eventsConsumed: this.consumed, lastEventAt: this.lastEventAt, stateStore: this.engine?.state };
    await store.recordEvents({ listenerId: this.listener.id, matchId: this.listener.matchId, events });
    await store.insertDenials(denials);
    if (Object.keys(this.deferredMatch).length) {
      const values = this.deferredMatch;
      this.deferredMatch = {};
      await store.updateMatch(this.listener.matchId, values);
    }
    await this.writeLog();
    const counters = this.engine?.counters;
    return store.progress({
      id: this.listener.id,
      workerId: options.workerId,
      values: {
        lastSeq: saved.lastSeq,
        eventsConsumed: saved.eventsConsumed,
        lastEventAt: saved.lastEventAt,
        ...(saved.stateStore ? { stateStore: saved.stateStore } : {}),
        ...(counters ? { issuedCount: this.listener.issuedCount + counters.issued, deniedCount: this.listener.deniedCount + counters.denied, resolvedCount: this.listener.resolvedCount + counters.resolved } : {}),
      },
    });
  }

  private catalog(ctx: MatchCatalogRows): EngineCatalog {
    return { league: ctx.league, match: ctx.match, definitions: ctx.definitions, groups: ctx.groups, matchSponsor: ctx.matchSponsor ? this.deps.brandSnapshot(ctx.matchSponsor) : null };
  }

  private effects(): EngineEffects {
    const { store, hooks } = this.deps;
    return {
      issue: async (values, earlierPeriods) => {
        const row = await store.insertIssuance({ values, earlierPeriods, lease: { listenerId: this.listener.id, workerId: this.deps.options.workerId } });
        if (row) await hooks.onIssued?.(row);
        return row;
      },
      deny: async (values) => {
        // Written with the next flush, before the resume point that covers their event.
        this.pendingDenials.push(values);
      },
      settle: async (issuance, outcome) => {
        const row = await store.settleIssuance({
          id: issuance.id,
          status: outcome.status,
          correct: outcome.correct,
          resolvedSeq: outcome.event?.seq ?? null,
          resolutionEventId: outcome.event?.provider_event_id ?? null,
        });
        if (row) await hooks.onSettled?.(row);
        return Boolean(row);
      },
      matchChanged: async (values) => {
        // The clock moves with almost every event: it is written with the next flush only.
        const { clockSeconds, ...rest } = values;
        if (clockSeconds !== undefined) this.deferredMatch.clockSeconds = clockSeconds;
        if (Object.keys(rest).length) {
          await store.updateMatch(this.listener.matchId, rest);
          await hooks.onMatchChanged?.(this.listener.matchId, rest);
        }
      },
      log: (level, message) => this.log(level, message),
    };
  }

  private async source(): Promise<AsyncIterable<FeedEvent> | string> {
    const l = this.listener;
    if (l.source === 'replay') {
      if (!l.replayMatchId) return 'replay listener without a match to replay';
      const events = await this.deps.store.matchRecording(l.replayMatchId);
      if (!events.length) return `match ${l.replayMatchId} has no recorded events to replay`;
      if (l.eventsTotal !== events.length) await this.deps.store.progress({ id: l.id, workerId: this.deps.options.workerId, values: { eventsTotal: events.length } });
      this.log('info', `replaying ${events.length} recorded events of match ${l.replayMatchId} at speed ${l.speed ?? 1}${l.lastSeq ? `, resuming after seq ${l.lastSeq}` : ''}`);
      return replay(events, { speed: l.speed ?? 1, signal: this.abort.signal, startAfterSeq: l.lastSeq });
    }
    if (!l.feedUrl) return 'feed listener without a feed URL';
    const queue = new EventQueue();
    const client = new PushFeedClient({
      url: l.feedUrl,
      afterSeq: l.lastSeq,
      staleAfterMs: this.deps.options.staleAfterMs,
      logger: { warn: (details, message) => this.log('warn', `${message} ${JSON.stringify(details)}`) },
    });
    client.on('event', (e) => queue.push(e));
    client.on('end', () => queue.end());
    client.on('stale', ({ silentForMs }) => {
      if (!this.feedFresh) return;
      this.feedFresh = false;
      this.log('warn', `feed stale: nothing for ${Math.round(silentForMs / 1000)} s; not issuing until it resumes`);
    });
    // Only a heartbeat makes a stale feed fresh again. The client's 'fresh' also fires on an
    // event, just before it is queued: the event that ends a silence would then always find
    // the feed fresh, and listener_running could never close.
    client.on('heartbeat', () => {
      if (this.feedFresh) return;
      this.feedFresh = true;
      this.log('info', 'feed fresh again');
    });
    client.on('connected', ({ attempt }) => this.log('info', `connected to the feed (attempt ${attempt})`));
    client.on('disconnected', ({ reason }) => this.log('warn', `feed disconnected: ${reason}`));
    this.abort.signal.addEventListener('abort', () => void client.close());
    void client.start().finally(() => queue.end());
    this.log('info', `reading feed ${l.feedUrl}${l.lastSeq ? ` after seq ${l.lastSeq}` : ''}`);
    return queue.drain(this.abort.signal);
  }

  async run(): Promise<RunOutcome> {
    const { store, options, logger } = this.deps;
    const l = this.listener;
    let outcome: RunOutcome = 'completed';
    let error: string | null = null;
    const timers: NodeJS.Timeout[] = [];
    try {
      this.nextLine = await store.nextLogLine(l.id);
      this.log('info', `claimed by ${options.workerId}${l.lastSeq ? ` (taking over after seq ${l.lastSeq})` : ''}`);
      const ctx = await store.matchCatalog(l.matchId);
      if (!ctx) throw new Error(`match ${l.matchId} no longer exists`);
      const { issuances, deniedKeys } = await store.matchDecisions(l.matchId);
      this.engine = new MatchEngine(this.catalog(ctx), issuances, this.effects(), {
        seed: options.seed,
        listenerId: l.id,
        now: () => new Date(),
        // The store starts from what the match's Match questions stored before kick-off; what this listener saved comes on top.
        state: { ...ctx.match.stateStore, ...l.stateStore },
        deniedKeys,
      });
      if (l.lastSeq > 0) this.engine.restore((await store.matchRecording(l.matchId)).filter((e) => e.seq <= l.lastSeq));
      const source = await this.source();
      if (typeof source === 'string') throw new Error(source);

      timers.push(
        setInterval(() => {
          void this.heartbeat();
        }, options.heartbeatMs),
      );
      timers.push(
        setInterval(() => {
          void this.refreshCatalog();
        }, options.catalogRefreshMs),
      );

      for await (const event of source) {
        if (this.abort.signal.aborted) break;
        await this.engine.handle(event, { feedFresh: this.feedFresh, stopping: this.stopping });
        this.pending.push(event);
        if (event.seq > this.lastSeq) this.lastSeq = event.seq;
        this.consumed += 1;
        this.lastEventAt = new Date();
        if (this.pending.length >= options.flushEvery) await this.flush();
        if (this.engine.status === 'closed') break;
      }
      if (this.abort.signal.aborted) outcome = this.reason ?? 'stopped';
      else if (this.engine.status !== 'closed') this.log('warn', `the feed ended before the match closed (status ${this.engine.status})`);
    } catch (err) {
      if (err instanceof LeaseLostError) {
        // Taken over while this process could not renew (the database was out of reach): the new owner carries on.
        logger.warn({ listener: l.id }, 'lease lost: another process has taken this listener over; this one stops writing');
        outcome = 'lost';
      } else {
        outcome = 'failed';
        error = (err as Error).message;
        this.log('error', `failed: ${error}`);
        logger.error({ err, listener: l.id }, 'listener failed');
      }
    } finally {
      for (const t of timers) clearInterval(t);
    }

    try {
      if (outcome === 'lost') {
        // Another process owns it now; write nothing more.
        return outcome;
      }
      await this.flush();
      if (outcome === 'released') {
        this.log('info', 'released for another process (shutdown)');
        await this.writeLog();
        await store.release({ id: l.id, workerId: options.workerId });
        return outcome;
      }
      if (outcome === 'completed' && this.engine?.status === 'closed') {
        await store.updateMatch(l.matchId, { listenerEventsArchived: true });
        this.log('info', `match closed; ${this.consumed} events recorded and archived`);
      }
      if (outcome === 'stopped') await this.revokeOpen('revoked');
      // The feed ended before the match closed: nothing will resolve what is still open (no listener is dispatched again).
      if (outcome === 'completed' && this.engine && this.engine.status !== 'closed') await this.revokeOpen('voided');
      this.log('info', `listener ${outcome}`);
      await this.writeLog();
      await store.finish({ id: l.id, workerId: options.workerId, status: outcome === 'stopped' ? 'stopped' : outcome === 'failed' ? 'failed' : 'completed', error });
    } catch (err) {
      logger.error({ err, listener: l.id }, 'could not finish the listener');
    }
    return outcome;
  }

  /** Open questions of the match can no longer resolve once its listener is stopped (revoked) or its feed ended early (voided); their answers score void. */
  private async revokeOpen(status: 'revoked' | 'voided'): Promise<void> {
    const { store, hooks } = this.deps;
    const settled = await store.revokeOpenIssuances(this.listener.matchId, status);
    if (settled.length) this.log('info', `${settled.length} open question${settled.length === 1 ? '' : 's'} ${status}: they can no longer resolve`);
    for (const row of settled) await hooks.onSettled?.(row);
  }

  private heartbeatBusy = false;
  private async heartbeat(): Promise<void> {
    if (this.heartbeatBusy || this.abort.signal.aborted) return;
    this.heartbeatBusy = true;
    try {
      const { store, options } = this.deps;
      const { owned, stopRequested } = await store.renew({ id: this.listener.id, workerId: options.workerId, leaseMs: options.leaseMs });
      if (!owned) {
        this.deps.logger.warn({ listener: this.listener.id }, 'lease lost: another process has taken this listener over');
        this.halt('lost');
        return;
      }
      if (stopRequested) {
        this.stopping = true;
        this.log('info', 'stop requested by an operator');
        this.halt('stopped');
        return;
      }
      await this.flush();
    } catch (err) {
      this.deps.logger.warn({ err, listener: this.listener.id }, 'heartbeat failed');
    } finally {
      this.heartbeatBusy = false;
    }
  }

  private async refreshCatalog(): Promise<void> {
    if (!this.engine || this.abort.signal.aborted) return;
    try {
      const ctx = await this.deps.store.matchCatalog(this.listener.matchId);
      if (!ctx) return;
      // Live fields are the engine's own; the rest (overrides, allowlists, sponsor) may have been edited.
      const { status, period, clockSeconds, homeScore, awayScore, startedAt, result } = this.engine.match;
      this.engine.setCatalog(this.catalog({ ...ctx, match: { ...ctx.match, status, period, clockSeconds, homeScore, awayScore, startedAt, result } }));
    } catch (err) {
      this.deps.logger.warn({ err, listener: this.listener.id }, 'catalog refresh failed');
    }
  }
}

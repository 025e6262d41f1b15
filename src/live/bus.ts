/**
 * The cross-process bus of live delivery: PostgreSQL LISTEN/NOTIFY on one
 * channel, carrying ids and tiny fields only (an event is ~120 bytes, far
 * under NOTIFY's 8,000-byte limit); every process looks up what it needs to
 * send. The process where something happens NOTIFYs after its transaction
 * committed (the engine's subscribers, the follow endpoints), never from the
 * answer path; every process that serves the stream LISTENs, the publishing
 * one included, so one code path delivers local and remote events alike.
 *
 * PostgreSQL: NOTIFY goes through the pool; LISTEN holds one dedicated
 * connection. When that connection closes (the database stopped or
 * restarted), it is re-established at once and then every second at most
 * until it listens again. A probe NOTIFY every `probeMs` checks that the
 * LISTEN connection still hears the channel (a silent partition closes
 * nothing); when it does not, the connection is replaced. Whenever the bus
 * listens again after a gap, subscribers get `onResync` at that moment:
 * events of the gap may be lost, and clients are told to catch up. A
 * process whose NOTIFY failed (the event is committed, but nobody heard of
 * it) publishes a `gap` once the database takes NOTIFYs again, and every
 * process's subscribers resync on it.
 *
 * PGlite: one connection, and it delivers its own notifications.
 */
import { settled } from '../domain/statuses.js';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { reconnectBackoff, type Database } from '../db/client.js';
import type { Logger } from '../logger.js';
import type { CarriedQuestion, CarriedSettlement, MatchState } from './messages.js';

export const LIVE_CHANNEL = 'qp_live';
/** PostgreSQL refuses NOTIFY payloads of 8,000 bytes or more. */
export const MAX_NOTIFY_BYTES = 7999;

export type SettledStatus = 'resolved' | 'voided' | 'revoked';

/**
 * What travels on the channel. Keys are one letter to keep payloads tiny:
 * k kind, i issuance id, m match id, u user id, f following, s status, p probe id.
 * `match`: the match's state (status, period, score, clock) changed, `s` its new
 * status when that changed; `keys`: some API keys of the user were revoked
 * (logout, login, deactivation); `user`: a user row or one of their keys changed
 * (published by the database itself: a trigger, drizzle/0011_user_change_notify.sql);
 * `gone`: the match was deleted (a test match); `board`: the match's leaderboard
 * changed (a chunk of a settlement was applied to it, after the settlement);
 * `leagues`: a statement changed the leagues table (published by the database
 * itself: a trigger, drizzle/0017_league_change_notify.sql).
 *
 * `q`, `r` and `st` are the whole message, read once by the publisher: the
 * Redis transport carries them (src/live/redis-bus.ts), so no process reads
 * the database to deliver; NOTIFY never does (each process reads it).
 */
export type BusEvent =
  | { k: 'issued'; i: string; m: string; q?: CarriedQuestion }
  | { k: 'settled'; i: string; m: string; s: SettledStatus; r?: CarriedSettlement }
  | { k: 'locked'; i: string; m: string }
  | { k: 'match'; m: string; s?: string; st?: MatchState }
  | { k: 'follow'; m: string; u: string; f: boolean }
  | { k: 'keys'; u: string }
  | { k: 'user'; u: string }
  | { k: 'gone'; m: string }
  | { k: 'board'; m: string }
  | { k: 'leagues' };

/** Internal kinds: `probe` checks this process's LISTEN connection; `gap` says that some process lost events (its NOTIFY failed). */
type WireEvent = BusEvent | { k: 'probe'; p: string } | { k: 'gap' };

export interface BusSubscriber {
  onEvent(event: BusEvent): void;
  /** The bus listens again after a gap: events may have been missed. */
  onResync?(): void;
  /** Events of this one match may have been missed (Redis: its stream was trimmed past this process's position). */
  onMatchResync?(matchId: string): void;
}

export interface LiveBus {
  readonly channel: string;
  /**
   * The database announces changes of users, keys and leagues on this bus by
   * itself (triggers): true for LISTEN/NOTIFY; false for Redis, where this
   * process's commits publish them.
   */
  readonly announcesTableChanges: boolean;
  /**
   * Match-scoped transports (Redis): start hearing a match's events, from
   * now on (resolves once the position is taken: read a snapshot after it),
   * and stop. Absent: every event of every match is heard.
   */
  watch?(matchId: string): Promise<void>;
  unwatch?(matchId: string): void;
  /** NOTIFY one event; never throws (a failure is logged: the change it reports is committed already). */
  publish(event: BusEvent): Promise<void>;
  /** Receives every event on the channel (after start). Returns an unsubscribe function. */
  subscribe(subscriber: BusSubscriber): () => void;
  /** Starts listening (idempotent). Publishing works without it. */
  start(): Promise<void>;
  close(): Promise<void>;
  readonly listening: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isId = (v: unknown): v is string => typeof v === 'string' && UUID.test(v);

/** Parses a payload from the channel; anything else on it (another tool, a newer format) is ignored. */
export function decodeEvent(payload: string): WireEvent | undefined {
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(payload) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (!v || typeof v !== 'object') return undefined;
  switch (v.k) {
    case 'issued':
    case 'locked':
      return isId(v.i) && isId(v.m) ? { k: v.k, i: v.i, m: v.m } : undefined;
    case 'settled':
      return isId(v.i) && isId(v.m) && typeof v.s === 'string' && settled.has(v.s) ? { k: 'settled', i: v.i, m: v.m, s: v.s as SettledStatus } : undefined;
    case 'match':
      if (!isId(v.m)) return undefined;
      if (v.s === undefined) return { k: 'match', m: v.m };
      return typeof v.s === 'string' && v.s.length <= 32 ? { k: 'match', m: v.m, s: v.s } : undefined;
    case 'follow':
      return isId(v.m) && isId(v.u) && typeof v.f === 'boolean' ? { k: 'follow', m: v.m, u: v.u, f: v.f } : undefined;
    case 'keys':
    case 'user':
      return isId(v.u) ? { k: v.k, u: v.u } : undefined;
    case 'gone':
    case 'board':
      return isId(v.m) ? { k: v.k, m: v.m } : undefined;
    case 'leagues':
      return { k: 'leagues' };
    case 'probe':
      return typeof v.p === 'string' ? { k: 'probe', p: v.p } : undefined;
    case 'gap':
      return { k: 'gap' };
    default:
      return undefined;
  }
}

export interface LiveBusOptions {
  database: Database;
  logger: Logger;
  channel?: string;
  /** PostgreSQL: how often the LISTEN connection is checked with a probe (ms). */
  probeMs?: number;
}

/** Seconds a LISTEN connection attempt may take. */
const LISTEN_CONNECT_TIMEOUT_S = 5;
/** Longest pause between attempts to listen again, or to announce a gap (ms). */
const RETRY_MAX_MS = 1000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

type PgliteListenClient = { listen(channel: string, fn: (payload: string) => void): Promise<() => Promise<void>> };

export function createLiveBus({ database, logger, channel = LIVE_CHANNEL, probeMs = 10_000 }: LiveBusOptions): LiveBus {
  const subscribers = new Set<BusSubscriber>();
  const instance = randomUUID();
  let started: Promise<void> | null = null;
  let closed = false;
  let listening = false;
  /** Times the bus started listening; after the first, a new listen means a gap. */
  let listens = 0;
  let stopListening: (() => Promise<void>) | null = null;
  let probeTimer: NodeJS.Timeout | null = null;
  let probeOutstanding = false;
  let restarting = false;
  let announcingGap = false;

  const notify = async (payload: string) => {
    await database.db.execute(sql`select pg_notify(${channel}, ${payload})`);
  };

  const deliver = (payload: string) => {
    const event = decodeEvent(payload);
    if (!event) {
      logger.debug({ channel }, 'live bus: ignored a payload it does not understand');
      return;
    }
    if (event.k === 'probe') {
      if (event.p === instance) probeOutstanding = false;
      return;
    }
    if (event.k === 'gap') {
      resync('a process could not publish events');
      return;
    }
    for (const s of subscribers) {
      try {
        s.onEvent(event);
      } catch (err) {
        logger.error({ err, event: event.k }, 'live bus subscriber failed');
      }
    }
  };

  const listened = () => {
    listening = true;
    listens += 1;
    if (listens > 1) resync('the bus listens again after a gap');
  };

  function resync(why: string) {
    logger.warn({ channel, why }, 'live bus: events may have been missed; clients are told to catch up');
    for (const s of subscribers) {
      try {
        s.onResync?.();
      } catch (err) {
        logger.error({ err }, 'live bus resync failed');
      }
    }
  }

  /**
   * Opens the LISTEN connection: a one-connection client of its own rather
   * than postgres.js's `listen`, which tries once to listen again after its
   * connection drops and then gives up without a word. Whenever this
   * connection closes, LISTEN is sent again at once, and then with a short
   * back-off until it succeeds; the subscribers resync at that moment.
   */
  async function listenPostgres(): Promise<void> {
    const { default: postgres } = await import('postgres');
    let current = true;
    let lostMeanwhile = false;
    let reconnecting = false;
    // onnotify is an option postgres.js reads but does not declare in its types.
    const client = postgres(database.url!, {
      max: 1,
      max_lifetime: null,
      fetch_types: false,
      connect_timeout: LISTEN_CONNECT_TIMEOUT_S,
      backoff: reconnectBackoff,
      onnotice: () => {},
      onnotify: (heard: string, payload: string) => {
        if (heard === channel) deliver(payload);
      },
      onclose: () => {
        if (current && !closed) lost();
      },
      connection: { application_name: 'question-play-live' },
    } as Parameters<typeof postgres>[1]);
    const listen = () => client.unsafe(`listen "${channel.replace(/"/g, '""')}"`);

    function lost() {
      if (listening) logger.warn({ channel }, 'live bus: the LISTEN connection closed; listening again');
      listening = false;
      lostMeanwhile = true;
      if (!reconnecting) void listenAgain();
    }

    async function listenAgain() {
      reconnecting = true;
      for (let attempt = 0; current && !closed && lostMeanwhile; attempt++) {
        lostMeanwhile = false;
        try {
          await listen();
          // A close while LISTEN was on its way: go round again.
          if (!lostMeanwhile && current && !closed) listened();
        } catch (err) {
          lostMeanwhile = true;
          if (attempt === 0) logger.warn({ err: (err as Error).message }, 'live bus: LISTEN failed; retrying');
          await pause(Math.min(100 * 2 ** attempt, RETRY_MAX_MS));
        }
      }
      reconnecting = false;
    }

    try {
      await listen();
    } catch (err) {
      current = false;
      await client.end({ timeout: 0 }).catch(() => {});
      throw err;
    }
    stopListening = async () => {
      current = false;
      await client.end({ timeout: 1 });
    };
    listened();
  }

  /** After a failed NOTIFY: tells every process (through the channel) that events were lost, as soon as NOTIFY works again. */
  async function announceGap(): Promise<void> {
    if (announcingGap) return;
    announcingGap = true;
    try {
      for (let attempt = 0; !closed; attempt++) {
        await pause(Math.min(100 * 2 ** attempt, RETRY_MAX_MS));
        try {
          await notify(JSON.stringify({ k: 'gap' }));
          return;
        } catch {
          // still out of reach
        }
      }
    } finally {
      announcingGap = false;
    }
  }

  /** Replaces the LISTEN connection when the probe did not come back (postgres.js gives up re-listening after a failed attempt). */
  async function relisten(): Promise<void> {
    if (restarting || closed) return;
    restarting = true;
    listening = false;
    try {
      logger.warn({ channel }, 'live bus: the LISTEN connection did not hear its probe; reconnecting');
      const stop = stopListening;
      stopListening = null;
      await stop?.().catch(() => {});
      await listenPostgres();
      probeOutstanding = false;
    } catch (err) {
      logger.error({ err: (err as Error).message }, 'live bus: LISTEN failed; retrying at the next probe');
    } finally {
      restarting = false;
    }
  }

  function startProbes() {
    probeTimer = setInterval(() => {
      if (closed) return;
      if (probeOutstanding) {
        void relisten();
        return;
      }
      probeOutstanding = true;
      // Through the driver, not drizzle: probes are not the application's statements (tests count those).
      const pool = database.client as (strings: TemplateStringsArray, ...values: unknown[]) => Promise<unknown>;
      pool`select pg_notify(${channel}, ${JSON.stringify({ k: 'probe', p: instance })})`.catch((err) =>
        logger.warn({ err: (err as Error).message }, 'live bus: probe NOTIFY failed'),
      );
    }, probeMs);
    probeTimer.unref();
  }

  return {
    channel,
    announcesTableChanges: true,
    get listening() {
      return listening;
    },

    async publish(event) {
      const payload = JSON.stringify(event);
      if (Buffer.byteLength(payload) > MAX_NOTIFY_BYTES) {
        logger.error({ event: event.k, bytes: Buffer.byteLength(payload) }, 'live bus: event too large for NOTIFY; dropped');
        return;
      }
      try {
        await notify(payload);
      } catch (err) {
        logger.error(
          { err: (err as Error).message, event: event.k },
          'live bus: NOTIFY failed; the event is lost for live delivery (clients are told to catch up)',
        );
        void announceGap();
      }
    },

    subscribe(subscriber) {
      subscribers.add(subscriber);
      return () => {
        subscribers.delete(subscriber);
      };
    },

    start() {
      if (closed) return Promise.reject(new Error('the live bus is closed'));
      started ??= (async () => {
        if (database.kind === 'postgres') {
          if (!database.url) throw new Error('the live bus needs the PostgreSQL URL for its LISTEN connection');
          await listenPostgres();
          startProbes();
        } else {
          const unlisten = await (database.client as PgliteListenClient).listen(channel, deliver);
          stopListening = unlisten;
          listened();
        }
      })();
      return started;
    },

    async close() {
      if (closed) return;
      closed = true;
      listening = false;
      if (probeTimer) clearInterval(probeTimer);
      await started?.catch(() => {});
      const stop = stopListening;
      stopListening = null;
      await stop?.().catch((err) => logger.warn({ err: (err as Error).message }, 'live bus: closing the LISTEN connection failed'));
      subscribers.clear();
    },
  };
}

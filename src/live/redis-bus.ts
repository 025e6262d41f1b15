/**
 * The live bus on Redis streams (REDIS_URL set): what replaces LISTEN/NOTIFY
 * past a handful of API processes (docs/scale.md).
 *
 * - **One stream per match** (`live:match:<id>`) carries the whole message:
 *   the publisher (the process whose commit it reports) reads it from the
 *   database once and XADDs it; a process receiving it reads nothing. A
 *   process reads only the streams of the matches its sockets follow
 *   (`watch`/`unwatch`, driven by the hub's index).
 * - **One control stream** (`live:control`) carries what every process must
 *   hear: follows, key revocations, changes of users and leagues (the caches'
 *   invalidations).
 * - **One reader per process**: XREAD BLOCK on a connection of its own, with
 *   a cursor per stream (the last id it handled). A new match joins at the
 *   stream's last id, taken before the caller reads its snapshot. After any
 *   gap (Redis stopped, the connection killed, this process paused) the
 *   reader goes on from its cursors: nothing is lost, nobody resyncs.
 * - **Capped streams**: a match's keeps about `matchMaxLen` entries (MAXLEN ~)
 *   and expires `matchTtlMs` after its last entry; the control stream about
 *   `controlMaxLen`. A reader whose cursor fell off the capped part (Redis
 *   says so: its `max-deleted-entry-id` is past the cursor) resyncs that match
 *   from the database once (`onMatchResync`), or, for the control stream,
 *   everything (`onResync`: caches emptied, sockets told to catch up). Redis
 *   restarted (another run id): entries may be lost, everything resyncs.
 * - **Trust**: `listening` is true while the reader is connected, has handled
 *   every control entry it was given, and its last read is recent (a frozen
 *   server fails that within `blockMs` + 3 s). The key cache and the league
 *   list are not used meanwhile; no flush is needed when it is back, the
 *   reader catches up from its cursor first.
 * - **Publishing** goes through an ordered outbox: a publish waits for its
 *   XADD or its first failure; failed ones are retried in order in the
 *   background until Redis takes them. Past `outboxMax` waiting entries the
 *   oldest are dropped and, once Redis is back, a `gap` on the control
 *   stream makes every process resync.
 *
 * If the publisher cannot read the message (the database failed right after
 * the commit), it publishes the ids alone and each receiving process reads
 * it, as with NOTIFY.
 */
import { randomUUID } from 'node:crypto';
import type { RedisConfig } from '../config.js';
import type { Database } from '../db/client.js';
import type { Logger } from '../logger.js';
import { toOpenQuestion } from '../modules/answers/answers.mapper.js';
import { toQuestionResolution } from '../modules/issuances/issuances.mapper.js';
import { channel as prefixed, connectRedis, type Redis } from '../redis/client.js';
import { decodeEvent, type BusEvent, type BusSubscriber, type LiveBus } from './bus.js';
import { issuanceForDelivery, settlementWithAllAnswers } from '../modules/issuances/issuances.public.js';
import { matchStates } from '../modules/matches/matches.public.js';
import { toMatchState, type CarriedQuestion, type CarriedSettlement, type MatchState } from './messages.js';

export interface RedisLiveBusOptions {
  database: Database;
  config: RedisConfig;
  logger: Logger;
  /** Entries a match's stream keeps, about (MAXLEN ~). */
  matchMaxLen?: number;
  /** A match's stream is deleted this long after its last entry (ms). */
  matchTtlMs?: number;
  /** Entries the control stream keeps, about (MAXLEN ~). */
  controlMaxLen?: number;
  /** Longest XREAD BLOCK (ms): the reader shows it is alive at least this often. */
  blockMs?: number;
  /** Most entries of one stream per read. */
  batch?: number;
  /** Most entries waiting to be published while Redis is out of reach. */
  outboxMax?: number;
}

export const LIVE_STREAM_DEFAULTS = {
  matchMaxLen: 1000,
  matchTtlMs: 24 * 3600_000,
  controlMaxLen: 100_000,
  blockMs: 5000,
  batch: 500,
  outboxMax: 10_000,
};

/** Kinds that travel on their match's stream; the others on the control stream. */
const MATCH_KINDS = new Set<string>(['issued', 'settled', 'locked', 'match', 'gone', 'board']);

type Entry = [id: string, fields: string[]];

/** XREAD's reply as `[stream, entries]` pairs: ioredis hands it over nested, or flat (`stream, entries, stream, ...`). */
function streamsOf(reply: unknown): [key: string, entries: Entry[]][] {
  if (!Array.isArray(reply) || !reply.length) return [];
  if (Array.isArray(reply[0])) return reply as [string, Entry[]][];
  const out: [string, Entry[]][] = [];
  for (let i = 0; i + 1 < reply.length; i += 2) out.push([String(reply[i]), reply[i + 1] as Entry[]]);
  return out;
}

/** Stream ids (`<ms>-<seq>`) in order. */
export function idAfter(a: string, b: string): boolean {
  const [am, as = '0'] = a.split('-');
  const [bm, bs = '0'] = b.split('-');
  const ma = BigInt(am!);
  const mb = BigInt(bm!);
  return ma !== mb ? ma > mb : BigInt(as) > BigInt(bs);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/** An event read back from a stream: the ids checked as on the LISTEN bus, the carried message kept. */
function decodeEntry(payload: string): BusEvent | { k: 'gap' } | undefined {
  const event = decodeEvent(payload);
  if (!event || event.k === 'probe') return undefined;
  if (event.k !== 'issued' && event.k !== 'settled' && event.k !== 'match') return event;
  const raw = JSON.parse(payload) as { q?: CarriedQuestion; r?: CarriedSettlement; st?: MatchState };
  if (event.k === 'issued' && raw.q && typeof raw.q === 'object') return { ...event, q: raw.q };
  if (event.k === 'settled' && raw.r && typeof raw.r === 'object' && Array.isArray(raw.r.answers)) return { ...event, r: raw.r };
  if (event.k === 'match' && raw.st && typeof raw.st === 'object') return { ...event, st: raw.st };
  return event;
}

/** The id just before this one: a cursor from which XREAD starts at `id` itself. */
function before(id: string): string {
  const [ms, seq = '0'] = id.split('-');
  if (BigInt(seq) > 0n) return `${ms}-${BigInt(seq) - 1n}`;
  return `${BigInt(ms!) - 1n}-18446744073709551615`;
}

/**
 * From `XINFO STREAM` (a flat list of names and values): whether entries
 * after `cursor` may have been trimmed away, and if so where the stream
 * goes on. Trimming removes the oldest entries first, so nothing after the
 * cursor is gone while the cursor's own entry is still there. (Trimming
 * leaves `max-deleted-entry-id` alone: the first entry and the counts say it.)
 */
export function trimmedPast(info: unknown, cursor: string): { from: string } | null {
  if (!Array.isArray(info)) return null;
  const field = (name: string) => {
    const i = info.indexOf(name);
    return i >= 0 && i % 2 === 0 ? info[i + 1] : undefined;
  };
  const length = Number(field('length'));
  const added = Number(field('entries-added'));
  if (!(added > length)) return null; // nothing ever removed
  const last = String(field('last-generated-id'));
  if (length === 0) return idAfter(last, cursor) ? { from: last } : null;
  const first = String(field('recorded-first-entry-id'));
  return cursor === '0-0' || idAfter(first, cursor) ? { from: before(first) } : null;
}

export interface RedisLiveBus extends LiveBus {
  watch(matchId: string): Promise<void>;
  unwatch(matchId: string): void;
  /** Tests: the reader stops reading (a gap) until `resume`. */
  suspend(): void;
  resume(): void;
  /** The reader connection's client name (without ioredis's `question-play:`), for tests that kill it. */
  readonly readerName: string;
  /** The matches this process hears. */
  watched(): string[];
  /** The stream's name for a match (tests, the bench). */
  matchStream(matchId: string): string;
  readonly controlStream: string;
}

export function createRedisLiveBus(options: RedisLiveBusOptions): RedisLiveBus {
  const { database, config, logger } = options;
  const { matchMaxLen, matchTtlMs, controlMaxLen, blockMs, batch, outboxMax } = { ...LIVE_STREAM_DEFAULTS, ...options };
  const { db } = database;
  const matchStream = (matchId: string) => prefixed(config, `live:match:${matchId}`);
  const matchPrefix = prefixed(config, 'live:match:');
  const controlStream = prefixed(config, 'live:control');
  /** This process's own stream: an entry on it ends the reader's XREAD at once (a match to hear was added). */
  const wakeStream = prefixed(config, `live:wake:${randomUUID()}`);
  // Names are prefixed here, not by ioredis (it does not prefix XREAD's stream names).
  // Connected on first use: a script that publishes nothing opens nothing.
  const commands: Redis = connectRedis(config, { name: 'live-publisher', logger, extra: { keyPrefix: '', lazyConnect: true } });
  let reader: Redis | null = null;

  const subscribers = new Set<BusSubscriber>();
  /** Matches heard, with the last id handled on each one's stream. */
  const cursors = new Map<string, string>();
  const watching = new Map<string, { token: object; done: Promise<void> }>();
  let controlCursor = '0-0';
  let wakeCursor = '0-0';
  let started: Promise<void> | null = null;
  let closed = false;
  let caughtUp = false;
  let lastReadAt = 0;
  let readerUp = false;
  let runId: string | null = null;
  let checkRestart = false;
  /** The reader stopped reading for a while (failure, reconnect, suspension): trimmed entries are checked for before it reads on. */
  let afterGap = false;
  const readerName = `live-reader:${randomUUID().slice(0, 8)}`;
  let suspended: { resume: () => void; resumed: Promise<void> } | null = null;
  let loop: Promise<void> | null = null;

  // ------------------------------------------------------------ publishing

  interface Outgoing {
    key: string;
    payload: string;
    maxLen: number;
    ttlMs: number | null;
    settle: () => void;
  }
  const outbox: Outgoing[] = [];
  let flushing: Promise<void> | null = null;
  let dropped = 0;

  async function xadd(item: Pick<Outgoing, 'key' | 'payload' | 'maxLen' | 'ttlMs'>, via: Redis = commands) {
    const pipe = via.pipeline().xadd(item.key, 'MAXLEN', '~', String(item.maxLen), '*', 'e', item.payload);
    if (item.ttlMs) pipe.pexpire(item.key, item.ttlMs);
    const results = await pipe.exec();
    for (const [err] of results ?? []) if (err) throw err;
  }

  function flush(): Promise<void> {
    flushing ??= (async () => {
      let failures = 0;
      try {
        while (outbox.length && !closed) {
          const item = outbox[0]!;
          try {
            await xadd(item);
            outbox.shift();
            item.settle();
            if (failures) logger.info({ waiting: outbox.length }, 'live bus: Redis takes events again');
            failures = 0;
          } catch (err) {
            if (failures === 0) logger.warn({ err: (err as Error).message, waiting: outbox.length }, 'live bus: XADD failed; retrying in order');
            item.settle();
            await pause(Math.min(100 * 2 ** failures, 2000));
            failures++;
          }
          if (dropped && !outbox.length) {
            logger.error({ dropped }, 'live bus: events were dropped while Redis was out of reach; every process resyncs');
            dropped = 0;
            outbox.push({ key: controlStream, payload: JSON.stringify({ k: 'gap' }), maxLen: controlMaxLen, ttlMs: null, settle: () => {} });
          }
        }
      } finally {
        flushing = null;
      }
    })();
    return flushing;
  }

  function enqueue(key: string, payload: string, maxLen: number, ttlMs: number | null): Promise<void> {
    return new Promise<void>((resolve) => {
      if (closed) return resolve();
      while (outbox.length >= outboxMax) {
        outbox.shift()!.settle();
        dropped++;
      }
      let settled = false;
      outbox.push({
        key,
        payload,
        maxLen,
        ttlMs,
        settle: () => {
          if (!settled) resolve();
          settled = true;
        },
      });
      void flush();
    });
  }

  /** The whole message, read once here: a new question, a settlement with every answer, a match's state. Undefined: nothing to deliver. */
  async function carry(event: BusEvent): Promise<BusEvent | undefined> {
    try {
      switch (event.k) {
        case 'issued': {
          const row = await issuanceForDelivery({ db, id: event.i });
          if (!row || row.issuance.status !== 'open') return undefined;
          return { ...event, q: toOpenQuestion(row, new Date()) };
        }
        case 'settled': {
          const found = await settlementWithAllAnswers({ db, id: event.i });
          if (!found) return undefined;
          return { ...event, r: { base: toQuestionResolution(found, null), answers: found.groups } };
        }
        case 'match': {
          const [row] = await matchStates({ db, matchIds: [event.m] });
          return row ? { ...event, st: toMatchState(row) } : undefined;
        }
        default:
          return event;
      }
    } catch (err) {
      // Committed all the same: the ids go out, and each receiving process reads the message itself.
      logger.warn({ err: (err as Error).message, event: event.k }, 'live bus: could not read the message to publish; publishing its ids');
      return event;
    }
  }

  // ------------------------------------------------------------ reading

  function deliver(event: BusEvent) {
    for (const s of subscribers) {
      try {
        s.onEvent(event);
      } catch (err) {
        logger.error({ err, event: event.k }, 'live bus subscriber failed');
      }
    }
  }

  function resyncAll(why: string) {
    logger.warn({ why }, 'live bus: events may have been missed; caches are emptied and clients told to catch up');
    for (const s of subscribers) {
      try {
        s.onResync?.();
      } catch (err) {
        logger.error({ err }, 'live bus resync failed');
      }
    }
  }

  function resyncMatch(matchId: string) {
    logger.warn({ match_id: matchId }, "live bus: this process fell behind a match's capped stream; its clients are told to catch up");
    for (const s of subscribers) {
      try {
        s.onMatchResync?.(matchId);
      } catch (err) {
        logger.error({ err }, 'live bus resync failed');
      }
    }
  }

  /** Whether entries after `cursor` were trimmed from the stream (asked when a read came back full: the reader may be behind). */
  async function fellOff(r: Redis, key: string, cursor: string): Promise<boolean> {
    return trimmedPast(await r.call('XINFO', 'STREAM', key), cursor) !== null;
  }

  /** After a gap: every stream heard is checked once for entries trimmed past its cursor (one round trip for all). */
  async function checkAfterGap(r: Redis) {
    const matchIds = [...cursors.keys()];
    const keys = [controlStream, ...matchIds.map(matchStream)];
    const pipe = r.pipeline();
    for (const key of keys) pipe.call('XINFO', 'STREAM', key);
    const results = (await pipe.exec()) ?? [];
    results.forEach(([err, info], i) => {
      if (err) return; // no such stream (expired, or never written): nothing to miss
      if (i === 0) {
        const lost = trimmedPast(info, controlCursor);
        if (lost) {
          resyncAll('this process fell behind the capped control stream');
          controlCursor = lost.from;
        }
        return;
      }
      const m = matchIds[i - 1]!;
      const cursor = cursors.get(m);
      const lost = cursor === undefined ? null : trimmedPast(info, cursor);
      if (lost) {
        resyncMatch(m);
        // The rest of the stream is still delivered; what was trimmed is the clients' catch-up.
        cursors.set(m, lost.from);
      }
    });
  }

  async function handle(r: Redis, key: string, entries: Entry[]) {
    if (key === wakeStream) {
      if (entries.length) wakeCursor = entries[entries.length - 1]![0];
      return;
    }
    const control = key === controlStream;
    const matchId = control ? null : key.slice(matchPrefix.length);
    const cursor = control ? controlCursor : cursors.get(matchId!);
    if (cursor === undefined) return; // no longer heard
    if (entries.length >= batch && (await fellOff(r, key, cursor))) {
      if (control) resyncAll('this process fell behind the capped control stream');
      else if (cursors.has(matchId!)) resyncMatch(matchId!);
    }
    if (control ? controlCursor !== cursor : cursors.get(matchId!) !== cursor) return; // unwatched, or watched anew, meanwhile
    let last = cursor;
    for (const [id, fields] of entries) {
      if (!idAfter(id, last)) continue;
      last = id;
      const payload = fields[1];
      const event = payload === undefined ? undefined : decodeEntry(payload);
      if (!event) continue;
      if (event.k === 'gap') resyncAll('a process could not publish events');
      else deliver(event);
    }
    if (control) controlCursor = last;
    else if (cursors.has(matchId!)) cursors.set(matchId!, last);
  }

  async function readLoop(r: Redis) {
    let failures = 0;
    while (!closed) {
      if (suspended) {
        caughtUp = false;
        await suspended.resumed;
        afterGap = true;
        continue;
      }
      try {
        if (afterGap) {
          await checkAfterGap(r);
          afterGap = false;
        }
        if (checkRestart) {
          checkRestart = false;
          const info = String(await r.call('INFO', 'server'));
          const id = /run_id:(\w+)/.exec(info)?.[1] ?? null;
          if (runId && id && id !== runId) resyncAll('Redis restarted: entries it held may be lost');
          runId = id ?? runId;
        }
        const matchIds = [...cursors.keys()];
        const keys = [controlStream, wakeStream, ...matchIds.map(matchStream)];
        const ids = [controlCursor, wakeCursor, ...matchIds.map((m) => cursors.get(m)!)];
        const reply = streamsOf(await r.call('XREAD', 'COUNT', String(batch), 'BLOCK', String(blockMs), 'STREAMS', ...keys, ...ids));
        if (suspended) continue; // read during a suspension: dropped, read again from the cursors
        let controlFull = false;
        for (const [key, entries] of reply) {
          await handle(r, key, entries);
          if (key === controlStream && entries.length >= batch) controlFull = true;
        }
        if (failures) logger.info('live bus: reading Redis again, from where it stopped');
        failures = 0;
        lastReadAt = Date.now();
        caughtUp = !controlFull;
      } catch (err) {
        caughtUp = false;
        afterGap = true;
        if (closed) break;
        if (failures === 0) logger.warn({ err: (err as Error).message }, 'live bus: reading Redis failed; going on from the cursors once it answers');
        failures++;
        // A command that timed out leaves its reply owed on the connection: a new connection, not a queue of blocked reads.
        if (/timed? ?out/i.test((err as Error).message)) r.disconnect(true);
        await pause(Math.min(100 * 2 ** failures, 2000));
      }
    }
  }

  async function tail(key: string): Promise<string> {
    const last = (await commands.call('XREVRANGE', key, '+', '-', 'COUNT', '1')) as Entry[];
    return last[0]?.[0] ?? '0-0';
  }

  /** Ends the reader's current XREAD (a stream to add), race-free: an entry on its own stream, which the read includes. */
  function wake() {
    if (!reader) return;
    commands
      .pipeline()
      .xadd(wakeStream, 'MAXLEN', '~', '10', '*', 'w', '1')
      .pexpire(wakeStream, 60_000)
      .exec()
      .catch(() => {});
  }

  return {
    channel: controlStream,
    announcesTableChanges: false,
    controlStream,
    matchStream,
    readerName,
    watched: () => [...cursors.keys()],

    get listening() {
      return !closed && readerUp && caughtUp && !suspended && Date.now() - lastReadAt < blockMs + 3000;
    },

    async publish(event) {
      const carried = await carry(event);
      if (!carried) return;
      const payload = JSON.stringify(carried);
      const [key, maxLen, ttlMs] = MATCH_KINDS.has(event.k)
        ? [matchStream((event as { m: string }).m), matchMaxLen, matchTtlMs]
        : [controlStream, controlMaxLen, null];
      if (!closed) return enqueue(key, payload, maxLen, ttlMs);
      // Closed (the stream stopped while the engine finishes): a connection of its own, once, as NOTIFY through the pool would.
      const once = connectRedis(config, { name: 'live-publisher', logger, extra: { keyPrefix: '' } });
      try {
        await xadd({ key, payload, maxLen, ttlMs }, once);
      } catch (err) {
        logger.error({ err: (err as Error).message, event: event.k }, 'live bus: XADD after close failed; the event is lost for live delivery');
      } finally {
        once.disconnect();
      }
    },

    subscribe(subscriber) {
      subscribers.add(subscriber);
      return () => {
        subscribers.delete(subscriber);
      };
    },

    watch(matchId) {
      if (cursors.has(matchId)) return Promise.resolve();
      const pending = watching.get(matchId);
      if (pending) return pending.done;
      const token = {};
      const done = (async () => {
        for (let attempt = 0; !closed; attempt++) {
          try {
            const id = await tail(matchStream(matchId));
            if (watching.get(matchId)?.token !== token) return;
            cursors.set(matchId, id);
            wake();
            return;
          } catch (err) {
            // Redis out of reach: the socket waits for its snapshot until it answers.
            if (attempt === 0)
              logger.warn({ err: (err as Error).message, match_id: matchId }, 'live bus: cannot take a position on a match stream yet; retrying');
            await pause(Math.min(100 * 2 ** attempt, 2000));
          }
        }
      })().finally(() => {
        if (watching.get(matchId)?.token === token) watching.delete(matchId);
      });
      watching.set(matchId, { token, done });
      return done;
    },

    unwatch(matchId) {
      cursors.delete(matchId);
      watching.delete(matchId);
    },

    suspend() {
      if (suspended) return;
      let resume!: () => void;
      const resumed = new Promise<void>((resolve) => (resume = resolve));
      suspended = { resume, resumed };
      wake();
    },

    resume() {
      const s = suspended;
      suspended = null;
      s?.resume();
    },

    start() {
      if (closed) return Promise.reject(new Error('the live bus is closed'));
      started ??= (async () => {
        const r = connectRedis(config, {
          name: readerName,
          logger,
          commandTimeoutMs: blockMs + 2000,
          extra: { keyPrefix: '' },
        });
        r.on('ready', () => {
          if (readerUp === false && lastReadAt) afterGap = true;
          readerUp = true;
          checkRestart = true;
        });
        r.on('close', () => {
          readerUp = false;
          caughtUp = false;
        });
        reader = r;
        try {
          controlCursor = await tail(controlStream);
          wakeCursor = await tail(wakeStream);
          await r.ping();
        } catch (err) {
          reader = null;
          r.disconnect();
          throw err;
        }
        readerUp = r.status === 'ready';
        caughtUp = true;
        lastReadAt = Date.now();
        loop = readLoop(r);
      })();
      return started;
    },

    async close() {
      if (closed) return;
      // What this process committed goes out first, if Redis takes it within a second.
      if (flushing) await Promise.race([flushing, pause(1000)]);
      closed = true;
      await started?.catch(() => {});
      suspended?.resume();
      // The reader's blocked XREAD ends with its connection.
      reader?.disconnect();
      await loop?.catch(() => {});
      commands.disconnect();
      for (const item of outbox.splice(0)) item.settle();
      subscribers.clear();
    },
  };
}

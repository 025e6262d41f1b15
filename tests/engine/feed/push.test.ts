import { afterEach, describe, expect, it } from 'vitest';
import type { FeedEvent } from '../../../src/domain/sports/events.js';
import { backoffDelay, dedupeKey, PushFeedClient, type PushFeedClientOptions } from '../../../src/engine/feed/push-client.js';
import { eventsDueAfter, startPushFeedServer, type PushFeedServer, type PushFeedServerOptions } from '../../../src/engine/feed/push-server.js';
import { syntheticFootballMatch } from '../../../src/engine/feed/synthetic.js';
import { waitBound } from '../../helpers/bounds.js';

const kickoff = new Date('2030-05-01T18:00:00.000Z');
const matchEvents = syntheticFootballMatch({ seed: 3, homeTeam: 'Lions', awayTeam: 'Tigers', kickoff }).events;

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

async function server(opts: Omit<PushFeedServerOptions, 'speed'> & { speed?: number }): Promise<PushFeedServer> {
  const s = await startPushFeedServer({ speed: Infinity, ...opts });
  cleanup.push(() => s.close());
  return s;
}

interface Recorder {
  client: PushFeedClient;
  events: FeedEvent[];
  log: string[];
  warnings: string[];
}

function client(opts: PushFeedClientOptions): Recorder {
  const warnings: string[] = [];
  const c = new PushFeedClient({
    backoff: { initialMs: 10, maxMs: 200, jitter: 0 },
    logger: { warn: (d, m) => warnings.push(`${m} ${JSON.stringify(d)}`) },
    ...opts,
  });
  const rec: Recorder = { client: c, events: [], log: [], warnings };
  c.on('event', (e) => rec.events.push(e));
  for (const name of ['stale', 'fresh', 'end', 'connected', 'disconnected', 'duplicate'] as const) c.on(name, () => rec.log.push(name));
  c.on('reconnecting', ({ delayMs }) => rec.log.push(`reconnecting:${delayMs}`));
  cleanup.push(() => c.close());
  return rec;
}

/** Resolves when `predicate` holds, polling; fails after `ms`. */
async function until(predicate: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + waitBound(ms);
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function readAll(url: string): Promise<string[]> {
  const res = await fetch(url);
  return (await res.text()).split('\n').filter(Boolean);
}

const withSeq = (e: FeedEvent, seq: number, patch: Partial<FeedEvent> = {}): FeedEvent => ({ ...e, seq, ...patch });

describe('push feed server', () => {
  it('streams NDJSON: a heartbeat, every event in order, then end', async () => {
    const s = await server({ events: matchEvents });
    const lines = (await readAll(s.url)).map((l) => JSON.parse(l) as { type: string; event?: FeedEvent });
    expect(lines[0]!.type).toBe('heartbeat');
    expect(lines.at(-1)).toEqual({ type: 'end' });
    const events = lines.filter((l) => l.type === 'event').map((l) => l.event!);
    expect(events).toEqual(matchEvents);
  });

  it('resumes after_seq, serves several feeds, and rejects bad requests', async () => {
    const s = await server({ feeds: { a: matchEvents.slice(0, 10), b: matchEvents.slice(0, 3) } });
    expect(s.url).toBe(`${s.baseUrl}/feeds/a`);
    const seqs = (await readAll(`${s.urlFor('a')}?after_seq=7`))
      .map((l) => JSON.parse(l) as { event?: FeedEvent })
      .flatMap((l) => (l.event ? [l.event.seq] : []));
    expect(seqs).toEqual([8, 9, 10]);
    expect((await readAll(s.urlFor('b'))).filter((l) => l.includes('"event"'))).toHaveLength(3);
    const bad = await fetch(`${s.url}?after_seq=-1`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ detail: 'after_seq must be a non-negative integer' });
    expect((await fetch(`${s.baseUrl}/feeds/zzz`)).status).toBe(404);
    expect((await fetch(s.url, { method: 'POST' })).status).toBe(405);
  });

  it('with startAt, plays nothing before that time, whoever connects, then the timeline from its start', async () => {
    const startAt = new Date(Date.now() + 2500);
    const s = await server({ events: matchEvents.slice(0, 5), startAt, heartbeatMs: 50 });
    const r = client({ url: s.url });
    r.client.start();
    await until(() => r.log.includes('connected'), 5000, 'the client to connect');
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Connected, hearing heartbeats, but the match has not kicked off.
    expect(Date.now()).toBeLessThan(startAt.getTime());
    expect(r.events).toEqual([]);
    await until(() => r.events.length === 5, 5000, 'the events after startAt');
    expect(Date.now()).toBeGreaterThanOrEqual(startAt.getTime());
    expect(r.events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it('with a startAt that has passed, is where the match is now: what is due at once, the rest at its time', async () => {
    // Ten events 1 s apart at real time; the timeline began 4.5 s ago, so five are due.
    // A replay from the beginning would need 4 s for those five: they come at once instead.
    const t0 = Date.parse(matchEvents[0]!.occurred_at);
    const events = matchEvents.slice(0, 10).map((e, i) => ({ ...e, occurred_at: new Date(t0 + i * 1000).toISOString() }));
    const started = Date.now();
    const s = await server({ events, speed: 1, startAt: new Date(started - 4500), heartbeatMs: 50 });
    const r = client({ url: s.url });
    r.client.start();
    await until(() => r.events.length >= 5, 3500, 'the events already due, at once');
    expect(r.events.map((e) => e.seq).slice(0, 5)).toEqual([1, 2, 3, 4, 5]);
    // The rest at their times: the last is 9 s into the match, 4.5 s from the start here.
    await until(() => r.events.length === 10, 10_000, 'the rest of the events');
    expect(r.events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4000);
  });

  it('eventsDueAfter: counts the events a timeline started that long ago has published (gaps capped, at speed)', () => {
    const t0 = Date.parse(matchEvents[0]!.occurred_at);
    const at = (ms: number[]) => ms.map((m, i) => ({ ...matchEvents[i]!, occurred_at: new Date(t0 + m).toISOString() }));
    const events = at([0, 1000, 2000, 120_000, 121_000]);
    expect(eventsDueAfter(events, 1, 0)).toBe(1);
    expect(eventsDueAfter(events, 1, 1999)).toBe(2);
    expect(eventsDueAfter(events, 1, 2000)).toBe(3);
    // The 118 s gap is capped at 30 s (maxGapMs default): the fourth event is due at 32 s.
    expect(eventsDueAfter(events, 1, 31_999)).toBe(3);
    expect(eventsDueAfter(events, 1, 32_000)).toBe(4);
    expect(eventsDueAfter(events, 10, 3_300)).toBe(5);
    expect(eventsDueAfter(events, 1, 10 ** 9)).toBe(5);
  });

  it('runs one live timeline that every client follows', async () => {
    const s = await server({ events: matchEvents.slice(0, 40), speed: 1, maxGapMs: 20, heartbeatMs: 50 });
    const a = client({ url: s.url });
    void a.client.start();
    await until(() => a.events.length >= 5, 5000, 'first events');
    const b = client({ url: s.url });
    void b.client.start();
    await until(() => a.log.includes('end') && b.log.includes('end'), 10_000, 'both ends');
    expect(a.events.map((e) => e.seq)).toEqual(matchEvents.slice(0, 40).map((e) => e.seq));
    // The late client catches up on what was already published, then follows live.
    expect(b.events.map((e) => e.seq)).toEqual(matchEvents.slice(0, 40).map((e) => e.seq));
    expect(s.stats.connections).toBe(2);
  });
});

describe('PushFeedClient', () => {
  it('delivers a whole match in order and stops at the end', async () => {
    const s = await server({ events: matchEvents });
    const r = client({ url: s.url });
    await r.client.start();
    expect(r.events).toEqual(matchEvents);
    expect(r.log.filter((x) => x === 'end')).toHaveLength(1);
    expect(r.client.lastSeq).toBe(matchEvents.length);
    expect(r.client.hasEnded).toBe(true);
    expect(r.client.stats).toMatchObject({ connections: 1, events: matchEvents.length, duplicates: 0, malformed: 0 });
  });

  it('reconnects after drops mid-stream and resumes without loss or duplicates', async () => {
    const s = await server({ events: matchEvents, faults: { dropAfter: 150, dropConnections: 3 } });
    const r = client({ url: s.url });
    const resumedAfter: string[] = [];
    r.client.on('connected', ({ url }) => resumedAfter.push(new URL(url).searchParams.get('after_seq')!));
    await r.client.start();
    expect(r.events.map((e) => e.seq)).toEqual(matchEvents.map((e) => e.seq));
    expect(resumedAfter).toEqual(['0', '150', '300', '450']);
    expect(r.log.filter((x) => x === 'disconnected')).toHaveLength(3);
    expect(s.stats.connections).toBe(4);
  });

  it('survives a cut while following a live feed', async () => {
    const live = matchEvents.slice(0, 200);
    const s = await server({ events: live, speed: 1, maxGapMs: 3 });
    const r = client({ url: s.url });
    void r.client.start();
    await until(() => r.events.length >= 50, 5000, '50 events');
    s.dropConnections();
    await until(() => r.client.hasEnded, 10_000, 'end');
    expect(r.events.map((e) => e.seq)).toEqual(live.map((e) => e.seq));
    expect(r.client.stats.connections).toBe(2);
  });

  it('drops exact redeliveries, passes updates and deletes once', async () => {
    const base = matchEvents.slice(0, 5);
    const s = await server({ events: base, holdOpen: true });
    const r = client({ url: s.url });
    void r.client.start();
    await until(() => r.events.length === 5, 5000, 'first five');
    const target = base[2]!;
    // Exact redelivery of a line (same seq), then the same content under a new seq.
    s.injectLine(JSON.stringify({ type: 'event', event: target }));
    s.publish(withSeq(target, 6));
    const update = withSeq(target, 7, { operation: 'update', data: { ...target.data, corrected: true } });
    s.publish(update);
    s.publish(withSeq(update, 8));
    const del = withSeq(target, 9, { operation: 'delete' });
    s.publish(del);
    s.publish(withSeq(del, 10, { data: { reason: 'again' } }));
    s.publish(withSeq(base[3]!, 11, { provider_event_id: 'fresh-id' }));
    await until(() => r.client.lastSeq === 11, 5000, 'seq 11');
    expect(r.events.slice(5).map((e) => [e.provider_event_id, e.operation, e.seq])).toEqual([
      [target.provider_event_id, 'update', 7],
      [target.provider_event_id, 'delete', 9],
      ['fresh-id', 'create', 11],
    ]);
    expect(r.client.stats.duplicates).toBe(4);
    s.end();
    await r.client.start();
    expect(r.log.at(-1)).toBe('end');
  });

  it('skips malformed and blank lines, logging them, and keeps going', async () => {
    const s = await server({ events: matchEvents.slice(0, 2), holdOpen: true });
    const r = client({ url: s.url });
    void r.client.start();
    await until(() => r.events.length === 2);
    s.injectLine('this is not json');
    s.injectLine('');
    s.injectLine('   ');
    s.injectLine('{"type":"event","event":{"seq":3}}');
    s.injectLine('[1,2]');
    s.injectLine('{"type":"mystery"}');
    s.publish(matchEvents[2]!);
    await until(() => r.events.length === 3);
    expect(r.client.stats.malformed).toBe(4);
    expect(r.warnings).toHaveLength(4);
    expect(r.warnings[0]).toMatch(/malformed line skipped.*not JSON/);
    expect(r.client.stats.connections).toBe(1);
  });

  it('parses lines cut anywhere across chunks, even inside a character', async () => {
    const events = [
      { ...matchEvents[0]!, data: { player: 'Ángel Di María', note: 'Mbappé ⚽' } },
      { ...matchEvents[1]!, seq: 2 },
    ];
    const text =
      [{ type: 'heartbeat', at: kickoff.toISOString() }, ...events.map((event) => ({ type: 'event', event })), { type: 'end' }]
        .map((m) => JSON.stringify(m))
        .join('\r\n') + '\r\n';
    const bytes = new TextEncoder().encode(text);
    const fakeFetch = (async () => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          // 1 to 7 byte chunks: lines and multi-byte characters are split at every possible place.
          for (let i = 0, size = 1; i < bytes.length; i += size, size = (size % 7) + 1) controller.enqueue(bytes.slice(i, i + size));
          controller.close();
        },
      });
      return new Response(body, { status: 200 });
    }) as typeof fetch;
    const r = client({ url: 'http://feed.invalid/feed', fetch: fakeFetch });
    await r.client.start();
    expect(r.events).toEqual(events);
    expect(r.client.stats).toMatchObject({ heartbeats: 1, malformed: 0 });
  });

  it('reports stale when heartbeats stop, and fresh when they resume', async () => {
    const s = await server({ events: matchEvents.slice(0, 1), holdOpen: true, heartbeatMs: 20 });
    const r = client({ url: s.url, staleAfterMs: 400 });
    let lastHeartbeatAt = 0;
    r.client.on('heartbeat', () => (lastHeartbeatAt = Date.now()));
    void r.client.start();
    // A loaded machine can stall past the stale limit before the pause: such a stale/fresh pair lands before the mark.
    await until(() => r.client.stats.heartbeats >= 3 && !r.client.isStale, 5000, 'heartbeats');
    s.pauseHeartbeats();
    const mark = r.log.length;
    const since = () => r.log.slice(mark).filter((x) => x === 'stale' || x === 'fresh');
    await until(() => since().includes('stale'), 5000, 'stale');
    // Not before the limit: stale means no heartbeat for staleAfterMs (a timer's few ms of slack allowed).
    expect(Date.now() - lastHeartbeatAt).toBeGreaterThanOrEqual(390);
    expect(r.client.isStale).toBe(true);
    s.resumeHeartbeats();
    await until(() => since().includes('fresh'), 5000, 'fresh');
    expect(r.client.isStale).toBe(false);
    expect(since()).toEqual(['stale', 'fresh']);
  });

  it('backs off exponentially while the feed is down and resets after a good connection', async () => {
    const s = await server({ events: matchEvents.slice(0, 3), holdOpen: true, faults: { rejectFirst: 4 } });
    const r = client({ url: s.url, backoff: { initialMs: 10, factor: 2, maxMs: 60, jitter: 0 } });
    void r.client.start();
    await until(() => r.events.length === 3, 5000, 'delivery');
    expect(r.log.filter((x) => x.startsWith('reconnecting'))).toEqual(['reconnecting:10', 'reconnecting:20', 'reconnecting:40', 'reconnecting:60']);
    expect(s.stats.rejected).toBe(4);
    s.rejectNext(1);
    s.dropConnections();
    await until(() => r.client.stats.connections === 2, 5000, 'reconnect');
    expect(r.log.filter((x) => x.startsWith('reconnecting')).slice(4)).toEqual(['reconnecting:10', 'reconnecting:20']);
    expect(r.events).toHaveLength(3);
  });

  it('resumes after the last contiguous seq: a message numbered 2,000,000,000 is delivered but never moves the resume point', async () => {
    const base = matchEvents.slice(0, 30);
    const s = await server({ events: base.slice(0, 10), holdOpen: true });
    const r = client({ url: s.url });
    const sequence: string[] = [];
    r.client.on('sequence', ({ event, verdict, resumeAfter }) => sequence.push(`${verdict}:${event.seq}:${resumeAfter}`));
    const resumedAfter: string[] = [];
    r.client.on('connected', ({ url }) => resumedAfter.push(new URL(url).searchParams.get('after_seq')!));
    void r.client.start();
    await until(() => r.events.length === 10, 5000, 'ten events');
    s.publish(withSeq(base[10]!, 2_000_000_000));
    for (const e of base.slice(11, 20)) s.publish(withSeq(e, e.seq - 1));
    await until(() => r.events.length === 20, 5000, 'twenty events');
    expect(r.client.lastSeq).toBe(19);
    s.dropConnections();
    for (const e of base.slice(20, 30)) s.publish(withSeq(e, e.seq - 1));
    await until(() => r.events.length === 30, 5000, 'all events after the reconnect');
    // The reconnect asked for what follows 19, not 2,000,000,000; the absurd one came again and was deduplicated.
    expect(resumedAfter).toEqual(['0', '19']);
    expect(r.client.stats.duplicates).toBe(1);
    expect(r.events.map((e) => e.provider_event_id)).toEqual(base.map((e) => e.provider_event_id));
    expect(sequence).toEqual(['jump:2000000000:10']);
  });

  it('delivers new messages numbered below the resume point (a provider that restarted its numbering) and restarts the resume point at 1', async () => {
    const s = await server({ events: matchEvents.slice(0, 10), holdOpen: true, faults: { ignoreAfterSeq: true } });
    const r = client({ url: s.url });
    const sequence: string[] = [];
    r.client.on('sequence', ({ event, verdict, resumeAfter }) => sequence.push(`${verdict}:${event.seq}:${resumeAfter}`));
    void r.client.start();
    await until(() => r.events.length === 10, 5000, 'ten events');
    // Renumbered from 1 after a restart on the provider's side; the reconnect gets everything again (deduplicated).
    s.dropConnections();
    const renumbered = matchEvents.slice(10, 15).map((e, i) => withSeq(e, i + 1));
    for (const e of renumbered) s.publish(e);
    await until(() => r.events.length === 15, 5000, 'the renumbered events');
    expect(r.events.slice(10)).toEqual(renumbered);
    expect(sequence[0]).toBe('restart:1:1');
    expect(r.client.lastSeq).toBe(5);
  });

  it('with reconnectAfterEnd, reconnects after an end, backing off while the feed brings nothing new', async () => {
    const s = await server({ events: matchEvents.slice(0, 3) });
    const r = client({ url: s.url, reconnectAfterEnd: true, backoff: { initialMs: 10, factor: 2, maxMs: 1000, jitter: 0 } });
    void r.client.start();
    await until(() => r.log.filter((x) => x === 'end').length >= 4, 5000, 'four ends');
    // The first end followed new events (back to the first delay); the following ones brought nothing new.
    expect(r.log.filter((x) => x.startsWith('reconnecting')).slice(0, 3)).toEqual(['reconnecting:10', 'reconnecting:20', 'reconnecting:40']);
    expect(r.events).toHaveLength(3);
    expect(r.client.hasEnded).toBe(false);
  });

  it('goes stale when heartbeats stop even while events keep arriving', async () => {
    const s = await server({ events: matchEvents.slice(0, 1), holdOpen: true, heartbeatMs: 20 });
    const r = client({ url: s.url, staleAfterMs: 150 });
    void r.client.start();
    await until(() => r.client.stats.heartbeats >= 2, 5000, 'heartbeats');
    s.pauseHeartbeats();
    let next = 1;
    const timer = setInterval(() => s.publish(matchEvents[next++]!), 20);
    try {
      await until(() => r.log.includes('stale'), 5000, 'stale');
      expect(r.client.isStale).toBe(true);
      // Events kept coming all along, more often than the staleness window.
      expect(r.events.length).toBeGreaterThan(3);
    } finally {
      clearInterval(timer);
    }
  });

  it('closes while waiting to reconnect', async () => {
    const s = await server({ events: matchEvents.slice(0, 1), faults: { rejectFirst: 1000 } });
    const r = client({ url: s.url, backoff: { initialMs: 60_000, maxMs: 60_000, jitter: 0 } });
    const running = r.client.start();
    await until(() => r.log.includes('reconnecting:60000'));
    const started = Date.now();
    await r.client.close();
    await running;
    // Not the minute's wait before the reconnect (half of it: a busy machine takes seconds over what takes milliseconds).
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});

describe('push client helpers', () => {
  it('keys dedupe on id, operation and content, not seq', () => {
    const e = matchEvents[10]!;
    expect(dedupeKey({ ...e, seq: 999 })).toBe(dedupeKey(e));
    expect(dedupeKey({ ...e, data: { ...e.data, x: 0.123 } })).not.toBe(dedupeKey(e));
    expect(dedupeKey({ ...e, operation: 'update' })).not.toBe(dedupeKey(e));
    expect(dedupeKey({ ...e, operation: 'delete', data: { a: 1 } })).toBe(dedupeKey({ ...e, operation: 'delete', data: { b: 2 } }));
    // Key order does not matter.
    const reordered = Object.fromEntries(Object.entries(e).reverse()) as unknown as FeedEvent;
    expect(dedupeKey(reordered)).toBe(dedupeKey(e));
  });

  it('computes back-off with bounded jitter', () => {
    const opts = { initialMs: 100, maxMs: 1000, factor: 2, jitter: 0.5 };
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, { ...opts, jitter: 0 }, Math.random))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(backoffDelay(3, opts, () => 0)).toBe(200);
    expect(backoffDelay(3, opts, () => 0.999999)).toBe(600);
    expect(backoffDelay(5, opts, () => 0.999999)).toBe(1000);
  });
});

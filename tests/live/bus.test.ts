/**
 * The live bus on its own: events round-trip through NOTIFY/LISTEN with ids
 * only, foreign payloads are ignored, and (PostgreSQL) a LISTEN connection
 * lost long enough for postgres.js to give up is replaced by the probe, with
 * a resync for subscribers.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createLiveBus, decodeEvent, type BusEvent, type LiveBus } from '../../src/live/bus.js';
import { publishIssued, publishMatchChanged, publishSettled } from '../../src/live/publishers.js';
import { createLogger } from '../../src/logger.js';
import { createMatch } from '../helpers/factories.js';
import { insertIssuance } from '../helpers/engine-rows.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { waitBound } from '../helpers/bounds.js';

const logger = createLogger('silent');
const M = '7d444840-9dc0-11d1-b245-5ffdce74fad2';
const I = '8f9e0d1c-2b3a-4c5d-8e7f-6a5b4c3d2e1f';
const U = '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b';

async function until(check: () => boolean, timeoutMs = 5000, what = 'condition') {
  const end = Date.now() + waitBound(timeoutMs);
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('decodeEvent', () => {
  it('accepts the eight event kinds with ids and refuses anything else', () => {
    expect(decodeEvent(JSON.stringify({ k: 'issued', i: I, m: M }))).toEqual({ k: 'issued', i: I, m: M });
    expect(decodeEvent(JSON.stringify({ k: 'settled', i: I, m: M, s: 'voided', extra: 1 }))).toEqual({ k: 'settled', i: I, m: M, s: 'voided' });
    expect(decodeEvent(JSON.stringify({ k: 'locked', i: I, m: M }))).toEqual({ k: 'locked', i: I, m: M });
    expect(decodeEvent(JSON.stringify({ k: 'match', m: M, s: 'closed' }))).toEqual({ k: 'match', m: M, s: 'closed' });
    // A state change without a new status (a goal, a new period).
    expect(decodeEvent(JSON.stringify({ k: 'match', m: M }))).toEqual({ k: 'match', m: M });
    expect(decodeEvent(JSON.stringify({ k: 'follow', m: M, u: U, f: false }))).toEqual({ k: 'follow', m: M, u: U, f: false });
    expect(decodeEvent(JSON.stringify({ k: 'keys', u: U }))).toEqual({ k: 'keys', u: U });
    expect(decodeEvent(JSON.stringify({ k: 'gone', m: M }))).toEqual({ k: 'gone', m: M });
    expect(decodeEvent(JSON.stringify({ k: 'board', m: M }))).toEqual({ k: 'board', m: M });
    for (const bad of [
      '',
      'null',
      '[]',
      '{"k":"issued","i":"x","m":"y"}',
      JSON.stringify({ k: 'settled', i: I, m: M, s: 'open' }),
      JSON.stringify({ k: 'follow', m: M, u: U }),
      JSON.stringify({ k: 'drop', m: M }),
      JSON.stringify({ k: 'keys', u: 'x' }),
      JSON.stringify({ k: 'gone' }),
      JSON.stringify({ k: 'board', m: 'x' }),
      JSON.stringify({ k: 'match', m: M, s: 3 }),
    ]) {
      expect(decodeEvent(bad)).toBeUndefined();
    }
  });
});

describe('the bus of an app', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  it('carries engine events as ids only, far under the NOTIFY limit, and ignores foreign payloads', async () => {
    const seen: BusEvent[] = [];
    const off = app.services.liveBus.subscribe({ onEvent: (e) => seen.push(e) });
    const payloads: string[] = [];
    const stop = app.services.database.onQuery((q) => payloads.push(q));
    try {
      const match = await createMatch(app);
      // A long text and many choices change nothing: only ids travel.
      const row = await insertIssuance(app, { matchId: match.id, questionText: 'x'.repeat(20_000) });
      const bus = app.services.liveBus;
      await publishIssued(bus, row);
      await publishSettled(bus, { ...row, status: 'locked' });
      await publishSettled(bus, { ...row, status: 'resolved' });
      await publishSettled(bus, { ...row, status: 'open' });
      await publishMatchChanged(bus, match.id, { homeScore: 1 });
      await publishMatchChanged(bus, match.id, { status: 'ended' });
      // Nothing a live header shows: nothing published.
      await publishMatchChanged(bus, match.id, { startedAt: new Date() });
      await app.services.database.rows(sql`select pg_notify(${app.services.liveBus.channel}, ${'{"hello":"from another tool"}'})`);
      await until(() => seen.length >= 5, 5000, 'five events');
      await new Promise((r) => setTimeout(r, 100));
      expect(seen).toEqual([
        { k: 'issued', i: row.id, m: match.id },
        { k: 'locked', i: row.id, m: match.id },
        { k: 'settled', i: row.id, m: match.id, s: 'resolved' },
        { k: 'match', m: match.id },
        { k: 'match', m: match.id, s: 'ended' },
      ]);
      const notifies = payloads.filter((q) => q.includes('pg_notify'));
      expect(notifies.length).toBe(6);
    } finally {
      stop();
      off();
    }
  });
});

/** A TCP proxy to PostgreSQL whose open connections can go silent (a partition: no reset, nothing arrives). */
async function startProxy(target: { host: string; port: number }) {
  const pairs = new Set<[net.Socket, net.Socket]>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    const close = () => {
      client.destroy();
      upstream.destroy();
      pairs.delete(pair);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    /** The open connections stop carrying anything, both ways, without closing; new ones work. */
    partition() {
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const [client, upstream] of pairs) {
          client.destroy();
          upstream.destroy();
        }
      }),
  };
}

describe('the LISTEN connection (PostgreSQL)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  it('is replaced when its probe stops coming back (a silent partition postgres.js cannot see), and subscribers are told to resync', async (ctx) => {
    if (!app.db.url) return ctx.skip();
    const target = new URL(app.db.url);
    const proxy = await startProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(app.db.url);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    // Publishing goes through the app's pool (direct); listening through the proxy.
    const bus: LiveBus = createLiveBus({ database: { ...app.services.database, url: viaProxy.toString() }, logger, probeMs: 100 });
    const seen: string[] = [];
    let resyncs = 0;
    bus.subscribe({ onEvent: (e) => seen.push('m' in e ? e.m : 'u' in e ? e.u : e.k), onResync: () => resyncs++ });
    try {
      await bus.start();
      const m1 = (await createMatch(app)).id;
      await bus.publish({ k: 'match', m: m1, s: 'live' });
      await until(() => seen.includes(m1), 5000, 'the first event');

      // No close, no reset: postgres.js waits forever on the silent connection; only the probe notices.
      proxy.partition();
      await until(() => resyncs === 1, 10_000, 'a resync');
      const m2 = (await createMatch(app)).id;
      await bus.publish({ k: 'match', m: m2, s: 'live' });
      await until(() => seen.includes(m2), 5000, 'an event after the outage');
      expect(bus.listening).toBe(true);
    } finally {
      await bus.close();
      await proxy.close();
    }
  });
});

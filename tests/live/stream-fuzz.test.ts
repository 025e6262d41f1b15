/**
 * The live stream against hostile clients, on the real service process
 * (`src/main.ts`, as `npm start` runs it), driven by openapi/asyncapi.yaml:
 * every client message shape it declares, valid and broken (each required
 * field missing, each field of another type, an extra field, an unknown
 * type), malformed JSON, frames at and over the documented size and
 * fragment count, binary frames, frames that break the WebSocket protocol,
 * frames sent before the key was checked (in the upgrade request's packet)
 * and on sockets the server refuses (no key, a bad key, a spent connect
 * budget) or is closing, floods, a slow reader, and clients that vanish.
 *
 * A case fails when the process dies, when it logs an error (a hostile
 * client is not a fault of the service: nothing it sends may reach an
 * unhandled 'error' event or an error log), when a reply is not the one
 * the document gives for what was sent, or when the close code (and a
 * reason the document fixes) is not the documented one.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sample } from 'openapi-sampler';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PLAYER_GROUPS } from '../../src/config.js';
import { CLOSE, STREAM_PROTOCOL } from '../../src/live/messages.js';
import { MAX_CLIENT_MESSAGE_BYTES, MAX_CLIENT_MESSAGE_FRAGMENTS } from '../../src/live/stream.js';
import { clientMessageOf, clientMessages, loadAsyncApi, messageProblem, messageValidators } from '../helpers/asyncapi.js';
import { waitFor } from '../helpers/engine.js';
import { closeFrame, frame, OP, rawStream, type RawStream, type RawStreamOptions } from '../helpers/raw-stream.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db.js';

const doc = loadAsyncApi();
const channel = Object.values(doc.channels).find((c) => c.address === '/api/play/stream')!;
const MAX_BYTES = channel['x-max-client-message-bytes']!;
const MAX_FRAGMENTS = channel['x-max-client-message-fragments']!;
const closeCodes = new Map(doc.info['x-close-codes'].map((c) => [c.code, c]));

// Budgets small enough to spend in a test, large enough for the connects each key and address makes here.
const CONNECTS_PER_KEY = 40;
const CONNECTS_PER_ADDRESS = 40;
const METRICS_TOKEN = 'stream-fuzz-metrics-token-0123456789';

let service: ServiceProcess;
let testDb: TestDatabase | null = null;
let dataDir: string | null = null;
const keys: string[] = [];
let keyTurn = 0;
/** Keys in turn, so that no user reaches the connect budget or the sockets-per-user bound. */
const nextKey = () => keys[keyTurn++ % keys.length]!;
let addressTurn = 0;
/** A client address of its own per connect (the service trusts the loopback proxy), so no address reaches its budget by accident. */
const nextAddress = () => `10.24.${Math.floor(addressTurn / 250)}.${(addressTurn++ % 250) + 1}`;
const open: RawStream[] = [];
let outputSeen = 0;

const streamUrl = (key: string | null) => `${service.url.replace(/^http/, 'ws')}/api/play/stream${key === null ? '' : `?api_key=${encodeURIComponent(key)}`}`;

function connect(key: string | null, options: RawStreamOptions & { address?: string } = {}): RawStream {
  const { address = nextAddress(), headers, ...rest } = options;
  const s = rawStream(streamUrl(key), { ...rest, headers: { 'X-Forwarded-For': address, ...headers } });
  open.push(s);
  return s;
}

/** The documented entry of a close code; fails for a code the document does not list. */
function documented(code: number) {
  const entry = closeCodes.get(code);
  if (!entry) throw new Error(`close code ${code} is not in openapi/asyncapi.yaml x-close-codes`);
  return entry;
}

/** The socket ends with `code` (documented), and with `reason` when given, else the documented one when the document fixes it. */
async function expectClosed(s: RawStream, code: number, reason?: string | RegExp) {
  const entry = documented(code);
  const got = await s.closed;
  expect(got.code, `close code (reason ${JSON.stringify(got.reason)})`).toBe(code);
  if (reason instanceof RegExp) expect(got.reason).toMatch(reason);
  else if (reason !== undefined) expect(got.reason).toBe(reason);
  else if (!/[|<]/.test(entry.reason)) expect(got.reason).toBe(entry.reason);
  expectDocumentedMessages(s);
}

/** Every message the server sent is a documented one. */
function expectDocumentedMessages(s: RawStream) {
  const problems = s.texts.map((t) => {
    try {
      return messageProblem(JSON.parse(t));
    } catch {
      return `not JSON: ${t.slice(0, 100)}`;
    }
  });
  expect(problems.filter(Boolean)).toEqual([]);
}

const types = (texts: string[]) => texts.map((t) => (JSON.parse(t) as { type: string }).type);

/**
 * The reply the document gives for a text frame, as the messages it may be (a client message gets one reply, one of its
 * operation's reply messages): `error` for anything that is no client message.
 */
function expectedReplies(text: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return ['error'];
  }
  return clientMessageOf(value)?.replies ?? ['error'];
}

/** An accepted socket: hello and the connect snapshot have arrived. */
async function ready(options: RawStreamOptions = {}): Promise<RawStream> {
  const s = connect(nextKey(), options);
  expect(await s.status).toBe(101);
  expect(types(await s.received(2))).toEqual(['hello', 'open_questions']);
  return s;
}

/**
 * Lines of the process's output from `from` on that are errors: error-level log lines, and anything else that is
 * not a log line (an uncaught exception's stack), Node's own warnings (`(node:123) ...DeprecationWarning`) aside.
 */
function errorsLogged(from = 0): string[] {
  return service
    .output()
    .slice(from)
    .split('\n')
    .filter((line) => {
      if (!line.trim()) return false;
      try {
        const entry = JSON.parse(line) as { level?: number };
        return typeof entry.level === 'number' && entry.level >= 50;
      } catch {
        return !/^\(node:\d+\)|^\(Use `node --trace-/.test(line);
      }
    });
}

async function liveSockets(): Promise<number> {
  const res = await fetch(`${service.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const m = /^qp_live_sockets (\d+)/m.exec(await res.text());
  if (!m) throw new Error('qp_live_sockets is not in /metrics');
  return Number(m[1]);
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  const where: NodeJS.ProcessEnv = {};
  if (testDb.url) where.DATABASE_URL = testDb.url;
  else {
    await testDb.drop();
    testDb = null;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'qp-stream-fuzz-'));
    where.DATA_DIR = dataDir;
  }
  service = await startServiceProcess({
    ...where,
    TRUST_PROXY: 'loopback',
    STREAM_CONNECTS_PER_KEY: String(CONNECTS_PER_KEY),
    STREAM_CONNECTS_PER_IP: String(CONNECTS_PER_ADDRESS),
    STREAM_CONNECT_WINDOW_SECONDS: '86400',
    METRICS_TOKEN,
  });
  for (let i = 0; i < 4; i++) {
    const username = `fuzz${i}${Date.now().toString(36)}`;
    const res = await service.request('POST', '/api/auth/register', {
      body: { username, email: `${username}@example.com`, password: 'correct horse battery' },
    });
    expect(res.status).toBe(201);
    keys.push(res.body.api_key);
  }
  outputSeen = service.output().length;
}, 180_000);

afterEach(async () => {
  for (const s of open.splice(0)) if (!s.socket.destroyed) s.socket.destroy();
  // The process is alive and answers, and logged no error while the case ran.
  expect(service.child.exitCode, `the service died:\n${service.output().slice(-3000)}`).toBeNull();
  expect(service.child.signalCode).toBeNull();
  expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
  const errors = errorsLogged(outputSeen);
  outputSeen = service.output().length;
  expect(errors, 'errors logged while the case ran').toEqual([]);
});

afterAll(async () => {
  await service?.stop('SIGKILL');
  await testDb?.drop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

// ------------------------------------------------------------------ what the cases send

/** Every value of another JSON type. */
const OTHER_TYPES: [string, unknown][] = [
  ['a string', 'x'],
  ['an integer', 1],
  ['a fraction', 1.5],
  ['a boolean', true],
  ['null', null],
  ['an array', []],
  ['an object', {}],
];

interface Shape {
  name: string;
  text: string;
}

/** The shapes of one client message the document declares: as documented, and broken each way its schema allows. */
function shapesOf(message: ReturnType<typeof clientMessages>[number]): Shape[] {
  const schema = message.schema as { properties?: Record<string, { enum?: unknown[] }>; required?: string[] };
  const base = sample(schema as object) as Record<string, unknown>;
  const serverTypes = [...messageValidators().keys()].filter((t) => !clientMessages().some((m) => m.name === t));
  const out: [string, unknown][] = [
    ['as documented', base],
    ['with an extra field', { ...base, extra: 'field' }],
    ['inside an array', [base]],
    ['as a JSON string', JSON.stringify(base)],
  ];
  for (const [prop, propSchema] of Object.entries(schema.properties ?? {})) {
    if (schema.required?.includes(prop)) {
      const { [prop]: _dropped, ...rest } = base;
      out.push([`without ${prop}`, rest]);
    }
    for (const [kind, value] of OTHER_TYPES) out.push([`${prop} ${kind}`, { ...base, [prop]: value }]);
    for (const v of propSchema.enum ?? []) {
      for (const other of [`${String(v)}x`, String(v).toUpperCase(), ` ${String(v)}`, ''])
        out.push([`${prop} ${JSON.stringify(other)}`, { ...base, [prop]: other }]);
    }
    // Messages of the other direction, sent back by the client.
    if (prop === 'type') for (const t of serverTypes) out.push([`type ${t}`, { ...base, type: t }]);
  }
  return out.map(([name, value]) => ({ name: `${message.name} ${name}`, text: JSON.stringify(value) }));
}

const documentedShapes = (): Shape[] => clientMessages().flatMap(shapesOf);

/** Text that is not a client message: malformed JSON, JSON of the wrong kind, tricks. */
const MALFORMED: string[] = [
  '',
  ' ',
  '{',
  '}',
  '{"type":"ping"',
  '{"type":ping}',
  "{'type':'ping'}",
  'ping',
  '{"type":"ping"}garbage',
  '{"type":"ping"}\n{"type":"ping"}',
  '\u0000',
  '\ufeff{"type":"ping"}',
  '{"type":"ping","type":"pong"}',
  '{"__proto__":{"type":"ping"}}',
  '{"constructor":{"prototype":{"type":"ping"}}}',
  '1e999',
  '-0',
  '"\\ud800"',
  '{"type":"\\u0070ing"}',
  '{"type":"ping\\u0000"}',
  '{"type":"\\ud800"}',
  `${'['.repeat(1500)}${']'.repeat(1500)}`,
  `{"a":${'{"a":'.repeat(600)}1${'}'.repeat(600)}}`,
];

/** A ping padded to exactly `bytes` bytes (with two-byte characters where it can, so bytes and characters differ). */
function pingOfBytes(bytes: number): string {
  const shell = '{"type":"ping","pad":""}';
  const room = bytes - Buffer.byteLength(shell);
  const text = `{"type":"ping","pad":"${'é'.repeat(Math.floor(room / 2))}${'x'.repeat(room % 2)}"}`;
  expect(Buffer.byteLength(text)).toBe(bytes);
  return text;
}

/** Frames the WebSocket protocol forbids, each with the code RFC 6455 (and the document) gives it. */
const PROTOCOL_VIOLATIONS: { name: string; bytes: () => Buffer; code: number }[] = [
  { name: 'an unmasked frame', bytes: () => frame('{"type":"ping"}', { mask: false }), code: 1002 },
  { name: 'RSV1 without an extension', bytes: () => frame('{"type":"ping"}', { rsv: 4 }), code: 1002 },
  { name: 'RSV2', bytes: () => frame('{"type":"ping"}', { rsv: 2 }), code: 1002 },
  { name: 'RSV3', bytes: () => frame('{"type":"ping"}', { rsv: 1 }), code: 1002 },
  { name: 'a reserved data opcode', bytes: () => frame('x', { opcode: 0x3 }), code: 1002 },
  { name: 'a reserved control opcode', bytes: () => frame('x', { opcode: 0xb }), code: 1002 },
  { name: 'a continuation of nothing', bytes: () => frame('x', { opcode: OP.continuation }), code: 1002 },
  {
    name: 'a new message inside a fragmented one',
    bytes: () => Buffer.concat([frame('{"type":', { fin: false }), frame('"ping"}')]),
    code: 1002,
  },
  { name: 'a ping over 125 bytes', bytes: () => frame('x'.repeat(126), { opcode: OP.ping }), code: 1002 },
  { name: 'a fragmented ping', bytes: () => frame('x', { opcode: OP.ping, fin: false }), code: 1002 },
  { name: 'a close frame of one byte', bytes: () => frame(Buffer.from([3]), { opcode: OP.close }), code: 1002 },
  ...[0, 999, 1004, 1005, 1006, 1015, 2999, 5000, 65535].map((c) => ({ name: `close code ${c}`, bytes: () => closeFrame(c), code: 1002 })),
  { name: 'a close reason that is not UTF-8', bytes: () => frame(Buffer.from([0x03, 0xe8, 0xff, 0xfe]), { opcode: OP.close }), code: 1007 },
  ...(
    [
      ['a lone 0xff byte', [0xff]],
      ['a truncated two-byte character', [0x7b, 0xc3]],
      ['an overlong NUL', [0xc0, 0x80]],
      ['an encoded surrogate', [0xed, 0xa0, 0x80]],
      ['a code point over U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ] as [string, number[]][]
  ).map(([name, bytes]) => ({ name: `text with ${name}`, bytes: () => frame(Buffer.from(bytes)), code: 1007 })),
  {
    name: 'UTF-8 cut across fragments and never finished',
    bytes: () => Buffer.concat([frame(Buffer.from([0x22, 0xe2, 0x82]), { fin: false }), frame(Buffer.from([0x22]), { opcode: OP.continuation })]),
    code: 1007,
  },
  { name: 'a 64-bit length over 2^53', bytes: () => frame('x', { declaredLength: 2 ** 60 }), code: 1009 },
  { name: 'a length far over the limit, never sent', bytes: () => frame('x', { declaredLength: 1024 * 1024 * 1024 }), code: 1009 },
];

/** What a client sends on a socket the server refuses or closes, each sent in one write. */
const JUNK: { name: string; bytes: () => Buffer }[] = [
  { name: 'a frame over the limit', bytes: () => frame('x'.repeat(MAX_BYTES + 1000)) },
  { name: 'a binary frame', bytes: () => frame(Buffer.from('{"type":"ping"}'), { opcode: OP.binary }) },
  { name: 'malformed JSON', bytes: () => frame('{"type":') },
  { name: 'a ping', bytes: () => frame('{"type":"ping"}') },
  { name: 'a flood of pings', bytes: () => Buffer.concat(Array.from({ length: 1000 }, () => frame('{"type":"ping"}'))) },
  { name: 'an unmasked frame', bytes: () => frame('{"type":"ping"}', { mask: false }) },
  { name: 'invalid UTF-8', bytes: () => frame(Buffer.from([0xff, 0xfe])) },
  { name: 'a close frame', bytes: () => closeFrame(1000) },
  { name: 'a 64-bit length over 2^53', bytes: () => frame('x', { declaredLength: 2 ** 60 }) },
];

// ------------------------------------------------------------------ the cases

describe('the stream document drives the fuzz', () => {
  it('declares the client messages, their replies, the limits and the close codes the server uses', () => {
    expect(clientMessages().map((m) => [m.name, m.replies])).toEqual([
      ['ping', ['pong']],
      ['subscribe_group', ['group_subscribed', 'error']],
      ['unsubscribe_group', ['group_unsubscribed']],
    ]);
    expect(messageValidators().has('error')).toBe(true);
    expect(MAX_BYTES).toBe(MAX_CLIENT_MESSAGE_BYTES);
    expect(MAX_FRAGMENTS).toBe(MAX_CLIENT_MESSAGE_FRAGMENTS);
    for (const close of Object.values(CLOSE)) documented(close.code);
    expect(documentedShapes().length).toBeGreaterThan(20);
  });
});

describe('client messages on an accepted socket', () => {
  it('answers every documented shape, valid or broken, as the document says, and keeps the socket', async () => {
    const shapes = [...documentedShapes(), ...MALFORMED.map((text) => ({ name: `malformed ${JSON.stringify(text).slice(0, 40)}`, text }))];
    const s = await ready();
    await s.write(Buffer.concat([...shapes.map((sh) => frame(sh.text)), frame('{"type":"ping"}')]));
    const expected = [...shapes.map((sh) => ({ name: sh.name, replies: expectedReplies(sh.text) })), { name: 'final ping', replies: ['pong'] }];
    const got = await s.received(2 + expected.length);
    const replies = types(got.slice(2));
    // One reply each, in order, one of those the document gives.
    const verdicts = replies.map(
      (r, i) => `${expected[i]!.name} -> ${expected[i]!.replies.includes(r) ? 'as documented' : `${r}, not ${expected[i]!.replies.join(' or ')}`}`,
    );
    expect(verdicts).toEqual(expected.map((e) => `${e.name} -> as documented`));
    expectDocumentedMessages(s);
    // Still open: a client close is answered with its own code.
    await s.write(closeFrame(1000));
    expect(await s.closed).toEqual({ code: 1000, reason: '' });
  });

  it('answers the same shapes sent with the upgrade request, before the key was checked, after hello and the snapshot', async () => {
    const shapes = documentedShapes().slice(0, 40);
    const s = connect(nextKey(), { head: Buffer.concat(shapes.map((sh) => frame(sh.text))) });
    expect(await s.status).toBe(101);
    const expected = shapes.map((sh) => expectedReplies(sh.text));
    const got = await s.received(2 + expected.length);
    const replies = types(got).slice(2);
    expect(types(got).slice(0, 2)).toEqual(['hello', 'open_questions']);
    expect(replies.map((r, i) => (expected[i]!.includes(r) ? 'as documented' : `${shapes[i]!.name} -> ${r}`))).toEqual(expected.map(() => 'as documented'));
    expect(JSON.parse(got[0]!).protocol).toBe(STREAM_PROTOCOL);
    expectDocumentedMessages(s);
  });

  it('takes a message of exactly the limit in bytes, and a ping in fragments up to the fragment limit', async () => {
    const s = await ready();
    const ping = '{"type":"ping"}';
    const parts = Array.from({ length: MAX_FRAGMENTS }, (_, i) => ping.slice(i, i + 1) + (i === MAX_FRAGMENTS - 1 ? ping.slice(MAX_FRAGMENTS) : ''));
    expect(parts.join('')).toBe(ping);
    await s.write(
      Buffer.concat([
        frame(pingOfBytes(MAX_BYTES)),
        ...parts.map((p, i) => frame(p, { opcode: i === 0 ? OP.text : OP.continuation, fin: i === parts.length - 1 })),
        // A control frame between fragments is allowed.
        frame('{"type":', { fin: false }),
        frame('x', { opcode: OP.ping }),
        frame('"ping"}', { opcode: OP.continuation }),
      ]),
    );
    expect(types((await s.received(5)).slice(2))).toEqual(['pong', 'pong', 'pong']);
  });

  it(`closes with 1009 a message one byte over the limit, whole or in fragments`, async () => {
    const whole = await ready();
    await whole.write(frame(pingOfBytes(MAX_BYTES + 1)));
    await expectClosed(whole, 1009);
    const fragmented = await ready();
    const half = pingOfBytes(MAX_BYTES + 1);
    const cut = Math.floor(half.length / 2);
    await fragmented.write(Buffer.concat([frame(half.slice(0, cut), { fin: false }), frame(half.slice(cut), { opcode: OP.continuation })]));
    await expectClosed(fragmented, 1009);
    expect(fragmented.texts.slice(2)).toEqual([]);
  });

  it(`closes with 1008 a message in more fragments than the limit`, async () => {
    const s = await ready();
    await s.write(
      Buffer.concat([frame('', { fin: false }), ...Array.from({ length: MAX_FRAGMENTS + 1 }, () => frame('', { opcode: OP.continuation, fin: false }))]),
    );
    await expectClosed(s, 1008, '');
  });

  it('closes with 1003 a binary frame, whatever it holds', async () => {
    for (const payload of [Buffer.from('{"type":"ping"}'), Buffer.alloc(0), Buffer.from([0xff, 0x00])]) {
      const s = await ready();
      await s.write(frame(payload, { opcode: OP.binary }));
      await expectClosed(s, 1003);
    }
  });

  for (const violation of PROTOCOL_VIOLATIONS) {
    it(`closes with ${violation.code} ${violation.name}, and ignores what follows it`, async () => {
      const s = await ready();
      // What follows the violation in the same write reaches a socket the server is closing.
      await s.write(
        Buffer.concat([violation.bytes(), frame('x'.repeat(MAX_BYTES * 2)), frame(Buffer.from('x'), { opcode: OP.binary }), frame('{"type":"ping"}')]),
      );
      await expectClosed(s, violation.code);
      expect(s.texts.slice(2)).toEqual([]);
    });
  }

  it('answers a close the client starts with its own code, and ignores what the client sends after it', async () => {
    for (const [code, reason] of [
      [1000, ''],
      [1001, 'going away'],
      [3000, 'registered'],
      [4000, 'app'],
      [4999, 'é'],
    ] as [number, string][]) {
      const s = await ready();
      await s.write(
        Buffer.concat([closeFrame(code, reason), frame('{"type":"ping"}'), frame('x'.repeat(MAX_BYTES * 2)), frame(Buffer.from('x'), { opcode: OP.binary })]),
      );
      expect(await s.closed).toEqual({ code, reason });
      expect(s.texts.slice(2)).toEqual([]);
    }
    const empty = await ready();
    await empty.write(closeFrame());
    expect((await empty.closed).code).toBe(1005);
  });
});

describe('floods', () => {
  it('answers a flood of pings and of junk in order, each with its documented reply', async () => {
    const s = await ready();
    const n = 2000;
    await s.write(Buffer.concat([...Array.from({ length: n }, (_, i) => frame(i % 2 ? '{"type":"ping"}' : 'junk')), frame('{"type":"ping"}')]));
    const replies = types((await s.received(2 + n + 1)).slice(2));
    expect(replies).toEqual([...Array.from({ length: n }, (_, i) => (i % 2 ? 'pong' : 'error')), 'pong']);
    expectDocumentedMessages(s);
  });

  it('answers pings sent with the upgrade request after the snapshot, or closes with 4008 when they pass the queue of a socket not set up yet', async () => {
    const n = 300;
    const s = connect(nextKey(), { head: Buffer.concat(Array.from({ length: n }, () => frame('{"type":"ping"}'))) });
    expect(await s.status).toBe(101);
    const outcome = await Promise.race([s.received(2 + n).then(() => 'answered' as const), s.closed.then(() => 'closed' as const)]);
    if (outcome === 'closed') await expectClosed(s, CLOSE.tooSlow.code);
    else expect(types(s.texts)).toEqual(['hello', 'open_questions', ...Array.from({ length: n }, () => 'pong')]);
  });

  it('survives a flood of protocol pings: answered, or the socket terminated (no close frame) when their pongs pile up', async () => {
    const s = await ready();
    await s.write(Buffer.concat(Array.from({ length: 5000 }, () => frame('x', { opcode: OP.ping }))));
    await s.write(frame('{"type":"ping"}')).catch(() => {});
    const outcome = await Promise.race([s.received(3).then(() => 'answered' as const), s.closed.then(() => 'closed' as const)]);
    if (outcome === 'closed') expect((await s.closed).code).toBe(1006);
    else expect(types(s.texts)).toEqual(['hello', 'open_questions', 'pong']);
  });

  it('answers as many subscribe_group as may wait for their answers, and closes with 1008 a socket that sends one more', async () => {
    // A group nobody has: each subscription is still a statement (the membership), which is what the bound is for. The
    // bound is the groups a player may belong to (the service process runs with the default).
    const MAX_QUEUED_SUBSCRIBES = DEFAULT_PLAYER_GROUPS.maxGroupsPerUser;
    const subscribe = frame(JSON.stringify({ type: 'subscribe_group', group_id: '6a1e4c1e-0000-4000-8000-00000000f100' }));
    const within = await ready();
    await within.write(Buffer.concat([...Array.from({ length: MAX_QUEUED_SUBSCRIBES }, () => subscribe), frame('{"type":"ping"}')]));
    expect(types((await within.received(2 + MAX_QUEUED_SUBSCRIBES + 1)).slice(2))).toEqual([
      ...Array.from({ length: MAX_QUEUED_SUBSCRIBES }, () => 'error'),
      'pong',
    ]);
    expectDocumentedMessages(within);
    // Sent in one write, they are all read before the first is answered.
    const over = await ready();
    await over.write(Buffer.concat(Array.from({ length: MAX_QUEUED_SUBSCRIBES + 1 }, () => subscribe)));
    await expectClosed(over, CLOSE.flooded.code, CLOSE.flooded.reason);
  });

  it('closes a reader that never reads with 4008 once its unsent answers pass the limit, instead of buffering them', async () => {
    await waitFor(async () => (await liveSockets()) === 0, { what: 'no stream socket open before the slow reader' });
    const s = connect(nextKey(), { paused: true });
    await waitFor(async () => (await liveSockets()) === 1, { what: 'the slow reader to be set up' });
    // Every junk message is answered with an error message (about 110 bytes for 7 sent): the answers fill the
    // kernel's buffers, then the server's own, which may not grow past STREAM_MAX_BUFFERED_BYTES.
    const batch = Buffer.concat(Array.from({ length: 4000 }, () => frame('x')));
    for (let sent = 0; (await liveSockets()) === 1; sent++) {
      if (sent > 400) throw new Error('the slow reader was never cut off');
      await s.write(batch);
    }
    s.resume();
    await expectClosed(s, CLOSE.tooSlow.code);
    expect(types(s.texts.slice(0, 2))).toEqual(['hello', 'open_questions']);
  });
});

describe('sockets the server refuses', () => {
  const BUDGET_KEY = 'qp_fuzz-budget-key-that-does-not-exist';
  const BUDGET_ADDRESS = '10.99.0.1';

  beforeAll(async () => {
    // Spend the budget of one key (each connect from an address of its own) and of one address (without a key).
    for (let i = 0; i < CONNECTS_PER_KEY; i++) await expectClosed(connect(BUDGET_KEY), CLOSE.unauthorized.code, CLOSE.unauthorized.invalid);
    for (let i = 0; i < CONNECTS_PER_ADDRESS; i++)
      await expectClosed(connect(null, { address: BUDGET_ADDRESS }), CLOSE.unauthorized.code, CLOSE.unauthorized.missing);
  });

  const refusals: { name: string; open: (head?: Buffer) => RawStream; code: number; reason: string | RegExp }[] = [
    { name: 'no key', open: (head) => connect(null, { head }), code: CLOSE.unauthorized.code, reason: CLOSE.unauthorized.missing },
    { name: 'an empty key', open: (head) => connect('', { head }), code: CLOSE.unauthorized.code, reason: CLOSE.unauthorized.missing },
    { name: 'a bad key', open: (head) => connect('qp_not-a-real-key', { head }), code: CLOSE.unauthorized.code, reason: CLOSE.unauthorized.invalid },
    {
      name: 'a key whose budget is spent',
      open: (head) => connect(BUDGET_KEY, { head }),
      code: CLOSE.tooManyConnects.code,
      reason: /^too many connects; retry in \d+ s$/,
    },
    {
      name: 'an address whose budget is spent',
      open: (head) => connect(nextKey(), { head, address: BUDGET_ADDRESS }),
      code: CLOSE.tooManyConnects.code,
      reason: /^too many connects; retry in \d+ s$/,
    },
  ];

  for (const refusal of refusals) {
    for (const junk of JUNK) {
      it(`${refusal.name}: closes with ${refusal.code} whatever the client sent with the upgrade request (${junk.name})`, async () => {
        const s = refusal.open(junk.bytes());
        expect(await s.status).toBe(101);
        await expectClosed(s, refusal.code, refusal.reason);
        expect(s.texts).toEqual([]);
      });

      it(`${refusal.name}: closes with ${refusal.code} whatever the client sends while it closes (${junk.name})`, async () => {
        const s = refusal.open();
        expect(await s.status).toBe(101);
        await s.write(junk.bytes()).catch(() => {});
        await expectClosed(s, refusal.code, refusal.reason);
        expect(s.texts).toEqual([]);
      });
    }
  }
});

describe('handshakes that are not WebSocket handshakes, and clients that vanish', () => {
  it('answers an upgrade of another path with 404, frames in its packet or not', async () => {
    for (const head of [undefined, frame('x'.repeat(MAX_BYTES * 2))]) {
      const s = rawStream(`${service.url.replace(/^http/, 'ws')}/api/play/streams?api_key=${encodeURIComponent(keys[0]!)}`, { head });
      open.push(s);
      expect(await s.status).toBe(404);
      await s.closed;
    }
  });

  it('answers an upgrade of the path that is not a WebSocket handshake with 400 (405 for another method)', async () => {
    const cases: [string, RawStreamOptions, number][] = [
      ['an unknown version', { headers: { 'Sec-WebSocket-Version': '99' } }, 400],
      ['no key', { headers: { 'Sec-WebSocket-Key': undefined } }, 400],
      ['a key that is not 16 bytes', { headers: { 'Sec-WebSocket-Key': 'c2hvcnQ=' } }, 400],
      ['another protocol', { headers: { Upgrade: 'h2c' } }, 400],
      ['a POST', { method: 'POST' }, 405],
    ];
    for (const [name, options, status] of cases) {
      const s = connect(keys[0]!, { ...options, head: frame('x'.repeat(MAX_BYTES * 2)) });
      expect(await s.status, name).toBe(status);
      await s.closed;
    }
  });

  it('survives clients that reset the connection while the key is checked, mid-frame, or half-close it', async () => {
    for (const key of [null, 'qp_not-a-real-key', keys[0]!]) {
      const s = connect(key);
      s.socket.once('connect', () => s.reset());
      await s.closed;
      const half = connect(key);
      half.socket.end();
      await half.closed;
    }
    const s = await ready();
    await s.write(frame('x'.repeat(2000)).subarray(0, 1000));
    s.reset();
    await s.closed;
    await waitFor(async () => (await liveSockets()) === 0, { what: 'the reset sockets to be dropped' });
  });
});

describe('after all of it', () => {
  it('still serves the stream, holds no socket it should not, and never logged an error', async () => {
    const s = await ready();
    await s.write(frame('{"type":"ping"}'));
    expect(types((await s.received(3)).slice(2))).toEqual(['pong']);
    await s.write(closeFrame(1000));
    await s.closed;
    await waitFor(async () => (await liveSockets()) === 0, { what: 'every stream socket to be dropped' });
    expect(errorsLogged()).toEqual([]);
  });
});

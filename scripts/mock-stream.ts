/**
 * The live stream of `npm run mock`: `/api/play/stream` plays the story of
 * the HTTP mock's examples (Qatar vs Ecuador, the second half from 19:52:20)
 * on a timer, every message one of openapi/asyncapi.yaml's named examples.
 *
 * Each socket gets its own play-through: `hello` and the `open_questions`
 * snapshot at once, then the messages of STREAM_STORY when the story clock
 * reaches their time. The story clock starts at the hello's `server_time`
 * and runs `speed` times faster than real time; the mock rewrites only what
 * depends on it (`server_time`, `seconds_remaining`, both in story time).
 * After the last message the socket stays open with heartbeats. As the
 * service does: a WebSocket ping every `heartbeatSeconds`, `{"type":"ping"}`
 * answered with `pong`, `subscribe_group` with `group_subscribed` (any
 * group: the caller is taken for a member), `unsubscribe_group` with
 * `group_unsubscribed`, any other message with `error`, a binary frame
 * closed with 1003, a message over 4,096 bytes with 1009, a missing
 * `api_key` with 4401 (any key is accepted), another path 404.
 */
import fs from 'node:fs';
import type { IncomingMessage, Server } from 'node:http';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import * as yaml from 'js-yaml';
import { WebSocketServer, type WebSocket } from 'ws';
import { CLOSE } from '../src/live/messages.js';

const root = path.resolve(import.meta.dirname, '..');
export const STREAM_PATH = '/api/play/stream';
const MAX_CLIENT_MESSAGE_BYTES = 4096;
const MAX_CLIENT_MESSAGE_FRAGMENTS = 16;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** When the story begins: the `server_time` of the `hello` example, 52:20 into the match. */
export const STORY_START = '2026-11-20T19:52:20Z';

export interface StoryStep {
  /** Story time the message is sent at. */
  at: string;
  /** The message's `type` and the name of its example in openapi/asyncapi.yaml. */
  type: string;
  example: string;
}

/**
 * What a follower of Qatar vs Ecuador sees from 19:52:20 to the result: a
 * corner question they get wrong, Ecuador's second goal settling their
 * "who scores next", a late question they miss, full time, and the
 * result resolving their Match question; the board after each settlement,
 * and (to a socket subscribed to it, `subscribe_group`) the Office World
 * Cup group's board after the last two.
 */
export const STREAM_STORY: StoryStep[] = [
  { at: STORY_START, type: 'hello', example: 'hello' },
  { at: STORY_START, type: 'open_questions', example: 'on connect' },
  { at: '2026-11-20T19:55:10Z', type: 'question', example: 'corner' },
  { at: '2026-11-20T19:56:40Z', type: 'resolution', example: 'incorrect' },
  { at: '2026-11-20T19:56:45Z', type: 'leaderboard', example: 'after the corner' },
  { at: '2026-11-20T20:08:00Z', type: 'match_state', example: 'goal' },
  { at: '2026-11-20T20:10:00Z', type: 'resolution', example: 'correct' },
  { at: '2026-11-20T20:10:05Z', type: 'leaderboard', example: 'after the second goal' },
  { at: '2026-11-20T20:10:05Z', type: 'group_leaderboard', example: 'office after the second goal' },
  { at: '2026-11-20T20:20:00Z', type: 'question', example: 'late goal' },
  { at: '2026-11-20T20:37:00Z', type: 'match_state', example: 'full time' },
  { at: '2026-11-20T20:37:00Z', type: 'match_closed', example: 'full time' },
  { at: '2026-11-20T20:37:00Z', type: 'resolution', example: 'resolved, not answered' },
  { at: '2026-11-20T20:40:00Z', type: 'match_state', example: 'result final' },
  { at: '2026-11-20T20:40:00Z', type: 'resolution', example: 'match question' },
  { at: '2026-11-20T20:40:05Z', type: 'leaderboard', example: 'after the result' },
  { at: '2026-11-20T20:40:05Z', type: 'group_leaderboard', example: 'office after the result' },
];

type Json = Record<string, unknown>;

/** The named examples of openapi/asyncapi.yaml: message type -> example name -> payload. */
export function streamExamples(file = path.join(root, 'openapi', 'asyncapi.yaml')): Map<string, Map<string, Json>> {
  const doc = yaml.load(fs.readFileSync(file, 'utf8')) as {
    components: { messages: Record<string, { name: string; examples?: { name: string; payload: Json }[] }> };
  };
  return new Map(Object.values(doc.components.messages).map((m) => [m.name, new Map((m.examples ?? []).map((e) => [e.name, e.payload]))]));
}

/** The example a step sends; throws when openapi/asyncapi.yaml has none of that name. */
export function exampleOf(examples: Map<string, Map<string, Json>>, step: Pick<StoryStep, 'type' | 'example'>): Json {
  const payload = examples.get(step.type)?.get(step.example);
  if (!payload) throw new Error(`openapi/asyncapi.yaml has no ${step.type} example named '${step.example}'`);
  return payload;
}

const secondsLeft = (question: Json, now: number) => Math.max(0, Math.floor((Date.parse(String(question.closes_at)) - now) / 1000));

/** The example as sent at story time `now`: the clock's server time, questions' seconds remaining. */
export function atStoryTime(message: Json, now: number, heartbeatSeconds: number): Json {
  const out = structuredClone(message);
  if (out.type === 'hello') Object.assign(out, { server_time: new Date(now).toISOString().replace('.000Z', 'Z'), heartbeat_seconds: heartbeatSeconds });
  if (out.type === 'open_questions') for (const q of out.questions as Json[]) q.seconds_remaining = secondsLeft(q, now);
  if (out.type === 'question') (out.question as Json).seconds_remaining = secondsLeft(out.question as Json, now);
  return out;
}

export interface MockStreamOptions {
  /** Story seconds per real second (1: real time). */
  speed: number;
  /** Real seconds between WebSocket pings (the hello's `heartbeat_seconds`). */
  heartbeatSeconds: number;
}

function refuse(socket: Duplex, status: number, text: string) {
  socket.once('finish', () => socket.destroy());
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
}

/** Plays the story to one socket; returns what stops it. */
function play(ws: WebSocket, examples: Map<string, Map<string, Json>>, { speed, heartbeatSeconds }: MockStreamOptions): () => void {
  const start = Date.parse(STORY_START);
  const began = Date.now();
  const storyNow = () => start + (Date.now() - began) * speed;
  const timers: NodeJS.Timeout[] = [];
  /** Groups the socket subscribed to: their steps go out to it. */
  const subscribed = new Set<string>();
  const send = (message: Json) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };
  // Steps of one time go out in order, each after the one before it.
  let chain = Promise.resolve();
  for (const step of STREAM_STORY) {
    const payload = exampleOf(examples, step);
    const due = (Date.parse(step.at) - start) / speed;
    timers.push(
      setTimeout(() => {
        // A group's board goes to sockets subscribed to that group only.
        if (payload.type === 'group_leaderboard' && !subscribed.has(String(payload.group_id))) return;
        chain = chain.then(() => send(atStoryTime(payload, storyNow(), heartbeatSeconds)));
      }, due),
    );
  }
  let alive = true;
  ws.on('pong', () => (alive = true));
  timers.push(
    setInterval(() => {
      if (!alive) return ws.terminate();
      alive = false;
      ws.ping();
    }, heartbeatSeconds * 1000),
  );
  ws.on('message', (data, isBinary) => {
    if (isBinary) return ws.close(CLOSE.unsupported.code, CLOSE.unsupported.reason);
    let message: { type?: unknown; group_id?: unknown } = {};
    try {
      message = (JSON.parse(String(data)) as typeof message) ?? {};
    } catch {
      message = {};
    }
    const groupId = typeof message.group_id === 'string' && UUID.test(message.group_id) ? message.group_id : null;
    if (message.type === 'ping') send(exampleOf(examples, { type: 'pong', example: 'pong' }));
    // Any group is the caller's: its subscription is answered as a member's.
    else if (message.type === 'subscribe_group' && groupId) {
      subscribed.add(groupId);
      send({ ...exampleOf(examples, { type: 'group_subscribed', example: 'office' }), group_id: groupId });
    } else if (message.type === 'unsubscribe_group' && groupId) {
      subscribed.delete(groupId);
      send({ ...exampleOf(examples, { type: 'group_unsubscribed', example: 'requested' }), group_id: groupId });
    } else send(exampleOf(examples, { type: 'error', example: 'unknown message' }));
  });
  return () => timers.forEach((t) => clearTimeout(t));
}

/** Serves the mock stream on the server's upgrades. */
export function attachMockStream(server: Server, options: MockStreamOptions): { close(): void } {
  const examples = streamExamples();
  // Every step has its example before the first socket connects.
  for (const step of STREAM_STORY) exampleOf(examples, step);
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_CLIENT_MESSAGE_BYTES,
    maxFragments: MAX_CLIENT_MESSAGE_FRAGMENTS,
    perMessageDeflate: false,
  });
  wss.on('error', (err) => console.error(`mock stream: ${err.message}`));
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => {});
    const url = new URL(req.url ?? '/', 'http://mock.invalid');
    if (url.pathname !== STREAM_PATH) return refuse(socket, 404, 'Not Found');
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('error', () => {});
      if (!url.searchParams.get('api_key')) return ws.close(CLOSE.unauthorized.code, CLOSE.unauthorized.missing);
      const stop = play(ws, examples, options);
      ws.on('close', stop);
    });
  });
  return {
    close: () => {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },
  };
}

/**
 * A client of WS /api/play/stream for tests: collects every message,
 * validates each against openapi/asyncapi.yaml, and hands them out in order.
 */
import { WebSocket, type ClientOptions } from 'ws';
import { messageProblem } from './asyncapi.js';
import { waitBound } from './bounds.js';
import type { TestApp } from './test-app.js';

export interface StreamMessage {
  type: string;
  [key: string]: any;
}

export interface StreamClient {
  ws: WebSocket;
  /** Every message received, in order. */
  messages: StreamMessage[];
  /** Resolves with the close code and reason (1006 when the connection dropped without a close frame). */
  closed: Promise<{ code: number; reason: string }>;
  /**
   * The next message not taken yet that matches (by type, or a predicate), waiting up to timeoutMs (default 30 s: a
   * bound on a wait for a message that never comes, far above what a busy machine needs). Skipped messages stay available.
   */
  take(match?: string | ((m: StreamMessage) => boolean), timeoutMs?: number): Promise<StreamMessage>;
  /** Fails when a matching message arrives (or is already waiting) within ms. */
  expectNone(match: string | ((m: StreamMessage) => boolean), ms?: number): Promise<void>;
  /** hello, then the connect snapshot. */
  ready(): Promise<{ hello: StreamMessage; open: StreamMessage }>;
  send(message: unknown): void;
  close(): Promise<void>;
}

export function streamUrl(app: TestApp, apiKey: string | null, extra = ''): string {
  const base = app.url.replace(/^http/, 'ws');
  return `${base}/api/play/stream${apiKey === null ? '' : `?api_key=${encodeURIComponent(apiKey)}`}${extra}`;
}

/** Opens a socket with the key (null: none) and starts collecting. Resolves once the socket is open. */
export async function openStream(app: TestApp, apiKey: string | null, options: ClientOptions & { url?: string } = {}): Promise<StreamClient> {
  const { url = streamUrl(app, apiKey), ...wsOptions } = options;
  const ws = new WebSocket(url, wsOptions);
  const messages: StreamMessage[] = [];
  const taken = new Set<StreamMessage>();
  const problems: string[] = [];
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const w of [...waiters]) w();
  };

  ws.on('message', (data, isBinary) => {
    let message: StreamMessage;
    try {
      message = JSON.parse(data.toString()) as StreamMessage;
    } catch {
      problems.push(`not JSON: ${data.toString().slice(0, 200)}`);
      wake();
      return;
    }
    if (isBinary) problems.push(`binary frame: ${message.type}`);
    const problem = messageProblem(message);
    if (problem) problems.push(`${message.type}: ${problem}\n${JSON.stringify(message).slice(0, 500)}`);
    messages.push(message);
    wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => {
      resolve({ code, reason: reason.toString() });
      wake();
    });
  });
  ws.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => reject(new Error(`handshake refused: HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });

  const matcher = (match?: string | ((m: StreamMessage) => boolean)) => (m: StreamMessage) =>
    match === undefined ? true : typeof match === 'string' ? m.type === match : match(m);
  const check = () => {
    if (problems.length) throw new Error(`stream messages break openapi/asyncapi.yaml:\n${problems.join('\n')}`);
  };

  const client: StreamClient = {
    ws,
    messages,
    closed,
    take(match, requestedMs = 30_000) {
      const timeoutMs = waitBound(requestedMs);
      const test = matcher(match);
      return new Promise<StreamMessage>((resolve, reject) => {
        const look = () => {
          try {
            check();
          } catch (err) {
            done();
            reject(err as Error);
            return;
          }
          const found = messages.find((m) => !taken.has(m) && test(m));
          if (found) {
            taken.add(found);
            done();
            resolve(found);
          } else if (ws.readyState === WebSocket.CLOSED) {
            done();
            reject(
              new Error(`socket closed before a ${typeof match === 'string' ? match : 'matching'} message; got ${JSON.stringify(messages.map((m) => m.type))}`),
            );
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(
            new Error(
              `no ${typeof match === 'string' ? match : 'matching'} message within ${timeoutMs} ms; got ${JSON.stringify(messages.map((m) => m.type))}`,
            ),
          );
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(look);
        };
        waiters.add(look);
        look();
      });
    },
    async expectNone(match, ms = 300) {
      const test = matcher(match);
      await new Promise((r) => setTimeout(r, ms));
      check();
      const found = messages.find((m) => !taken.has(m) && test(m));
      if (found) throw new Error(`unexpected message: ${JSON.stringify(found)}`);
    },
    async ready() {
      const hello = await client.take('hello');
      const open = await client.take('open_questions');
      return { hello, open };
    },
    send(message) {
      ws.send(typeof message === 'string' ? message : JSON.stringify(message));
    },
    async close() {
      if (ws.readyState !== WebSocket.CLOSED) {
        ws.close();
        await Promise.race([closed, new Promise((r) => setTimeout(r, 2000))]);
        if ((ws.readyState as number) !== WebSocket.CLOSED) ws.terminate();
      }
      check();
    },
  };
  return client;
}

/** Waits until the app's stream holds `sockets` sockets (or until it passes `predicate`). */
export async function waitForHub(app: TestApp, predicate: (stats: ReturnType<TestApp['live']['hub']['stats']>) => boolean, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + waitBound(timeoutMs);
  for (;;) {
    if (predicate(app.live.hub.stats())) return;
    if (Date.now() > until) throw new Error(`hub never reached the expected state; now ${JSON.stringify(app.live.hub.stats())}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

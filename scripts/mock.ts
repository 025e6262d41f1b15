/**
 * `npm run mock [-- <prism options>]`: the contract mocked, HTTP and stream on
 * one address (MOCK_HOST:MOCK_PORT, default 127.0.0.1:4010). Prism's mock
 * server answers the HTTP operations from the contract's examples; this
 * process is in front of it on the public address, passing every request to
 * Prism, and serves the live stream `/api/play/stream` itself from
 * openapi/asyncapi.yaml's examples (scripts/mock-stream.ts). Options given
 * after `--` go to `prism mock` as they are, except `--port`/`--host`, which
 * set the public address and win over the environment (so
 * `npm run mock -- --port 4011` works). MOCK_STREAM_SPEED (story seconds per
 * second, default 10) and MOCK_STREAM_HEARTBEAT_SECONDS (default 30) set
 * the stream's pace.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import fs from 'node:fs';
import * as yaml from 'js-yaml';
import { attachMockStream } from './mock-stream.js';

const root = path.resolve(import.meta.dirname, '..');

function fail(message: string): never {
  console.error(`mock: ${message}`);
  process.exit(2);
}

/** `--port`/`-p` and `--host`/`-h` (the public address) taken out of Prism's options. */
function splitArgs(args: string[]): { port?: string; host?: string; prism: string[] } {
  const out: { port?: string; host?: string; prism: string[] } = { prism: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const m = /^(--port|-p|--host|-h)(?:=(.*))?$/.exec(arg);
    if (!m) {
      out.prism.push(arg);
      continue;
    }
    const value = m[2] ?? args[++i];
    if (value === undefined) fail(`${arg} needs a value`);
    if (m[1] === '--port' || m[1] === '-p') out.port = value;
    else out.host = value;
  }
  return out;
}

const number = (name: string, raw: string | undefined, fallback: number, min: number, max: number) => {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!(n >= min && n <= max)) fail(`${name} must be a number from ${min} to ${max}, got '${raw}'`);
  return n;
};

const args = splitArgs(process.argv.slice(2));
const portText = args.port ?? (process.env.MOCK_PORT || '4010');
if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) fail(`MOCK_PORT must be a port number (0-65535), got '${portText}'`);
const host = args.host ?? (process.env.MOCK_HOST || '127.0.0.1');
const speed = number('MOCK_STREAM_SPEED', process.env.MOCK_STREAM_SPEED, 10, 0.1, 100_000);
const heartbeatSeconds = number('MOCK_STREAM_HEARTBEAT_SECONDS', process.env.MOCK_STREAM_HEARTBEAT_SECONDS, 30, 1, 3600);

// Prism on a free loopback port of its own; its log names the public address.
const prism = spawn(
  path.join(root, 'node_modules/.bin/prism'),
  ['mock', path.join(root, 'openapi/openapi.yaml'), '--host', '127.0.0.1', '--port', '0', ...args.prism],
  {
    stdio: ['ignore', 'pipe', 'pipe'],
  },
);
let prismPort: number | null = null;
let publicBase = '';
/** Prism's output until the public address is known (its operation list names its own port until then). */
const held: [NodeJS.WriteStream, string][] = [];
const show = (out: NodeJS.WriteStream, text: string) => out.write(publicBase ? text.replaceAll(`http://127.0.0.1:${prismPort}`, publicBase) : text);
const flush = () => held.splice(0).forEach(([out, text]) => show(out, text));
const relay = (out: NodeJS.WriteStream) => (chunk: Buffer) => {
  const text = String(chunk);
  if (prismPort === null) {
    const m = /Prism is listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(text);
    if (m) void listen(Number(m[1]));
  }
  if (publicBase) show(out, text);
  else held.push([out, text]);
};
prism.on('error', (err) => {
  console.error(`mock: cannot start Prism: ${err.message}`);
  process.exit(1);
});
prism.stdout.on('data', relay(process.stdout));
prism.stderr.on('data', relay(process.stderr));

/**
 * GET operations' named examples of their success answer, by path pattern: a
 * query value that names one (`?period=week` on a board) selects it, as
 * `Prefer: example=week` would, so the mock answers the period asked for.
 */
const namedExamples = (() => {
  type Op = { responses?: Record<string, { content?: Record<string, { examples?: Record<string, unknown> }> }> };
  const doc = yaml.load(fs.readFileSync(path.join(root, 'openapi/openapi.yaml'), 'utf8')) as { paths: Record<string, { get?: Op }> };
  return Object.entries(doc.paths).flatMap(([template, item]) => {
    const ok = Object.entries(item.get?.responses ?? {}).find(([status]) => status.startsWith('2'))?.[1];
    const names = Object.keys(ok?.content?.['application/json']?.examples ?? {});
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    return names.length ? [{ pattern, names: new Set(names) }] : [];
  });
})();

function preferredExample(req: http.IncomingMessage): string | undefined {
  if (req.method !== 'GET' || req.headers.prefer) return undefined;
  const url = new URL(req.url ?? '/', 'http://mock.invalid');
  const names = namedExamples.find((e) => e.pattern.test(url.pathname))?.names;
  return names && [...url.searchParams.values()].find((v) => names.has(v));
}

const server = http.createServer((req, res) => {
  // Every HTTP request goes to Prism as it came (a query value naming an example asks for it).
  const example = preferredExample(req);
  const headers = example ? { ...req.headers, prefer: `example=${example}` } : req.headers;
  const upstream = http.request({ host: '127.0.0.1', port: prismPort!, method: req.method, path: req.url, headers }, (answer) => {
    // An error example is named for its code: the X-Error-Code Prism sends is the header's first, whichever example was asked for.
    const asked = /(?:^|[\s,])example=([a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+)/.exec(String(headers.prefer ?? ''))?.[1];
    if (asked && (answer.statusCode ?? 0) >= 400) {
      const raw = answer.rawHeaders.filter((_, i, all) => all[i - (i % 2)]!.toLowerCase() !== 'x-error-code');
      res.writeHead(answer.statusCode!, [...raw, 'X-Error-Code', asked]);
    } else res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
    answer.pipe(res);
  });
  upstream.on('error', (err) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ detail: `the mock's Prism did not answer: ${err.message}` }));
  });
  req.pipe(upstream);
});
// Lasting: a server that listens may still fail to accept a connection (it goes on listening).
server.on('error', (err) => {
  if (server.listening) console.error(`mock: ${err.message}`);
});
const stream = attachMockStream(server, { speed, heartbeatSeconds });

async function listen(port: number): Promise<void> {
  prismPort = port;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(Number(portText), host, () => resolve());
  }).catch((err: Error) => {
    console.error(`mock: cannot listen on ${host}:${portText}: ${err.message}`);
    stop('SIGTERM', 1);
  });
  const address = server.address() as AddressInfo;
  publicBase = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  flush();
  console.log(`mock: the contract on ${publicBase} (HTTP: Prism), the live stream on ${publicBase.replace('http', 'ws')}/api/play/stream?api_key=<any>`);
}

function stop(signal: NodeJS.Signals, code?: number) {
  stream.close();
  server.close();
  if (prism.exitCode === null) prism.kill(signal);
  if (code !== undefined) process.exitCode = code;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop(signal));
prism.on('exit', (code, signal) => {
  flush();
  stream.close();
  server.close();
  process.exit(process.exitCode ?? code ?? (signal ? 1 : 0));
});

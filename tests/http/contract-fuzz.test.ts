/**
 * Property-based fuzz of the whole contract: for every operation, as an
 * anonymous caller, a player and an admin, generated requests, valid (from
 * the contract's examples and schemas, naming rows that exist) and broken
 * (hostile path parameters, query values and bodies, wrong and missing
 * content types, truncated and corrupt bodies, huge, deep and wide values,
 * NUL and lone surrogates, costly expressions). Every answer must:
 *
 * - come (the process survives; no request holds the event loop for
 *   FUZZ_STALL_MS, which ends the run with the request named, nor takes
 *   longer than FUZZ_REQUEST_TIMEOUT_MS),
 * - not be a 5xx,
 * - be a status the operation declares, with a body valid against its
 *   schema (the harness's contract check),
 * - for an operation that needs a key, be 401 without one; for an [Admin]
 *   operation, 403 for a player, whatever else the request holds,
 * - as an error, quote no more than a short prefix of anything sent.
 *
 * Cases come by kind (tests/helpers/contract-arbitraries.ts, requestKinds:
 * valid; broken body, query, path, everywhere; each framing of the body;
 * each text in turn holding a hazard; costly expressions and templates), so
 * every kind reaches every operation whatever the seed.
 *
 * Seeded and reproducible: FUZZ_SEED (default 1), FUZZ_RUNS cases per kind
 * for a caller the operation admits (default 2; half that for the kinds that
 * send a request per text; 2 in all for a caller it refuses). A failure
 * names the seed, the operation and the caller; replay it alone with
 * FUZZ_SEED=<seed> FUZZ_ONLY=<operationId>:<caller> (FUZZ_SHRINK=1 shrinks
 * the counterexample first, FUZZ_DEBUG=1 prints every request, FUZZ_STATS=1
 * the statuses reached). README: "Contract fuzz".
 */
import http from 'node:http';
import net from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertMatchesContract } from '../helpers/contract.js';
import { contractOperations, ECHO, MARK, requestFor, requestKinds, type ContractOperation, type FuzzRequest } from '../helpers/contract-arbitraries.js';
import { startS3, type TestS3 } from '../helpers/s3-server.js';
import { startStallWatchdog, type StallWatchdog } from '../helpers/stall-watchdog.js';
import { createAdmin, registerUser, startTestApp, type TestApp } from '../helpers/test-app.js';
import { buildWorld, type World } from '../helpers/world.js';
import { setLanguageTimeScale } from '../../src/domain/language/time-scale.js';
import { TEST_LANGUAGE_TIME_SCALE } from '../helpers/language-time.js';

const SEED = Number(process.env.FUZZ_SEED ?? 1);
const RUNS = Number(process.env.FUZZ_RUNS ?? 2);
const ONLY = process.env.FUZZ_ONLY;
const SHRINK = process.env.FUZZ_SHRINK === '1';
const REQUEST_TIMEOUT_MS = Number(process.env.FUZZ_REQUEST_TIMEOUT_MS ?? 60_000);
/**
 * The app runs in this process: a request that holds its event loop this long ends the run (tests/helpers/stall-watchdog.ts).
 * A stall is a request that never lets go (a backtracking regular expression, a quadratic built-in: minutes, or
 * forever); the bound is far above what a busy machine's scheduling adds to a request that does let go.
 */
const STALL_MS = Number(process.env.FUZZ_STALL_MS ?? 30_000);
/** FUZZ_STATS=1: print how the answers of each operation and caller spread over statuses (what the cases reached). */
const STATS = process.env.FUZZ_STATS === '1';

type Caller = 'anonymous' | 'player' | 'admin';
const CALLERS: Caller[] = ['anonymous', 'player', 'admin'];

/** Deletions, unfollowing and signing out last, so the other operations find the world whole. */
const LAST = [
  'unfollowMatch',
  'deleteCurrentUserDevice',
  'deleteBrand',
  'deleteQuestionDefinition',
  'deleteMatchQuestionDefinition',
  'deleteQuestionGroup',
  'deleteMatch',
  'deactivateUser',
  'logoutUser',
];
const operations = [...contractOperations].sort((a, b) => LAST.indexOf(a.op.operationId) - LAST.indexOf(b.op.operationId));

/** A seed of its own per operation and caller (FNV-1a over both, mixed with FUZZ_SEED). */
function seedFor(operationId: string, caller: Caller): number {
  let h = 2166136261 ^ SEED;
  for (const c of `${operationId}:${caller}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h | 0;
}

/** Whether the operation lets this caller in (so its requests reach the body, the schema and the rules). */
const allowed = (c: ContractOperation, caller: Caller) => (caller === 'anonymous' ? !c.bearerRequired : caller === 'player' ? !c.admin : true);

/** Errors nothing handled (an 'error' event without a listener): in production each one ends the process. */
const uncaught: string[] = [];
const recordUncaught = (err: Error) => uncaught.push(`${err.name}: ${err.message}`);

let watchdog: StallWatchdog;
let s3: TestS3;
let app: TestApp;
let world: World;
let csv: string;

beforeAll(async () => {
  process.on('uncaughtException', recordUncaught);
  s3 = await startS3();
  app = await startTestApp({ config: { s3: s3.config } });
  world = await buildWorld(app);
  csv = (await app.request('GET', '/api/question-definitions/export', { token: world.admin.token })).text;
  // The language's real time limits: the fuzz sends costly expressions and templates by the hundred and checks the
  // answers' statuses, which are the same at any scale; at the tests' scale each would hold the sandbox forty times longer.
  setLanguageTimeScale(1);
  // Watching the requests, not the setup (loading the database and the world holds the loop in long steps on a busy
  // machine; the watchdog ends the whole worker process).
  watchdog = startStallWatchdog(STALL_MS);
});
afterAll(async () => {
  process.off('uncaughtException', recordUncaught);
  setLanguageTimeScale(TEST_LANGUAGE_TIME_SCALE);
  await watchdog?.stop();
  agent.destroy();
  await app?.close();
  await s3?.close();
});

const agent = new http.Agent({ keepAlive: true });

/**
 * Sends a generated request as `token` (node:http, which sends a body with any method, as an
 * attacker's client does); the answer, checked against the contract by the harness.
 */
async function send(c: ContractOperation, r: FuzzRequest, token: string | null): Promise<{ status: number; text: string }> {
  watchdog.doing(`${c.op.operationId} ${c.method} ${r.path} (${r.what}); replay with FUZZ_SEED=${SEED} FUZZ_ONLY=${c.op.operationId}`);
  const headers: Record<string, string> = { ...r.headers };
  if (token) headers.authorization = `Bearer ${token}`;
  let body: Buffer | undefined;
  if (r.body.kind === 'json') {
    body = Buffer.from(JSON.stringify(r.body.value) ?? 'null');
    headers['content-type'] = 'application/json';
  } else if (r.body.kind === 'raw') {
    body = typeof r.body.data === 'string' ? Buffer.from(r.body.data, 'latin1') : r.body.data;
    if (r.body.type) headers['content-type'] = r.body.type;
  } else if (r.body.kind === 'form') {
    const form = new FormData();
    for (const [k, v] of r.body.fields) form.append(k, v);
    for (const [k, data, filename, type] of r.body.files) form.append(k, new Blob([data], { type }), filename);
    const encoded = new Response(form);
    body = Buffer.from(await encoded.arrayBuffer());
    headers['content-type'] = encoded.headers.get('content-type')!;
  }
  if (body) headers['content-length'] = String(body.length);
  const query = r.query.length ? `?${new URLSearchParams(r.query).toString()}` : '';
  const url = new URL(app.url);
  const res = await new Promise<{ status: number; contentType: string; text: string; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, method: c.method, path: `${r.path}${query}`, headers, agent, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            contentType: String(response.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
            headers: response.headers,
          }),
        );
        response.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
  let parsed: unknown = res.text;
  if (res.contentType.startsWith('application/json') && res.text) parsed = JSON.parse(res.text);
  assertMatchesContract({
    method: c.method,
    path: r.path,
    status: res.status,
    contentType: res.contentType,
    body: parsed,
    text: res.text,
    header: (name) => res.headers[name.toLowerCase()] as string | undefined,
  });
  return res;
}

/** The key the caller sends: the world's, except for logout, which revokes it (a fresh user's then). */
async function tokenOf(c: ContractOperation, caller: Caller, anonymousAuth: string | null): Promise<string | null> {
  if (caller === 'anonymous') return anonymousAuth;
  if (c.op.operationId === 'logoutUser') return (caller === 'admin' ? await createAdmin(app) : await registerUser(app)).token;
  return caller === 'admin' ? world.admin.token : world.player.token;
}

/** Whatever the server answers on a raw connection (the status line's code), 0 when it closes without one. */
function rawExchange(text: string): Promise<number> {
  const url = new URL(app.url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(text));
    let head = '';
    socket.setTimeout(REQUEST_TIMEOUT_MS, () => socket.destroy());
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(head);
      if (m) {
        resolve(Number(m[1]));
        socket.destroy();
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(0));
  });
}

describe('routes outside the contract', () => {
  const paths = [
    '/',
    '/docs',
    '/docs/',
    '/docs/init.js',
    '/docs/assets/swagger-ui.css',
    '/redoc',
    '/redoc/redoc.standalone.js',
    '/openapi.json',
    '/admin/',
    '/admin/login',
    '/admin/logout',
    '/admin/assets/app.js',
    '/admin/assets/admin.css',
    '/admin/matches',
    '/api/nothing',
    '/api/brands/a/b/c',
    '/api/play/stream',
  ];
  const suffix = fc.constantFrom('', '/', '/%ff', '/%ED%A0%80', '/..%2F..%2Fpackage.json', '/a%00b', `/${MARK.repeat(300)}`, '?x=%ff', '?__proto__=1');
  const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS');
  const body = fc.constantFrom<[Buffer | undefined, Record<string, string>]>(
    [undefined, {}],
    [Buffer.from('login=a&password=b&csrf=c'), { 'content-type': 'application/x-www-form-urlencoded' }],
    [Buffer.from(`login=${'a'.repeat(20_000)}`), { 'content-type': 'application/x-www-form-urlencoded' }],
    [Buffer.from('not compressed'), { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' }],
    [Buffer.from('{"a":'), { 'content-type': 'application/json' }],
    [Buffer.from('--x\r\nContent-Disposition: form-data; name="f"; filename="a"\r\n\r\nabc'), { 'content-type': 'multipart/form-data; boundary=x' }],
  );

  it('never answer 5xx, and answer errors of /api with the error body', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        suffix,
        method,
        body,
        fc.constantFrom<string | null>(null, world.admin.token, 'junk'),
        async (path, tail, m, [data, headers], token) => {
          const all: Record<string, string> = { ...headers };
          if (token) all.authorization = `Bearer ${token}`;
          if (data) all['content-length'] = String(data.length);
          const url = new URL(app.url);
          const res = await new Promise<{ status: number; contentType: string; text: string; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
            const req = http.request(
              { host: url.hostname, port: url.port, method: m, path: `${path}${tail}`, headers: all, agent, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) },
              (response) => {
                const chunks: Buffer[] = [];
                response.on('data', (chunk: Buffer) => chunks.push(chunk));
                response.on('end', () =>
                  resolve({
                    status: response.statusCode ?? 0,
                    contentType: String(response.headers['content-type'] ?? ''),
                    text: Buffer.concat(chunks).toString('utf8'),
                    headers: response.headers,
                  }),
                );
              },
            );
            req.on('error', reject);
            req.end(data);
          });
          expect(res.status, `${m} ${path}${tail}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
          if (res.contentType.startsWith('application/json') && res.status >= 400) {
            expect(typeof JSON.parse(res.text).detail === 'string' || Array.isArray(JSON.parse(res.text).detail), `${m} ${path}${tail}`).toBe(true);
            expect(ECHO.test(res.text), `${m} ${path}${tail} echoes`).toBe(false);
          }
        },
      ),
      { seed: SEED, numRuns: RUNS * 30, endOnFailure: !SHRINK },
    );
  });

  it('WebSocket upgrades of any shape: an answer, never a 5xx, and the process goes on', async () => {
    const target = fc.constantFrom('/api/play/stream', '/api/play/stream/', '/api/play', '/ws', '/api/play/stream%ff', '/%ff');
    const query = fc.constantFrom(
      '',
      `?api_key=${world.player.token}`,
      '?api_key=',
      '?api_key=%ff',
      `?api_key=${MARK.repeat(2000)}`,
      '?api_key=a&api_key=b',
      '?api_key=%00',
      '?x=1',
    );
    const headers = fc.constantFrom(
      'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n',
      'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n',
      'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: short\r\nSec-WebSocket-Version: 99\r\n',
      'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Extensions: permessage-deflate; client_max_window_bits=99\r\n',
      'Upgrade: h2c\r\nConnection: Upgrade\r\n',
    );
    await fc.assert(
      fc.asyncProperty(target, query, headers, async (path, q, h) => {
        const status = await rawExchange(`GET ${path}${q} HTTP/1.1\r\nHost: x\r\n${h}\r\n`);
        expect(status, `${path}${q}`).not.toBe(0);
        expect(status, `${path}${q}`).toBeLessThan(500);
      }),
      { seed: SEED, numRuns: RUNS * 15, endOnFailure: !SHRINK },
    );
    expect((await app.request('GET', '/api/leagues')).status).toBe(200);
  });
});

describe('contract fuzz', () => {
  it('covers every operation of the contract', () => {
    expect(operations.length).toBeGreaterThanOrEqual(82);
  });

  for (const c of operations) {
    for (const caller of CALLERS) {
      const only = ONLY?.split(':');
      if (only && (only[0] !== c.op.operationId || (only[1] && only[1] !== caller))) continue;
      // Every kind of request, FUZZ_RUNS times each, for a caller the operation admits; a caller it
      // refuses is refused whatever the request, so a few requests of any kind show it.
      // (A kind that changes each text of a body in turn sends many requests per case: half as many cases.)
      const kinds = allowed(c, caller)
        ? requestKinds(c).map((kind) => ({ kind, runs: kind.startsWith('each ') ? Math.max(1, Math.ceil(RUNS / 2)) : RUNS }))
        : [
            { kind: 'broken everywhere', runs: 1 },
            { kind: 'valid', runs: 1 },
          ];
      it(`${c.op.operationId} as ${caller}`, async () => {
        // Anonymous callers send no key, or one that is no key.
        const anonymousAuth = fc.constantFrom<string | null>(null, null, 'qp_not_a_key', '', 'x'.repeat(300));
        const statuses = new Map<number, number>();
        for (const { kind, runs } of kinds) {
          const property = fc.asyncProperty(requestFor(c, world, csv, kind), anonymousAuth, async (generated, fakeKey) => {
            for (const body of generated.variants ?? [generated.body]) {
              const request = { ...generated, body };
              const token = await tokenOf(c, caller, fakeKey);
              const where = `${c.method} ${request.path} (${request.what}) as ${caller}`;
              const res = await send(c, request, caller === 'anonymous' && token === '' ? null : token);
              statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
              if (process.env.FUZZ_DEBUG) console.log('CASE', request.what, res.status, res.text.slice(0, 150));
              expect(res.status, `${where}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
              if (caller === 'anonymous' && c.bearerRequired) expect(res.status, `${where} must be refused first: ${res.text.slice(0, 200)}`).toBe(401);
              if (caller === 'player' && c.admin && c.bearer) expect(res.status, `${where} must be refused first: ${res.text.slice(0, 200)}`).toBe(403);
              if (res.status >= 400) expect(ECHO.test(res.text), `${where} echoes what was sent: ${res.text.slice(0, 200)}`).toBe(false);
            }
          });
          try {
            await fc.assert(property, { seed: seedFor(`${c.op.operationId}:${kind}`, caller), numRuns: runs, endOnFailure: !SHRINK });
          } catch (err) {
            const cause = (err as { cause?: Error }).cause;
            throw new Error(
              `${(err as Error).message}${cause ? `\nCause: ${cause.message}` : ''}\nReplay: FUZZ_SEED=${SEED} FUZZ_ONLY=${c.op.operationId}:${caller} npx vitest run tests/http/contract-fuzz.test.ts`,
              { cause: err },
            );
          }
        }
        if (STATS)
          console.log(
            `${c.op.operationId} as ${caller}: ${[...statuses]
              .sort(([a], [b]) => a - b)
              .map(([st, n]) => `${st}x${n}`)
              .join(' ')}`,
          );
        // Still serving, and nothing went unhandled (which would have ended a real process).
        expect(uncaught.splice(0), `${c.op.operationId} as ${caller}: errors nobody handled`).toEqual([]);
        expect((await app.request('GET', '/api/leagues')).status).toBe(200);
      });
    }
  }
});

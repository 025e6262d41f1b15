/**
 * Operating the service: liveness and readiness (/healthz, /readyz), the
 * Prometheus metrics (/metrics, protected by METRICS_TOKEN on the service's
 * port, open on the internal OPS_PORT), and OpenTelemetry traces read from an
 * in-memory exporter.
 */
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { engineHooks } from '../../src/engine/subscribers.js';
import { createHealth, databaseChecks, engineCheck } from '../../src/http/health.js';
import { startOpsServer } from '../../src/http/ops-server.js';
import type { QuestionIssuanceRow } from '../../src/modules/issuances/issuances.table.js';
import { initTracing, stopTracing } from '../../src/observability/tracing.js';
import { waitFor } from '../helpers/engine.js';
import { startServiceProcess } from '../helpers/service-process.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const TOKEN = 'metrics-token-for-tests-0123456789';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ config: { ops: { metricsToken: TOKEN, port: null, host: '127.0.0.1', otlpEndpoint: null, serviceName: 'question-play' } } });
});
afterAll(() => app?.close());

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers });

/** A sample's value in the exposition text, or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const inner = /\{(.*)\}/.exec(line)?.[1] ?? '';
    if (want.every((w) => inner.split(',').includes(w))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

const scrape = async () => (await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();

describe('GET /healthz and GET /readyz', () => {
  it('/healthz: 200 while the process serves; /readyz: 200 naming each part that was checked', async () => {
    const live = await json(await fetch(`${app.url}/healthz`));
    expect(live).toMatchObject({ status: 200, body: { status: 'ok' } });
    const ready = await json(await fetch(`${app.url}/readyz`));
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', bus: 'ok' } });
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect((await fetch(`${app.url}/readyz`, { method: 'HEAD' })).status).toBe(200);
  });

  it('/readyz of a starting process: never 200 before the bus listens and the engine runs (503 `start` until then)', async () => {
    // The server serves half a second before the process hears it listens (tests/helpers/slow-listening.mjs): the
    // window in which the rest of the start runs, made wide enough to be seen.
    const preload = path.join(import.meta.dirname, '../helpers/slow-listening.mjs');
    const seen: { status: number; body: Record<string, unknown> }[] = [];
    let watching = true;
    let watcher: Promise<void> = Promise.resolve();
    const service = await startServiceProcess(
      { ENGINE_WORKER: 'true' },
      {
        preload: [preload],
        spawned: (url) => {
          watcher = (async () => {
            while (watching) {
              try {
                const res = await json(await fetch(`${url}/readyz`));
                seen.push(res);
                if (res.status === 200) return;
              } catch {
                // Not listening yet.
              }
              await new Promise((resolve) => setTimeout(resolve, 2));
            }
          })();
        },
      },
    );
    try {
      await waitFor(async () => seen.at(-1)?.status === 200, { what: 'the process to be ready', timeoutMs: 30_000 });
      // Every answer before it was 503, the start named; the first 200 has every part of a serving process checked.
      for (const early of seen.slice(0, -1)) expect(early).toMatchObject({ status: 503, body: { checks: { start: expect.any(String) } } });
      expect(seen.at(-1)!.body).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', start: 'ok', bus: 'ok', engine: 'ok' } });
      expect(seen.length, 'readiness was asked while the process started').toBeGreaterThan(1);
    } finally {
      watching = false;
      await watcher;
      await service.stop();
    }
  });

  it('/readyz: 503 naming the failing part (a migration missing, the engine not ticking), 200 again once it is back', async () => {
    const health = createHealth(databaseChecks(app.services.database));
    const worker = { startedAt: Date.now() - 120_000, lastTickAt: Date.now() - 60_000 };
    health.add(engineCheck(worker, 30_000));
    const [last] = await app.services.database.rows<{ id: number; hash: string; created_at: string }>(
      sql`select id, hash, created_at::text from drizzle.__drizzle_migrations order by id desc limit 1`,
    );
    await app.services.database.rows(sql`delete from drizzle.__drizzle_migrations where id = ${last!.id}`);
    try {
      const r = await health.readiness();
      expect(r.ready).toBe(false);
      expect(r.checks.database).toBe('ok');
      expect(r.checks.migrations).toMatch(/^\d+ of \d+ migrations applied; an API process applies them at start/);
      // 60 s and whatever this took: more than a second on a busy machine.
      expect(Number(/has not completed a round for (\d+) s/.exec(r.checks.engine!)?.[1])).toBeGreaterThanOrEqual(60);
    } finally {
      await app.services.database.rows(
        sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${last!.id}, ${last!.hash}, ${last!.created_at}::bigint)`,
      );
    }
    worker.lastTickAt = Date.now();
    // A result is reused for a second, so a burst of probes runs the checks once.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await health.readiness()).toEqual({ ready: true, checks: { database: 'ok', migrations: 'ok', engine: 'ok' } });
  });

  it('/readyz: 503 from the start of a graceful shutdown, while /healthz stays 200 and requests in flight finish', async () => {
    const other = await startTestApp();
    try {
      expect((await fetch(`${other.url}/readyz`)).status).toBe(200);
      other.drain.start();
      const ready = await json(await fetch(`${other.url}/readyz`));
      expect(ready.status).toBe(503);
      expect(ready.headers.get('retry-after')).toBe('5');
      expect(ready.body).toEqual({ status: 'not ready', checks: { shutdown: 'the process is shutting down' } });
      expect((await fetch(`${other.url}/healthz`)).status).toBe(200);
      // Everything else is refused as the drain always did.
      expect((await fetch(`${other.url}/api/leagues`)).status).toBe(503);
    } finally {
      await other.close();
    }
  });
});

describe('GET /metrics', () => {
  it('needs the METRICS_TOKEN on the service port (401 without or with another), and is not there at all without one (404)', async () => {
    expect((await fetch(`${app.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${app.url}/metrics`, { headers: { authorization: 'Bearer not-the-token-at-all-0000' } })).status).toBe(401);
    const open = await startTestApp();
    try {
      expect((await fetch(`${open.url}/metrics`)).status).toBe(404);
    } finally {
      await open.close();
    }
  });

  it("counts each request in its operation's histogram, by method and status, with the database pool and the process defaults", async () => {
    const before = sample(await scrape(), 'qp_http_request_duration_seconds_count', { operation: 'listLeagues', method: 'GET', status: '200' }) ?? 0;
    for (let i = 0; i < 3; i++) expect((await app.request('GET', '/api/leagues')).status).toBe(200);
    expect((await app.request('GET', '/api/leagues/not-a-league')).status).toBe(404);
    const text = await scrape();
    expect(sample(text, 'qp_http_request_duration_seconds_count', { operation: 'listLeagues', method: 'GET', status: '200' })).toBe(before + 3);
    expect(sample(text, 'qp_http_request_duration_seconds_count', { operation: 'getLeague', method: 'GET', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'qp_http_request_duration_seconds_bucket', { operation: 'listLeagues', method: 'GET', status: '200', le: '+Inf' })).toBe(before + 3);
    expect(text).toMatch(/^qp_process_cpu_seconds_total /m);
    expect(text).toMatch(/^qp_live_sockets /m);
    expect(text).toMatch(/^# TYPE qp_denials_total counter/m);
    if (app.services.database.kind === 'postgres') {
      expect(sample(text, 'qp_db_statement_duration_seconds_count', { pool: 'api', outcome: 'ok' })).toBeGreaterThan(0);
      expect(sample(text, 'qp_db_connections_max', { pool: 'api' })).toBeGreaterThan(0);
    }
  });

  it('counts what the engine issues and settles (by kind and status), through the hooks every engine path calls', async () => {
    // The metrics are reactions to `issued` and `settled` (src/events/reactions.ts); push is kept out of it.
    vi.spyOn(app.services.push.subscriber, 'onIssued').mockResolvedValue(undefined);
    vi.spyOn(app.services.push.subscriber, 'onSettled').mockResolvedValue(undefined);
    const hooks = engineHooks(app.services.events);
    const before = await scrape();
    const row = { id: '00000000-0000-4000-8000-000000000001', kind: 'in_game', status: 'resolved' } as QuestionIssuanceRow;
    await hooks.onIssued!(row);
    await hooks.onSettled!(row);
    const after = await scrape();
    expect(sample(after, 'qp_issuances_total', { kind: 'in_game' })).toBe((sample(before, 'qp_issuances_total', { kind: 'in_game' }) ?? 0) + 1);
    expect(sample(after, 'qp_resolutions_total', { status: 'resolved' })).toBe((sample(before, 'qp_resolutions_total', { status: 'resolved' }) ?? 0) + 1);
    vi.restoreAllMocks();
  });

  it('the internal operations port serves /healthz, /readyz and /metrics without a token, and nothing else', async () => {
    const ops = await startOpsServer({ health: app.health, port: 0, host: '127.0.0.1' });
    try {
      const base = `http://127.0.0.1:${ops.port}`;
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      expect((await json(await fetch(`${base}/readyz`))).body).toMatchObject({ status: 'ready' });
      const metrics = await fetch(`${base}/metrics`);
      expect(metrics.status).toBe(200);
      expect(metrics.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(await metrics.text()).toMatch(/^qp_http_request_duration_seconds_bucket\{/m);
      expect((await fetch(`${base}/api/leagues`)).status).toBe(404);
    } finally {
      await ops.close();
    }
  });
});

describe('OpenTelemetry traces', () => {
  it('a request is a server span; its handler, the service it calls and the SQL statements are its descendants', async () => {
    const exporter = new InMemorySpanExporter();
    expect(await initTracing({ exporter, serviceName: 'question-play-test' })).toBe(true);
    const traced = await startTestApp();
    try {
      expect((await traced.request('GET', '/api/leagues')).status).toBe(200);
      const spans = exporter.getFinishedSpans();
      const server = spans.find((s) => s.name === 'GET /api/leagues');
      expect(server, spans.map((s) => s.name).join(', ')).toBeDefined();
      expect(server!.attributes).toMatchObject({ 'http.route': '/api/leagues', 'qp.operation': 'listLeagues', 'http.response.status_code': 200 });
      const trace = spans.filter((s) => s.spanContext().traceId === server!.spanContext().traceId);
      const parentOf = (s: ReadableSpan) => trace.find((p) => p.spanContext().spanId === s.parentSpanContext?.spanId);
      const chain = (s: ReadableSpan) => {
        const names: string[] = [];
        for (let p = parentOf(s); p; p = parentOf(p)) names.push(p.name);
        return names;
      };
      const handler = trace.find((s) => s.name === 'handler listLeagues');
      expect(handler && parentOf(handler)?.name).toBe('GET /api/leagues');
      const service = trace.find((s) => s.name === 'leagues.list');
      expect(service && chain(service)).toContain('handler listLeagues');
      const query = trace.find((s) => s.name === 'db.query');
      expect(query, trace.map((s) => s.name).join(', ')).toBeDefined();
      expect(String(query!.attributes['db.query.text'])).toMatch(/select/i);
      expect(chain(query!)).toContain('GET /api/leagues');
      expect(new Set(trace.map((s) => s.resource.attributes['service.name']))).toEqual(new Set(['question-play-test']));
    } finally {
      await traced.close();
      await stopTracing();
    }
  });

  it('costs nothing when no endpoint is set: nothing starts, and services are the objects themselves', async () => {
    expect(await initTracing({ otlpEndpoint: null, serviceName: 'x' })).toBe(false);
    const plain = await startTestApp();
    try {
      // Not wrapped in a proxy: the same function object on every read.
      expect(plain.services.leagues.list).toBe(plain.services.leagues.list);
    } finally {
      await plain.close();
    }
  });
});

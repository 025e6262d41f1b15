/**
 * Liveness and readiness, outside /api and outside the contract:
 *
 * - GET /healthz: 200 while the process serves HTTP (draining included: a
 *   process shutting down is alive, and is not to be restarted).
 * - GET /readyz: 200 when every check passes (the database answers, every
 *   migration is applied, the live bus listens, the engine ticks, as this
 *   process has them), else 503 naming the failing parts. 503 from the start
 *   of a graceful shutdown, so a load balancer stops sending first.
 *
 * Both are cheap: a readiness result is reused for a second (concurrent
 * probes share one run), and each check is bounded, so a probe answers
 * within about two seconds whatever the database does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { NextFunction, Request, Response } from 'express';
import type { Database } from '../db/client.js';
import type { LiveBus } from '../live/bus.js';
import { metrics } from '../observability/metrics.js';
import { paths } from '../paths.js';
import { writeJson } from './json-reply.js';

export interface ReadinessCheck {
  name: string;
  /** Resolves when ready; throws (or rejects) with what is wrong. */
  check(): Promise<void> | void;
}

export interface Readiness {
  ready: boolean;
  /** Each check's name: "ok", or what is wrong. */
  checks: Record<string, string>;
}

export interface Health {
  /** Express middleware answering GET/HEAD /healthz and /readyz; passes anything else on. */
  middleware(req: Request, res: Response, next: NextFunction): void;
  readiness(): Promise<Readiness>;
  add(check: ReadinessCheck): void;
  /** From now on, not ready (graceful shutdown started). */
  drain(): void;
}

const CHECK_TIMEOUT_MS = 2000;
const REUSE_MS = 1000;

function bounded(check: ReadinessCheck): Promise<string> {
  return new Promise<string>((resolve) => {
    const timer = setTimeout(() => resolve(`no answer within ${CHECK_TIMEOUT_MS} ms`), CHECK_TIMEOUT_MS);
    Promise.resolve()
      .then(() => check.check())
      .then(
        () => resolve('ok'),
        (err: unknown) => resolve((err as Error)?.message || String(err)),
      )
      .finally(() => clearTimeout(timer));
  });
}

export function createHealth(initial: ReadinessCheck[] = []): Health {
  const checks = [...initial];
  let draining = false;
  let last: { at: number; result: Promise<Readiness> } | undefined;

  const run = async (): Promise<Readiness> => {
    if (draining) return { ready: false, checks: { shutdown: 'the process is shutting down' } };
    const results = await Promise.all(checks.map(bounded));
    const out: Readiness = { ready: results.every((r) => r === 'ok'), checks: Object.fromEntries(checks.map((c, i) => [c.name, results[i]!])) };
    metrics.ready.set(out.ready ? 1 : 0);
    return out;
  };

  const readiness = () => {
    if (draining) return run();
    const now = Date.now();
    if (!last || now - last.at > REUSE_MS) last = { at: now, result: run() };
    return last.result;
  };

  return {
    readiness,
    add: (check) => {
      checks.push(check);
      last = undefined;
    },
    drain: () => {
      draining = true;
      metrics.ready.set(0);
    },
    middleware(req, res, next) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return next();
      if (req.path === '/healthz') return probeReply(res, 200, { status: 'ok' });
      if (req.path !== '/readyz') return next();
      readiness().then(
        ({ ready, checks: parts }) => {
          if (!ready) res.setHeader('Retry-After', '5');
          probeReply(res, ready ? 200 : 503, { status: ready ? 'ready' : 'not ready', checks: parts });
        },
        (err: unknown) => next(err),
      );
    },
  };
}

/** A probe's JSON reply, never cached (written directly: see src/http/json-reply.ts). */
function probeReply(res: Response, status: number, body: unknown): void {
  res.setHeader('Cache-Control', 'no-store');
  writeJson(res, status, JSON.stringify(body));
}

/** Migrations the code expects: the entries of drizzle's journal (read once). */
let expectedMigrations: number | undefined;
function migrationsInJournal(): number {
  expectedMigrations ??= (JSON.parse(fs.readFileSync(path.join(paths.migrations, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] }).entries.length;
  return expectedMigrations;
}

/** The database answers, and holds every migration this code expects. */
export function databaseChecks(database: Database): ReadinessCheck[] {
  let applied: Promise<number> | undefined;
  const count = () =>
    (applied ??= database
      .rows<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)
      .then(([row]) => Number(row?.n ?? 0))
      .finally(() => (applied = undefined)));
  return [
    {
      name: 'database',
      async check() {
        await count();
      },
    },
    {
      name: 'migrations',
      async check() {
        const n = await count();
        const expected = migrationsInJournal();
        if (n < expected)
          throw new Error(`${n} of ${expected} migrations applied; an API process applies them at start (npm run start:prod), or wait for the one starting`);
      },
    },
  ];
}

/** The live bus listens (stream sockets hear every other process's events). */
export function busCheck(bus: LiveBus): ReadinessCheck {
  return {
    name: 'bus',
    check() {
      if (!bus.listening) throw new Error('the live bus is not listening (LISTEN connection lost; it reconnects by itself)');
    },
  };
}

/** How long the engine may go without completing a round before it is not ready: five polls, at least 30 s (a round waits out a slow database). */
export const engineStaleMs = (pollMs: number) => Math.max(5 * pollMs, 30_000);

/** The engine worker completed a round recently. */
export function engineCheck(worker: { lastTickAt: number | null; startedAt: number | null }, staleMs: number): ReadinessCheck {
  return {
    name: 'engine',
    check() {
      const since = worker.lastTickAt ?? worker.startedAt;
      if (since === null) throw new Error('the engine worker has not started');
      const age = Date.now() - since;
      if (age > staleMs)
        throw new Error(`the engine worker has not completed a round for ${Math.round(age / 1000)} s (not ready after ${Math.round(staleMs / 1000)} s)`);
    },
  };
}

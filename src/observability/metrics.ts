/**
 * Prometheus metrics (prom-client), one registry per process, prefixed `qp_`.
 * Served at GET /metrics (src/observability/metrics-endpoint.ts). Every label
 * has a bounded set of values: operationIds, status codes, gates, outcomes,
 * close codes, pool names; never ids or paths.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'qp_' });

const registers = [registry];

/** Connection pools of this process, read at each scrape. */
export interface PoolStats {
  readonly size: number;
  readonly inUse: number;
  readonly waiting: number;
}
const pools = new Map<string, PoolStats>();
export const registerPool = (name: string, stats: PoolStats) => void pools.set(name, stats);

export const metrics = {
  httpDuration: new Histogram({
    name: 'qp_http_request_duration_seconds',
    help: 'HTTP requests by operationId (or the route family outside the API), method and status',
    labelNames: ['operation', 'method', 'status'] as const,
    buckets: [0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers,
  }),
  dbStatementDuration: new Histogram({
    name: 'qp_db_statement_duration_seconds',
    help: 'Database statements by pool (api or engine) and outcome (ok, error, unavailable, busy: no connection free in time), the wait for a connection included',
    labelNames: ['pool', 'outcome'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers,
  }),
  dbConnectionsInUse: new Gauge({
    name: 'qp_db_connections_in_use',
    help: 'Connections of the pool running a statement or a transaction',
    labelNames: ['pool'] as const,
    registers,
    collect() {
      for (const [pool, stats] of pools) this.set({ pool }, stats.inUse);
    },
  }),
  dbConnectionsMax: new Gauge({
    name: 'qp_db_connections_max',
    help: 'Size of the pool',
    labelNames: ['pool'] as const,
    registers,
    collect() {
      for (const [pool, stats] of pools) this.set({ pool }, stats.size);
    },
  }),
  dbWaiting: new Gauge({
    name: 'qp_db_waiting',
    help: 'Statements and transactions waiting for a free connection',
    labelNames: ['pool'] as const,
    registers,
    collect() {
      for (const [pool, stats] of pools) this.set({ pool }, stats.waiting);
    },
  }),
  liveSockets: new Gauge({ name: 'qp_live_sockets', help: 'Open live-stream WebSockets of this process', registers }),
  liveMessages: new Counter({
    name: 'qp_live_messages_total',
    help: 'Live-stream messages by outcome: sent, or dropped (its socket was closing, or too slow to take it)',
    labelNames: ['outcome'] as const,
    registers,
  }),
  liveClosed: new Counter({
    name: 'qp_live_sockets_closed_total',
    help: 'Live-stream sockets closed, by close code',
    labelNames: ['code'] as const,
    registers,
  }),
  listenerLag: new Gauge({
    name: 'qp_listener_lag_seconds',
    help: 'How far the newest event a feed listener of this process decided lags behind wall time (its occurred_at), by listener while it runs',
    labelNames: ['listener'] as const,
    registers,
  }),
  listenersRunning: new Gauge({ name: 'qp_listeners_running', help: 'Listeners this process runs', registers }),
  engineLastTick: new Gauge({
    name: 'qp_engine_last_tick_timestamp_seconds',
    help: 'When the engine worker of this process last completed a round',
    registers,
  }),
  issuances: new Counter({ name: 'qp_issuances_total', help: 'Questions issued, by kind (in_game, match)', labelNames: ['kind'] as const, registers }),
  denials: new Counter({ name: 'qp_denials_total', help: 'Issuances denied, by gate', labelNames: ['gate'] as const, registers }),
  resolutions: new Counter({
    name: 'qp_resolutions_total',
    help: 'Questions settled, by status (resolved, voided, revoked)',
    labelNames: ['status'] as const,
    registers,
  }),
  leaderboardLag: new Histogram({
    name: 'qp_leaderboard_apply_lag_seconds',
    help: "From a settlement's commit (its queue row) until the leaderboards' applier finished a phase of it: match (its match's board), all_time, periods",
    labelNames: ['phase'] as const,
    buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers,
  }),
  pushAttempts: new Counter({
    name: 'qp_push_attempts_total',
    help: 'Push notification attempts, by outcome (delivered, failed, skipped)',
    labelNames: ['outcome'] as const,
    registers,
  }),
  unhandledRejections: new Counter({
    name: 'qp_unhandled_rejections_total',
    help: 'Promises rejected with no handler (each a bug; the process went on)',
    registers,
  }),
  ready: new Gauge({ name: 'qp_ready', help: '1 when the last readiness check passed, 0 when it failed or the process drains', registers }),
};

/** The exposition text and its content type. */
export async function scrape(): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}

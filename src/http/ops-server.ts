/**
 * The internal operations port (OPS_PORT): /healthz, /readyz and /metrics
 * (no token: keep the port inside the network). Engine-only worker processes
 * have no other HTTP server; API processes may serve it beside their own.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { scrape } from '../observability/metrics.js';
import type { Health } from './health.js';

export interface OpsServer {
  readonly port: number;
  close(): Promise<void>;
}

export async function startOpsServer({
  health,
  port,
  host,
  onError,
}: {
  health: Health;
  port: number;
  host: string;
  /** Told of a failure of the server (an accept that failed: it goes on listening). */
  onError?: (err: Error) => void;
}): Promise<OpsServer> {
  const app = express();
  app.disable('x-powered-by');
  app.use(health.middleware);
  app.get('/metrics', (_req, res, next) => {
    scrape().then(({ contentType, body }) => res.set('Cache-Control', 'no-store').type(contentType).send(body), next);
  });
  app.use((_req, res) =>
    res
      .status(404)
      .type('application/json')
      .send(JSON.stringify({ detail: 'not found: this port serves /healthz, /readyz and /metrics' })),
  );
  const server = http.createServer(app);
  // Lasting, unlike the start's once('error'): a server that listens may still fail to accept a connection (it goes on listening).
  server.on('error', (err) => onError?.(err));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

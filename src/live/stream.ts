/**
 * `WS /api/play/stream?api_key=<key>`: the live stream of open questions
 * (messages and close codes: openapi/asyncapi.yaml). Attached to the HTTP
 * server's 'upgrade' event for exactly that path; any other upgrade is
 * answered 404 and its socket destroyed.
 *
 * The key is checked before the handshake completes, but a failure still
 * completes it and closes with 4401: browsers cannot read the status of a
 * refused handshake, and a close code is something a client can act on. The
 * request URL carries the key, so it is never logged (only the path is).
 * Connects count against a budget per key and per client address
 * (connect-budget.ts) before the key is looked up; over it, 4429.
 *
 * Every socket has its error path from the moment it exists: the upgrade's
 * TCP socket as it arrives, the WebSocket as the handshake creates it (in
 * accept(), before it is closed or handed on). A client's bad frame, sent
 * with the upgrade request, on a socket being refused or on one closing, is
 * an 'error' event on it; without a listener Node ends the process.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Services } from '../services.js';
import { createHub, DEFAULT_HUB_OPTIONS, type Hub, type HubOptions } from './hub.js';
import { upgradeClientIp } from '../http/request.js';
import { createConnectBudget } from './connect-budget.js';
import { CLOSE, closeForFailure } from './messages.js';

export const STREAM_PATH = '/api/play/stream';
/** Largest message a client may send (a ping, a group subscription); larger ones close the socket with 1009. */
export const MAX_CLIENT_MESSAGE_BYTES = 4096;
/** Most fragments a client message may come in; more close the socket with 1008. */
export const MAX_CLIENT_MESSAGE_FRAGMENTS = 16;

export type LiveStreamOptions = Partial<HubOptions>;

export interface LiveStream {
  hub: Hub;
  /** Stops taking sockets, closes the open ones with 1001, stops listening on the bus. */
  close(): Promise<void>;
}

function refuse(socket: Duplex, status: 404 | 503, text: string) {
  if (socket.destroyed) return;
  socket.once('finish', () => socket.destroy());
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
}

/**
 * Serves the stream on the server's upgrades and starts listening on the live
 * bus; resolves once it listens. Upgrades are taken from the first moment (so
 * none is dropped while the server starts) and wait until the bus listens.
 */
export async function attachLiveStream({
  server,
  services,
  options = {},
}: {
  server: Server;
  services: Services;
  options?: LiveStreamOptions;
}): Promise<LiveStream> {
  const { logger, liveBus: bus } = services;
  const { push } = services.config;
  const webPushPublicKey = push.provider === 'webpush' && push.vapid ? push.vapid.publicKey : null;
  const hub = createHub({
    db: services.database.db,
    answers: services.answers,
    logger,
    bus,
    options: {
      ...DEFAULT_HUB_OPTIONS,
      ...services.config.stream,
      webPushPublicKey,
      maxQueuedSubscribes: services.config.playerGroups.maxGroupsPerUser,
      // Boards are not kept in this process with Redis: a board's change (`board`) sends its leaderboard.
      leaderboardOnSettlement: !services.config.redis,
      ...options,
      // The match's board as the reads rank it (cached page, pair counts, tie copies), not a count per receiver.
      lookups: {
        matchLeaderboardForDelivery: services.leaderboards.matchForDelivery,
        // A group's rows as its read ranks them (from Redis while its boards are ready).
        matchMembersForDelivery: services.leaderboards.matchMembersForDelivery,
        ...options.lookups,
      },
    },
  });
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_CLIENT_MESSAGE_BYTES,
    maxFragments: MAX_CLIENT_MESSAGE_FRAGMENTS,
    perMessageDeflate: false,
    clientTracking: false,
  });
  // Without a server of its own it has nothing to report; a listener all the same, so nothing it emits ends the process.
  wss.on('error', (err) => logger.error({ err }, 'live stream: the WebSocket server failed'));
  // A client's protocol error (a frame over the limit, not masked, bad UTF-8...): ws closes the socket with the
  // code RFC 6455 gives it; the client is at fault, not the service.
  const onSocketError = (err: Error & { code?: string }) =>
    logger.debug({ err: err.message, code: err.code, path: STREAM_PATH }, 'live stream: client socket error');
  /** Completes the handshake; the WebSocket gets its error listener before anything else can happen on it. */
  const accept = (req: IncomingMessage, socket: Duplex, head: Buffer, then: (ws: WebSocket) => void) => {
    if (socket.destroyed) return;
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('error', onSocketError);
      then(ws);
    });
  };
  const budget = createConnectBudget(services.config.stream.connectBudget);
  const clientIp = upgradeClientIp(services.config.trustProxy);
  const unsubscribe = bus.subscribe(hub);
  const listening = bus.start();
  let closing = false;

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // A reset before the handshake completes must not become an uncaught error.
    socket.on('error', () => {});
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://stream.invalid');
    } catch {
      refuse(socket, 404, 'Not Found');
      return;
    }
    if (url.pathname !== STREAM_PATH) {
      refuse(socket, 404, 'Not Found');
      return;
    }
    if (closing) {
      refuse(socket, 503, 'Service Unavailable');
      return;
    }
    const key = url.searchParams.get('api_key');
    const admit = async () => {
      let user: Awaited<ReturnType<Services['auth']['authenticate']>> | undefined;
      let failed: { code: number; reason: string } | null = null;
      // Before the key is looked up: a spent budget costs no query.
      const wait = await budget.take(clientIp(req), key);
      if (wait) {
        accept(req, socket, head, (ws) => ws.close(CLOSE.tooManyConnects.code, CLOSE.tooManyConnects.reason(wait)));
        return;
      }
      if (key) {
        try {
          await listening;
          user = await services.auth.authenticate(key);
        } catch (err) {
          // A key that could not be checked is not a bad key: never 4401 for it.
          failed = closeForFailure(err);
          logger.error({ err: (err as Error).message, path: STREAM_PATH }, 'live stream: authentication failed');
        }
      }
      accept(req, socket, head, (ws) => {
        if (failed) ws.close(failed.code, failed.reason);
        else if (!user) ws.close(CLOSE.unauthorized.code, key ? CLOSE.unauthorized.invalid : CLOSE.unauthorized.missing);
        else if (closing) ws.close(CLOSE.shutdown.code, CLOSE.shutdown.reason);
        else void hub.add(ws, user.user, user.keyId);
      });
    };
    admit().catch((err: unknown) => {
      // A bug, not the client's doing: logged, and the connection dropped rather than left open.
      logger.error({ err, path: STREAM_PATH }, 'live stream: an upgrade failed');
      socket.destroy();
    });
  };
  server.on('upgrade', onUpgrade);
  try {
    await listening;
  } catch (err) {
    server.off('upgrade', onUpgrade);
    unsubscribe();
    await hub.close();
    throw err;
  }

  return {
    hub,
    async close() {
      if (closing) return;
      closing = true;
      server.off('upgrade', onUpgrade);
      unsubscribe();
      await hub.close();
      await bus.close();
    },
  };
}

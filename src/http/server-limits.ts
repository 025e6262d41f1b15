/**
 * Connection-level limits of the HTTP server, applied in one call by the
 * process entry and by the test harness alike (so the tests run with them).
 * Node's defaults hold an incomplete request for a minute (headers) or five
 * (the whole request) and check only every 30 s; a client trickling bytes
 * could keep thousands of sockets open that way.
 */
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ServerLimits } from '../config.js';

/** What a connection-level failure answers: JSON like every other error, and the connection closes. */
function reply(socket: Duplex, status: number, reason: string, code: string, detail: string): void {
  const body = JSON.stringify({ detail });
  socket.once('finish', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Error-Code: ${code}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Sets the server's timeouts and answers requests that never became requests (malformed, too slow, headers too large). Call before `listen`. */
export function applyServerLimits(server: Server, limits: ServerLimits): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  // Read when the server starts listening.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = limits.checkIntervalMs;
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // As Node does without this handler: answer only when no response has begun on the socket.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
    if (!socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      reply(socket, 408, 'Request Timeout', 'request.timeout', `the request did not arrive in time (headers within ${limits.headersTimeoutMs / 1000} s, the whole request within ${limits.requestTimeoutMs / 1000} s)`);
    } else if (err.code === 'HPE_HEADER_OVERFLOW') {
      reply(socket, 431, 'Request Header Fields Too Large', 'request.headers_too_large', 'the request headers are too large');
    } else if (err.code === 'ECONNRESET' || err.code === 'EPIPE') {
      socket.destroy();
    } else {
      reply(socket, 400, 'Bad Request', 'request.malformed', 'malformed HTTP request');
    }
  });
}

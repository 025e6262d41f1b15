/**
 * The sockets of one process: who they are (a user, the key they
 * authenticated with), the indexes the deliveries use (by match followed, by
 * user), and the send primitives every message goes through. A socket never
 * holds more than `maxBufferedBytes` of unsent data: past it, it is closed
 * (4008) and the client catches up after reconnecting. Until its first
 * snapshot is out, a socket's messages wait in a short queue (bounded too), so
 * nothing overtakes `hello` and `open_questions`. A ws ping goes to every
 * socket each `heartbeatMs`; one that did not answer the previous ping is
 * terminated. A user's sockets are bounded: the newest wins, the oldest goes
 * (4009). What each socket receives is the hub's (src/live/hub.ts).
 */
import { WebSocket } from 'ws';
import type { UserRow } from '../modules/users/users.table.js';
import { metrics } from '../observability/metrics.js';
import { CLOSE } from './messages.js';

export interface ConnectionOptions {
  heartbeatMs: number;
  maxBufferedBytes: number;
  maxPendingMessages: number;
  closeTimeoutMs: number;
  maxSocketsPerUser: number;
}

/** A message: its bytes, or a function that builds it at send time (for seconds_remaining). */
export type Outgoing = Buffer | (() => string);

export class Connection {
  readonly matches = new Set<string>();
  /** Followed matches this socket was told are over (by `match_closed`, or a snapshot showing them over). */
  readonly closedAnnounced = new Set<string>();
  /** The last `leaderboard` message this socket got per match, so an unchanged board is not sent again. */
  readonly leaderboardSent = new Map<string, string>();
  /** Private groups whose boards this socket subscribed to (`subscribe_group`; the user was a member then). */
  readonly groups = new Set<string>();
  /** The last `group_leaderboard` this socket got per `<group id>|<match id>`, so an unchanged board is not sent again. */
  readonly groupBoardSent = new Map<string, string>();
  /** The client's messages are answered one at a time, in the order sent (a subscription's check waits for the database). */
  replies: Promise<void> = Promise.resolve();
  /** Client messages queued on `replies` and not answered yet, and how many of them are `subscribe_group` (each waits for the database). */
  queuedReplies = 0;
  queuedSubscribes = 0;
  /** Follow changes seen while the follows were loading, applied over what was loaded. */
  readonly followChanges = new Map<string, boolean>();
  readonly pending: Outgoing[] = [];
  loading = true;
  ready = false;
  alive = true;
  closing = false;

  constructor(
    readonly ws: WebSocket,
    readonly user: UserRow,
    /** The API key the socket authenticated with: revoking it closes the socket. */
    readonly keyId: string,
  ) {}
}

export type Connections = ReturnType<typeof createConnections>;

export interface ConnectionHooks {
  /** The last socket of this process stopped following the match. */
  matchIdle?(matchId: string): void;
}

export function createConnections(options: ConnectionOptions, hooks: ConnectionHooks = {}) {
  const all = new Set<Connection>();
  const byMatch = new Map<string, Set<Connection>>();
  const byUser = new Map<string, Set<Connection>>();

  function indexMatch(conn: Connection, matchId: string) {
    conn.matches.add(matchId);
    let set = byMatch.get(matchId);
    if (!set) byMatch.set(matchId, (set = new Set()));
    set.add(conn);
  }

  function unindexMatch(conn: Connection, matchId: string) {
    conn.matches.delete(matchId);
    conn.closedAnnounced.delete(matchId);
    conn.leaderboardSent.delete(matchId);
    for (const key of [...conn.groupBoardSent.keys()]) if (key.endsWith(`|${matchId}`)) conn.groupBoardSent.delete(key);
    const set = byMatch.get(matchId);
    if (!set) return;
    set.delete(conn);
    if (!set.size) {
      byMatch.delete(matchId);
      hooks.matchIdle?.(matchId);
    }
  }

  function drop(conn: Connection) {
    if (!all.delete(conn)) return;
    metrics.liveSockets.dec();
    for (const m of [...conn.matches]) unindexMatch(conn, m);
    const set = byUser.get(conn.user.id);
    set?.delete(conn);
    if (set && !set.size) byUser.delete(conn.user.id);
    conn.pending.length = 0;
  }

  /** Live receivers of a match right now (a copy: sending may close some). */
  const receivers = (matchId: string): Connection[] => [...(byMatch.get(matchId) ?? [])].filter((c) => !c.closing);

  /** Closes a socket, and destroys it if its closing handshake does not finish in time (a stuck client frees its buffers). */
  function cut(conn: Connection, code: number, reason: string) {
    if (conn.closing) return;
    conn.closing = true;
    drop(conn);
    const timer = setTimeout(() => conn.ws.terminate(), options.closeTimeoutMs);
    timer.unref();
    conn.ws.once('close', () => clearTimeout(timer));
    try {
      conn.ws.close(code, reason);
    } catch {
      conn.ws.terminate();
    }
  }

  function write(conn: Connection, data: Buffer | string) {
    if (conn.closing || conn.ws.readyState !== WebSocket.OPEN) {
      metrics.liveMessages.inc({ outcome: 'dropped' });
      return;
    }
    conn.ws.send(data, { binary: false });
    metrics.liveMessages.inc({ outcome: 'sent' });
    if (conn.ws.bufferedAmount > options.maxBufferedBytes) cut(conn, CLOSE.tooSlow.code, CLOSE.tooSlow.reason);
  }

  /** Sends now, or queues until the socket's first snapshot is out. A function is called at send time (for seconds_remaining). */
  function deliver(conn: Connection, data: Outgoing) {
    if (conn.closing) {
      metrics.liveMessages.inc({ outcome: 'dropped' });
      return;
    }
    if (!conn.ready) {
      if (conn.pending.length >= options.maxPendingMessages) {
        metrics.liveMessages.inc({ outcome: 'dropped' });
        cut(conn, CLOSE.tooSlow.code, CLOSE.tooSlow.reason);
      } else conn.pending.push(data);
      return;
    }
    write(conn, typeof data === 'function' ? data() : data);
  }

  /** Takes a socket in: counted, indexed by its user (the user's oldest goes past the cap), its pongs and its close heard. */
  function register(conn: Connection) {
    all.add(conn);
    metrics.liveSockets.inc();
    let mine = byUser.get(conn.user.id);
    if (!mine) byUser.set(conn.user.id, (mine = new Set()));
    mine.add(conn);
    // A user's sockets are bounded: the newest wins (a reloaded tab, a new device), the oldest goes.
    if (mine.size > options.maxSocketsPerUser) {
      const oldest = [...mine].find((c) => c !== conn && !c.closing);
      if (oldest) cut(oldest, CLOSE.replaced.code, CLOSE.replaced.reason);
    }
    conn.ws.on('pong', () => {
      conn.alive = true;
    });
    conn.ws.on('close', (code) => {
      metrics.liveClosed.inc({ code: String(code) });
      conn.closing = true;
      drop(conn);
    });
    // 'close' follows every 'error' (a bad frame, a reset); nothing else to do.
    conn.ws.on('error', () => {});
  }

  const heartbeat = setInterval(() => {
    for (const conn of [...all]) {
      if (conn.closing) continue;
      if (!conn.alive) {
        conn.closing = true;
        drop(conn);
        conn.ws.terminate();
        continue;
      }
      conn.alive = false;
      if (conn.ws.readyState === WebSocket.OPEN) conn.ws.ping();
      // A socket that receives nothing new can still sit on a full buffer.
      if (conn.ws.bufferedAmount > options.maxBufferedBytes) cut(conn, CLOSE.tooSlow.code, CLOSE.tooSlow.reason);
    }
  }, options.heartbeatMs);
  heartbeat.unref();

  return {
    all,
    byMatch,
    byUser,
    indexMatch,
    unindexMatch,
    drop,
    receivers,
    cut,
    write,
    deliver,
    register,
    stats: () => ({ sockets: all.size, users: byUser.size, matches: byMatch.size }),
    /** Stops the heartbeat and closes every socket (1001), resolving once each has closed (or was destroyed after closeTimeoutMs). */
    async close(): Promise<void> {
      clearInterval(heartbeat);
      const sockets = [...all].map((c) => c.ws);
      const done = Promise.all(sockets.map((ws) => (ws.readyState === WebSocket.CLOSED ? null : new Promise((resolve) => ws.once('close', resolve)))));
      for (const conn of [...all]) cut(conn, CLOSE.shutdown.code, CLOSE.shutdown.reason);
      // cut() destroys sockets that do not finish their closing handshake in closeTimeoutMs.
      await done;
    },
  };
}

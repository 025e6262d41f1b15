/**
 * The sockets of one process and what they receive. Sockets are indexed by
 * match (the matches their user follows) and by user. An event from the bus
 * costs this process at most one statement, whatever the number of sockets
 * it reaches: an issuance is looked up once and serialized once; a
 * resolution loads the answers of every receiver in one statement. Events of
 * one match are handled in order (an issuance before its resolution).
 *
 * A settlement of the match (`settled`, after its resolution messages) and
 * a change of the match's board (`board`: the applier of the leaderboards
 * wrote a chunk of a settlement to it) schedule the match's `leaderboard`
 * (its top rows and each receiver's own rank, read as the endpoints read it,
 * for all of them at once), at most once per `leaderboardIntervalMs` per
 * match; a socket gets it only when its message differs from the last it got
 * for that match. The board has a settlement once the applier wrote it to
 * PostgreSQL (its `board`), or with REDIS_URL once its copy in Redis has it.
 *
 * A socket may subscribe to the private groups of its user
 * (`subscribe_group`, one statement to check the membership); with the
 * match's `leaderboard`, its subscribed sockets get each such group's board
 * of the match (`group_leaderboard`), all groups computed at once (two
 * statements), each socket only when its message changed. A socket whose
 * user is no longer a member then gets `group_unsubscribed` instead.
 *
 * Match states (status, period, score, clock) go out as `match_state` at most
 * once per `matchStateIntervalMs` per match: changes in between are merged
 * into the next message, which reads the row when it is sent. `match_closed`
 * goes to each socket once per match, when the match is first seen over.
 *
 * The sockets themselves (indexes, send primitives, buffers, heartbeat) are
 * src/live/connections.ts; this file is what they receive: the snapshot at
 * connect, and the deliveries of bus events.
 */
import { DEFAULT_PLAYER_GROUPS } from '../config.js';
import { WebSocket, type RawData } from 'ws';
import type { Db } from '../db/client.js';
import type { Logger } from '../logger.js';
import { toOpenQuestion } from '../modules/answers/answers.mapper.js';
import type { OpenRow } from '../modules/answers/answers.public.js';
import type { AnswersService } from '../modules/answers/answers.service.js';
import type { UserRow } from '../modules/users/users.table.js';
import type { BusEvent, BusSubscriber, LiveBus } from './bus.js';
import { Connection, createConnections } from './connections.js';
import { resolutionAnswer, toQuestionResolution } from '../modules/issuances/issuances.mapper.js';
import { validKeyIds } from '../modules/auth/auth.public.js';
import { issuanceForDelivery, settledForDelivery } from '../modules/issuances/issuances.public.js';
import { matchLeaderboardForDelivery, matchMembersForDelivery, type RankedRow } from '../modules/leaderboards/leaderboards.public.js';
import { groupMembersForDelivery, isGroupMember } from '../modules/player-groups/player-groups.public.js';
import { followedMatchIds, followsOfUsers, matchStates } from '../modules/matches/matches.public.js';
import {
  CLOSE,
  CLOSED_STATUSES,
  closeForFailure,
  LEADERBOARD_TOP,
  RESYNC_DETAIL,
  STREAM_PROTOCOL,
  toMatchState,
  type CarriedQuestion,
  type CarriedSettlement,
  type MatchState,
  type ServerMessage,
} from './messages.js';
import { toEntry } from '../modules/leaderboards/leaderboards.service.js';

export interface HubOptions {
  /** A ws ping goes to every socket this often; one that has not answered the previous ping by then is terminated. */
  heartbeatMs: number;
  /** Most unsent bytes a socket may hold; past it the socket is closed with 4008. */
  maxBufferedBytes: number;
  /** Most messages waiting for a socket's first snapshot; past it the socket is closed with 4008. */
  maxPendingMessages: number;
  /** A closing socket that has not finished its closing handshake by then is destroyed (its buffers freed). */
  closeTimeoutMs: number;
  /** Most sockets of one user in this process; a new one closes the oldest with 4009. */
  maxSocketsPerUser: number;
  /**
   * Most `subscribe_group` of one socket waiting for their answers at once (each is a statement); one more closes
   * it with 1008. The service sets it to the groups a player may belong to (PLAYER_GROUPS_PER_USER): an app may
   * subscribe to all of them at once, and has no reason to send more.
   */
  maxQueuedSubscribes: number;
  /** Told to clients in `hello`: the VAPID public key when the service sends Web Push, else null. */
  webPushPublicKey: string | null;
  /**
   * Every socket's key is checked again this often (one statement for all
   * of them): a key that stopped authenticating without a `keys`
   * event (an operator-UI key whose session ran out) closes its socket (4401).
   */
  keyRecheckMs: number;
  /** Shortest interval between two `match_state` messages of one match; changes in between are merged into the next. */
  matchStateIntervalMs: number;
  /** Shortest interval between two `leaderboard` messages of one match; settlements in between are merged into the next. */
  leaderboardIntervalMs: number;
  /**
   * The time of the `match_state` and `leaderboard` throttles: the real clock by default; a test's own clock ends an
   * interval when the test says, so what falls inside one never depends on how fast the machine is.
   */
  throttleClock?: ThrottleClock;
  /** The hub's database reads, replaceable one by one (tests hold a read to open a race window). */
  lookups?: Partial<HubLookups>;
  /**
   * A settlement schedules the match's `leaderboard` too (boards kept in this
   * process have it at once); off, only the board's own change (`board`) does.
   */
  leaderboardOnSettlement?: boolean;
}

/** The throttles' time (HubOptions.throttleClock). */
export interface ThrottleClock {
  now(): number;
  /** Calls `fn` once `ms` have passed (a timer that keeps no process alive); what it returns cancels it. */
  after(ms: number, fn: () => void): () => void;
}

export const realThrottleClock: ThrottleClock = {
  now: () => Date.now(),
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

export interface HubLookups {
  followedMatchIds: typeof followedMatchIds;
  followsOfUsers: typeof followsOfUsers;
  validKeyIds: typeof validKeyIds;
  issuanceForDelivery: typeof issuanceForDelivery;
  settledForDelivery: typeof settledForDelivery;
  matchStates: typeof matchStates;
  matchLeaderboardForDelivery: typeof matchLeaderboardForDelivery;
  matchMembersForDelivery: typeof matchMembersForDelivery;
  groupMembersForDelivery: typeof groupMembersForDelivery;
  isGroupMember: typeof isGroupMember;
}

const defaultLookups: HubLookups = {
  followedMatchIds,
  followsOfUsers,
  validKeyIds,
  issuanceForDelivery,
  settledForDelivery,
  matchStates,
  matchLeaderboardForDelivery,
  matchMembersForDelivery,
  groupMembersForDelivery,
  isGroupMember,
};

export const DEFAULT_HUB_OPTIONS: HubOptions = {
  heartbeatMs: 30_000,
  maxBufferedBytes: 1024 * 1024,
  maxPendingMessages: 256,
  closeTimeoutMs: 5_000,
  maxSocketsPerUser: 10,
  maxQueuedSubscribes: DEFAULT_PLAYER_GROUPS.maxGroupsPerUser,
  webPushPublicKey: null,
  keyRecheckMs: 60_000,
  matchStateIntervalMs: 1000,
  leaderboardIntervalMs: 5000,
};

export interface HubStats {
  sockets: number;
  users: number;
  matches: number;
}

export interface Hub extends BusSubscriber {
  /** Takes an authenticated socket: indexes it, sends hello and its open questions, then live events. */
  add(ws: WebSocket, user: UserRow, keyId: string): Promise<void>;
  stats(): HubStats;
  /** Resolves once every delivery under way or queued (each match's chain, throttled sends that started) is done (tests). */
  idle(): Promise<void>;
  /** Closes every socket (1001) and stops the heartbeat. */
  close(): Promise<void>;
}

const encode = (message: ServerMessage): Buffer => Buffer.from(JSON.stringify(message));
/** Client messages of one socket that may wait behind a subscription in flight (openapi/asyncapi.yaml, close code 1008). */
export const MAX_QUEUED_REPLIES = 1024;
/** A `subscribe_group` that will be checked against the database (a group id; any other is answered at once). */
const isSubscribe = (message: unknown): boolean =>
  typeof message === 'object' &&
  message !== null &&
  (message as { type?: unknown }).type === 'subscribe_group' &&
  groupIdOf(message as Record<string, unknown>) !== undefined;
const PONG = encode({ type: 'pong' });
const UNKNOWN_MESSAGE = encode({
  type: 'error',
  code: 'stream.unknown_message',
  detail: 'unknown message: the client sends {"type":"ping"} (answered with {"type":"pong"}), subscribe_group or unsubscribe_group',
});
const NOT_A_MEMBER = encode({ type: 'error', code: 'player_group.not_found', detail: 'player group not found (or you are not one of its members)' });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A client message's group id when it is one (the contract's uuid format), else undefined. */
const groupIdOf = (message: Record<string, unknown>): string | undefined =>
  typeof message.group_id === 'string' && UUID.test(message.group_id) ? message.group_id.toLowerCase() : undefined;

/** Snapshot states a socket receives: matches already over need no `match_closed` after it. */
function noteOver(conn: Connection, states: MatchState[]) {
  for (const st of states) if (CLOSED_STATUSES.has(st.status)) conn.closedAnnounced.add(st.match_id);
}

/** The throttle of one match's `match_state` (or `leaderboard`) messages. */
interface StateThrottle {
  /** When the last message was sent (ms). */
  last: number;
  /** A message due at the end of the interval (cancels it). */
  due: (() => void) | null;
  /** Forgets the match an interval after its last message (cancels it). */
  expiry: (() => void) | null;
  /** The last message sent, so an unchanged state is not sent again. */
  sent: string | null;
}

export function createHub({
  db,
  answers,
  logger,
  options,
  bus,
}: {
  db: Db;
  answers: Pick<AnswersService, 'open'>;
  logger: Logger;
  options: HubOptions;
  /** A match-scoped bus (Redis) is told which matches this process's sockets follow. */
  bus?: Pick<LiveBus, 'watch' | 'unwatch'>;
}): Hub {
  /** The latest state of each match heard with its event, waiting for its throttled send. */
  const carriedStates = new Map<string, MatchState>();
  const {
    followedMatchIds,
    followsOfUsers,
    validKeyIds,
    issuanceForDelivery,
    settledForDelivery,
    matchStates,
    matchLeaderboardForDelivery,
    matchMembersForDelivery,
    groupMembersForDelivery,
    isGroupMember,
  }: HubLookups = {
    ...defaultLookups,
    ...options.lookups,
  };
  const connections = createConnections(options, {
    matchIdle: (m) => {
      carriedStates.delete(m);
      bus?.unwatch?.(m);
    },
  });
  /** The bus hears these matches from now on (a snapshot read after this sees what came before). */
  const watch = async (matchIds: Iterable<string>) => {
    if (bus?.watch) await Promise.all([...matchIds].map((m) => bus.watch!(m)));
  };

  const { all, byMatch, byUser, indexMatch, unindexMatch, receivers, cut, write, deliver } = connections;
  const chains = new Map<string, Promise<void>>();
  const stateThrottles = new Map<string, StateThrottle>();
  const leaderboardThrottles = new Map<string, StateThrottle>();
  const clock = options.throttleClock ?? realThrottleClock;
  let closed = false;

  // ------------------------------------------------------------ connect

  async function add(ws: WebSocket, user: UserRow, keyId: string): Promise<void> {
    const conn = new Connection(ws, user, keyId);
    if (closed) {
      ws.close(CLOSE.shutdown.code, CLOSE.shutdown.reason);
      return;
    }
    connections.register(conn);
    ws.on('message', (data, isBinary) => onClientMessage(conn, data, isBinary));

    try {
      // Indexed before the snapshot is read: an event committed after this point is
      // queued for the socket, one committed before it is in the snapshot.
      // The key is checked again now that the socket hears `keys` events: a revocation
      // committed between authentication and this point would otherwise go unseen.
      const [followed, valid] = await Promise.all([followedMatchIds({ db, userId: user.id }), validKeyIds({ db, keyIds: [keyId] })]);
      if (conn.closing) return;
      if (!valid.has(keyId)) {
        cut(conn, CLOSE.unauthorized.code, CLOSE.unauthorized.revoked);
        return;
      }
      for (const m of followed) if (conn.followChanges.get(m) !== false) indexMatch(conn, m);
      for (const [m, following] of conn.followChanges) if (following) indexMatch(conn, m);
      conn.followChanges.clear();
      conn.loading = false;
      await watch(conn.matches);
      if (conn.closing) return;
      write(
        conn,
        encode({
          type: 'hello',
          protocol: STREAM_PROTOCOL,
          user_id: user.id,
          server_time: new Date().toISOString(),
          heartbeat_seconds: Math.max(1, Math.round(options.heartbeatMs / 1000)),
          followed_match_ids: [...conn.matches],
          web_push_public_key: options.webPushPublicKey,
        }),
      );
      const [rows, states] = await Promise.all([answers.open(user), matchStates({ db, matchIds: [...conn.matches] })]);
      if (conn.closing) return;
      const now = new Date();
      const matches = states.map(toMatchState);
      noteOver(conn, matches);
      write(conn, encode({ type: 'open_questions', match_id: null, questions: rows.map((r) => toOpenQuestion(r, now)), matches }));
      conn.ready = true;
      for (const data of conn.pending.splice(0)) write(conn, typeof data === 'function' ? data() : data);
    } catch (err) {
      logger.error({ err, user_id: user.id }, 'live stream: could not set a socket up');
      const close = closeForFailure(err);
      cut(conn, close.code, close.reason);
    }
  }

  function onClientMessage(conn: Connection, data: RawData, isBinary: boolean) {
    conn.alive = true;
    if (isBinary) {
      cut(conn, CLOSE.unsupported.code, CLOSE.unsupported.reason);
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(data.toString());
    } catch {
      message = undefined;
    }
    // One at a time, in the order sent: a subscription's check waits for the database, and what follows it waits too.
    // So the queue is bounded: a few subscriptions in flight, and a bounded number of messages behind them (without
    // one in flight the queue drains at once, whatever comes).
    const subscribe = isSubscribe(message);
    if (subscribe ? conn.queuedSubscribes >= options.maxQueuedSubscribes : conn.queuedSubscribes > 0 && conn.queuedReplies >= MAX_QUEUED_REPLIES) {
      cut(conn, CLOSE.flooded.code, CLOSE.flooded.reason);
      return;
    }
    conn.queuedReplies++;
    if (subscribe) conn.queuedSubscribes++;
    conn.replies = conn.replies
      .then(() => answer(conn, message))
      .catch((err: unknown) => logger.warn({ err, user_id: conn.user.id }, 'live stream: answering a client message failed'))
      .finally(() => {
        conn.queuedReplies--;
        if (subscribe) conn.queuedSubscribes--;
      });
  }

  /** The reply to one client message (see openapi/asyncapi.yaml's receive operations). */
  async function answer(conn: Connection, message: unknown): Promise<void> {
    if (conn.closing) return;
    const m = message && typeof message === 'object' && !Array.isArray(message) ? (message as Record<string, unknown>) : {};
    const groupId = groupIdOf(m);
    if (m.type === 'ping') deliver(conn, PONG);
    else if (m.type === 'subscribe_group' && groupId) await subscribeGroup(conn, groupId);
    else if (m.type === 'unsubscribe_group' && groupId) {
      dropGroup(conn, groupId);
      deliver(conn, encode({ type: 'group_unsubscribed', group_id: groupId, reason: 'requested' }));
    } else deliver(conn, UNKNOWN_MESSAGE);
  }

  /** Subscribes the socket to a group of its user (one statement: the membership); anyone else is refused as the HTTP API refuses them. */
  async function subscribeGroup(conn: Connection, groupId: string): Promise<void> {
    if (!conn.groups.has(groupId)) {
      let member: boolean;
      try {
        member = await isGroupMember({ db, groupId, userId: conn.user.id });
      } catch (err) {
        logger.warn({ err, user_id: conn.user.id }, 'live stream: could not check a group subscription');
        deliver(conn, encode({ type: 'error', code: 'stream.unavailable', detail: 'the subscription could not be checked; send it again later' }));
        return;
      }
      if (!member) {
        deliver(conn, NOT_A_MEMBER);
        return;
      }
      if (conn.closing) return;
      conn.groups.add(groupId);
    }
    deliver(conn, encode({ type: 'group_subscribed', group_id: groupId }));
  }

  /** Ends a socket's subscription to a group, and forgets what it was sent of it. */
  function dropGroup(conn: Connection, groupId: string) {
    conn.groups.delete(groupId);
    for (const key of [...conn.groupBoardSent.keys()]) if (key.startsWith(`${groupId}|`)) conn.groupBoardSent.delete(key);
  }

  // ------------------------------------------------------------ events

  /** Runs the handlers of one scope (a match, or a user's keys) one after another, in the order the bus delivered them. */
  function serial(key: string, fn: () => Promise<void>) {
    const next = (chains.get(key) ?? Promise.resolve()).then(fn).catch((err) => logger.error({ err, scope: key }, 'live stream: delivering an event failed'));
    chains.set(key, next);
    void next.then(() => {
      if (chains.get(key) === next) chains.delete(key);
    });
  }

  /** Debug log of one delivery: how long the lookup and the sends took. */
  function delivered(event: string, id: string, sockets: number, started: number, looked: number) {
    if (logger.isLevelEnabled('debug')) {
      logger.debug(
        { event, question_issuance_id: id, sockets, lookup_ms: +(looked - started).toFixed(1), send_ms: +(performance.now() - looked).toFixed(1) },
        'live: delivered',
      );
    }
  }

  async function issued(e: Extract<BusEvent, { k: 'issued' }>) {
    if (!byMatch.has(e.m)) return;
    if (e.q) return issuedCarried(e.m, e.q);
    const started = performance.now();
    const row = await issuanceForDelivery({ db, id: e.i });
    if (!row || row.issuance.status !== 'open' || row.issuance.closesAt.getTime() <= Date.now()) return;
    const looked = performance.now();
    const build = () => JSON.stringify({ type: 'question', question: toOpenQuestion(row as OpenRow, new Date()) } satisfies ServerMessage);
    const now = Buffer.from(build());
    const targets = receivers(e.m);
    for (const conn of targets) deliver(conn, conn.ready ? now : build);
    delivered('question', e.i, targets.length, started, looked);
  }

  /** A question the publisher read: sent as it came, its seconds remaining counted now. */
  function issuedCarried(matchId: string, q: CarriedQuestion) {
    const closes = Date.parse(q.closes_at);
    if (closes <= Date.now()) return;
    const started = performance.now();
    const build = () =>
      JSON.stringify({
        type: 'question',
        question: { ...q, seconds_remaining: Math.max(0, Math.floor((closes - Date.now()) / 1000)) },
      } satisfies ServerMessage);
    const now = Buffer.from(build());
    const targets = receivers(matchId);
    for (const conn of targets) deliver(conn, conn.ready ? now : build);
    delivered('question', q.question_issuance_id, targets.length, started, started);
  }

  /** A settlement the publisher read with every answer: each receiver gets its own, one message per distinct answer. */
  function settledCarried(matchId: string, r: CarriedSettlement) {
    const targets = receivers(matchId);
    if (!targets.length) return;
    const started = performance.now();
    const wanted = new Set(targets.map((c) => c.user.id));
    const groupOf = new Map<string, number>();
    r.answers.forEach(([, , , userIds], g) => {
      for (const u of userIds) if (wanted.has(u)) groupOf.set(u, g);
    });
    const unanswered = encode(r.base);
    const byGroup = new Map<number, Buffer>();
    for (const conn of targets) {
      const g = groupOf.get(conn.user.id);
      if (g === undefined) {
        deliver(conn, unanswered);
        continue;
      }
      let data = byGroup.get(g);
      if (!data) {
        const [selected, outcome, points] = r.answers[g]!;
        data = encode({ ...r.base, answer: resolutionAnswer({ selected, outcome, points }) });
        byGroup.set(g, data);
      }
      deliver(conn, data);
    }
    delivered('resolution', r.base.question_issuance_id, targets.length, started, started);
  }

  async function settled(e: Extract<BusEvent, { k: 'settled' }>) {
    if (e.r) return settledCarried(e.m, e.r);
    const targets = receivers(e.m);
    if (!targets.length) return;
    const started = performance.now();
    const found = await settledForDelivery({ db, id: e.i, userIds: [...new Set(targets.map((c) => c.user.id))] });
    if (!found) return;
    const looked = performance.now();
    const { issuance, answers: byUserAnswer } = found;
    if (issuance.status !== 'resolved' && issuance.status !== 'voided' && issuance.status !== 'revoked') return;
    // Self-contained: a client that never saw the question can still show it with its outcome.
    const unanswered = encode(toQuestionResolution(found, null));
    const perUser = new Map<string, Buffer>();
    let now = receivers(e.m);
    // Players who started following during the lookup: their answers too (they may have answered
    // before following), so nobody gets "not answered" for an answer they gave. Rare; bounded.
    const asked = new Set(targets.map((c) => c.user.id));
    for (let round = 0; round < 3; round++) {
      const late = [...new Set(now.map((c) => c.user.id).filter((u) => !asked.has(u)))];
      if (!late.length) break;
      for (const u of late) asked.add(u);
      const more = await settledForDelivery({ db, id: e.i, userIds: late });
      for (const [u, a] of more?.answers ?? []) byUserAnswer.set(u, a);
      now = receivers(e.m);
    }
    for (const conn of now) {
      if (!asked.has(conn.user.id)) continue; // still arriving after three lookups: better no message than a wrong "not answered"

      const a = byUserAnswer.get(conn.user.id);
      if (!a) {
        deliver(conn, unanswered);
        continue;
      }
      let data = perUser.get(conn.user.id);
      if (!data) {
        data = encode(toQuestionResolution(found, a));
        perUser.set(conn.user.id, data);
      }
      deliver(conn, data);
    }
    delivered('resolution', e.i, now.length, started, looked);
  }

  async function follow(e: Extract<BusEvent, { k: 'follow' }>) {
    const conns = [...(byUser.get(e.u) ?? [])].filter((c) => !c.closing);
    if (!conns.length) return;
    if (!e.f) {
      const data = encode({ type: 'unfollowed', match_id: e.m });
      for (const conn of conns) {
        if (conn.loading) conn.followChanges.set(e.m, false);
        else if (conn.matches.has(e.m)) {
          unindexMatch(conn, e.m);
          deliver(conn, data);
        }
      }
      return;
    }
    const started: Connection[] = [];
    for (const conn of conns) {
      // A socket still loading its follows reads this one in its snapshot.
      if (conn.loading) conn.followChanges.set(e.m, true);
      else if (!conn.matches.has(e.m)) {
        indexMatch(conn, e.m);
        started.push(conn);
      }
    }
    if (!started.length) return;
    await watch([e.m]);
    // All of them are the same user's sockets: one statement for the questions, one for the match.
    const [rows, states] = await Promise.all([answers.open(started[0]!.user, [e.m]), matchStates({ db, matchIds: [e.m] })]);
    const matches = states.map(toMatchState);
    const build = () => {
      const now = new Date();
      return JSON.stringify({ type: 'open_questions', match_id: e.m, questions: rows.map((r) => toOpenQuestion(r, now)), matches } satisfies ServerMessage);
    };
    const data = Buffer.from(build());
    for (const conn of started) {
      if (!conn.matches.has(e.m)) continue;
      noteOver(conn, matches);
      deliver(conn, conn.ready ? data : build);
    }
  }

  /** Some keys of a user were revoked (or the user deactivated): sockets whose key no longer authenticates close with 4401. */
  async function keysRevoked(e: Extract<BusEvent, { k: 'keys' }>) {
    const conns = [...(byUser.get(e.u) ?? [])].filter((c) => !c.closing);
    if (!conns.length) return;
    const valid = await validKeyIds({ db, keyIds: [...new Set(conns.map((c) => c.keyId))] });
    for (const conn of conns) if (!valid.has(conn.keyId)) cut(conn, CLOSE.unauthorized.code, CLOSE.unauthorized.revoked);
  }

  /** A match was deleted: its receivers stop following it. */
  function matchGone(e: Extract<BusEvent, { k: 'gone' }>) {
    const data = encode({ type: 'unfollowed', match_id: e.m });
    for (const conn of receivers(e.m)) {
      unindexMatch(conn, e.m);
      deliver(conn, data);
    }
    for (const conn of all) if (conn.loading) conn.followChanges.set(e.m, false);
  }

  /** `match_closed` to every receiver not yet told that this match is over. */
  function announceClosed(matchId: string, status: 'ended' | 'closed' | 'cancelled') {
    let data: Buffer | null = null;
    for (const conn of receivers(matchId)) {
      if (conn.closedAnnounced.has(matchId)) continue;
      conn.closedAnnounced.add(matchId);
      data ??= encode({ type: 'match_closed', match_id: matchId, status });
      deliver(conn, data);
    }
  }

  /**
   * Sends the match's state, unless it is what was sent last: the latest one
   * heard with its event, or (none, or `fromDatabase`) as read now, in one
   * statement for all of them.
   */
  async function sendStates(matchIds: string[], fromDatabase = false) {
    const wanted = matchIds.filter((m) => byMatch.has(m));
    const states: MatchState[] = [];
    const toRead: string[] = [];
    for (const m of wanted) {
      const carried = carriedStates.get(m);
      carriedStates.delete(m);
      if (carried && !fromDatabase) states.push(carried);
      else toRead.push(m);
    }
    if (toRead.length) states.push(...(await matchStates({ db, matchIds: toRead })).map(toMatchState));
    for (const state of states) {
      const data = JSON.stringify({ type: 'match_state', match: state } satisfies ServerMessage);
      const throttle = stateThrottles.get(state.match_id);
      if (throttle) {
        if (throttle.sent === data) continue;
        throttle.sent = data;
      }
      const buffer = Buffer.from(data);
      for (const conn of receivers(state.match_id)) deliver(conn, buffer);
    }
  }

  /**
   * Runs `send` for the match through its throttle in `throttles`: at once
   * when none ran within `intervalMs`, else once at its end, however many
   * calls come meanwhile (the message is read when it is sent). A match is
   * forgotten an interval after its last run, so the map holds only matches
   * that changed recently. Runs after what is queued for the match. A send
   * that answers `false` had nothing to send yet (the match's board not
   * written when its settlement was heard): the interval did not start, so
   * the next call (the board written) runs at once instead of at its end.
   */
  function throttled(throttles: Map<string, StateThrottle>, intervalMs: number, matchId: string, send: () => Promise<boolean | void>) {
    if (!byMatch.has(matchId)) return;
    let throttle = throttles.get(matchId);
    if (!throttle) throttles.set(matchId, (throttle = { last: -Infinity, due: null, expiry: null, sent: null }));
    if (throttle.due) return;
    const entry = throttle;
    const run = () => {
      entry.due = null;
      const at = (entry.last = clock.now());
      entry.expiry?.();
      entry.expiry = clock.after(intervalMs + 1, () => {
        if (!entry.due && throttles.get(matchId) === entry) throttles.delete(matchId);
      });
      serial(matchId, async () => {
        if ((await send()) !== false || entry.last !== at) return;
        entry.last = -Infinity;
        if (entry.due) {
          const cancel = entry.due;
          cancel();
          run();
        }
      });
    };
    const wait = entry.last + intervalMs - clock.now();
    if (wait <= 0) run();
    else entry.due = clock.after(wait, run);
  }

  /** A `match_state` for the match, throttled per match (see throttled). */
  const scheduleState = (matchId: string) => throttled(stateThrottles, options.matchStateIntervalMs, matchId, () => sendStates([matchId]));

  /**
   * Sends the match's leaderboard to its receivers (one statement): the top
   * rows and, per receiver, their own row and rank. A socket gets it only
   * when its message differs from the last one it got for the match (a
   * settlement that changed nothing it shows sends nothing).
   */
  async function sendLeaderboard(matchId: string): Promise<boolean> {
    const targets = receivers(matchId).filter((c) => c.ready);
    if (!targets.length) return false;
    const board = await matchLeaderboardForDelivery({ db, matchId, userIds: [...new Set(targets.map((c) => c.user.id))], top: LEADERBOARD_TOP });
    if (!board) return false;
    const top = board.top.map(toEntry);
    const perUser = new Map<string, { text: string; data: Buffer }>();
    const asked = new Set(targets);
    for (const conn of receivers(matchId)) {
      // Asked before the lookup (a socket that followed meanwhile waits for the next change).
      if (!asked.has(conn)) continue;
      let message = perUser.get(conn.user.id);
      if (!message) {
        const me = board.mine.get(conn.user.id);
        const text = JSON.stringify({
          type: 'leaderboard',
          match_id: matchId,
          player_count: board.playerCount,
          top,
          me: me ? toEntry(me) : null,
        } satisfies ServerMessage);
        perUser.set(conn.user.id, (message = { text, data: Buffer.from(text) }));
      }
      if (conn.leaderboardSent.get(matchId) === message.text) continue;
      conn.leaderboardSent.set(matchId, message.text);
      deliver(conn, message.data);
    }
    const groupIds = new Set(targets.flatMap((c) => [...c.groups]));
    if (groupIds.size) await sendGroupBoards(matchId, asked, groupIds);
    return true;
  }

  /**
   * After the match's `leaderboard`: the board of the match of each group
   * its receivers subscribed to, computed once for all of them (two lookups
   * whatever the number of sockets and groups: the groups' members, then
   * every one of those members' rows on the match's board, which each group
   * ranks among its own). A socket whose user is no longer a member of a
   * group it subscribed to gets `group_unsubscribed` instead.
   */
  async function sendGroupBoards(matchId: string, asked: Set<Connection>, groupIds: Set<string>) {
    const members = await groupMembersForDelivery({ db, groupIds: [...groupIds] });
    const userIds = [...new Set([...members.values()].flatMap((set) => [...set]))];
    const rows: RankedRow[] = userIds.length ? await matchMembersForDelivery({ db, matchId, userIds }) : [];
    const boards = new Map<string, { rows: ReturnType<typeof toEntry>[]; byUser: Map<string, ReturnType<typeof toEntry>> }>();
    const boardOf = (groupId: string, set: Set<string>) => {
      let board = boards.get(groupId);
      if (!board) {
        const entries = rows.filter((r) => set.has(r.userId)).map((r, i) => toEntry({ ...r, rank: i + 1 }));
        boards.set(groupId, (board = { rows: entries, byUser: new Map(entries.map((e) => [e.user_id, e] as const)) }));
      }
      return board;
    };
    const texts = new Map<string, { text: string; data: Buffer }>();
    for (const conn of receivers(matchId)) {
      if (!asked.has(conn)) continue;
      for (const groupId of [...conn.groups]) {
        // Subscribed during the lookups: from the next change on.
        if (!groupIds.has(groupId)) continue;
        const set = members.get(groupId);
        if (!set?.has(conn.user.id)) {
          dropGroup(conn, groupId);
          deliver(conn, encode({ type: 'group_unsubscribed', group_id: groupId, reason: 'not_a_member' }));
          continue;
        }
        const key = `${groupId}|${conn.user.id}`;
        let message = texts.get(key);
        if (!message) {
          const board = boardOf(groupId, set);
          const text = JSON.stringify({
            type: 'group_leaderboard',
            group_id: groupId,
            match_id: matchId,
            player_count: board.rows.length,
            rows: board.rows,
            me: board.byUser.get(conn.user.id) ?? null,
          } satisfies ServerMessage);
          texts.set(key, (message = { text, data: Buffer.from(text) }));
        }
        const sentKey = `${groupId}|${matchId}`;
        if (conn.groupBoardSent.get(sentKey) === message.text) continue;
        conn.groupBoardSent.set(sentKey, message.text);
        deliver(conn, message.data);
      }
    }
  }

  /** A `leaderboard` for the match after its board changed, throttled per match (see throttled), after the match's resolution messages. */
  const scheduleLeaderboard = (matchId: string) => throttled(leaderboardThrottles, options.leaderboardIntervalMs, matchId, () => sendLeaderboard(matchId));

  function broadcast(matchId: string, message: ServerMessage) {
    const targets = receivers(matchId);
    if (!targets.length) return;
    const data = encode(message);
    for (const conn of targets) deliver(conn, data);
  }

  function onEvent(e: BusEvent) {
    if (closed) return;
    switch (e.k) {
      case 'issued':
        return serial(e.m, () => issued(e));
      case 'settled':
        return serial(e.m, async () => {
          await settled(e);
          if (options.leaderboardOnSettlement !== false) scheduleLeaderboard(e.m);
        });
      case 'board':
        return scheduleLeaderboard(e.m);
      case 'follow':
        return serial(e.m, () => follow(e));
      case 'locked':
        return serial(e.m, async () => broadcast(e.m, { type: 'locked', question_issuance_id: e.i, match_id: e.m }));
      case 'match': {
        if (e.st && byMatch.has(e.m)) carriedStates.set(e.m, e.st);
        const status = e.s;
        if (status && CLOSED_STATUSES.has(status)) serial(e.m, async () => announceClosed(e.m, status as 'ended' | 'closed' | 'cancelled'));
        return scheduleState(e.m);
      }
      case 'gone':
        return serial(e.m, async () => matchGone(e));
      case 'keys':
        return serial(`user:${e.u}`, () => keysRevoked(e));
    }
  }

  /** Closes the sockets whose key no longer authenticates (revoked, expired, user deactivated). */
  async function recheckKeys(): Promise<void> {
    const conns = [...all].filter((c) => !c.closing);
    if (!conns.length) return;
    const valid = await validKeyIds({ db, keyIds: [...new Set(conns.map((c) => c.keyId))] });
    for (const conn of conns) if (!valid.has(conn.keyId)) cut(conn, CLOSE.unauthorized.code, CLOSE.unauthorized.revoked);
  }

  /**
   * After a gap in the bus (events may have been missed): keys are checked
   * again and every socket's follows are reloaded. Follow events arriving
   * meanwhile are kept per socket (as while a socket connects) and applied
   * over what was loaded; a match no longer followed gets `unfollowed`.
   */
  async function reconcile(): Promise<void> {
    const conns = [...all].filter((c) => !c.closing && !c.loading);
    if (!conns.length) return;
    for (const conn of conns) conn.loading = true;
    let follows: Map<string, Set<string>> | null = null;
    try {
      await recheckKeys();
      follows = await followsOfUsers({ db, userIds: [...new Set(conns.map((c) => c.user.id))] });
    } catch (err) {
      logger.warn({ err }, 'live stream: could not reload follows after a bus gap; sockets keep the follows they had');
    } finally {
      for (const conn of conns) {
        conn.loading = false;
        if (conn.closing) continue;
        const wanted = follows ? new Set(follows.get(conn.user.id) ?? []) : new Set(conn.matches);
        for (const [m, following] of conn.followChanges) {
          if (following) wanted.add(m);
          else wanted.delete(m);
        }
        conn.followChanges.clear();
        for (const m of [...conn.matches]) {
          if (wanted.has(m)) continue;
          unindexMatch(conn, m);
          deliver(conn, encode({ type: 'unfollowed', match_id: m }));
        }
        for (const m of wanted) if (!conn.matches.has(m)) indexMatch(conn, m);
      }
      await watch(byMatch.keys()).catch((err: unknown) => logger.warn({ err }, 'live stream: could not hear the followed matches again'));
    }
  }

  function onResync() {
    const data = encode({ type: 'resync', detail: RESYNC_DETAIL });
    for (const conn of [...all]) deliver(conn, data);
    // Match states changed during the gap were not heard: every followed match's state, in one statement.
    void reconcile().then(() => {
      const ids = [...byMatch.keys()];
      if (ids.length) serial('states', () => sendStates(ids, true));
    });
  }

  /** Events of one match may be lost (its stream was trimmed past this process's position): its receivers catch up, its state is read once. */
  function onMatchResync(matchId: string) {
    if (closed) return;
    broadcast(matchId, { type: 'resync', detail: RESYNC_DETAIL });
    serial(matchId, () => sendStates([matchId], true));
  }

  let recheckBusy = false;
  const keyRecheck = setInterval(() => {
    if (recheckBusy || closed) return;
    recheckBusy = true;
    recheckKeys()
      .catch((err: unknown) => logger.warn({ err }, 'live stream: could not check the keys of open sockets'))
      .finally(() => (recheckBusy = false));
  }, options.keyRecheckMs);
  keyRecheck.unref();

  return {
    add,
    onEvent,
    onResync,
    onMatchResync,
    stats: connections.stats,
    async idle() {
      while (chains.size) await Promise.allSettled([...chains.values()]);
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(keyRecheck);
      for (const t of [...stateThrottles.values(), ...leaderboardThrottles.values()]) {
        t.due?.();
        t.expiry?.();
      }
      stateThrottles.clear();
      leaderboardThrottles.clear();
      await connections.close();
      await Promise.allSettled([...chains.values()]);
    },
  };
}

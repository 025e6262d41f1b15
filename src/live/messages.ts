/**
 * Messages of the live stream: their types are generated from
 * openapi/asyncapi.yaml (generated/stream-types.ts, `npm run generate`), the
 * authority on their shapes; the stream tests validate every message they
 * receive against it. Questions reuse the contract's OpenQuestion schema.
 */
import type { components } from '../../generated/api-types.js';
import type * as Stream from '../../generated/stream-types.js';
import { isDatabaseBusy, isDatabaseUnavailable } from '../db/availability.js';
import { isOver } from '../domain/vocabulary.js';
import type { MatchStateRow } from '../modules/matches/matches.public.js';

type Schemas = components['schemas'];
export type OpenQuestion = Schemas['OpenQuestion'];
export type MatchRef = Schemas['MatchRef'];

/** Where play stands on a match: what a live header shows. */
export type MatchState = Stream.MatchStateMessage['match'];

export const toMatchState = (row: MatchStateRow): MatchState => ({
  match_id: row.id,
  status: row.status as MatchState['status'],
  period: row.period,
  clock_seconds: row.clockSeconds,
  home_score: row.homeScore,
  away_score: row.awayScore,
  resolution_seq: row.resolutionSeq,
});

/**
 * A new question as the Redis transport carries it: the message's question
 * without a receiver's answer; `seconds_remaining` is worked out again from
 * `closes_at` when it is sent.
 */
export type CarriedQuestion = OpenQuestion;

/**
 * A settlement as the Redis transport carries it: the resolution without an
 * answer, and every answer grouped by what the receiver is shown
 * (`[selected, outcome, points, user ids]`), read once by the publisher.
 */
export interface CarriedSettlement {
  base: Schemas['QuestionResolution'];
  answers: [string, string | null, number, string[]][];
}

/** Version of the message set; a client can refuse a protocol it does not know. */
export const STREAM_PROTOCOL = 1;

export const CLOSE = {
  /** Missing api_key, or a key that is unknown, revoked, or whose user is inactive. */
  unauthorized: { code: 4401, missing: 'missing api_key', invalid: 'invalid API key', revoked: 'API key revoked' },
  /** The socket's send buffer outgrew the limit: the client reads too slowly. */
  tooSlow: { code: 4008, reason: 'too slow; reconnect and catch up with GET /api/question-answers/open' },
  /** The user opened more sockets than allowed on this process: the oldest is closed. */
  replaced: { code: 4009, reason: 'too many open sockets for this user; the oldest was closed' },
  /** Too many connects with this key, or from this address, in the window: wait the seconds the reason names. */
  tooManyConnects: { code: 4429, reason: (seconds: number) => `too many connects; retry in ${seconds} s` },
  /** The server is shutting down; reconnect (another process answers). */
  shutdown: { code: 1001, reason: 'server shutting down' },
  /**
   * The client sent more `subscribe_group` than may wait for their answers at
   * once, or many messages behind them: each subscription costs a statement,
   * so a socket may not queue them without bound.
   */
  flooded: { code: 1008, reason: 'too many messages waiting for their answers' },
  /** Binary frames are not part of the protocol. */
  unsupported: { code: 1003, reason: 'text frames with JSON only' },
  /** The server could not set the stream up (an unexpected failure); reconnect later. */
  internal: { code: 1011, reason: 'internal error; reconnect later' },
  /**
   * The database is out of reach (an outage, a restart): nothing is wrong
   * with the key. "Try Again Later" in the IANA registry of close codes.
   */
  unavailable: { code: 1013, reason: 'service temporarily unavailable; reconnect later' },
  /** Every database connection stayed busy (the server is overloaded, the database up): the same code, its own reason. */
  busy: { code: 1013, reason: 'server busy; reconnect later' },
} as const;

/** The close for a socket that could not be authenticated or set up: an outage or overload (1013, try again later), else 1011. */
export function closeForFailure(err: unknown): { code: number; reason: string } {
  if (isDatabaseBusy(err)) return CLOSE.busy;
  return isDatabaseUnavailable(err) ? CLOSE.unavailable : CLOSE.internal;
}

/** Rows of a match's leaderboard the stream sends. */
export const LEADERBOARD_TOP = 10;

export type * from '../../generated/stream-types.js';

export type ServerMessage =
  | Stream.HelloMessage
  | Stream.OpenQuestionsMessage
  | Stream.QuestionMessage
  | Stream.ResolutionMessage
  | Stream.MatchStateMessage
  | Stream.LeaderboardMessage
  | Stream.GroupLeaderboardMessage
  | Stream.GroupSubscribedMessage
  | Stream.GroupUnsubscribedMessage
  | Stream.LockedMessage
  | Stream.MatchClosedMessage
  | Stream.UnfollowedMessage
  | Stream.ResyncMessage
  | Stream.PongMessage
  | Stream.ErrorMessage;

/** Match statuses after which a followed match is over for live play. */
export const CLOSED_STATUSES = isOver;

export const RESYNC_DETAIL =
  'the server may have missed events; catch up with GET /api/question-answers/open and, per followed match, GET /api/matches/{match_id}/resolutions?after=<your cursor>';

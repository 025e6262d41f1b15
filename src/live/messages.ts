/**
 * Messages of the live stream, as documented in openapi/asyncapi.yaml (the
 * authority on their shapes; the stream tests validate every message they
 * receive against it). Questions reuse the contract's OpenQuestion schema.
 */
import type { components } from '../../generated/api-types.js';
import { isOver } from '../domain/vocabulary.js';

type Schemas = components['schemas'];
export type OpenQuestion = Schemas['OpenQuestion'];
export type MatchRef = Schemas['MatchRef'];
type MatchStatus = Schemas['MatchStatus'];

/** Where play stands on a match: what a live header shows. */
export interface MatchState {
  match_id: string;
  status: MatchStatus;
  period: string | null;
  clock_seconds: number | null;
  home_score: number | null;
  away_score: number | null;
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
  /** Binary frames are not part of the protocol. */
  unsupported: { code: 1003, reason: 'text frames with JSON only' },
  /** The server could not set the stream up (an unexpected failure); reconnect later. */
  internal: { code: 1011, reason: 'internal error; reconnect later' },
  /**
   * The database is out of reach (an outage, a restart): nothing is wrong
   * with the key. "Try Again Later" in the IANA registry of close codes.
   */
  unavailable: { code: 1013, reason: 'service temporarily unavailable; reconnect later' },
} as const;

export interface HelloMessage {
  type: 'hello';
  protocol: number;
  user_id: string;
  server_time: string;
  heartbeat_seconds: number;
  followed_match_ids: string[];
  /** VAPID public key when the service sends Web Push, else null. */
  web_push_public_key: string | null;
}

export interface OpenQuestionsMessage {
  type: 'open_questions';
  /** null: every followed match (sent on connect); a match id: that newly followed match only. */
  match_id: string | null;
  questions: OpenQuestion[];
  /** The state of each match in scope. */
  matches: MatchState[];
}

export interface MatchStateMessage {
  type: 'match_state';
  match: MatchState;
}

export interface QuestionMessage {
  type: 'question';
  question: OpenQuestion;
}

export interface ResolutionMessage {
  type: 'resolution';
  question_issuance_id: string;
  match_id: string;
  kind: 'in_game' | 'match';
  match: MatchRef;
  question_text: string;
  choices: { identifier: string; label: string }[];
  status: 'resolved' | 'voided' | 'revoked';
  correct_answer_identifier: string | null;
  points_possible: number;
  resolved_at: string | null;
  /** The receiver's own answer, or null when they did not answer. */
  answer: { selected_answer_identifier: string; outcome: 'correct' | 'incorrect' | 'void'; points_awarded: number } | null;
}

/** A followed match's leaderboard changed: its top rows and the receiver's own row and rank. */
export interface LeaderboardMessage {
  type: 'leaderboard';
  match_id: string;
  player_count: number;
  top: Schemas['LeaderboardEntry'][];
  me: Schemas['LeaderboardEntry'] | null;
}

/** Rows of a match's leaderboard the stream sends. */
export const LEADERBOARD_TOP = 10;

export interface LockedMessage {
  type: 'locked';
  question_issuance_id: string;
  match_id: string;
}

export interface MatchClosedMessage {
  type: 'match_closed';
  match_id: string;
  status: 'ended' | 'closed' | 'cancelled';
}

export interface UnfollowedMessage {
  type: 'unfollowed';
  match_id: string;
}

export interface ResyncMessage {
  type: 'resync';
  detail: string;
}

export interface PongMessage {
  type: 'pong';
}

export interface ErrorMessage {
  type: 'error';
  detail: string;
}

export type ServerMessage =
  | HelloMessage
  | OpenQuestionsMessage
  | QuestionMessage
  | ResolutionMessage
  | MatchStateMessage
  | LeaderboardMessage
  | LockedMessage
  | MatchClosedMessage
  | UnfollowedMessage
  | ResyncMessage
  | PongMessage
  | ErrorMessage;

/** Match statuses after which a followed match is over for live play. */
export const CLOSED_STATUSES = isOver;

export const RESYNC_DETAIL = 'the server may have missed events; catch up with GET /api/question-answers/open';

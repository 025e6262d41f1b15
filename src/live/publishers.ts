/**
 * What puts events on the live bus: the engine (issued, settled, locked,
 * match state) through its subscriber list, and the follow endpoints. Both
 * run after their transaction committed, so a process that receives the
 * event reads the committed rows.
 */
import type { EngineSubscriber } from '../engine/subscribers.js';
import type { MatchRow } from '../modules/matches/matches.table.js';
import type { LiveBus } from './bus.js';

/** The columns a `match_state` message carries besides the status. */
const MATCH_STATE_FIELDS: readonly (keyof MatchRow)[] = ['period', 'clockSeconds', 'homeScore', 'awayScore'];

/** The engine subscriber of live delivery: ids only go on the bus. */
export function liveEngineSubscriber(bus: LiveBus): EngineSubscriber {
  return {
    name: 'live',
    onIssued: (row) => bus.publish({ k: 'issued', i: row.id, m: row.matchId }),
    async onSettled(row) {
      // Match questions lock at kick-off through the same hook; they settle later.
      if (row.status === 'locked') return bus.publish({ k: 'locked', i: row.id, m: row.matchId });
      if (row.status === 'resolved' || row.status === 'voided' || row.status === 'revoked')
        return bus.publish({ k: 'settled', i: row.id, m: row.matchId, s: row.status });
    },
    async onMatchChanged(matchId, values) {
      // What a live header shows; the stream reads the row and throttles its match_state messages.
      if (typeof values.status === 'string') await bus.publish({ k: 'match', m: matchId, s: values.status });
      else if (MATCH_STATE_FIELDS.some((f) => values[f] !== undefined)) await bus.publish({ k: 'match', m: matchId });
    },
  };
}

export interface FollowChange {
  userId: string;
  matchId: string;
  following: boolean;
}

/** Reports a committed follow or unfollow, so the user's open sockets start or stop delivery. */
export const publishFollowChange = (bus: LiveBus) => (change: FollowChange) =>
  bus.publish({ k: 'follow', m: change.matchId, u: change.userId, f: change.following });

/** Reports that some API keys of a user were revoked: sockets opened with them close (4401). */
export const publishKeysRevoked = (bus: LiveBus) => (userId: string) => bus.publish({ k: 'keys', u: userId });

/** Reports a deleted match: its followers' sockets get `unfollowed`. */
export const publishMatchGone = (bus: LiveBus) => (matchId: string) => bus.publish({ k: 'gone', m: matchId });

/** Reports that the applier of the leaderboards changed a match's board: its followers' sockets get `leaderboard` (throttled). */
export const publishBoardChanged = (bus: LiveBus) => (matchId: string) => bus.publish({ k: 'board', m: matchId });

/** Reports match statuses changed outside the live engine (a schedule sync closing or cancelling a match). */
export const publishMatchStatus = (bus: LiveBus) => (matchId: string, status: string) => bus.publish({ k: 'match', m: matchId, s: status });

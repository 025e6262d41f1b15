/**
 * What puts events on the live bus: reactions to domain events after their
 * commit (src/events/reactions.ts), so a process that receives the event
 * reads the committed rows. Ids and tiny fields only.
 */
import type { MatchRow } from '../modules/matches/matches.table.js';
import type { QuestionIssuanceRow } from '../modules/issuances/issuances.table.js';
import type { LiveBus } from './bus.js';

type Publisher = Pick<LiveBus, 'publish'>;

/** The columns a `match_state` message carries besides the status. */
const MATCH_STATE_FIELDS: readonly (keyof MatchRow)[] = ['period', 'clockSeconds', 'homeScore', 'awayScore'];

/** A question was issued: the match's followers' sockets get it. */
export const publishIssued = (bus: Publisher, row: QuestionIssuanceRow) => bus.publish({ k: 'issued', i: row.id, m: row.matchId });

/** A question was settled, or locked (Match questions lock at kick-off through the same event; they settle later). */
export async function publishSettled(bus: Publisher, row: QuestionIssuanceRow): Promise<void> {
  if (row.status === 'locked') return bus.publish({ k: 'locked', i: row.id, m: row.matchId });
  if (row.status === 'resolved' || row.status === 'voided' || row.status === 'revoked')
    return bus.publish({ k: 'settled', i: row.id, m: row.matchId, s: row.status });
}

/** What a live header shows; the stream reads the row and throttles its match_state messages. */
export async function publishMatchChanged(bus: Publisher, matchId: string, values: Partial<MatchRow>): Promise<void> {
  if (typeof values.status === 'string') await bus.publish({ k: 'match', m: matchId, s: values.status });
  else if (MATCH_STATE_FIELDS.some((f) => values[f] !== undefined)) await bus.publish({ k: 'match', m: matchId });
}

export interface FollowChange {
  userId: string;
  matchId: string;
  following: boolean;
}

/** Reports a committed follow or unfollow, so the user's open sockets start or stop delivery. */
export const publishFollowChange = (bus: Publisher, change: FollowChange) =>
  bus.publish({ k: 'follow', m: change.matchId, u: change.userId, f: change.following });

/** Reports match statuses changed outside the live engine (a schedule sync closing or cancelling a match). */
export const publishMatchStatus = (bus: Publisher) => (matchId: string, status: string) => bus.publish({ k: 'match', m: matchId, s: status });

/**
 * The leaderboards module's front door: what the rest of the service may
 * read of its tables (scripts/eslint/front-doors.js: its repositories are its
 * own). Each statement takes the connection or the caller's transaction.
 */
import type { DbOrTx } from '../../db/client.js';
import { ALL_TIME_START, boardForDelivery } from './leaderboards.repository.js';

/** A match's leaderboard as the live stream sends it: the top rows, the player count, and each receiver's own row and rank (one statement). */
export async function matchLeaderboardForDelivery({ db, matchId, userIds, top }: { db: DbOrTx; matchId: string; userIds: string[]; top: number }) {
  return boardForDelivery({ db, key: { scope: 'match', scopeId: matchId, period: 'all_time', periodStart: ALL_TIME_START }, top, userIds });
}

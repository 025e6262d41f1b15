/**
 * The leaderboards module's front door: what the rest of the service may
 * read of its tables (scripts/eslint/front-doors.js: its repositories are
 * its own). Each statement takes the connection or the caller's transaction.
 */
import type { DbOrTx } from '../../db/client.js';
import { findBoards } from './leaderboards.applier.repository.js';
import { ALL_TIME_START, boardForDelivery, membersBoard, type RankedRow } from './leaderboards.repository.js';

export type { RankedRow };

const matchBoard = (matchId: string) => ({ scope: 'match' as const, scopeId: matchId, period: 'all_time' as const, periodStart: ALL_TIME_START });

/** A match's leaderboard as the live stream sends it: the top rows, the player count, and each receiver's own row and rank (one statement). */
export async function matchLeaderboardForDelivery({ db, matchId, userIds, top }: { db: DbOrTx; matchId: string; userIds: string[]; top: number }) {
  return boardForDelivery({ db, key: matchBoard(matchId), top, userIds });
}

/**
 * Some players' rows on a match's board in its order, ranked among themselves
 * (the live stream's group boards: the members of every subscribed group at
 * once, split per group by the caller); two statements.
 */
export async function matchMembersForDelivery({ db, matchId, userIds }: { db: DbOrTx; matchId: string; userIds: string[] }): Promise<RankedRow[]> {
  const [board] = await findBoards({ db, keys: [matchBoard(matchId)] });
  return board ? membersBoard({ db, leaderboardId: board.id, userIds }) : [];
}

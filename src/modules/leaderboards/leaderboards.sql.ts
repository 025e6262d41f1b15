/** What the leaderboards' SQL files share. */
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';

/** Rows of a raw statement: postgres.js answers an array, PGlite `{ rows }`. */
export async function rowsOf<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown;
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];
}

/** A player's name as boards show it (`u`: the users row). */
export const NAME = sql`coalesce(u.display_name, u.username, 'Player ' || left(u.id::text, 8))`;

/** The advisory lock every leaderboard writer holds until its commit (the SQL rebuild function takes the same). */
export const LEADERBOARD_LOCK = 1717001;

/**
 * The advisory lock of the settlements' positions (`assignPositions`): held for one statement's transaction only, so
 * the writer of the boards in Redis gives a new settlement its place without waiting for the applier's chunk.
 */
export const POSITION_LOCK = 1717002;

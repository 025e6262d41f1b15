/** Retention: boards of past periods go (days after 40 days, weeks after 20 weeks, months after 25 months). */
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { lockLeaderboards } from './leaderboards.queue.repository.js';
import { rowsOf } from './leaderboards.sql.js';
import { leaderboards } from './leaderboards.table.js';

/** How long past periods stay readable: boards of days, weeks and months that began before these many days ago go. */
export const RETENTION_DAYS = { day: 40, week: 20 * 7, month: 25 * 31 } as const;

/** The first period start kept on `today` (UTC): boards of that kind that began before it are past the retention. */
export function keptFrom(period: keyof typeof RETENTION_DAYS, today: string): string {
  return new Date(Date.parse(`${today}T00:00:00Z`) - RETENTION_DAYS[period] * 86_400_000).toISOString().slice(0, 10);
}

/** One board whose period has passed the retention, or undefined. */
export async function expiredBoard({ db, today }: { db: DbOrTx; today: string }): Promise<number | undefined> {
  const [row] = await rowsOf<{ id: number }>(
    db,
    sql`select id from leaderboards
        where (period = 'day' and period_start < ${keptFrom('day', today)}::date)
           or (period = 'week' and period_start < ${keptFrom('week', today)}::date)
           or (period = 'month' and period_start < ${keptFrom('month', today)}::date)
        order by period_start limit 1`,
  );
  return row ? Number(row.id) : undefined;
}

/**
 * Deletes up to `rows` rows of a board (the lock taken, so no settlement
 * writes it meanwhile), and the board itself with its point counts once it
 * has none left; true when the board is gone.
 */
export async function pruneBoard({ tx, leaderboardId, rows }: { tx: Tx; leaderboardId: number; rows: number }): Promise<boolean> {
  await lockLeaderboards(tx);
  const deleted = await rowsOf<{ n: number }>(
    tx,
    sql`with gone as (
          delete from leaderboard_scores where ctid = any(array(select ctid from leaderboard_scores where leaderboard_id = ${leaderboardId}::int limit ${rows}::int)) returning 1
        ) select count(*)::int as n from gone`,
  );
  // The board changed under any cache of it (its page, its point counts, its ties).
  await tx.execute(sql`update leaderboards set version = version + 1 where id = ${leaderboardId}::int`);
  await tx.execute(sql`update leaderboard_point_counts set version = version + 1 where leaderboard_id = ${leaderboardId}::int`);
  if (Number(deleted[0]?.n ?? 0) === rows) return false;
  await tx.delete(leaderboards).where(eq(leaderboards.id, leaderboardId));
  return true;
}

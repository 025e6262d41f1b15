/**
 * The league list (GET /api/leagues, every client's first call) kept in the
 * process, so that listing the leagues costs no statement. Like the key cache
 * (src/modules/auth/key-cache.ts), it is only trusted while it can be told
 * about changes:
 *
 * - every statement that changes the leagues table is announced by the
 *   database itself (a trigger, drizzle/0017_league_change_notify.sql) on the
 *   live bus, and every process drops its list when it hears it;
 * - this process's own writes drop it after their transaction is over
 *   (`leaguesChanged`, src/events/reactions.ts: the service's update, a
 *   definition's deletion), so its next request never sees the old rows, whatever the bus's delay;
 * - while the bus does not listen, nothing is read from or written to it, and
 *   it is emptied when the bus listens again (events of the gap are lost);
 * - a read that raced a change (one was heard while it ran) is used for its
 *   request but not kept.
 */
import type { LeagueRow } from './leagues.table.js';

export interface LeagueListCache {
  /** The list, when the cache may be trusted and holds one. The same array until a change: never to be modified. */
  get(): readonly LeagueRow[] | undefined;
  /** Where a read stands against changes: pass it to `set` with the read's rows. */
  version(): number;
  /** Keeps a read's rows (frozen), unless a change was heard since `version` or the cache is not trusted; returns what to serve. */
  set(rows: LeagueRow[], version: number): readonly LeagueRow[];
  /** The leagues changed, or events may have been missed: drop the list. */
  invalidate(): void;
}

export function createLeagueListCache({ trusted }: { trusted: () => boolean }): LeagueListCache {
  let list: readonly LeagueRow[] | undefined;
  let changes = 0;
  return {
    get: () => (list !== undefined && trusted() ? list : undefined),
    version: () => changes,
    set(rows, version) {
      if (version !== changes || !trusted()) return rows;
      for (const row of rows) Object.freeze(row);
      list = Object.freeze(rows);
      return list;
    },
    invalidate() {
      changes++;
      list = undefined;
    },
  };
}

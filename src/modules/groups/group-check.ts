/** Whether a definition's `group_id` names a question group of its league: the check both definition kinds run on save. */
import type { DbOrTx } from '../../db/client.js';
import { findGroupInLeague, listGroups } from './groups.repository.js';

/** Whether `groupId` names a question group of the league. */
export type GroupCheck = (groupId: string, leagueId: string) => Promise<boolean>;

/** The check of one request: a lookup of that group. */
export const groupInDatabase =
  (db: DbOrTx): GroupCheck =>
  async (id, leagueId) =>
    !!(await findGroupInLeague({ db, id, leagueId }));

/** The check of a CSV import: each league's group ids are read once, not once per row that names a group. */
export function groupsReadOnce(db: DbOrTx): GroupCheck {
  const groupIds = new Map<string, Promise<Set<string>>>();
  return async (id, leagueId) => {
    let ids = groupIds.get(leagueId);
    if (!ids) groupIds.set(leagueId, (ids = listGroups({ db, leagueId }).then((groups) => new Set(groups.map((g) => g.id)))));
    // Stored ids are lowercase; the contract's uuid format allows either case.
    return (await ids).has(id.toLowerCase());
  };
}

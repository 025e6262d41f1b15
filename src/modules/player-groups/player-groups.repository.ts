/** Private player groups: SQL only. Races (limits, joins, leaving owners) are settled by row locks taken here. */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { users } from '../users/users.table.js';
import { playerGroupMembers, playerGroups, type PlayerGroupRow } from './player-groups.table.js';

export interface MemberView {
  userId: string;
  name: string;
  joinedAt: Date;
}

const NAME = sql<string>`coalesce(${users.displayName}, ${users.username}, 'Player ' || left(${users.id}::text, 8))`;

/** Locks the user's row (no key change, so references to it are not held up): their joins and creations happen one at a time. */
export async function lockUser({ tx, userId }: { tx: Tx; userId: string }): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
}

export async function groupsOfUserCount({ db, userId }: { db: DbOrTx; userId: string }): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(playerGroupMembers)
    .where(eq(playerGroupMembers.userId, userId));
  return Number(row?.n ?? 0);
}

/** Creates the group with its owner as first member; undefined when the invite code is taken (draw another). */
export async function insertGroup({
  tx,
  name,
  ownerId,
  inviteCode,
}: {
  tx: Tx;
  name: string;
  ownerId: string;
  inviteCode: string;
}): Promise<PlayerGroupRow | undefined> {
  const [row] = await tx.insert(playerGroups).values({ name, ownerId, inviteCode }).onConflictDoNothing({ target: playerGroups.inviteCode }).returning();
  if (!row) return undefined;
  await tx.insert(playerGroupMembers).values({ groupId: row.id, userId: ownerId, joinedAt: row.createdAt });
  return row;
}

/** Sets a new invite code; false when it is taken (draw another). */
export async function setInviteCode({ tx, id, inviteCode }: { tx: Tx; id: string; inviteCode: string }): Promise<boolean> {
  const taken = await tx.select({ id: playerGroups.id }).from(playerGroups).where(eq(playerGroups.inviteCode, inviteCode));
  if (taken.length) return false;
  await tx
    .update(playerGroups)
    .set({ inviteCode, updatedAt: sql`now()` })
    .where(eq(playerGroups.id, id));
  return true;
}

/** The group, locked against other changes to it and its members until the transaction ends. */
export async function lockGroup({ tx, id }: { tx: Tx; id: string }): Promise<PlayerGroupRow | undefined> {
  const [row] = await tx.select().from(playerGroups).where(eq(playerGroups.id, id)).for('update');
  return row;
}

export async function lockGroupByCode({ tx, inviteCode }: { tx: Tx; inviteCode: string }): Promise<PlayerGroupRow | undefined> {
  const [row] = await tx.select().from(playerGroups).where(eq(playerGroups.inviteCode, inviteCode)).for('update');
  return row;
}

export async function findGroup({ db, id }: { db: DbOrTx; id: string }): Promise<PlayerGroupRow | undefined> {
  const [row] = await db.select().from(playerGroups).where(eq(playerGroups.id, id));
  return row;
}

export async function isMember({ db, groupId, userId }: { db: DbOrTx; groupId: string; userId: string }): Promise<boolean> {
  const [row] = await db
    .select({ one: sql`1` })
    .from(playerGroupMembers)
    .where(and(eq(playerGroupMembers.groupId, groupId), eq(playerGroupMembers.userId, userId)));
  return !!row;
}

export async function memberCount({ db, groupId }: { db: DbOrTx; groupId: string }): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(playerGroupMembers)
    .where(eq(playerGroupMembers.groupId, groupId));
  return Number(row?.n ?? 0);
}

/** Adds the member; false when they already were one. */
export async function insertMember({ tx, groupId, userId }: { tx: Tx; groupId: string; userId: string }): Promise<boolean> {
  const rows = await tx.insert(playerGroupMembers).values({ groupId, userId }).onConflictDoNothing().returning({ userId: playerGroupMembers.userId });
  return rows.length > 0;
}

export async function deleteMember({ tx, groupId, userId }: { tx: Tx; groupId: string; userId: string }): Promise<boolean> {
  const rows = await tx
    .delete(playerGroupMembers)
    .where(and(eq(playerGroupMembers.groupId, groupId), eq(playerGroupMembers.userId, userId)))
    .returning({ userId: playerGroupMembers.userId });
  return rows.length > 0;
}

/** The member who joined earliest (then by id): who inherits a group its owner leaves. */
export async function earliestMember({ tx, groupId }: { tx: Tx; groupId: string }): Promise<string | undefined> {
  const [row] = await tx
    .select({ userId: playerGroupMembers.userId })
    .from(playerGroupMembers)
    .where(eq(playerGroupMembers.groupId, groupId))
    .orderBy(asc(playerGroupMembers.joinedAt), asc(playerGroupMembers.userId))
    .limit(1);
  return row?.userId;
}

export async function updateGroup({
  tx,
  id,
  values,
}: {
  tx: Tx;
  id: string;
  values: Partial<Pick<PlayerGroupRow, 'name' | 'ownerId' | 'inviteCode'>>;
}): Promise<PlayerGroupRow> {
  const [row] = await tx
    .update(playerGroups)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(playerGroups.id, id))
    .returning();
  return row!;
}

export async function deleteGroup({ tx, id }: { tx: Tx; id: string }): Promise<void> {
  await tx.delete(playerGroups).where(eq(playerGroups.id, id));
}

/** The members with their leaderboard names, earliest joined first. */
export async function membersOf({ db, groupId }: { db: DbOrTx; groupId: string }): Promise<MemberView[]> {
  return db
    .select({ userId: playerGroupMembers.userId, name: NAME, joinedAt: playerGroupMembers.joinedAt })
    .from(playerGroupMembers)
    .innerJoin(users, eq(users.id, playerGroupMembers.userId))
    .where(eq(playerGroupMembers.groupId, groupId))
    .orderBy(asc(playerGroupMembers.joinedAt), asc(playerGroupMembers.userId));
}

export async function memberIds({ db, groupId }: { db: DbOrTx; groupId: string }): Promise<string[]> {
  const rows = await db.select({ userId: playerGroupMembers.userId }).from(playerGroupMembers).where(eq(playerGroupMembers.groupId, groupId));
  return rows.map((r) => r.userId);
}

/** The user's groups with their member counts, by name then id: one statement. */
export async function groupsOfUser({ db, userId }: { db: DbOrTx; userId: string }): Promise<(PlayerGroupRow & { memberCount: number })[]> {
  const mine = db.select({ groupId: playerGroupMembers.groupId }).from(playerGroupMembers).where(eq(playerGroupMembers.userId, userId));
  const rows = await db
    .select({ group: playerGroups, memberCount: sql<number>`(select count(*)::int from ${playerGroupMembers} m where m.group_id = ${playerGroups.id})` })
    .from(playerGroups)
    .where(sql`${playerGroups.id} in ${mine}`)
    .orderBy(asc(sql`lower(${playerGroups.name})`), asc(playerGroups.id));
  return rows.map((r) => ({ ...r.group, memberCount: Number(r.memberCount) }));
}

/**
 * Takes a user out of every group (their account is deleted), in a few
 * statements whatever the number: their groups are locked (in id order, as
 * joins lock a group before its members change), each group they owned passes
 * to its earliest remaining member, and those left without members go.
 */
export async function leaveEveryGroup({ tx, userId }: { tx: Tx; userId: string }): Promise<void> {
  await tx.execute(
    sql`select g.id from player_groups g join player_group_members m on m.group_id = g.id where m.user_id = ${userId}::uuid order by g.id for update of g`,
  );
  await tx.delete(playerGroupMembers).where(eq(playerGroupMembers.userId, userId));
  await tx.execute(sql`update player_groups g set owner_id = heir.user_id, updated_at = now()
    from (select distinct on (m.group_id) m.group_id, m.user_id from player_group_members m
          join player_groups o on o.id = m.group_id and o.owner_id = ${userId}::uuid
          order by m.group_id, m.joined_at, m.user_id) heir
    where g.id = heir.group_id`);
  await tx.delete(playerGroups).where(eq(playerGroups.ownerId, userId));
}

/** The members of some groups (the live stream's group boards), in one statement; a group without members (deleted) is absent. */
export async function membersOfGroups({ db, groupIds }: { db: DbOrTx; groupIds: string[] }): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  if (!groupIds.length) return out;
  const rows = await db
    .select({ groupId: playerGroupMembers.groupId, userId: playerGroupMembers.userId })
    .from(playerGroupMembers)
    .where(inArray(playerGroupMembers.groupId, groupIds));
  for (const r of rows) {
    let set = out.get(r.groupId);
    if (!set) out.set(r.groupId, (set = new Set()));
    set.add(r.userId);
  }
  return out;
}

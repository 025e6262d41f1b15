/**
 * Private player groups: a player creates one (and owns it), shares its
 * invite code, others join with it; members leave, the owner renames,
 * removes members, replaces the code and deletes the group. Each group has
 * leaderboards of its members (the public boards' rows, ranked among them).
 *
 * Limits (`PLAYER_GROUPS_PER_USER` groups per player, owned ones included;
 * `PLAYER_GROUP_MAX_MEMBERS` members per group) are checked under row locks:
 * the group's row for its members, the player's row for their groups, so
 * parallel joins never overshoot. Joins are throttled as sign-in is (the
 * login-throttle module keeps the counters).
 */
import { randomInt } from 'node:crypto';
import type { components } from '../../../generated/api-types.js';
import type { PlayerGroupsConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import { playerGroupErrors } from './player-groups.errors.js';
import { accountErrors } from '../account/account.errors.js';
import type { LoginThrottle } from '../auth/login-throttle.js';
import type { LeaderboardsService } from '../leaderboards/leaderboards.service.js';
import { hasInvisible } from '../users/display-name.js';
import type { UserRow } from '../users/users.table.js';
import {
  deleteGroup,
  deleteMember,
  earliestMember,
  findGroup,
  groupsOfUser,
  groupsOfUserCount,
  insertGroup,
  insertMember,
  isMember,
  lockGroup,
  lockGroupByCode,
  lockUser,
  memberCount,
  memberIds,
  membersOf,
  setInviteCode,
  updateGroup,
  type MemberView,
} from './player-groups.repository.js';
import type { PlayerGroupRow } from './player-groups.table.js';

type Schemas = components['schemas'];

export const GROUP_NAME_MAX = 60;
/** Crockford's base-32 digits: no I, L, O or U to misread. */
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_LENGTH = 10;

/** A new invite code (10 random base-32 digits, 50 bits). */
export function newInviteCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** A code as typed: case, spaces and dashes ignored; I and L read as 1, O as 0 (Crockford). */
export function normalizeInviteCode(code: string): string {
  return code
    .toUpperCase()
    .replace(/[\s-]+/g, '')
    .replace(/[IL]/g, '1')
    .replace(/O/g, '0');
}

/** A stored code as shown: groups of 4, 4 and 2. */
export const displayInviteCode = (code: string): string => code.match(/.{1,4}/g)!.join('-');

function groupName(value: string): string {
  if (hasInvisible(value)) throw playerGroupErrors.nameInvalid('must not contain control or invisible formatting characters');
  const name = value.normalize('NFC').replace(/\s+/gu, ' ').trim();
  const length = [...name].length;
  if (length < 1 || length > GROUP_NAME_MAX)
    throw playerGroupErrors.nameInvalid(`must be 1 to ${GROUP_NAME_MAX} characters once spaces are trimmed (it has ${length})`);
  return name;
}

export type PlayerGroupsService = ReturnType<typeof createPlayerGroupsService>;

export function createPlayerGroupsService({
  db,
  config,
  throttle,
  leaderboards,
}: {
  db: Db;
  config: Pick<PlayerGroupsConfig, 'maxGroupsPerUser' | 'maxMembers'>;
  throttle: Pick<LoginThrottle, 'groupJoin'>;
  leaderboards: Pick<LeaderboardsService, 'ofMembers'>;
}) {
  const summary = (g: PlayerGroupRow, viewer: UserRow, count: number): Schemas['PlayerGroupSummary'] => ({
    id: g.id,
    name: g.name,
    owner_id: g.ownerId,
    is_owner: g.ownerId === viewer.id,
    invite_code: displayInviteCode(g.inviteCode),
    member_count: count,
    max_members: config.maxMembers,
    created_at: g.createdAt.toISOString(),
  });
  const member =
    (g: PlayerGroupRow) =>
    (m: MemberView): Schemas['PlayerGroupMember'] => ({
      user_id: m.userId,
      display_name: m.name,
      is_owner: m.userId === g.ownerId,
      joined_at: m.joinedAt.toISOString(),
    });

  async function full(g: PlayerGroupRow, viewer: UserRow): Promise<Schemas['PlayerGroup']> {
    const members = await membersOf({ db, groupId: g.id });
    return { ...summary(g, viewer, members.length), members: members.map(member(g)) };
  }

  /** The group, for one of its members; 404 for anyone else (a group is not confirmed to outsiders). */
  async function asMember(groupId: string, user: UserRow): Promise<PlayerGroupRow> {
    const g = await findGroup({ db, id: groupId });
    if (!g || !(await isMember({ db, groupId, userId: user.id }))) throw playerGroupErrors.notFound();
    return g;
  }

  /** In a transaction: the group locked, for its owner; 403 for other members, 404 for anyone else. */
  async function lockAsOwner(tx: Parameters<Parameters<Db['transaction']>[0]>[0], groupId: string, user: UserRow): Promise<PlayerGroupRow> {
    const g = await lockGroup({ tx, id: groupId });
    if (!g) throw playerGroupErrors.notFound();
    if (g.ownerId !== user.id) {
      if (await isMember({ db: tx, groupId, userId: user.id })) throw playerGroupErrors.notOwner();
      throw playerGroupErrors.notFound();
    }
    return g;
  }

  return {
    async list(user: UserRow): Promise<Schemas['PlayerGroupSummary'][]> {
      return (await groupsOfUser({ db, userId: user.id })).map((g) => summary(g, user, g.memberCount));
    },

    async create(user: UserRow, name: string): Promise<Schemas['PlayerGroup']> {
      if (!user.emailVerifiedAt) throw accountErrors.emailUnverified();
      const clean = groupName(name);
      const g = await db.transaction(async (tx) => {
        await lockUser({ tx, userId: user.id });
        if ((await groupsOfUserCount({ db: tx, userId: user.id })) >= config.maxGroupsPerUser) throw playerGroupErrors.tooManyGroups(config.maxGroupsPerUser);
        for (;;) {
          const row = await insertGroup({ tx, name: clean, ownerId: user.id, inviteCode: newInviteCode() });
          if (row) return row;
        }
      });
      return full(g, user);
    },

    async get(user: UserRow, groupId: string): Promise<Schemas['PlayerGroup']> {
      return full(await asMember(groupId, user), user);
    },

    async rename(user: UserRow, groupId: string, name: string): Promise<Schemas['PlayerGroup']> {
      const clean = groupName(name);
      const g = await db.transaction(async (tx) => {
        await lockAsOwner(tx, groupId, user);
        return updateGroup({ tx, id: groupId, values: { name: clean } });
      });
      return full(g, user);
    },

    async remove(user: UserRow, groupId: string): Promise<void> {
      await db.transaction(async (tx) => {
        await lockAsOwner(tx, groupId, user);
        await deleteGroup({ tx, id: groupId });
      });
    },

    async replaceInviteCode(user: UserRow, groupId: string): Promise<Schemas['PlayerGroup']> {
      await db.transaction(async (tx) => {
        await lockAsOwner(tx, groupId, user);
        while (!(await setInviteCode({ tx, id: groupId, inviteCode: newInviteCode() })));
      });
      return full((await findGroup({ db, id: groupId }))!, user);
    },

    /** Joins by invite code (idempotent), throttled before the code is looked up. */
    async join(user: UserRow, code: string, ip: string): Promise<Schemas['PlayerGroup']> {
      if (!user.emailVerifiedAt) throw accountErrors.emailUnverified();
      const attempt = await throttle.groupJoin(user.id, ip);
      const inviteCode = normalizeInviteCode(code);
      let found = false;
      try {
        const g = await db.transaction(async (tx) => {
          const group = await lockGroupByCode({ tx, inviteCode });
          if (!group) throw playerGroupErrors.unknownCode();
          found = true;
          if (await isMember({ db: tx, groupId: group.id, userId: user.id })) return group;
          if ((await memberCount({ db: tx, groupId: group.id })) >= config.maxMembers) {
            throw playerGroupErrors.full(config.maxMembers);
          }
          await lockUser({ tx, userId: user.id });
          if ((await groupsOfUserCount({ db: tx, userId: user.id })) >= config.maxGroupsPerUser) throw playerGroupErrors.tooManyGroups(config.maxGroupsPerUser);
          await insertMember({ tx, groupId: group.id, userId: user.id });
          return group;
        });
        return await full(g, user);
      } finally {
        // A right code was no guess: its attempt is given back (a full group or the player's limit included).
        if (found) await attempt.succeeded();
      }
    },

    /** Leaves; an owner who leaves hands the group to the earliest member, and the last one out deletes it. */
    async leave(user: UserRow, groupId: string): Promise<void> {
      await db.transaction(async (tx) => {
        const g = await lockGroup({ tx, id: groupId });
        if (!g || !(await deleteMember({ tx, groupId, userId: user.id }))) throw playerGroupErrors.notFound();
        if (g.ownerId !== user.id) return;
        const heir = await earliestMember({ tx, groupId });
        if (heir) await updateGroup({ tx, id: groupId, values: { ownerId: heir } });
        else await deleteGroup({ tx, id: groupId });
      });
    },

    async removeMember(user: UserRow, groupId: string, memberId: string): Promise<void> {
      await db.transaction(async (tx) => {
        await lockAsOwner(tx, groupId, user);
        if (memberId === user.id) throw playerGroupErrors.ownerCannotBeRemoved();
        if (!(await deleteMember({ tx, groupId, userId: memberId }))) throw playerGroupErrors.memberNotFound();
      });
    },

    async leaderboard(
      user: UserRow,
      groupId: string,
      query: {
        scope: 'overall' | 'league' | 'match';
        league?: string | undefined;
        matchId?: string | undefined;
        period: 'all_time' | 'day' | 'week' | 'month';
        date?: string | undefined;
        rankBy?: 'points' | 'current_streak' | 'best_streak' | undefined;
      },
    ): Promise<Schemas['Leaderboard']> {
      await asMember(groupId, user);
      const userIds = await memberIds({ db, groupId });
      return leaderboards.ofMembers({
        groupId,
        scope: query.scope,
        league: query.league,
        matchId: query.matchId,
        query: { period: query.period, date: query.date, rankBy: query.rankBy },
        viewer: user,
        userIds,
        limit: config.maxMembers,
      });
    },
  };
}

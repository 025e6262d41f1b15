/** Every error the player groups module answers with: its status, its stable code (X-Error-Code) and its message. */
import { errorFactory } from '../../errors.js';

const RETRY_AFTER = (seconds: number) => ({ headers: { 'Retry-After': String(seconds) } });

export const playerGroupErrors = {
  /** Unknown, or a group the caller is not in: one answer for both. */
  notFound: errorFactory(404, 'player_group.not_found', () => 'player group not found'),
  unknownCode: errorFactory(404, 'player_group.unknown_code', () => 'player group with this invite code not found'),
  memberNotFound: errorFactory(404, 'player_group.member_not_found', () => 'member not found'),
  /** A name the service refuses; `problem` says which rule it breaks. */
  nameInvalid: errorFactory(400, 'player_group.name_invalid', (problem: string) => `name ${problem}`),
  notOwner: errorFactory(403, 'player_group.not_owner', () => 'only the owner of the group can do this'),
  tooManyGroups: errorFactory(409, 'player_group.too_many_groups', (max: number) => `you are in ${max} groups, the most a player may be in; leave one first`),
  full: errorFactory(409, 'player_group.full', (max: number) => `the group has ${max} members, the most a group may have`),
  ownerCannotBeRemoved: errorFactory(
    409,
    'player_group.owner_cannot_be_removed',
    () => 'the owner cannot remove themselves; leave the group instead (the earliest member becomes its owner)',
  ),
  tooManyJoinAttempts: errorFactory(
    429,
    'player_group.too_many_join_attempts',
    (seconds: number) => `too many attempts to join a group; try again in ${seconds} seconds`,
    RETRY_AFTER,
  ),
};

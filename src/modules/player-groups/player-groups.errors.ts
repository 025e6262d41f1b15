/** Every error of private player groups: its status, its stable code (X-Error-Code) and its message. */
import { errorFactory } from '../../errors.js';

export const playerGroupErrors = {
  /** A group name the rules refuse: invisible characters, or (with the limit and its trimmed length) a length out of range. */
  nameInvalid: errorFactory(400, 'player_group.name_invalid', (length?: { max: number; length: number }) =>
    length ? `name must be 1 to ${length.max} characters once spaces are trimmed (it has ${length.length})` : 'name must not contain control or invisible formatting characters',
  ),
  notFound: errorFactory(404, 'player_group.not_found', () => 'player group not found'),
  notOwner: errorFactory(403, 'player_group.not_owner', () => 'only the owner of the group can do this'),
  tooManyGroups: errorFactory(409, 'player_group.too_many_groups', (max: number) => `you are in ${max} groups, the most a player may be in; leave one first`),
  unknownCode: errorFactory(404, 'player_group.unknown_code', () => 'player group with this invite code not found'),
  full: errorFactory(409, 'player_group.full', (max: number) => `the group has ${max} members, the most a group may have`),
  ownerCannotBeRemoved: errorFactory(409, 'player_group.owner_cannot_be_removed', () => 'the owner cannot remove themselves; leave the group instead (the earliest member becomes its owner)'),
  memberNotFound: errorFactory(404, 'player_group.member_not_found', () => 'member not found'),
  /** Join attempts with invite codes are counted like sign-ins (the login throttle counts them). */
  tooManyJoinAttempts: errorFactory(
    429,
    'player_group.too_many_join_attempts',
    (seconds: number) => `too many attempts to join a group; try again in ${seconds} seconds`,
    (seconds: number) => ({ headers: { 'Retry-After': String(seconds) } }),
  ),
};

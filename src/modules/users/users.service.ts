/** User profiles and user administration. */
import type { components } from '../../../generated/api-types.js';
import type { Db } from '../../db/client.js';
import type { Events } from '../../events/catalogue.js';
import { userErrors } from './users.errors.js';
import { deleteSessionsOfUser } from '../admin-sessions/admin-sessions.public.js';
import { revokeUserApiKeys } from '../auth/auth.public.js';
import { userConflict } from '../auth/auth.service.js';
import { passwordHashing, type Passwords } from '../auth/credentials.js';
import type { LoginThrottle } from '../auth/login-throttle.js';
import { normalizeDisplayName } from './display-name.js';
import { findUserById, findUserByLogin, insertUser, listUsers, updateUser, type NewUser, type UserListFilter } from './users.repository.js';
import type { UserRow } from './users.table.js';

type Schemas = components['schemas'];

/** Blank means UTC: stored as null. */
const timezoneValue = (tz: string | null | undefined) => (tz === undefined ? undefined : tz && tz.trim() ? tz.trim() : null);

/** Contract fields -> columns, for the fields present in the patch. */
function profileColumns(p: Partial<Schemas['UserAdminPatch']>): Partial<NewUser> {
  const v: Partial<NewUser> = {};
  if (p.username !== undefined) v.username = p.username;
  if (p.display_name !== undefined) v.displayName = normalizeDisplayName(p.display_name);
  if (p.display_name_locked !== undefined) v.displayNameLocked = p.display_name_locked;
  if (p.hidden_from_leaderboards !== undefined) v.hiddenFromLeaderboards = p.hidden_from_leaderboards;
  if (p.email !== undefined) v.email = p.email.toLowerCase();
  if (p.first_name !== undefined) v.firstName = p.first_name;
  if (p.last_name !== undefined) v.lastName = p.last_name;
  if (p.postal_address !== undefined) v.postalAddress = p.postal_address;
  if (p.date_of_birth !== undefined) v.dateOfBirth = p.date_of_birth;
  if (p.match_follow_timezone !== undefined) v.matchFollowTimezone = timezoneValue(p.match_follow_timezone);
  if (p.match_daily_follow_count !== undefined) v.matchDailyFollowCount = p.match_daily_follow_count;
  if (p.notify_on_issuance !== undefined) v.notifyOnIssuance = p.notify_on_issuance;
  if (p.notify_on_resolve !== undefined) v.notifyOnResolve = p.notify_on_resolve;
  if (p.is_admin !== undefined) v.isAdmin = p.is_admin;
  if (p.is_active !== undefined) v.isActive = p.is_active;
  return v;
}

export type UsersService = ReturnType<typeof createUsersService>;

/** Changes that move a user's leaderboard rows: on or off the boards, or into other calendar periods. */
const MOVES_LEADERBOARDS = ['isActive', 'hiddenFromLeaderboards', 'matchFollowTimezone'] as const;
/** Changes to what boards show of a user: their name, or whether they are on them. */
const SHOWN_ON_BOARDS = ['username', 'displayName', 'hiddenFromLeaderboards', 'isActive', 'deletedAt'] as const;

export function createUsersService({
  db,
  events,
  throttle,
  passwords = passwordHashing(),
}: {
  db: Db;
  /** `boardInputsChanged` in the transaction; `userChanged`, `keysRevoked`, `emailChanged` after the commit (src/events/catalogue.ts). */
  events: Events;
  /** The mail budgets a player's own email change counts against (a new email is mailed). */
  throttle?: Pick<LoginThrottle, 'mail'>;
  /** How passwords are hashed (the configured cost); unset, the standard cost. */
  passwords?: Pick<Passwords, 'hash'>;
}) {
  async function get(id: string): Promise<UserRow> {
    const row = await findUserById({ db, id });
    if (!row) throw userErrors.notFound();
    return row;
  }

  async function update(id: string, values: Partial<NewUser>, { revokeKeys = false, unlockedOnly = false } = {}): Promise<UserRow> {
    let revoked = 0;
    let row: UserRow;
    try {
      row = await db.transaction(async (tx) => {
        const before = MOVES_LEADERBOARDS.some((k) => values[k] !== undefined) ? await findUserById({ db: tx, id, forUpdate: true }) : undefined;
        const updated = await updateUser({ db: tx, id, values, unlockedOnly });
        if (!updated) {
          if (unlockedOnly && (await findUserById({ db: tx, id }))) throw userErrors.displayNameLocked();
          throw userErrors.notFound();
        }
        if (before && MOVES_LEADERBOARDS.some((k) => before[k] !== updated[k])) await events.emit({ type: 'boardInputsChanged', tx, userId: id });
        if (revokeKeys) {
          revoked = await revokeUserApiKeys({ db: tx, userId: id });
          // Operator-UI sign-ins end too: a session could otherwise mint new keys after a password reset.
          await deleteSessionsOfUser({ db: tx, userId: id });
        }
        return updated;
      });
    } catch (err) {
      throw userConflict(err, values);
    }
    await events.emit({ type: 'userChanged', userId: id, shown: SHOWN_ON_BOARDS.some((k) => values[k] !== undefined) });
    // A deactivated user's sockets close too, even with no key left to revoke.
    if (revoked || values.isActive === false) await events.emit({ type: 'keysRevoked', userId: id });
    return row;
  }

  return {
    get,

    /**
     * A player's own profile change; the contract admits only the
     * self-patchable fields. A locked display name refuses the whole change
     * (409). A new email is unverified, and its verification mail counts
     * against the mail budgets from `ip` first (429 changes nothing).
     */
    async updateSelf(user: UserRow, patch: Schemas['UserSelfPatch'], ip: string): Promise<UserRow> {
      const values = profileColumns(patch);
      const newEmail = values.email !== undefined && values.email !== user.email;
      if (newEmail) {
        await throttle?.mail(values.email!, ip);
        values.emailVerifiedAt = null;
      }
      const row = await update(user.id, values, { unlockedOnly: patch.display_name !== undefined });
      if (newEmail) await events.emit({ type: 'emailChanged', user: row });
      return row;
    },

    list: (filter: UserListFilter) => listUsers({ db, filter }),

    async create(input: Schemas['UserCreate']): Promise<UserRow> {
      const passwordHash = await passwords.hash(input.password);
      const values: NewUser = {
        ...profileColumns({ ...input, password: undefined }),
        username: input.username,
        email: input.email.toLowerCase(),
        passwordHash,
        matchDailyFollowCount: input.match_daily_follow_count === undefined ? 3 : input.match_daily_follow_count,
      };
      let row: UserRow;
      try {
        row = await insertUser({ db, values });
      } catch (err) {
        throw userConflict(err, values);
      }
      await events.emit({ type: 'emailChanged', user: row });
      return row;
    },

    /** Admin update. Deactivation or a new password revokes the user's keys and ends their operator-UI sessions. */
    async adminUpdate({ actorId, userId, patch }: { actorId: string; userId: string; patch: Schemas['UserAdminPatch'] }): Promise<UserRow> {
      if (actorId === userId && (patch.is_admin === false || patch.is_active === false)) {
        throw userErrors.selfLockout('admin flag or deactivation');
      }
      const values = profileColumns(patch);
      // An admin's display name is an override: locked unless the same request says otherwise.
      if (patch.display_name !== undefined && patch.display_name_locked === undefined) values.displayNameLocked = true;
      if (patch.password !== undefined) values.passwordHash = await passwords.hash(patch.password);
      const current = await get(userId);
      if (current.deletedAt) throw userErrors.deleted();
      const newEmail = values.email !== undefined && values.email !== current.email;
      if (newEmail) values.emailVerifiedAt = null;
      const row = await update(userId, values, { revokeKeys: patch.is_active === false || patch.password !== undefined });
      if (newEmail) await events.emit({ type: 'emailChanged', user: row });
      return row;
    },

    /** Soft-deactivates the account and revokes all its keys. Idempotent. */
    async deactivate({ actorId, userId }: { actorId: string; userId: string }): Promise<void> {
      if (actorId === userId) throw userErrors.selfLockout('deactivation');
      await update(userId, { isActive: false }, { revokeKeys: true });
    },

    /**
     * Creates an active admin, or promotes and reactivates the user with this
     * username or email (setting the given password). Idempotent.
     */
    async createOrPromoteAdmin(input: { username: string; password: string; email: string }): Promise<{ user: UserRow; created: boolean }> {
      const passwordHash = await passwords.hash(input.password);
      const existing = (await findUserByLogin({ db, login: input.username })) ?? (await findUserByLogin({ db, login: input.email }));
      if (existing) {
        const user = await update(existing.id, { isAdmin: true, isActive: true, passwordHash, email: input.email.toLowerCase(), username: input.username });
        return { user, created: false };
      }
      try {
        const user = await insertUser({ db, values: { username: input.username, email: input.email.toLowerCase(), passwordHash, isAdmin: true } });
        return { user, created: true };
      } catch (err) {
        throw userConflict(err);
      }
    },
  };
}

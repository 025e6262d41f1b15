/**
 * A player's own account lifecycle: "forgot password" (a mailed, single-use,
 * expiring link that sets a new password and revokes every key), email
 * verification (mailed at registration and at every email change), a copy
 * of their data, and deleting the account (anonymised, so boards and other
 * players' history stay consistent). The rules: docs/decisions.md, "Account
 * lifecycle".
 */
import type { components } from '../../../generated/api-types.js';
import type { MailConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Events } from '../../events/catalogue.js';
import type { Mailer } from '../../mail/mailer.js';
import { deleteSessionsOfUser } from '../admin-sessions/admin-sessions.public.js';
import type { AnswersService } from '../answers/answers.service.js';
import { toHistoryItem } from '../answers/answers.mapper.js';
import { deleteAccountTokens, deleteExpiredAccountTokens, insertApiKey, replaceAccountToken, revokeUserApiKeys, useAccountToken } from '../auth/auth.public.js';
import type { IssuedKey } from '../auth/auth.service.js';
import type { AuthService } from '../auth/auth.service.js';
import { digestApiKey, generateApiKey, generateMailToken, passwordHashing, plausibleToken, type Passwords } from '../auth/credentials.js';
import type { LoginThrottle } from '../auth/login-throttle.js';
import { deleteFeedbackOfUser, listFeedback } from '../feedback/feedback.public.js';
import { toFeedbackDto } from '../feedback/feedback.mapper.js';
import type { LeaderboardsService } from '../leaderboards/leaderboards.service.js';
import { deleteFollowsOfUser, followsOfUser } from '../matches/matches.public.js';
import { leaveEveryGroup } from '../player-groups/player-groups.public.js';
import type { PlayerGroupsService } from '../player-groups/player-groups.service.js';
import { deletePushDataOfUser, devicesOfUser } from '../push/push.public.js';
import { toDeviceDto } from '../push/push.mapper.js';
import { findUserByEmail, findUserById, touchLastLogin, updateUser } from '../users/users.public.js';
import { toUserDto } from '../users/users.mapper.js';
import type { UserRow } from '../users/users.table.js';
import { accountErrors } from './account.errors.js';
import { passwordResetMail, verificationMail } from './account-mail.js';

type Schemas = components['schemas'];

export type AccountService = ReturnType<typeof createAccountService>;

export function createAccountService({
  db,
  config,
  mailer,
  throttle,
  auth,
  answers,
  leaderboards,
  playerGroups,
  events,
  now = () => new Date(),
  passwords = passwordHashing(),
}: {
  db: Db;
  config: MailConfig;
  mailer: Mailer;
  throttle: Pick<LoginThrottle, 'mail'>;
  auth: Pick<AuthService, 'checkPassword'>;
  answers: Pick<AnswersService, 'history' | 'points'>;
  leaderboards: Pick<LeaderboardsService, 'positions'>;
  playerGroups: Pick<PlayerGroupsService, 'list'>;
  /** `boardInputsChanged` in the transaction; `userChanged`, `keysRevoked` after the commit (src/events/catalogue.ts). */
  events: Events;
  now?: () => Date;
  /** How passwords are hashed (the configured cost); unset, the standard cost. */
  passwords?: Pick<Passwords, 'hash'>;
}) {
  /** A fresh verification link for the user's current email, mailed; earlier links stop working. */
  async function mailVerification(user: UserRow): Promise<void> {
    const { token, digest } = generateMailToken();
    const expiresAt = new Date(now().getTime() + config.verifyTtlHours * 3600_000);
    await replaceAccountToken({ db, userId: user.id, purpose: 'email_verification', digest, email: user.email, expiresAt });
    mailer.send(verificationMail({ to: user.email, appUrl: config.playerAppUrl, token, hours: config.verifyTtlHours }));
  }

  return {
    mailVerification,

    /** Deletes mailed links that expired (a periodic task of the worker, with the sign-in counters); returns how many. */
    cleanup: () => deleteExpiredAccountTokens({ db, now: now() }),

    /**
     * Mails a reset link when an active account has this email; says nothing
     * either way (the caller answers 202 at once: the mail goes in the
     * background). Counted against the mail budgets first (429).
     */
    async requestPasswordReset({ email, ip }: { email: string; ip: string }): Promise<void> {
      await throttle.mail(email, ip);
      const user = await findUserByEmail({ db, email });
      if (!user || !user.isActive || user.deletedAt) return;
      const { token, digest } = generateMailToken();
      const expiresAt = new Date(now().getTime() + config.resetTtlMinutes * 60_000);
      await replaceAccountToken({ db, userId: user.id, purpose: 'password_reset', digest, email: user.email, expiresAt });
      mailer.send(passwordResetMail({ to: user.email, appUrl: config.playerAppUrl, token, minutes: config.resetTtlMinutes }));
    },

    /**
     * Sets a new password with a reset link: in one transaction the link is
     * used up, the password set (and the email verified, when it is still
     * the one the link went to), every key revoked, the operator-UI sessions
     * ended and a new key issued.
     */
    async resetPassword({ token, password }: { token: string; password: string }): Promise<IssuedKey> {
      if (!plausibleToken(token)) throw accountErrors.resetTokenInvalid();
      const passwordHash = await passwords.hash(password);
      let userId = '';
      const issued = await db.transaction(async (tx) => {
        const used = await useAccountToken({ tx, purpose: 'password_reset', digest: digestApiKey(token) });
        const user = used && (await findUserById({ db: tx, id: used.userId, forUpdate: true }));
        if (!used || !user || !user.isActive || user.deletedAt) throw accountErrors.resetTokenInvalid();
        userId = user.id;
        await updateUser({
          db: tx,
          id: user.id,
          values: { passwordHash, ...(user.emailVerifiedAt === null && user.email === used.email ? { emailVerifiedAt: now() } : {}) },
        });
        await revokeUserApiKeys({ db: tx, userId: user.id });
        await deleteSessionsOfUser({ db: tx, userId: user.id });
        await deleteAccountTokens({ tx, userId: user.id, purpose: 'password_reset' });
        const key = generateApiKey();
        await insertApiKey({ db: tx, userId: user.id, digest: key.digest, prefix: key.prefix });
        return { apiKey: key.key, user: await touchLastLogin({ db: tx, userId: user.id }) };
      });
      await events.emit({ type: 'userChanged', userId, shown: false });
      await events.emit({ type: 'keysRevoked', userId });
      return issued;
    },

    /** Mails the caller a new verification link (409 when the email is verified already; counted against the mail budgets). */
    async requestEmailVerification({ user, ip }: { user: UserRow; ip: string }): Promise<void> {
      if (user.emailVerifiedAt) throw accountErrors.alreadyVerified();
      await throttle.mail(user.email, ip);
      await mailVerification(user);
    },

    /** Verifies the address a link went to, when the account still has it. */
    async verifyEmail(token: string): Promise<void> {
      if (!plausibleToken(token)) throw accountErrors.verificationTokenInvalid();
      const verified = await db.transaction(async (tx) => {
        const used = await useAccountToken({ tx, purpose: 'email_verification', digest: digestApiKey(token) });
        const user = used && (await findUserById({ db: tx, id: used.userId, forUpdate: true }));
        if (!used || !user || user.email !== used.email || user.deletedAt) throw accountErrors.verificationTokenInvalid();
        if (user.emailVerifiedAt) return undefined;
        await updateUser({ db: tx, id: user.id, values: { emailVerifiedAt: now() } });
        return user.id;
      });
      if (verified) await events.emit({ type: 'userChanged', userId: verified, shown: false });
    },

    /** Everything kept about the user, in one document: a fixed number of statements whatever its size. */
    async exportData(user: UserRow): Promise<Schemas['UserDataExport']> {
      const [row, answerRows, points, follows, groups, feedback, devices, positions] = await Promise.all([
        findUserById({ db, id: user.id }),
        answers.history({ userId: user.id }),
        answers.points(user),
        followsOfUser({ db, userId: user.id }),
        playerGroups.list(user),
        listFeedback({ db, filter: { userId: user.id, offset: 0, limit: 1_000_000 } }),
        devicesOfUser({ db, userId: user.id }),
        leaderboards.positions(user),
      ]);
      return {
        exported_at: now().toISOString(),
        user: toUserDto(row ?? user),
        points,
        answers: answerRows.map(toHistoryItem),
        follows: follows.map((f) => ({ match_id: f.matchId, following: f.following, followed_at: f.followedAt.toISOString() })),
        player_groups: groups,
        feedback: feedback.rows.map(toFeedbackDto),
        devices: devices.map(toDeviceDto),
        leaderboard_positions: positions,
      };
    },

    /**
     * Deletes the account once its password is confirmed (counted against the
     * sign-in budgets): one transaction anonymises the row (it stays, with
     * the answers, inactive), takes the user off every board, and deletes
     * their keys' use, sessions, links, follows, push data, feedback and
     * group memberships. Open sockets close after the commit.
     */
    async deleteAccount({ user, password, ip }: { user: UserRow; password: string; ip: string }): Promise<void> {
      if (user.isAdmin) throw accountErrors.adminCannotDelete();
      const checked = await auth.checkPassword({ login: user.username ?? user.email, password, ip });
      if (checked?.id !== user.id) throw accountErrors.passwordMismatch();
      await db.transaction(async (tx) => {
        const locked = await findUserById({ db: tx, id: user.id, forUpdate: true });
        if (!locked || locked.deletedAt) return;
        await updateUser({ db: tx, id: user.id, values: anonymised(user.id, now()) });
        await events.emit({ type: 'boardInputsChanged', tx, userId: user.id });
        await revokeUserApiKeys({ db: tx, userId: user.id });
        await deleteSessionsOfUser({ db: tx, userId: user.id });
        await deleteAccountTokens({ tx, userId: user.id });
        await deleteFollowsOfUser({ tx, userId: user.id });
        await deletePushDataOfUser({ tx, userId: user.id });
        await deleteFeedbackOfUser({ tx, userId: user.id });
        await leaveEveryGroup({ tx, userId: user.id });
      });
      await events.emit({ type: 'userChanged', userId: user.id, shown: true });
      await events.emit({ type: 'keysRevoked', userId: user.id });
    },
  };
}

/** What a deleted account keeps: its id, timestamps and flags, and nothing that names the person. */
function anonymised(id: string, at: Date): Partial<UserRow> {
  return {
    username: null,
    displayName: null,
    displayNameLocked: false,
    // Unique and undeliverable (RFC 2606's .invalid): the address itself is free to register again.
    email: `deleted-${id}@deleted.invalid`,
    emailVerifiedAt: null,
    passwordHash: null,
    firstName: null,
    lastName: null,
    postalAddress: null,
    dateOfBirth: null,
    matchFollowTimezone: null,
    notifyOnIssuance: false,
    notifyOnResolve: false,
    isActive: false,
    deletedAt: at,
  };
}

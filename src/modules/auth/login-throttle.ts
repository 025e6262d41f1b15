/**
 * Sign-in throttling against password guessing (API login and the operator
 * UI's form alike). Every attempt counts, before the password is checked,
 * against two budgets: the login name from one client address, and the
 * client address over all names. Over either, the attempt is refused with 429
 * and `Retry-After`, without checking the password. A successful sign-in
 * clears the first budget and gives its attempt back to the second, so people
 * behind one address who sign in correctly do not use it up.
 *
 * Counters live in PostgreSQL (rate-limiter-flexible's atomic Drizzle store:
 * one upsert per budget), so every process shares them and parallel guesses
 * cannot overtake the count. Windows are fixed: they start with the first
 * attempt and last `windowSeconds`.
 *
 * Registration has its own budget per client address (every registration
 * that reaches the check counts, so mass sign-ups and the password hashing
 * they cost stop at the budget); over it, 429 with `Retry-After`.
 */
import { createHash } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import type { LoginThrottleConfig, MailConfig, PlayerGroupsConfig, RegisterThrottleConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Logger } from '../../logger.js';
import type { AppError, ErrorFactory } from '../../errors.js';
import { playerGroupErrors } from '../player-groups/player-groups.errors.js';
import { authErrors } from './auth.errors.js';
import { normalizeLogin } from '../users/users.public.js';
import { deleteExpiredCounters } from './login-throttle.repository.js';
import { loginThrottle } from './login-throttle.table.js';

export interface LoginAttempt {
  /** The credentials were right: clear the name's budget, give the attempt back to the address. */
  succeeded(): Promise<void>;
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;

/** A 429 for a spent budget, with the seconds to wait in the detail and in Retry-After. */
function tooMany(error: ErrorFactory<[seconds: number]>, msBeforeNext: number): AppError {
  return error(Math.max(1, Math.ceil(msBeforeNext / 1000)));
}

/** One budget: a counter per key in the table, and how to report that it ran out. */
interface Budget {
  limiter: RateLimiterDrizzle;
  limit: number;
  windowSeconds: number;
  /** Log line (with the settings an operator would change) and the budget's name in it. */
  message: string;
  budget?: string;
}

export function createLoginThrottle({
  db,
  config,
  register,
  groupJoin,
  mail,
  logger,
}: {
  db: Db;
  config: LoginThrottleConfig;
  register: RegisterThrottleConfig;
  /** The budgets of mails players ask for (password resets, verification links, a new email). */
  mail?: Pick<MailConfig, 'maxPerRecipient' | 'maxPerIp' | 'windowSeconds'>;
  /** The join budgets of private player groups (invite codes are guessed the way passwords are). */
  groupJoin?: Pick<PlayerGroupsConfig, 'joinMaxAttempts' | 'joinMaxAttemptsPerIp' | 'joinWindowSeconds'>;
  logger: Logger;
}) {
  const budget = (keyPrefix: string, limit: number, windowSeconds: number, message: string, name?: string): Budget | null =>
    limit > 0
      ? {
          limiter: new RateLimiterDrizzle({
            storeClient: db,
            schema: loginThrottle,
            keyPrefix,
            points: limit,
            duration: windowSeconds,
            clearExpiredByTimeout: false,
          }),
          limit,
          windowSeconds,
          message,
          ...(name ? { budget: name } : {}),
        }
      : null;
  const signIn = 'sign-in throttled: too many attempts (LOGIN_MAX_ATTEMPTS, LOGIN_MAX_ATTEMPTS_PER_IP, LOGIN_WINDOW_SECONDS)';
  const byName = budget('login', config.maxAttempts, config.windowSeconds, signIn, 'name from address');
  const byAddress = budget('login-ip', config.maxAttemptsPerIp, config.windowSeconds, signIn, 'address');
  const registrations = budget(
    'register-ip',
    register.maxPerIp,
    register.windowSeconds,
    'registration throttled: too many accounts from one address (REGISTER_MAX_PER_IP, REGISTER_WINDOW_SECONDS)',
  );

  const mails = 'mails throttled: too many asked for (MAIL_MAX_PER_RECIPIENT, MAIL_MAX_PER_IP, MAIL_WINDOW_SECONDS)';
  const mailsByRecipient = mail ? budget('mail', mail.maxPerRecipient, mail.windowSeconds, mails, 'recipient from address') : null;
  const mailsByAddress = mail ? budget('mail-ip', mail.maxPerIp, mail.windowSeconds, mails, 'address') : null;

  const joins = 'group joins throttled: too many attempts (GROUP_JOIN_MAX_ATTEMPTS, GROUP_JOIN_MAX_ATTEMPTS_PER_IP, GROUP_JOIN_WINDOW_SECONDS)';
  const joinsByUser = groupJoin ? budget('group-join', groupJoin.joinMaxAttempts, groupJoin.joinWindowSeconds, joins, 'player') : null;
  const joinsByAddress = groupJoin ? budget('group-join-ip', groupJoin.joinMaxAttemptsPerIp, groupJoin.joinWindowSeconds, joins, 'address') : null;

  /**
   * Counts one use of each budget (off ones skipped), all at once; returns
   * the longest wait of those spent, or -1 when none is. The first refusal
   * of a window is logged once per budget, not once per attempt: a flood must
   * not flood the log.
   */
  async function spend(ip: string, uses: [Budget | null, string][]): Promise<number> {
    const results = await Promise.allSettled(uses.map(([b, key]) => b?.limiter.consume(key)));
    let waitMs = -1;
    for (const [i, r] of results.entries()) {
      if (r.status === 'fulfilled') continue;
      // The limiter rejects with its result when the budget is spent, with an Error when the store failed.
      if (!(r.reason instanceof RateLimiterRes)) throw r.reason;
      const b = uses[i]![0]!;
      waitMs = Math.max(waitMs, r.reason.msBeforeNext);
      if (r.reason.consumedPoints === b.limit + 1) {
        logger.warn({ ip, ...(b.budget ? { budget: b.budget } : {}), limit: b.limit, window_seconds: b.windowSeconds }, b.message);
      }
    }
    return waitMs;
  }

  return {
    /**
     * Counts one sign-in attempt of `login` from `ip`; throws 429 when a
     * budget is spent. Call before checking the password. The name is kept
     * as a digest: a fixed-size key whatever was typed, and no emails in the table.
     */
    async attempt(login: string, ip: string): Promise<LoginAttempt> {
      const address = addressKey(ip);
      const nameKey = `${createHash('sha256').update(normalizeLogin(login)).digest('base64url')}|${address}`;
      const waitMs = await spend(ip, [
        [byName, nameKey],
        [byAddress, address],
      ]);
      if (waitMs >= 0) throw tooMany(authErrors.tooManyAttempts, waitMs);
      return {
        async succeeded() {
          await Promise.all([byName?.limiter.delete(nameKey), byAddress?.limiter.reward(address, 1)]);
        },
      };
    },

    /** Counts one registration from `ip`; throws 429 when the address's budget is spent. Call before hashing the password. */
    async registration(ip: string): Promise<void> {
      const waitMs = await spend(ip, [[registrations, addressKey(ip)]]);
      if (waitMs >= 0) throw tooMany(authErrors.tooManyRegistrations, waitMs);
    },

    /**
     * Counts one attempt to join a player group with an invite code, by
     * `userId` from `ip`; throws 429 when a budget is spent. Call before the
     * code is looked up, so a right guess past the budget cannot be told
     * apart. A join that succeeds gives its attempt back to both budgets
     * (only failed guesses use them up; joining a known group never buys
     * more guesses).
     */
    async groupJoin(userId: string, ip: string): Promise<LoginAttempt> {
      const address = addressKey(ip);
      const waitMs = await spend(ip, [
        [joinsByUser, userId],
        [joinsByAddress, address],
      ]);
      if (waitMs >= 0) throw tooMany(playerGroupErrors.tooManyJoinAttempts, waitMs);
      return {
        async succeeded() {
          await Promise.all([joinsByUser?.limiter.reward(userId, 1), joinsByAddress?.limiter.reward(address, 1)]);
        },
      };
    },

    /**
     * Counts one mail asked for to `recipient` from `ip` (a password reset,
     * a verification link, a new email): throws 429 when a budget is spent.
     * Call before anything about the recipient is looked up, so the answer
     * says nothing about whether an account has that address.
     */
    async mail(recipient: string, ip: string): Promise<void> {
      const address = addressKey(ip);
      const recipientKey = `${createHash('sha256').update(normalizeLogin(recipient)).digest('base64url')}|${address}`;
      const waitMs = await spend(ip, [
        [mailsByRecipient, recipientKey],
        [mailsByAddress, address],
      ]);
      if (waitMs >= 0) throw tooMany(authErrors.tooManyMails, waitMs);
    },

    /** Deletes counters whose window has ended (a periodic task of the worker). */
    async cleanup(): Promise<number> {
      return deleteExpiredCounters({ db, now: new Date() });
    },
  };
}

/**
 * The key a client address is counted under: an IPv4 address as it is (also
 * when it arrives IPv4-mapped, `::ffff:a.b.c.d`), an IPv6 address by its /64
 * prefix, the block one subscriber usually holds whole (counting single
 * addresses would give a client a new budget per address it picks).
 */
export function addressKey(ip: string): string {
  if (!ipaddr.IPv6.isValid(ip)) return ip;
  // An IPv4-mapped address becomes its IPv4.
  const address = ipaddr.process(ip);
  return address.kind() === 'ipv4'
    ? address.toString()
    : `${(address as ipaddr.IPv6).parts
        .slice(0, 4)
        .map((p) => p.toString(16))
        .join(':')}::/64`;
}

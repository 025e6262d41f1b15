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
import { lt } from 'drizzle-orm';
import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import type { LoginThrottleConfig, RegisterThrottleConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Logger } from '../../logger.js';
import { AppError } from '../../errors.js';
import { loginThrottle } from './login-throttle.table.js';

export interface LoginAttempt {
  /** The credentials were right: clear the name's budget, give the attempt back to the address. */
  succeeded(): Promise<void>;
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;

export const tooManyAttempts = (msBeforeNext: number) => {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new AppError(429, 'auth.too_many_attempts', `too many sign-in attempts; try again in ${seconds} seconds`, { headers: { 'Retry-After': String(seconds) } });
};

export const tooManyRegistrations = (msBeforeNext: number) => {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new AppError(429, 'auth.too_many_registrations', `too many accounts registered from this address; try again in ${seconds} seconds`, {
    headers: { 'Retry-After': String(seconds) },
  });
};

export function createLoginThrottle({
  db,
  config,
  register = { maxPerIp: 0, windowSeconds: 3600 },
  logger,
}: {
  db: Db;
  config: LoginThrottleConfig;
  register?: RegisterThrottleConfig;
  logger?: Logger;
}) {
  const limiter = (keyPrefix: string, points: number, duration = config.windowSeconds) =>
    points > 0 ? new RateLimiterDrizzle({ storeClient: db, schema: loginThrottle, keyPrefix, points, duration, clearExpiredByTimeout: false }) : null;
  const byName = limiter('login', config.maxAttempts);
  const byAddress = limiter('login-ip', config.maxAttemptsPerIp);
  const registrations = limiter('register-ip', register.maxPerIp, register.windowSeconds);

  return {
    /**
     * Counts one sign-in attempt of `login` from `ip`; throws 429 when a
     * budget is spent. Call before checking the password.
     */
    async attempt(login: string, ip: string): Promise<LoginAttempt> {
      const nameKey = `${login.trim().toLowerCase()}|${ip}`;
      const results = await Promise.allSettled([byName?.consume(nameKey), byAddress?.consume(ip)]);
      let waitMs = -1;
      for (const [i, r] of results.entries()) {
        if (r.status === 'fulfilled') continue;
        // The limiter rejects with its result when the budget is spent, with an Error when the store failed.
        if (!(r.reason instanceof RateLimiterRes)) throw r.reason;
        waitMs = Math.max(waitMs, r.reason.msBeforeNext);
        // Once per window and budget (the first refused attempt), not once per attempt: a flood must not flood the log.
        const limit = i === 0 ? config.maxAttempts : config.maxAttemptsPerIp;
        if (r.reason.consumedPoints === limit + 1) {
          logger?.warn({ ip, budget: i === 0 ? 'name from address' : 'address', limit, window_seconds: config.windowSeconds }, 'sign-in throttled: too many attempts (LOGIN_MAX_ATTEMPTS, LOGIN_MAX_ATTEMPTS_PER_IP, LOGIN_WINDOW_SECONDS)');
        }
      }
      if (waitMs >= 0) throw tooManyAttempts(waitMs);
      return {
        async succeeded() {
          await Promise.all([byName?.delete(nameKey), byAddress?.reward(ip, 1)]);
        },
      };
    },

    /** Counts one registration from `ip`; throws 429 when the address's budget is spent. Call before hashing the password. */
    async registration(ip: string): Promise<void> {
      if (!registrations) return;
      try {
        await registrations.consume(ip);
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        if (err.consumedPoints === register.maxPerIp + 1) {
          logger?.warn({ ip, limit: register.maxPerIp, window_seconds: register.windowSeconds }, 'registration throttled: too many accounts from one address (REGISTER_MAX_PER_IP, REGISTER_WINDOW_SECONDS)');
        }
        throw tooManyRegistrations(err.msBeforeNext);
      }
    },

    /** Deletes counters whose window has ended (a periodic task of the worker). */
    async cleanup(): Promise<number> {
      const rows = await db.delete(loginThrottle).where(lt(loginThrottle.expire, new Date())).returning({ key: loginThrottle.key });
      return rows.length;
    },
  };
}

/** Password hashing (argon2id) and API key material. */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/**
 * The argon2id parameters a hash is made with (verifying reads them from the hash itself).
 * `standard` is OWASP's recommendation, m=19 MiB, t=2, p=1, set explicitly: what every deployment uses.
 * `minimal` is the smallest argon2id allows (8 KiB, one pass), about 400 times cheaper: for test runs only,
 * which register thousands of players; the configuration refuses it unless APP_ENV is `test` (src/config.ts).
 * `algorithm: 2` is Algorithm.Argon2id (a const enum, which isolated modules cannot import).
 */
export type PasswordHashCost = 'standard' | 'minimal';
const ARGON2_OPTIONS = {
  standard: { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 },
  minimal: { algorithm: 2, memoryCost: 8, timeCost: 1, parallelism: 1 },
} as const;

export interface Passwords {
  hash(password: string): Promise<string>;
  /** True when password matches the stored hash; spends the same time when there is no hash. */
  verify(storedHash: string | null | undefined, password: string): Promise<boolean>;
}

/** Hashing and verifying of passwords at one cost. */
export function passwordHashing(cost: PasswordHashCost = 'standard'): Passwords {
  const options = ARGON2_OPTIONS[cost];
  const hashOne = (password: string) => hash(password, options);
  // Verified against when the account does not exist, so a login takes as long either way.
  let dummyHash: Promise<string> | undefined;
  return {
    hash: hashOne,
    async verify(storedHash, password) {
      if (!storedHash) {
        dummyHash ??= hashOne('not-a-real-password-but-the-same-cost');
        await verify(await dummyHash, password).catch(() => false);
        return false;
      }
      try {
        return await verify(storedHash, password);
      } catch {
        return false;
      }
    },
  };
}

export const API_KEY_PREFIX = 'qp_';

/** A new API key: a recognizable prefix and 32 random bytes. */
export function generateApiKey(): { key: string; digest: string; prefix: string } {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { key, digest: digestApiKey(key), prefix: key.slice(0, 10) };
}

/** Keys are stored and looked up only by their SHA-256 digest. */
export const digestApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** A presented key or session token worth looking up: present, and not longer than any we issue (no digest of megabytes). */
export const plausibleToken = (token: string | undefined): token is string => !!token && token.length <= 200;

/** Constant-time equality of two secrets (CSRF tokens); false when either is missing. Lengths are compared in bytes: timingSafeEqual throws on unequal ones. */
export function sameToken(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The token of a mailed link (password reset, email verification): as a key, 32 random bytes, stored as its digest only. */
export function generateMailToken(): { token: string; digest: string } {
  const token = `qpm_${randomBytes(32).toString('base64url')}`;
  return { token, digest: digestApiKey(token) };
}

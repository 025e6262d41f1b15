/** Password hashing (argon2id) and API key material. */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id recommendation: m=19 MiB, t=2, p=1, set explicitly.
// `algorithm: 2` is Algorithm.Argon2id (a const enum, which isolated modules cannot import).
const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, ARGON2_OPTIONS);

// Verified against when the account does not exist, so a login takes as long either way.
let dummyHash: Promise<string> | undefined;

/** True when password matches the stored hash; spends the same time when there is no hash. */
export async function verifyPassword(storedHash: string | null | undefined, password: string): Promise<boolean> {
  if (!storedHash) {
    dummyHash ??= hashPassword('not-a-real-password-but-the-same-cost');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
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

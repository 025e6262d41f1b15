/**
 * Packages that only some requests need (S3, Web Push, image sniffing, CSV,
 * multipart forms, readable logs) are loaded on first use rather than at
 * start-up: each costs tens of milliseconds of module loading that a process
 * which never uploads a logo or sends a push should not pay before it listens.
 */
import { createRequire } from 'node:module';

/** `load` runs once, on the first call; a failed load is retried by the next call. */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    }));
}

const requireFromHere = createRequire(import.meta.url);

/** A CommonJS package loaded synchronously on first use. */
export function lazyRequire<T>(id: string): () => T {
  let loaded: { value: T } | undefined;
  return () => (loaded ??= { value: requireFromHere(id) as T }).value;
}

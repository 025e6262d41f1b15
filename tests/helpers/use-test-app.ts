/**
 * The usual start of a test file: one app for all its tests, with an admin
 * (and a player when asked), started before them and closed after them.
 */
import { afterAll, beforeAll } from 'vitest';
import { createAdmin, registerUser, startTestApp, type TestApp, type TestAppOptions, type TestUser } from './test-app.js';

interface Started {
  app: TestApp;
  admin: TestUser;
  player?: TestUser;
}

/**
 * Registers a `beforeAll` that starts the app (with `options`) and registers
 * its admin (and a player with `{ player: true }`), and an `afterAll` that
 * closes it; call it at the top of a file or of a describe block. What it
 * returns stands for the app and users that `beforeAll` starts: use them in
 * tests and hooks (reading them while the file is collected throws).
 */
export function useTestApp(options?: TestAppOptions & { player?: false }): { app: TestApp; admin: TestUser };
export function useTestApp(options: TestAppOptions & { player: true }): { app: TestApp; admin: TestUser; player: TestUser };
export function useTestApp({ player = false, ...options }: TestAppOptions & { player?: boolean } = {}): { app: TestApp; admin: TestUser; player?: TestUser } {
  let started: Started | undefined;
  beforeAll(async () => {
    const app = await startTestApp(options);
    started = { app, admin: await createAdmin(app) };
    if (player) started.player = await registerUser(app);
  });
  afterAll(() => started?.app.close());
  return {
    app: startedLater('app', () => started?.app),
    admin: startedLater('admin', () => started?.admin),
    ...(player ? { player: startedLater('player', () => started?.player) } : {}),
  };
}

/** An object that forwards every read to the value `get` gives once it exists. */
function startedLater<T extends object>(what: string, get: () => T | undefined): T {
  const target = (): T => {
    const value = get();
    if (!value) throw new Error(`useTestApp: ${what} is read before beforeAll started it`);
    return value;
  };
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(target(), key),
    has: (_, key) => Reflect.has(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(target(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}

/**
 * "Could not check" is not "no such key", on every database (the outage
 * itself is injected for real in database-outage.test.ts, PostgreSQL only):
 * when the key lookup fails because the database is out of reach, the
 * request answers 503 with Retry-After and the stream closes with 1013,
 * never 401 / 4401; an open operation whose query fails the same way
 * answers 503 too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseUnavailableError } from '../../src/db/availability.js';
import { httpErrors } from '../../src/http/http.errors.js';
import { expectError } from '../helpers/errors.js';
import { openStream } from '../helpers/live-client.js';
import { registerUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app.js';

let app: TestApp;
let player: TestUser;
beforeAll(async () => {
  app = await startTestApp();
  player = await registerUser(app);
});
afterAll(() => app?.close());

/** Runs fn while `target[name]` throws `error`. */
async function failing<T extends object>(target: T, name: keyof T, error: unknown, fn: () => Promise<void>) {
  const original = target[name];
  (target as Record<keyof T, unknown>)[name] = async () => {
    throw error;
  };
  try {
    await fn();
  } finally {
    (target as Record<keyof T, unknown>)[name] = original;
  }
}

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('a database out of reach', () => {
  it('answers 503 with Retry-After, not 401, when the key cannot be checked (player, admin and optional-key operations)', async () => {
    await failing(app.services.auth, 'authenticate', new DatabaseUnavailableError('the database did not answer in time'), async () => {
      for (const [method, path, query] of [
        ['GET', '/api/users/me', undefined],
        ['GET', '/api/users', undefined],
        ['POST', '/api/auth/logout', undefined],
        ['GET', '/api/matches', { followed: true }],
      ] as const) {
        const res = await app.request(method, path, { token: player.token, query });
        expectError(res, httpErrors.databaseUnavailable);
        expect(res.headers.get('retry-after'), `${method} ${path}`).toBe('2');
      }
    });
    // Back to normal: the key was never in question.
    expect((await app.request('GET', '/api/users/me', { token: player.token })).status).toBe(200);
  });

  it('closes a live-stream socket with 1013 (try again later), not 4401', async () => {
    await failing(app.services.auth, 'authenticate', refused(), async () => {
      const socket = await openStream(app, player.token);
      expect(await socket.closed).toEqual({ code: 1013, reason: 'service temporarily unavailable; reconnect later' });
    });
  });

  it('answers 503 on an open operation whose query cannot reach the database (a driver error wrapped by drizzle)', async () => {
    await failing(app.services.leagues, 'list', Object.assign(new Error('wrapped'), { cause: refused() }), async () => {
      const res = await app.request('GET', '/api/leagues');
      expectError(res, httpErrors.databaseUnavailable);
      expect(res.headers.get('retry-after')).toBe('2');
    });
  });
});

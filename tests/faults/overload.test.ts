/**
 * Overload is not an outage. With the database up and every connection of
 * the API's pool held (by the test: transactions left open), a request waits
 * DB_POOL_WAIT_MS for a connection, apart from its statement's own budget,
 * and then answers 503 `service.overloaded` with Retry-After, never
 * `database.unavailable`; a live-stream socket closes with 1013 and the
 * reason "server busy". An outage (a server that does not answer) is told
 * apart in database-outage.test.ts.
 *
 * PostgreSQL only: PGlite runs in the process, with no pool to wait for.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpErrors } from '../../src/http/http.errors.js';
import { waitFor } from '../helpers/engine.js';
import { expectError } from '../helpers/errors.js';
import { openStream } from '../helpers/live-client.js';
import { testDatabaseUrl } from '../helpers/pg-url.js';
import { registerUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app.js';

/** The test app's pool (createTestDatabase's default). */
const POOL_SIZE = 10;

describe.skipIf(!testDatabaseUrl())('every connection of the pool busy, the database up (PostgreSQL)', () => {
  let app: TestApp;
  let player: TestUser;
  beforeAll(async () => {
    // The statement's own budget is the service's; the wait for a connection is shorter than it, so only its own budget can end it.
    app = await startTestApp({ databaseLimits: { statementTimeoutMs: 2000, poolWaitMs: 300 } });
    player = await registerUser(app);
  });
  afterAll(() => app?.close());

  /** Runs fn while the test holds every connection of the app's pool, each in a transaction that waits. */
  async function holdingEveryConnection(fn: () => Promise<void>) {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding = 0;
    const holders = Array.from({ length: POOL_SIZE }, () =>
      app.services.database.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        holding += 1;
        await held;
      }),
    );
    try {
      await waitFor(async () => holding === POOL_SIZE, { what: 'the test to hold every connection' });
      await fn();
    } finally {
      release();
      await Promise.all(holders);
    }
  }

  it('answers 503 service.overloaded with Retry-After (not database.unavailable), and a new socket closes 1013 "server busy"', async () => {
    await holdingEveryConnection(async () => {
      const res = await app.request('GET', '/api/question-answers/open', { token: player.token });
      expectError(res, httpErrors.overloaded);
      expect(res.headers.get('retry-after')).toBe('2');
      expect(res.body.detail).toMatch(/overloaded/);
      const socket = await openStream(app, player.token);
      expect(await socket.closed).toEqual({ code: 1013, reason: 'server busy; reconnect later' });
    });
    // Nothing to recover from: the next request is served.
    expect((await app.request('GET', '/api/question-answers/open', { token: player.token })).status).toBe(200);
  });
});

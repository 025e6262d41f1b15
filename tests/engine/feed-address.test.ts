/**
 * Feeds reach public addresses only (FEED_ALLOW_PRIVATE_ADDRESSES=false, the
 * default outside development and tests), checked when the listener connects,
 * not only when the URL is saved: a feed URL attached before the rule, or
 * built by FEED_URL_TEMPLATE, whose host is a loopback, private or reserved
 * address fails its listener with the reason; and the fetch the listener uses
 * resolves names to public addresses only, at every connection.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPushFeedServer, type PushFeedServer } from '../../src/engine/feed/push-server.js';
import type { EngineWorker } from '../../src/engine/worker.js';
import { matchListeners } from '../../src/modules/listeners/listeners.table.js';
import { publicOnlyFetch } from '../../src/net/outbound.js';
import { NonPublicAddressError } from '../../src/net/public-address.js';
import { startWorker, waitFor } from '../helpers/engine.js';
import { feedEvent } from '../helpers/engine-rows.js';
import { createMatch } from '../helpers/factories.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let feed: PushFeedServer;
let worker: EngineWorker | undefined;

beforeAll(async () => {
  app = await startTestApp();
  feed = await startPushFeedServer({
    events: [feedEvent({ seq: 1, type: 'match_status', data: { status: 'live' } })],
    speed: Infinity,
    holdOpen: true,
    heartbeatMs: 100,
  });
});
afterAll(async () => {
  await worker?.stop();
  await feed?.close();
  await app?.close();
});

describe('feeds on non-public addresses', () => {
  it('fail their listener with the reason when private addresses are not allowed, and run when they are', async () => {
    const refused = await createMatch(app, { scheduled: new Date(), feedUrl: feed.url });
    worker = startWorker(app, { feedAllowPrivateAddresses: false });
    const db = app.services.database.db;
    const failed = await waitFor(
      async () =>
        (
          await db
            .select()
            .from(matchListeners)
            .where(and(eq(matchListeners.matchId, refused.id), eq(matchListeners.status, 'failed')))
        )[0],
      {
        what: 'the listener of a loopback feed to fail',
      },
    );
    expect(failed.error).toMatch(/^feed URL refused: 127\.0\.0\.1 is a local, private or reserved address/);
    expect(feed.stats.requests).toBe(0);
    await worker.stop();

    // Allowed (development, tests): the same kind of feed is read.
    const allowed = await createMatch(app, { scheduled: new Date(), feedUrl: feed.url });
    worker = startWorker(app, { feedAllowPrivateAddresses: true });
    await waitFor(
      async () =>
        (
          await db
            .select()
            .from(matchListeners)
            .where(and(eq(matchListeners.matchId, allowed.id), eq(matchListeners.status, 'running')))
        )[0],
      { what: 'the listener to run' },
    );
    await waitFor(async () => feed.stats.requests > 0, { what: 'the feed to be read' });
  });

  it('the public-only fetch refuses a non-public host before sending anything', async () => {
    const fetchPublic = await publicOnlyFetch();
    await expect(fetchPublic(feed.url)).rejects.toBeInstanceOf(NonPublicAddressError);
    await expect(fetchPublic('http://localhost:9/feed')).rejects.toThrow(/localhost is not a public host name; feeds must be on the public internet/);
    await expect(fetchPublic('http://[::1]:9/feed')).rejects.toThrow(/::1 is a local, private or reserved address/);
  });
});

/** The live demo of `npm start` serves the feeds of its latest matches only: a long-running demo holds no growing set of feed servers. */
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { LiveDemo } from '../../src/demo/live-demo.js';
import { matches } from '../../src/modules/matches/matches.table.js';
import { useTestApp } from '../helpers/use-test-app.js';

/** 200 when the feed is served, else the connection error's code. */
async function feedAnswer(url: string): Promise<number | string> {
  const controller = new AbortController();
  try {
    const res = await fetch(url, { signal: controller.signal });
    return res.status;
  } catch (err) {
    return ((err as Error & { cause?: { code?: string } }).cause?.code ?? (err as Error).message);
  } finally {
    controller.abort();
  }
}

describe('the live demo', () => {
  const { app } = useTestApp();
  let demo: LiveDemo | undefined;
  afterAll(() => demo?.stop());

  it('closes the feeds of demo matches older than the one before the latest', async () => {
    demo = new LiveDemo(app.services, { kickoffInSeconds: 3600, durationScale: 0.09 });
    const feedUrls: string[] = [];
    for (let i = 0; i < 3; i++) {
      const id = await demo.scheduleLiveMatch();
      const [row] = await app.services.database.db.select({ feedUrl: matches.feedUrl }).from(matches).where(eq(matches.id, id));
      feedUrls.push(row!.feedUrl!);
    }
    expect(new Set(feedUrls).size).toBe(3);
    expect(await feedAnswer(feedUrls[0]!)).toBe('ECONNREFUSED');
    expect(await feedAnswer(feedUrls[1]!)).toBe(200);
    expect(await feedAnswer(feedUrls[2]!)).toBe(200);
  });
});

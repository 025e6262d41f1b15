/**
 * /docs in a real browser on whatever host and port the service runs (the test
 * app's is random): "Try it out" calls this server, and a plain Execute of the
 * match list lists today's matches, not the examples' filters.
 */
import { describe, expect, it } from 'vitest';
import { createMatch } from '../helpers/factories.js';
import { chromiumAvailable, useBrowserApp } from './browser.js';

describe.skipIf(!chromiumAvailable)('Swagger UI in Chromium', () => {
  const { app, browser } = useBrowserApp();

  it("'Try it out' on GET /api/matches answers from this server with today's matches", async () => {
    const context = await browser().newContext({ baseURL: app.url });
    const page = await context.newPage();
    const failed: string[] = [];
    page.on('requestfailed', (r) => failed.push(r.url()));
    // No deep link (#/Matches/listMatches): Swagger UI then scrolls to the operation while the page
    // is still growing, and on a busy machine the button never held still long enough to be clicked.
    await page.goto('/docs');
    const op = page.locator('#operations-Matches-listMatches');
    await op.waitFor({ timeout: 20_000 });
    await op.locator('.opblock-summary-control').click();
    const tryItOut = op.getByRole('button', { name: 'Try it out' });
    await tryItOut.waitFor({ timeout: 20_000 });
    await tryItOut.click();
    // Optional filters start empty: nothing narrows the list to an example league or day.
    await expect(op.locator('tr[data-param-name="league"] input').inputValue()).resolves.toBe('');
    await expect(op.locator('tr[data-param-name="scheduled_from"] input').inputValue()).resolves.toBe('');
    const [response] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/api/matches'),
      op.getByRole('button', { name: 'Execute' }).click(),
    ]);
    expect(response.url()).toBe(`${app.url}/api/matches`);
    expect(response.status()).toBe(200);
    await op.locator('.live-responses-table .response-col_status', { hasText: '200' }).first().waitFor();
    expect(failed).toEqual([]);
    await context.close();
  });

  it("'Try it out' on GET /api/matches/{match_id} starts with an empty id, not the mock's story match (unknown here)", async () => {
    const match = await createMatch(app, { homeTeam: 'Docs Home', awayTeam: 'Docs Away' });
    const context = await browser().newContext({ baseURL: app.url });
    const page = await context.newPage();
    await page.goto('/docs');
    const op = page.locator('#operations-Matches-getMatch');
    await op.waitFor({ timeout: 20_000 });
    await op.locator('.opblock-summary-control').click();
    const tryItOut = op.getByRole('button', { name: 'Try it out' });
    await tryItOut.waitFor({ timeout: 20_000 });
    await tryItOut.click();
    const id = op.locator('tr[data-param-name="match_id"] input');
    expect(await id.inputValue()).toBe('');
    // The example is still there to read.
    expect(await op.locator('tr[data-param-name="match_id"]').textContent()).toContain('7d444840-9dc0-11d1-b245-5ffdce74fad2');
    await id.fill(match.id);
    const [response] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === `/api/matches/${match.id}`),
      op.getByRole('button', { name: 'Execute' }).click(),
    ]);
    expect(response.status()).toBe(200);
    await context.close();
  });
});

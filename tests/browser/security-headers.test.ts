/**
 * The Content-Security-Policy in a real browser: Swagger UI, ReDoc and the
 * operator UI render under it without a single violation.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumAvailable, signedIn, useBrowserApp } from './browser.js';

/** Collects the CSP violations a page reports. */
function violations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy|Refused to/i.test(msg.text())) seen.push(msg.text());
  });
  return seen;
}

describe.skipIf(!chromiumAvailable)('Content-Security-Policy in Chromium', () => {
  const { app, admin, browser } = useBrowserApp();

  it('lets Swagger UI and ReDoc render the contract', async () => {
    const context = await browser().newContext({ baseURL: app.url });
    const page = await context.newPage();
    const seen = violations(page);
    await page.goto('/docs');
    await page.locator('.swagger-ui .info .title', { hasText: 'Question-Play' }).waitFor({ timeout: 20_000 });
    await page.locator('.opblock-tag', { hasText: 'Brands' }).first().waitFor();
    await page.goto('/redoc');
    await page.locator('h1', { hasText: 'Question-Play' }).first().waitFor({ timeout: 30_000 });
    await page.locator('[role=search] input, input[placeholder="Search..."]').first().waitFor();
    expect(seen).toEqual([]);
    await context.close();
  });

  it('lets the operator UI work', async () => {
    const { context, page } = await signedIn(browser(), app, admin);
    const seen = violations(page);
    for (const label of ['Leagues', 'Brands', 'In-game questions', 'Matches']) {
      await page.getByRole('link', { name: label, exact: true }).click();
      await page.getByRole('heading', { name: label }).first().waitFor();
    }
    await page.reload();
    await page.getByRole('heading', { name: 'Matches' }).first().waitFor();
    expect(seen).toEqual([]);
    await context.close();
  });
});

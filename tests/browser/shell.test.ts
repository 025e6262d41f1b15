import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createAdmin, registerUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app.js';
import { chromiumAvailable, CHROMIUM, launch, screenshot, signedIn, VIEWPORTS } from './browser.js';

if (!chromiumAvailable) console.warn(`[browser tests] skipped: no Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run does)`);

describe.skipIf(!chromiumAvailable)('operator UI: sign-in and shell', () => {
  let app: TestApp;
  let browser: Browser;
  let admin: TestUser;

  beforeAll(async () => {
    app = await startTestApp();
    admin = await createAdmin(app);
    browser = await launch();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('signs an admin in and shows the pages of the operators\' jobs', async () => {
    const { context, page } = await signedIn(browser, app, admin);
    await expect(page.getByRole('heading', { name: 'Matches' })).toBeTruthy();
    await page.getByRole('heading', { name: 'Matches' }).waitFor();
    for (const label of ['Matches', 'Listeners', 'In-game questions', 'Match questions', 'Question groups', 'Leagues', 'Brands', 'Users', 'Feedback', 'Push']) {
      expect(await page.getByRole('link', { name: label, exact: true }).count()).toBe(1);
    }
    await page.getByRole('link', { name: 'Leagues', exact: true }).click();
    await page.getByRole('heading', { name: 'Leagues' }).waitFor();
    await page.getByText('FIFA World Cup (wc)').waitFor();
    await screenshot(page, 'leagues-laptop');
    await context.close();
  }, 60_000);

  it('refuses a non-admin with a clear message', async () => {
    const player = await registerUser(app);
    const context = await browser.newContext({ baseURL: app.url });
    const page = await context.newPage();
    await page.goto('/admin/login');
    await page.getByLabel('Username or email').fill(player.username);
    await page.getByLabel('Password').fill(player.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('not an admin');
    await page.goto('/admin/matches');
    expect(page.url()).toMatch(/\/admin\/login$/);
    await context.close();
  }, 60_000);

  it('edits league defaults and shows the API\'s own error wording', async () => {
    const { context, page } = await signedIn(browser, app, admin, VIEWPORTS.tablet);
    await page.goto('/admin/leagues');
    await page.getByRole('row', { name: /National Hockey League/ }).getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Defaults of nhl' });
    await form.getByLabel('Answer window (s)').fill('42');
    await form.getByRole('button', { name: 'Save defaults' }).click();
    await form.getByText('Saved.').waitFor();
    await form.getByLabel('Period distribution (period -> questions)').fill('{"q9": 3}');
    await form.getByRole('button', { name: 'Save defaults' }).click();
    await form.getByRole('alert').waitFor();
    expect(await form.getByRole('alert').textContent()).toContain("unknown period 'q9'");
    await screenshot(page, 'leagues-tablet');
    await context.close();
    const nhl = await app.request('GET', '/api/leagues/nhl');
    expect(nhl.body.default_answer_window_seconds).toBe(42);
  }, 60_000);
});

import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiKeys } from '../../src/modules/auth/auth.table.js';
import { createMatch } from '../helpers/factories.js';
import { createAdmin, registerUser } from '../helpers/test-app.js';
import { chromiumAvailable, CHROMIUM, screenshot, signedIn, useBrowserApp, VIEWPORTS } from './browser.js';

if (!chromiumAvailable) console.warn(`[browser tests] skipped: no Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run does)`);

describe.skipIf(!chromiumAvailable)('operator UI: sign-in and shell', () => {
  const { app, admin, browser } = useBrowserApp();

  it("signs an admin in and shows the pages of the operators' jobs", async () => {
    const { context, page } = await signedIn(browser(), app, admin);
    await page.getByRole('heading', { name: 'Matches' }).waitFor();
    for (const label of ['Matches', 'Listeners', 'In-game questions', 'Match questions', 'Question groups', 'Leagues', 'Brands', 'Users', 'Feedback', 'Push']) {
      expect(await page.getByRole('link', { name: label, exact: true }).count()).toBe(1);
    }
    await page.getByRole('link', { name: 'Leagues', exact: true }).click();
    await page.getByRole('heading', { name: 'Leagues' }).waitFor();
    await page.getByText('FIFA World Cup (wc)').waitFor();
    await screenshot(page, 'leagues-laptop');
    await context.close();
  });

  it('lists the matches of the day with their filters, at laptop and tablet widths', async () => {
    // Kick-offs inside the current UTC day (the page's default), even when the test runs near midnight.
    const dayStart = Date.now() - (Date.now() % 86_400_000);
    const now = Math.min(Math.max(Date.now(), dayStart + 7_200_000), dayStart + 79_200_000);
    await createMatch(app, { homeTeam: 'Lions', awayTeam: 'Tigers', status: 'live', scheduled: new Date(now - 1_800_000), homeScore: 1, awayScore: 0 });
    await createMatch(app, { homeTeam: 'Bears', awayTeam: 'Wolves', status: 'scheduled', scheduled: new Date(now + 600_000) });
    await createMatch(app, { homeTeam: 'Hawks', awayTeam: 'Eagles', status: 'scheduled', scheduled: new Date(now + 900_000), league: 'mls', isTest: true });
    for (const [viewport, name] of [
      [VIEWPORTS.laptop, 'matches-laptop'],
      [VIEWPORTS.tablet, 'matches-tablet'],
    ] as const) {
      const { context, page } = await signedIn(browser(), app, admin, viewport);
      const table = page.getByRole('table');
      await table.getByRole('link', { name: 'Lions - Tigers' }).waitFor();
      await table.getByRole('link', { name: 'Bears - Wolves' }).waitFor();
      await screenshot(page, name);
      // The filters narrow the list: live ones, then test ones.
      await page.getByLabel('Status').selectOption('live');
      await expect.poll(async () => await table.getByRole('link', { name: / - / }).allTextContents()).toEqual(['Lions - Tigers']);
      await page.getByLabel('Status').selectOption('');
      await page.getByLabel('Kind').selectOption('true');
      await expect.poll(async () => await table.getByRole('link', { name: / - / }).allTextContents()).toEqual(['Hawks - Eagles']);
      await context.close();
    }
  });

  it('refuses a non-admin with a clear message', async () => {
    const player = await registerUser(app);
    const context = await browser().newContext({ baseURL: app.url });
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
  });

  it('sends a signed-in admin who is deactivated since to the sign-in form (no redirect loop)', async () => {
    const other = await createAdmin(app);
    const { context, page } = await signedIn(browser(), app, other);
    expect((await app.request('DELETE', `/api/users/${other.id}`, { token: admin.token })).status).toBe(204);
    // Deactivation ended the session: the open page may notice first (its next key exchange is refused and it
    // goes to the sign-in form, aborting this navigation). Either way it ends on the sign-in form, once.
    await page.goto('/admin/matches').catch((err: Error) => {
      if (!/ERR_ABORTED/.test(err.message)) throw err;
    });
    await page.waitForURL(/\/admin\/login$/);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await context.close();
  });

  it('exchanges the session for one API key per page load, however many calls the page makes at once', async () => {
    const { context, page } = await signedIn(browser(), app, admin);
    const exchanges: string[] = [];
    page.on('request', (req) => {
      if (new URL(req.url()).pathname === '/admin/api-session') exchanges.push(req.method());
    });
    const match = await createMatch(app, { homeTeam: 'Key Home', awayTeam: 'Key Away', status: 'live', scheduled: new Date() });
    await page.goto(`/admin/matches/${match.id}`);
    await page.getByRole('heading', { name: 'Key Home - Key Away' }).waitFor();
    await page.locator('#inheritance table').waitFor();
    expect(exchanges).toEqual(['POST']);
    await context.close();
  });

  it('renews its API key once when the API answers 401, and carries on', async () => {
    const sessionKeys = and(eq(apiKeys.userId, admin.id), isNotNull(apiKeys.adminSessionId), isNull(apiKeys.revokedAt));
    const activeKeys = async () => (await app.services.database.db.select().from(apiKeys).where(sessionKeys)).length;
    const before = await activeKeys();
    const { context, page } = await signedIn(browser(), app, admin);
    await page.getByRole('heading', { name: 'Matches' }).waitFor();
    // This page has its key and its first calls are done (the heading can show before them).
    await expect.poll(activeKeys, { timeout: 10_000 }).toBeGreaterThan(before);
    await page.waitForLoadState('networkidle');
    const exchanges: number[] = [];
    const unauthorized: string[] = [];
    page.on('response', (res) => {
      const path = new URL(res.url()).pathname;
      if (path === '/admin/api-session') exchanges.push(res.status());
      else if (res.status() === 401) unauthorized.push(path);
    });
    // The key the page holds stops working (revoked elsewhere); the session itself is still valid.
    await app.services.database.db.update(apiKeys).set({ revokedAt: new Date() }).where(sessionKeys);
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByText(admin.email).first().waitFor();
    // (A call of the previous page still under way may meet the revoked key too: calls that fail with one key share one renewal.)
    expect(unauthorized).toContain('/api/users');
    expect(exchanges).toEqual([200]);
    const failed = unauthorized.length;
    // The new key serves the next page without another exchange.
    await page.getByRole('link', { name: 'Brands', exact: true }).click();
    await page.getByRole('heading', { name: 'Brands' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(exchanges).toEqual([200]);
    expect(unauthorized).toHaveLength(failed);
    await context.close();
  });

  it("edits league defaults and shows the API's own error wording", async () => {
    const { context, page } = await signedIn(browser(), app, admin, VIEWPORTS.tablet);
    await page.goto('/admin/leagues');
    await page
      .getByRole('row', { name: /National Hockey League/ })
      .getByRole('button', { name: 'Edit' })
      .click();
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
  });
});

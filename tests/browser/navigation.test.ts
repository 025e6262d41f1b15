/**
 * Finding one's way in the operator UI: league pages open on the league where
 * the work is (or the one last chosen) and keep the choice across pages; the
 * nav shows where one is; actions show only where they apply; identifiers wrap
 * between words; test matches are marked wherever matches are picked.
 */
import { describe, expect, it } from 'vitest';
import { inGameDefinitionInput } from '../helpers/definitions.js';
import { insertListener } from '../helpers/engine-rows.js';
import { createMatch } from '../helpers/factories.js';
import { chromiumAvailable, screenshot, signedIn, useBrowserApp, VIEWPORTS } from './browser.js';

describe.skipIf(!chromiumAvailable)('operator UI: navigation', () => {
  const { app, admin, browser } = useBrowserApp();

  it('opens league pages on the league with matches today, then on the league last chosen, on every league page', async () => {
    // mlb comes first in the list; today's matches are in nhl.
    for (const home of ['Rangers', 'Bruins']) await createMatch(app, { league: 'nhl', homeTeam: home, awayTeam: 'Kings', scheduled: new Date() });
    const { context, page } = await signedIn(browser(), app, admin);
    const leagueOf = async () => new URL(page.url()).searchParams.get('league');

    await page.goto('/admin/listeners');
    await expect.poll(leagueOf).toBe('nhl');
    expect(await page.getByLabel('League').inputValue()).toBe('nhl');
    for (const p of ['/admin/definitions', '/admin/match-definitions', '/admin/groups']) {
      await page.goto(p);
      await expect.poll(leagueOf, { message: p }).toBe('nhl');
    }

    // Choosing another league on one page carries over to the others, even to
    // a page opened at once after the choice (it is remembered as it is made).
    await page.getByLabel('League').selectOption('nba');
    for (const p of ['/admin/listeners', '/admin/definitions', '/admin/match-definitions']) {
      await page.goto(p);
      await expect.poll(leagueOf, { message: p }).toBe('nba');
      expect(await page.getByLabel('League').inputValue()).toBe('nba');
    }
    await context.close();
  });

  it('highlights Matches in the nav at /admin/, where the matches page is shown', async () => {
    const { context, page } = await signedIn(browser(), app, admin);
    await page.goto('/admin/');
    const current = page.locator('.nav a.active');
    await expect.poll(() => current.textContent()).toBe('Matches');
    expect(await current.getAttribute('aria-current')).toBe('page');
    await page.goto('/admin/brands');
    await expect.poll(() => current.textContent()).toBe('Brands');
    await context.close();
  });

  it('offers Stop listener only while a listener is queued or running', async () => {
    const closed = await createMatch(app, {
      status: 'closed',
      homeTeam: 'Closed Home',
      awayTeam: 'Closed Away',
      scheduled: new Date(Date.now() - 7_200_000),
      listenerEventsArchived: true,
    });
    await insertListener(app, { matchId: closed.id, status: 'completed' });
    const test = await createMatch(app, { status: 'live', isTest: true, homeTeam: 'Test Home', awayTeam: 'Test Away', scheduled: new Date() });
    await insertListener(app, { matchId: test.id, status: 'queued', source: 'replay', replayMatchId: closed.id });
    const { context, page } = await signedIn(browser(), app, admin);

    await page.goto(`/admin/matches/${closed.id}`);
    await page.getByRole('heading', { name: 'Closed Home - Closed Away' }).waitFor();
    await page.getByRole('button', { name: 'Clone as test match' }).waitFor();
    expect(await page.getByRole('button', { name: 'Stop listener' }).count()).toBe(0);

    await page.goto(`/admin/matches/${test.id}`);
    await page.getByRole('heading', { name: 'Test Home - Test Away' }).waitFor();
    await page.getByRole('button', { name: 'Stop listener' }).waitFor();
    await context.close();
  });

  it('wraps trigger names between words, never inside one', async () => {
    const created = await app.request('POST', '/api/question-definitions', {
      token: admin.token,
      query: { league: 'wc' },
      body: inGameDefinitionInput({ name: 'A possession question with a long name that takes the room', trigger: { event_type: 'possession_change' } }),
    });
    expect(created.status).toBe(201);
    const { context, page } = await signedIn(browser(), app, admin, VIEWPORTS.tablet);
    await page.goto('/admin/definitions?league=wc');
    const token = page.getByRole('row', { name: /A possession question/ }).locator('code.token');
    await token.waitFor();
    expect(await token.textContent()).toBe('possession_change');
    expect(await token.locator('wbr').count()).toBe(1);
    // Lines break only at the <wbr>: each rendered line of the cell is a whole part.
    // (Runs in the page: DOM types are not in this project's lib, hence the loose typing.)
    const lines = await token.evaluate((el) => {
      const w = globalThis as unknown as { document: { createRange(): any }; getComputedStyle(e: unknown): { overflowWrap: string; wordBreak: string } };
      const range = w.document.createRange();
      const out: string[] = [];
      for (const node of (el as unknown as { childNodes: { nodeType: number; textContent: string }[] }).childNodes) {
        if (node.nodeType !== 3) continue; // text nodes
        range.selectNodeContents(node);
        out.push(`${node.textContent}:${range.getClientRects().length}`);
      }
      const style = w.getComputedStyle(el);
      return { parts: out, overflowWrap: style.overflowWrap, wordBreak: style.wordBreak };
    });
    expect(lines.overflowWrap).toBe('normal');
    expect(lines.wordBreak).toBe('normal');
    for (const part of lines.parts) expect(part, 'a word split over two lines').toMatch(/:1$/);
    await screenshot(page, 'definitions-trigger-wrap-tablet');
    await context.close();
  });

  it('marks test matches in the sponsorship panel', async () => {
    const form = new FormData();
    form.append('name', 'Marker Drinks');
    form.append('primary_color', '#112233');
    const brand = await app.request('POST', '/api/brands', { token: admin.token, form });
    expect(brand.status).toBe(201);
    await createMatch(app, { isTest: true, homeTeam: 'Clone Home', awayTeam: 'Clone Away', scheduled: new Date() });
    await createMatch(app, { homeTeam: 'Real Home', awayTeam: 'Real Away', scheduled: new Date() });
    const { context, page } = await signedIn(browser(), app, admin);
    await page.goto(`/admin/brands?sponsorships=${brand.body.id}`);
    const picks = page.getByRole('list', { name: 'Matches' });
    const clone = picks.getByRole('listitem').filter({ hasText: 'Clone Home - Clone Away' });
    await clone.waitFor();
    expect(await clone.locator('.badge', { hasText: /^test$/ }).count()).toBe(1);
    expect(
      await picks
        .getByRole('listitem')
        .filter({ hasText: 'Real Home - Real Away' })
        .locator('.badge', { hasText: /^test$/ })
        .count(),
    ).toBe(0);
    await context.close();
  });
});

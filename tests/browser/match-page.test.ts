/**
 * The match page of the operator UI: read with GET /api/matches/{match_id}
 * (a match on any day opens, whatever the day list holds), its in-game and
 * Match questions in two tables, and its feed URL shown, attached, refused
 * with the API's reason and detached.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { matches } from '../../src/modules/matches/matches.table.js';
import { insertIssuance } from '../helpers/engine-rows.js';
import { createMatch } from '../helpers/factories.js';
import { chromiumAvailable, screenshot, signedIn, useBrowserApp } from './browser.js';

describe.skipIf(!chromiumAvailable)('operator UI: the match page', () => {
  const { app, admin, browser } = useBrowserApp();
  const feedOf = async (id: string) =>
    (await app.services.database.db.select({ feedUrl: matches.feedUrl }).from(matches).where(eq(matches.id, id)))[0]!.feedUrl;

  it('shows both kinds of questions, and attaches, refuses and detaches a feed URL', async () => {
    // Years away from today: only the single read finds it.
    const scheduled = new Date(Date.UTC(2031, 5, 1, 18));
    const match = await createMatch(app, {
      homeTeam: 'Page Home',
      awayTeam: 'Page Away',
      scheduled,
      status: 'live',
      feedUrl: 'https://feeds.example.com/wc/page',
    });
    await insertIssuance(app, { matchId: match.id, questionText: 'Corner for Page Home. Will it end in a shot?', questionNumber: 1 });
    await insertIssuance(app, {
      matchId: match.id,
      kind: 'match',
      triggerEventId: null,
      status: 'locked',
      questionText: 'Who wins Page Home vs Page Away?',
      closesAt: scheduled,
    });

    const { context, page } = await signedIn(browser(), app, admin);
    await page.goto(`/admin/matches/${match.id}`);
    await page.getByRole('heading', { name: 'Page Home - Page Away' }).waitFor();

    const inGame = page.locator('#questions');
    const pregame = page.locator('#match-questions');
    await inGame.getByText('Corner for Page Home. Will it end in a shot?').waitFor();
    await pregame.getByText('Who wins Page Home vs Page Away?').waitFor();
    expect(await inGame.getByText('Who wins Page Home vs Page Away?').count()).toBe(0);
    expect(await pregame.getByText('Corner for Page Home').count()).toBe(0);
    expect(await pregame.locator('.badge', { hasText: 'locked' }).count()).toBe(1);
    expect(await pregame.locator('h2, h3').first().textContent()).toContain('(1)');

    const settings = page.getByRole('form', { name: 'Match settings' });
    const feed = settings.getByLabel('Feed URL');
    expect(await feed.inputValue()).toBe('https://feeds.example.com/wc/page');
    expect(await page.getByLabel('Match', { exact: true }).getByLabel('Feed', { exact: true }).textContent()).toBe('feed https://feeds.example.com/wc/page');

    await feed.fill('https://backup.example.com/wc/page?format=ndjson');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('Saved 1 setting.').waitFor();
    expect(await feedOf(match.id)).toBe('https://backup.example.com/wc/page?format=ndjson');
    await page.getByLabel('Match', { exact: true }).getByLabel('Feed', { exact: true }).getByText('https://backup.example.com/wc/page?format=ndjson').waitFor();

    // Refused with the API's reason; nothing stored.
    await feed.fill('https://user:secret@feeds.example.com/wc/page');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByRole('alert').waitFor();
    expect(await settings.getByRole('alert').textContent()).toMatch(/\(400\).*user name or password/);
    expect(await feedOf(match.id)).toBe('https://backup.example.com/wc/page?format=ndjson');
    await screenshot(page, 'match-detail-feed-refused-laptop');

    // Emptied: detached.
    await feed.fill('');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('Saved 1 setting.').waitFor();
    expect(await feedOf(match.id)).toBeNull();
    await page.reload();
    await page.getByRole('heading', { name: 'Page Home - Page Away' }).waitFor();
    expect(await page.getByRole('form', { name: 'Match settings' }).getByLabel('Feed URL').inputValue()).toBe('');
    expect(await page.getByLabel('Match', { exact: true }).getByLabel('Feed', { exact: true }).textContent()).toBe('no feed attached');
    await context.close();
  });

  it('says so when the match does not exist', async () => {
    const { context, page } = await signedIn(browser(), app, admin);
    await page.goto('/admin/matches/00000000-0000-4000-8000-000000000000');
    await page.getByRole('alert').filter({ hasText: /match/ }).waitFor();
    await page.goto('/admin/matches/not-an-id');
    await page.getByRole('alert').filter({ hasText: 'is not a match id' }).waitFor();
    await context.close();
  });
});

/**
 * Leaderboards in the operator UI: the Leaderboards page (whole game, a
 * league with its periods, a match), the match page's board, and a user's
 * positions on their panel, where an admin hides a cheating player from
 * every board without touching their history.
 */
import { describe, expect, it } from 'vitest';
import { insertIssuance } from '../helpers/engine-rows.js';
import { createMatch, follow } from '../helpers/factories.js';
import { registerUser, type TestUser } from '../helpers/test-app.js';
import { chromiumAvailable, screenshot, signedIn, useBrowserApp, VIEWPORTS } from './browser.js';

describe.skipIf(!chromiumAvailable)('operator UI: leaderboards', () => {
  const { app, admin, browser } = useBrowserApp();

  async function scoredMatch() {
    const match = await createMatch(app, {
      homeTeam: 'Board Home',
      awayTeam: 'Board Away',
      status: 'live',
      scheduled: new Date(Date.now() - 1800_000),
      league: 'mls',
    });
    const stamp = Date.now().toString(36);
    const [ace, mid, low] = [
      await registerUser(app, { username: `lb_ace_${stamp}` }),
      await registerUser(app, { username: `lb_mid_${stamp}` }),
      await registerUser(app, { username: `lb_low_${stamp}` }),
    ];
    await app.request('PATCH', '/api/users/me', { token: ace.token, body: { display_name: 'Ace of Boards' } });
    for (const u of [ace, mid, low]) await follow(app, u.id, match.id);
    const play = async (points: number, answers: [TestUser, string][]) => {
      const q = await insertIssuance(app, { matchId: match.id, status: 'open', closesAt: new Date(Date.now() + 60_000), points });
      for (const [u, c] of answers)
        await app.request('PUT', '/api/question-answers', { token: u.token, body: { question_issuance_id: q.id, selected_answer_identifier: c } });
      await app.services.engine.store.settleIssuance({ id: q.id, status: 'resolved', correct: 'home', resolvedSeq: null, resolutionEventId: null });
      // The boards take the settlement after its commit (the worker's applier; none runs in tests).
      await app.services.leaderboards.drain();
    };
    await play(30, [
      [ace, 'home'],
      [mid, 'home'],
      [low, 'away'],
    ]);
    await play(20, [
      [ace, 'home'],
      [mid, 'away'],
      [low, 'home'],
    ]);
    return { match, ace, mid, low };
  }

  it("shows the whole game's, a league's and a match's boards, and the match page's", async () => {
    const { match, mid, low } = await scoredMatch();
    const { context, page } = await signedIn(browser(), app, admin);
    await page.getByRole('link', { name: 'Leaderboards', exact: true }).click();
    await page.getByRole('heading', { name: 'Leaderboards' }).waitFor();
    const rows = page.getByRole('region', { name: 'Leaderboard rows' });
    await rows.getByRole('link', { name: 'Ace of Boards' }).waitFor();
    const names = async () => (await rows.locator('tbody tr').allTextContents()).filter((t) => t.includes('lb_') || t.includes('Ace of Boards'));
    const order = await names();
    expect(order[0]).toContain('Ace of Boards');
    expect(order[1]).toContain(mid.username);
    expect(order[2]).toContain(low.username);

    await page.getByRole('combobox', { name: 'Board', exact: true }).selectOption('league');
    await page.getByLabel('League').selectOption('mls');
    await page.getByLabel('Period').selectOption('week');
    await page.waitForURL(/scope=league.*league=mls.*period=week|period=week.*league=mls/);
    await page.getByText(/League mls, week from \d{4}-\d{2}-\d{2} \(UTC\): 3 players/).waitFor();
    expect((await rows.locator('tbody tr').first().textContent()) ?? '').toContain('Ace of Boards');
    await screenshot(page, 'leaderboards-league-laptop');

    await page.getByRole('combobox', { name: 'Board', exact: true }).selectOption('match');
    await page.getByLabel('Match id').fill(match.id);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText(/all time: 3 players/).waitFor();
    const first = rows.locator('tbody tr').first();
    expect(await first.locator('td').allTextContents()).toEqual(expect.arrayContaining(['1', 'Ace of Boards', '50', '2']));

    await page.goto(`/admin/matches/${match.id}`);
    const section = page.locator('#leaderboard');
    await section.getByRole('link', { name: 'Ace of Boards' }).waitFor();
    expect(await section.locator('h2, h3').first().textContent()).toContain('3 players');
    await section.getByRole('link', { name: 'Full leaderboard' }).click();
    await page.waitForURL(/\/admin\/leaderboards\?scope=match&match=/);
    await page.getByText(/all time: 3 players/).waitFor();
    await context.close();

    const tablet = await signedIn(browser(), app, admin, VIEWPORTS.tablet);
    await tablet.page.goto(`/admin/leaderboards?scope=match&match=${match.id}`);
    await tablet.page.getByRole('region', { name: 'Leaderboard rows' }).getByRole('link', { name: 'Ace of Boards' }).waitFor();
    await screenshot(tablet.page, 'leaderboards-match-tablet');
    await tablet.context.close();
  });

  it("shows a user's positions and hides a cheat from every board, history kept", async () => {
    const { match, ace } = await scoredMatch();
    const { context, page } = await signedIn(browser(), app, admin);
    await page.goto(`/admin/users?user=${ace.id}`);
    const form = page.getByRole('form', { name: `Edit ${ace.username}` });
    await form.waitFor();
    await page.getByRole('heading', { name: /^Leaderboards/ }).waitFor();
    const positions = page.getByRole('region', { name: 'Leaderboard positions' });
    const matchRow = positions.getByRole('row', { name: new RegExp(`Match ${match.id.slice(0, 8)}`) });
    await matchRow.waitFor();
    expect(await matchRow.textContent()).toContain('1 of 3');
    expect(await positions.getByRole('link', { name: 'Whole game' }).count()).toBe(4);
    await screenshot(page, 'user-leaderboard-positions-laptop');

    await form.getByLabel('Hidden from leaderboards').check();
    await form.getByRole('button', { name: 'Save user' }).click();
    await page.getByText(/Hidden from leaderboards: on no leaderboard/).waitFor();
    await positions.getByText('On no leaderboard.').waitFor();
    // Their history stays.
    expect((await app.request('GET', `/api/users/${ace.id}/points`, { token: admin.token })).body.all_time.points).toBe(50);

    await page.goto(`/admin/leaderboards?scope=match&match=${match.id}`);
    await page.getByText(/all time: 2 players/).waitFor();
    expect(await page.getByRole('region', { name: 'Leaderboard rows' }).getByRole('link', { name: 'Ace of Boards' }).count()).toBe(0);
    await context.close();
  });

  it('ranks a board by current or best streak when asked (the streak boards), the choice kept in the address', async () => {
    // ace: right twice (50 points, streak 2); mid: right then wrong (30, now 0, best 1); low: wrong then right (20, now 1).
    const { match, mid, low } = await scoredMatch();
    const { context, page } = await signedIn(browser(), app, admin);
    await page.goto(`/admin/leaderboards?scope=match&match=${match.id}`);
    const rows = page.getByRole('region', { name: 'Leaderboard rows' });
    await page.getByText(/all time: 3 players\. Ranked by points/).waitFor();
    const order = async () =>
      (await rows.locator('tbody tr').allTextContents()).map((t) => (t.includes(mid.username) ? 'mid' : t.includes(low.username) ? 'low' : 'ace'));
    expect(await order()).toEqual(['ace', 'mid', 'low']);

    await page.getByLabel('Ranked by').selectOption('current_streak');
    await page.waitForURL(/rank_by=current_streak/);
    await page.getByText(/Ranked by current streak/).waitFor();
    expect(await order()).toEqual(['ace', 'low', 'mid']);
    expect(await rows.locator('tbody tr').nth(1).locator('td').allTextContents()).toEqual(expect.arrayContaining(['2', '1 (best 1)']));
    await screenshot(page, 'leaderboards-current-streak-laptop');

    await page.getByLabel('Ranked by').selectOption('best_streak');
    await page.getByText(/Ranked by best streak/).waitFor();
    // mid's best 1 and low's tie; mid has more points.
    expect(await order()).toEqual(['ace', 'mid', 'low']);
    await page.reload();
    await page.getByText(/Ranked by best streak/).waitFor();
    expect(await page.getByLabel('Ranked by').inputValue()).toBe('best_streak');
    await context.close();
  });
});

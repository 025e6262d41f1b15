/**
 * Details operators met on the match page, boards and users: a live match
 * the feed has not scored yet shows 0 - 0 (a match not started shows -),
 * Start listener is disabled while a listener is queued or running, and
 * times in tables carry their date.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { matchListeners } from '../../src/modules/listeners/listeners.table.js';
import { insertIssuance, insertListener } from '../helpers/engine-rows.js';
import { createMatch, follow } from '../helpers/factories.js';
import { registerUser } from '../helpers/test-app.js';
import { chromiumAvailable, screenshot, signedIn, useBrowserApp } from './browser.js';

describe.skipIf(!chromiumAvailable)('operator UI: scores, listener buttons and dates', () => {
  const { app, admin, browser } = useBrowserApp();

  it('shows 0 - 0 for a live match with no goal yet, - before kick-off, and the score once there is one', async () => {
    const live = await createMatch(app, { homeTeam: 'Nil Home', awayTeam: 'Nil Away', status: 'live', period: '1', clockSeconds: 300 });
    const later = await createMatch(app, { homeTeam: 'Later Home', awayTeam: 'Later Away', status: 'scheduled' });
    const scored = await createMatch(app, { homeTeam: 'Goal Home', awayTeam: 'Goal Away', status: 'live', period: '2', homeScore: 2, awayScore: 1 });
    const { context, page } = await signedIn(browser(), app, admin);
    const score = async (id: string, teams: string) => {
      await page.goto(`/admin/matches/${id}`);
      await page.getByRole('heading', { name: teams }).waitFor();
      return page.getByLabel('Score').textContent();
    };
    expect(await score(live.id, 'Nil Home - Nil Away')).toBe('0 - 0');
    await screenshot(page, 'match-live-nil-nil-laptop');
    expect(await score(later.id, 'Later Home - Later Away')).toBe('-');
    expect(await score(scored.id, 'Goal Home - Goal Away')).toBe('2 - 1');
    await context.close();
  });

  it('disables Start listener while a listener of the test match is queued or running, and enables it once none is', async () => {
    const original = await createMatch(app, { homeTeam: 'Run Home', awayTeam: 'Run Away', status: 'closed', homeScore: 1, awayScore: 0 });
    const test = await createMatch(app, { homeTeam: 'Run Home', awayTeam: 'Run Away', isTest: true, clonedFromMatchId: original.id });
    const listener = await insertListener(app, { matchId: test.id, source: 'replay', replayMatchId: original.id, status: 'running', speed: 10 });
    const { context, page } = await signedIn(browser(), app, admin);
    await page.goto(`/admin/matches/${test.id}`);
    const actions = page.getByRole('group', { name: 'Listener actions' });
    const start = actions.getByRole('button', { name: 'Start listener' });
    await actions.getByText('a listener is queued or running').waitFor();
    expect(await start.isDisabled()).toBe(true);
    expect(await start.getAttribute('title')).toMatch(/already queued or running/);
    // Restart and Stop stay available.
    expect(await actions.getByRole('button', { name: 'Restart replay' }).isEnabled()).toBe(true);
    expect(await actions.getByRole('button', { name: 'Stop listener' }).isEnabled()).toBe(true);
    await screenshot(page, 'match-listener-running-laptop');

    await app.services.listeners.stopMatch(test.id, 'revoked');
    // The stop of a running listener lands at its next heartbeat; none runs here, so it ends as that heartbeat would end it.
    await app.services.database.db.update(matchListeners).set({ status: 'stopped', finishedAt: new Date() }).where(eq(matchListeners.id, listener.id));
    await page.reload();
    await actions.getByRole('button', { name: 'Start listener' }).waitFor();
    await expect.poll(() => actions.getByRole('button', { name: 'Start listener' }).isEnabled(), { timeout: 20_000 }).toBe(true);
    await context.close();
  });

  it('shows dates with the times of board rows and users', async () => {
    const match = await createMatch(app, {
      homeTeam: 'Date Home',
      awayTeam: 'Date Away',
      status: 'live',
      period: '1',
      scheduled: new Date(Date.now() - 600_000),
    });
    const player = await registerUser(app, { username: `dated_${Date.now().toString(36)}` });
    await follow(app, player.id, match.id);
    const q = await insertIssuance(app, { matchId: match.id, status: 'open', closesAt: new Date(Date.now() + 60_000), points: 10 });
    await app.request('PUT', '/api/question-answers', { token: player.token, body: { question_issuance_id: q.id, selected_answer_identifier: 'home' } });
    await app.services.engine.store.settleIssuance({ id: q.id, status: 'resolved', correct: 'home', resolvedSeq: null, resolutionEventId: null });
    await app.services.leaderboards.drain();

    const { context, page } = await signedIn(browser(), app, admin);
    // The date as this browser writes it, whatever its locale.
    const today = await page.evaluate(() => new Date().toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' }));
    await page.goto(`/admin/leaderboards?scope=match&match=${match.id}`);
    const row = page.getByRole('region', { name: 'Leaderboard rows' }).getByRole('row', { name: new RegExp(player.username) });
    await row.waitFor();
    expect(await row.textContent()).toContain(today);

    await page.goto(`/admin/users?q=${player.username}`);
    const userRow = page.getByRole('row', { name: new RegExp(player.username) });
    await userRow.waitFor();
    expect(await userRow.textContent()).toContain(today);
    await screenshot(page, 'users-dated-laptop');
    await context.close();
  });
});

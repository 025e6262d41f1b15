/**
 * The operations pages in a real browser: a closed match cloned from the
 * matches page and replayed on its detail page by an in-process engine worker
 * (a question appears in the event timeline while the replay runs), stopped,
 * its blocked attempts filtered by gate; users searched and deactivated;
 * push settings saved, refused and reset; a listener's log followed; the
 * feedback list filtered. Screenshots of each page at laptop and tablet
 * widths are kept in test-artifacts/screenshots.
 */
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticFootballMatch } from '../../src/engine/feed/synthetic.js';
import { GATES } from '../../src/engine/gates.js';
import type { EngineWorker } from '../../src/engine/worker.js';
import { questionAnswers } from '../../src/modules/answers/answers.table.js';
import { matchListeners } from '../../src/modules/listeners/listeners.table.js';
import { inGameDefinitionInput } from '../helpers/definitions.js';
import { startWorker, waitFor } from '../helpers/engine.js';
import { feedEvent, insertIssuance, insertListener, insertListenerEvents, insertLogLines } from '../helpers/engine-rows.js';
import { createMatch } from '../helpers/factories.js';
import { registerUser } from '../helpers/test-app.js';
import { ARTIFACTS, chromiumAvailable, CHROMIUM, screenshot, signedIn, useBrowserApp, VIEWPORTS } from './browser.js';

if (!chromiumAvailable) console.warn(`[browser tests] skipped: no Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run does)`);

const utcDay = (d: Date) => d.toISOString().slice(0, 10);

describe.skipIf(!chromiumAvailable)('operator UI: operations pages', () => {
  const { app, admin, browser } = useBrowserApp();
  let worker: EngineWorker | undefined;
  const stamp = Date.now().toString(36);
  const cornerName = `Replay corner ${stamp}`;
  const passName = `Replay pass (inactive) ${stamp}`;

  beforeAll(async () => {
    // The replay issues a question on the first corner; an inactive definition on passes is denied at definition_allowed.
    const corner = await app.request('POST', '/api/question-definitions', {
      token: admin.token,
      query: { league: 'wc' },
      body: inGameDefinitionInput({
        name: cornerName,
        trigger: { event_type: 'corner' },
        question_text_template: 'Corner for {{ event.team }}. Who shoots next?',
        choices: [
          { identifier: 'home', label_template: '{{ match.home_team }}' },
          { identifier: 'away', label_template: '{{ match.away_team }}' },
        ],
        resolution: { rules: [{ event_type: 'shot', correct_choice: 'event.team' }] },
      }),
    });
    expect(corner.status).toBe(201);
    const pass = await app.request('POST', '/api/question-definitions', {
      token: admin.token,
      query: { league: 'wc' },
      body: inGameDefinitionInput({ name: passName, trigger: { event_type: 'pass' }, is_active: false }),
    });
    expect(pass.status).toBe(201);
  });

  afterAll(async () => {
    await worker?.stop();
  });

  it('clones a recorded match, replays it with a worker, shows a question in the timeline, stops it and filters the blocked attempts', async () => {
    // A closed match whose listener recorded a synthetic match (about 33 s of feed at speed 1).
    const scheduled = new Date(Date.now() - 3_600_000);
    const { events } = syntheticFootballMatch({ seed: 7, homeTeam: 'Replay Home', awayTeam: 'Replay Away', kickoff: scheduled, durationScale: 0.005 });
    const original = await createMatch(app, {
      status: 'closed',
      homeTeam: 'Replay Home',
      awayTeam: 'Replay Away',
      scheduled,
      homeScore: 2,
      awayScore: 2,
      listenerEventsArchived: true,
    });
    const recording = await insertListener(app, { matchId: original.id, status: 'completed', source: 'feed', eventsConsumed: events.length });
    await insertListenerEvents(app, recording, events);

    const { context, page } = await signedIn(browser(), app, admin);
    await page.goto(`/admin/matches?day=${utcDay(scheduled)}`);
    const row = page.getByRole('row', { name: /Replay Home - Replay Away/ });
    await row.getByRole('button', { name: 'Clone as test match' }).click();
    await page.waitForURL(/\/admin\/matches\/[0-9a-f-]{36}$/);
    const cloneId = page.url().split('/').pop()!;
    expect(cloneId).not.toBe(original.id);
    await page.getByRole('heading', { name: 'Replay Home - Replay Away' }).waitFor();
    await page.getByLabel('Flags').getByText('test match').waitFor();

    // The clone queued a listener at the default speed: stop it, then start one at speed 1.
    const listeners = page.locator('#listeners');
    await listeners.getByText('queued').first().waitFor();
    await page.getByRole('button', { name: 'Stop listener' }).click();
    await page.getByRole('button', { name: 'Stop and revoke' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Stopped 1 listener \([0-9a-f]{8}\); revoked 0 open questions\./ })
      .waitFor();
    await listeners.getByText('stopped').first().waitFor();
    expect(await page.locator('.timeline-chart .marker-issued').count()).toBe(0);

    await page.getByLabel('Replay speed').fill('1');
    await page.getByRole('button', { name: 'Start listener' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Queued listener [0-9a-f]{8} \(replay at speed 1\); the Listeners table below follows its progress\./ })
      .waitFor();
    worker = startWorker(app);

    // The page polls while the listener runs: progress moves and the corner question appears in the timeline.
    await listeners.locator('.badge', { hasText: 'running' }).waitFor({ timeout: 60_000 });
    const issued = page.locator('.timeline-chart .marker-issued');
    await issued.first().waitFor({ timeout: 60_000 });
    expect(await listeners.locator('.badge', { hasText: 'running' }).count()).toBe(1);
    expect(await issued.first().locator('title').textContent()).toContain(`Issued: ${cornerName}`);
    expect(await page.locator('.timeline-chart rect.ev').count()).toBeGreaterThan(10);
    // The same markers across the match clock (one segment per period).
    await page.getByLabel('Timeline axis').selectOption('clock');
    await page.locator('.timeline-chart .segment-label', { hasText: 'period 1' }).waitFor();
    expect(await issued.count()).toBeGreaterThan(0);
    await page.locator('#timeline').screenshot({ path: path.join(ARTIFACTS, 'match-detail-timeline-clock-laptop.png') });
    await page.getByLabel('Timeline axis').selectOption('seq');
    await expect
      .poll(async () => (await listeners.locator('.listener-counts').first().textContent()) ?? '', { timeout: 60_000 })
      .toMatch(/^[1-9]\d* events, [1-9]\d* issued, [1-9]\d* denied/);
    // A replay knows its length: the bar shows how far it got.
    const bar = listeners.locator('.listener-progress [role=progressbar]').first();
    expect(await bar.getAttribute('aria-label')).toMatch(/^\d+ of \d+ events \(\d+%\)$/);
    expect(Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThan(0);
    await page
      .locator('#questions')
      .getByText(/Corner for (home|away)\. Who shoots next\?/)
      .first()
      .waitFor();
    await screenshot(page, 'match-detail-laptop');

    // Stop: the page says what was stopped and revoked, and the listener ends.
    await page.getByRole('button', { name: 'Stop listener' }).click();
    await page.getByRole('button', { name: 'Stop and revoke' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Stopped 1 listener \([0-9a-f]{8}\); revoked \d+ open questions?\./ })
      .waitFor();
    await waitFor(
      async () =>
        (await listeners.locator('.badge', { hasText: 'running' }).count()) === 0 && (await listeners.locator('.badge', { hasText: 'stopped' }).count()) === 2,
      { what: 'both listeners stopped', timeoutMs: 15_000 },
    );
    const api = await app.request('GET', '/api/match-listeners', {
      token: admin.token,
      query: {
        league: 'wc',
        scheduled_from: `${utcDay(new Date())}T00:00:00Z`,
        scheduled_to: new Date(Date.parse(`${utcDay(new Date())}T00:00:00Z`) + 86_400_000).toISOString(),
      },
    });
    const group = api.body.find((g: { match: { id: string } }) => g.match.id === cloneId);
    expect(group.listeners.map((l: { status: string }) => l.status)).toEqual(['stopped', 'stopped']);

    // Blocked attempts, filtered by the gate that closed.
    const denials = page.locator('#denials');
    // The UI's own list of gates is the engine's, in its order.
    expect(await page.getByLabel('Failed step').locator('option').allTextContents()).toEqual(['Any gate', ...GATES]);
    await page.getByLabel('Failed step').selectOption('definition_allowed');
    await page.waitForURL(/failed_step=definition_allowed/);
    // The URL changes before the filtered page arrives: the unfiltered rows (other gates too) stay on
    // screen until it does, so wait for the filtered list itself rather than reading the table once.
    await expect
      .poll(async () => [...new Set(await denials.locator('tbody tr td:nth-child(3)').allTextContents())], { timeout: 60_000 })
      .toEqual(['definition_allowed']);
    await denials.getByText(passName).first().waitFor();
    // The list says how many there are in all, and pages through them.
    const stored = await app.request('GET', `/api/matches/${cloneId}/question-issuance-denials`, {
      token: admin.token,
      query: { failed_step: 'definition_allowed', limit: 1 },
    });
    const pager = denials.getByRole('navigation', { name: 'denials pages' });
    await pager.getByText(new RegExp(`^1-${Math.min(50, stored.body.denial_count)} of ${stored.body.denial_count} denials$`)).waitFor();
    expect(await denials.locator('h2, h3').first().textContent()).toContain(`(${stored.body.denial_count})`);
    await page.getByLabel('Failed step').selectOption('probability');
    await denials.getByText('No attempt was blocked at probability.').waitFor();

    // The inheritance: the matrix with sources and the decision trace of the issued question.
    const inheritance = page.locator('#inheritance');
    await inheritance.getByRole('row', { name: new RegExp(cornerName) }).waitFor();
    await inheritance.getByRole('button', { name: 'Refresh' }).click();
    await inheritance.locator('details.trace').first().waitFor();
    await inheritance.locator('details.trace summary').first().click();
    await inheritance.getByText('definition_allowed').first().waitFor();

    // Settings: a PATCH with the API's error when a value is refused.
    const settings = page.getByRole('form', { name: 'Match settings' });
    await settings.getByLabel('Answer window (s)').fill('45');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('Saved 1 setting.').waitFor();
    await settings.getByLabel(/Period distribution/).fill('{"q9": 1}');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByRole('alert').waitFor();
    expect(await settings.getByRole('alert').textContent()).toMatch(/\(400\).*q9/);
    await context.close();

    // Tablet width.
    const tablet = await signedIn(browser(), app, admin, VIEWPORTS.tablet);
    await tablet.page.goto(`/admin/matches/${cloneId}`);
    await tablet.page.locator('.timeline-chart .marker-issued').first().waitFor();
    await screenshot(tablet.page, 'match-detail-tablet');
    await tablet.context.close();

    // Restart: the replay starts again from the beginning; what the earlier runs left goes.
    const again = await signedIn(browser(), app, admin);
    await again.page.goto(`/admin/matches/${cloneId}`);
    await again.page.getByRole('button', { name: 'Restart replay' }).click();
    await again.page.getByRole('button', { name: 'Restart', exact: true }).click();
    await again.page
      .getByRole('status')
      .filter({ hasText: /Restarted from the beginning: queued listener [0-9a-f]{8} \(replay at speed 10\)/ })
      .waitFor();
    const restarted = await app.request('GET', '/api/match-listeners', {
      token: admin.token,
      query: {
        league: 'wc',
        scheduled_from: `${utcDay(new Date())}T00:00:00Z`,
        scheduled_to: new Date(Date.parse(`${utcDay(new Date())}T00:00:00Z`) + 86_400_000).toISOString(),
      },
    });
    expect(restarted.body.find((g: { match: { id: string } }) => g.match.id === cloneId).listeners).toHaveLength(1);
    await again.context.close();

    // Clone paused, from the original's page: a test match with no listener yet.
    const paused = await signedIn(browser(), app, admin);
    await paused.page.goto(`/admin/matches/${original.id}`);
    await paused.page.getByRole('button', { name: 'Clone paused' }).click();
    // The original's page matches the pattern too: wait until it is another match's.
    await paused.page.waitForURL((u) => /^\/admin\/matches\/[0-9a-f-]{36}$/.test(u.pathname) && !u.pathname.endsWith(original.id));
    const pausedId = paused.page.url().split('/').pop()!;
    expect([original.id, cloneId]).not.toContain(pausedId);
    await paused.page.getByRole('button', { name: 'Start listener' }).waitFor();
    expect((await app.request('GET', `/api/matches/${pausedId}`, { token: admin.token })).body.is_test).toBe(true);
    const none = await app.request('GET', '/api/match-listeners', {
      token: admin.token,
      query: {
        league: 'wc',
        scheduled_from: `${utcDay(new Date())}T00:00:00Z`,
        scheduled_to: new Date(Date.parse(`${utcDay(new Date())}T00:00:00Z`) + 86_400_000).toISOString(),
      },
    });
    expect(none.body.find((g: { match: { id: string } }) => g.match.id === pausedId).listeners).toEqual([]);
    await paused.context.close();
  }, 180_000);

  it('follows a listener log on the listeners page and downloads the log and the recording', async () => {
    await worker?.stop();
    worker = undefined;
    const match = await createMatch(app, { homeTeam: 'Log Home', awayTeam: 'Log Away', scheduled: new Date(), status: 'live' });
    // Running elsewhere (a lease far ahead): nothing here claims it.
    const listener = await insertListener(app, {
      matchId: match.id,
      status: 'running',
      source: 'feed',
      claimedBy: 'other-host:4242',
      leaseExpiresAt: new Date(Date.now() + 3_600_000),
      heartbeatAt: new Date(),
      startedAt: new Date(),
      eventsConsumed: 3,
      issuedCount: 1,
      deniedCount: 2,
    });
    await insertListenerEvents(app, listener, [feedEvent({ seq: 1 }), feedEvent({ seq: 2, type: 'corner' }), feedEvent({ seq: 3 })]);
    await insertLogLines(
      app,
      listener.id,
      Array.from({ length: 120 }, (_, i) => ({ message: `consumed event ${i + 1}`, level: i % 40 === 39 ? 'warn' : 'info' })),
    );
    // An earlier listener of the same match, finished, with a log of its own.
    const earlier = await insertListener(app, {
      matchId: match.id,
      status: 'completed',
      source: 'feed',
      startedAt: new Date(Date.now() - 600_000),
      finishedAt: new Date(Date.now() - 300_000),
    });
    await insertLogLines(app, earlier.id, [{ message: 'earlier run started' }, { message: 'earlier run finished' }]);

    const { context, page } = await signedIn(browser(), app, admin);
    await page.goto(`/admin/listeners?league=wc&day=${utcDay(new Date())}`);
    const group = page.getByRole('region', { name: 'Log Home - Log Away' });
    await group.getByText('3 events, 1 issued, 2 denied, 0 resolved').waitFor();
    await group
      .getByRole('row', { name: new RegExp(listener.id.slice(0, 8)) })
      .getByRole('button', { name: 'Log', exact: true })
      .click();
    const viewer = page.getByRole('region', { name: `Log of listener ${listener.id.slice(0, 8)}` });
    await viewer.getByText('consumed event 120').waitFor();
    // New lines arrive while the viewer is open (polled with `after`), and it stays scrolled to the newest.
    await insertLogLines(app, listener.id, [{ message: 'issued a question on evt-2' }, { message: 'heartbeat ok', level: 'debug' }], 121);
    await viewer.getByText('heartbeat ok').waitFor({ timeout: 60_000 });
    expect(await viewer.getByText('122 lines').count()).toBe(1);
    const log = viewer.getByLabel('Log lines');
    await expect.poll(() => log.evaluate((el) => Math.abs(el.scrollHeight - el.scrollTop - el.clientHeight) < 12), { timeout: 30_000 }).toBe(true);
    await viewer.getByLabel('Lowest level shown').selectOption('warn');
    expect(await log.locator('.log-line').count()).toBe(3);

    const [logFile] = await Promise.all([page.waitForEvent('download'), viewer.getByRole('button', { name: 'Download log' }).click()]);
    expect(logFile.suggestedFilename()).toBe(`listener-${listener.id.slice(0, 8)}.log`);
    const [eventsFile] = await Promise.all([page.waitForEvent('download'), viewer.getByRole('button', { name: 'Download events' }).click()]);
    expect(eventsFile.suggestedFilename()).toBe(`listener-${listener.id.slice(0, 8)}-events.json`);
    await screenshot(page, 'listeners-laptop');

    // The other listener's log replaces it: its own lines only.
    await group
      .getByRole('row', { name: new RegExp(earlier.id.slice(0, 8)) })
      .getByRole('button', { name: 'Log', exact: true })
      .click();
    const earlierViewer = page.getByRole('region', { name: `Log of listener ${earlier.id.slice(0, 8)}` });
    await earlierViewer.getByText('earlier run finished').waitFor();
    expect(await earlierViewer.getByText('2 lines', { exact: true }).count()).toBe(1);
    expect(await earlierViewer.getByText(/consumed event|heartbeat ok/).count()).toBe(0);
    expect(await viewer.count()).toBe(0);
    await context.close();

    const tablet = await signedIn(browser(), app, admin, VIEWPORTS.tablet);
    await tablet.page.goto(`/admin/listeners?league=wc&day=${utcDay(new Date())}&log=${listener.id}`);
    await tablet.page.getByText('heartbeat ok').waitFor();
    await screenshot(tablet.page, 'listeners-tablet');
    await tablet.context.close();
  });

  it("shows a listener's last log lines when it finishes during a read of the log", async () => {
    const match = await createMatch(app, { homeTeam: 'Tail Home', awayTeam: 'Tail Away', scheduled: new Date(), status: 'live' });
    const listener = await insertListener(app, {
      matchId: match.id,
      status: 'running',
      source: 'feed',
      claimedBy: 'other-host:4242',
      leaseExpiresAt: new Date(Date.now() + 3_600_000),
      heartbeatAt: new Date(),
      startedAt: new Date(),
    });
    await insertLogLines(app, listener.id, [{ message: 'tail run started' }]);
    const { context, page } = await signedIn(browser(), app, admin);
    await page.goto(`/admin/listeners?league=wc&day=${utcDay(new Date())}&log=${listener.id}`);
    const viewer = page.getByRole('region', { name: `Log of listener ${listener.id.slice(0, 8)}` });
    await viewer.getByText('tail run started').waitFor();
    // The next poll of the log is answered as the server saw it then, but held back
    // until the listener has finished and the page knows it.
    let release!: () => Promise<void>;
    const held = new Promise<void>((resolve) => {
      void page.route(
        `**/api/match-listeners/${listener.id}/log?**`,
        async (route) => {
          const response = await route.fetch();
          release = () => route.fulfill({ response });
          resolve();
        },
        { times: 1 },
      );
    });
    await held;
    await insertLogLines(app, listener.id, [{ message: 'tail run finished' }], 2);
    await app.services.database.db.update(matchListeners).set({ status: 'completed', finishedAt: new Date() }).where(eq(matchListeners.id, listener.id));
    await page.getByRole('region', { name: 'Tail Home - Tail Away' }).getByText('completed', { exact: true }).first().waitFor();
    await release();
    // The read asked for when the listener finished runs after the held one: the last line arrives.
    await viewer.getByText('tail run finished').waitFor({ timeout: 60_000 });
    expect(await viewer.getByText('2 lines', { exact: true }).count()).toBe(1);
    await context.close();
  });

  it("searches users, creates one, deactivates another, and shows the API's 409 when an admin deactivates themselves", async () => {
    const target = await registerUser(app, { username: `zz_target_${stamp}`, first_name: 'Zelda' });
    await registerUser(app, { username: `zz_other_${stamp}` });
    const { context, page } = await signedIn(browser(), app, admin);
    await page.goto('/admin/users');
    await page.getByRole('heading', { name: 'Users' }).waitFor();

    await page.getByRole('button', { name: 'New user' }).click();
    const create = page.getByRole('form', { name: 'New user' });
    await create.getByLabel('Username').fill(`zz_new_${stamp}`);
    await create.getByLabel('Email').fill(`zz_new_${stamp}@example.com`);
    await create.getByLabel('Password').fill('a long enough password');
    await create.getByRole('button', { name: 'Create user' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Created zz_new_${stamp}.` })
      .waitFor();
    await page.getByRole('form', { name: `Edit zz_new_${stamp}` }).waitFor();

    await page.getByLabel('Search').fill(`zz_`);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/q=zz_/);
    await page.getByText(`1-3 of 3 users`).waitFor();
    // Display names show in the list, and the search finds them.
    expect((await app.request('PATCH', '/api/users/me', { token: target.token, body: { display_name: `Zelda Mighty ${stamp}` } })).status).toBe(200);
    await page.getByLabel('Search').fill(`zelda mighty ${stamp}`);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('1-1 of 1 users').waitFor();
    await page
      .getByRole('row', { name: new RegExp(`zz_target_${stamp}`) })
      .getByText(`Zelda Mighty ${stamp}`)
      .waitFor();
    await page.getByLabel('Search').fill(`zz_target_${stamp}`);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('1-1 of 1 users').waitFor();
    const row = page.getByRole('row', { name: new RegExp(`zz_target_${stamp}`) });
    await row.getByRole('button', { name: 'Deactivate' }).click();
    await row.getByRole('button', { name: 'Deactivate' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Deactivated zz_target_${stamp}` })
      .waitFor();
    await row.getByText('deactivated').waitFor();
    expect((await app.request('POST', '/api/auth/login', { body: { username: target.username, password: target.password } })).status).toBe(401);

    // An account its player deleted: marked, and not offered for reactivation.
    const leaving = await registerUser(app, { username: `zz_leaving_${stamp}` });
    expect((await app.request('POST', '/api/users/me/deletion', { token: leaving.token, body: { password: leaving.password } })).status).toBe(204);
    await page.getByLabel('Search').fill(leaving.id);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('1-1 of 1 users').waitFor();
    const deletedRow = page.getByRole('row', { name: /deleted by the player/ });
    await deletedRow.waitFor();
    expect(await deletedRow.getByRole('button', { name: 'Reactivate' }).count()).toBe(0);

    // Only deactivated accounts.
    await page.getByLabel('Search').fill('');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('combobox', { name: 'Account' }).selectOption('false');
    await page.getByText('1-2 of 2 users').waitFor();
    await page.getByRole('combobox', { name: 'Account' }).selectOption('');

    // Yourself: the API refuses, and its words show.
    await page.getByLabel('Search').fill(admin.username);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('1-1 of 1 users').waitFor();
    const me = page.getByRole('row', { name: new RegExp(admin.username) });
    await me.getByRole('button', { name: 'Deactivate' }).click();
    await me.getByRole('button', { name: 'Deactivate' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('Error (409): you cannot deactivate yourself; ask another admin');

    // A user's panel: edit, points and answers.
    await me.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Points' }).waitFor();
    await page.getByText('No answers yet.').waitFor();
    await screenshot(page, 'users-laptop');
    await context.close();

    const tablet = await signedIn(browser(), app, admin, VIEWPORTS.tablet);
    await tablet.page.goto(`/admin/users?q=zz_&user=${target.id}`);
    await tablet.page.getByRole('form', { name: `Edit ${target.username}` }).waitFor();
    await tablet.page.getByRole('heading', { name: 'Points' }).waitFor();
    await screenshot(tablet.page, 'users-tablet');
    await tablet.context.close();
  });

  it("saves push settings, shows the API's 400 for a broken template, resets to the defaults, and looks up delivery attempts", async () => {
    const { context, page } = await signedIn(browser(), app, admin);
    await page.goto('/admin/push');
    const form = page.getByRole('form', { name: 'Push settings' });
    await form.getByLabel('Per user per match (at most)').fill('7');
    await form.getByLabel('Issuance body template').fill('{{ question.text }} ({{ match.home_team }})');
    await form.getByRole('button', { name: 'Save settings' }).click();
    await form.getByText('Saved.', { exact: true }).waitFor();
    await page.getByText('changed from the defaults').waitFor();
    const stored = await app.request('GET', '/api/push-settings', { token: admin.token });
    expect(stored.body.stored_settings.max_per_user_per_match).toBe(7);
    expect(stored.body.stored_settings.issuance.templates.body_template).toBe('{{ question.text }} ({{ match.home_team }})');

    await form.getByLabel('Resolution title template').fill('{% if result.correct %}Correct');
    await form.getByRole('button', { name: 'Save settings' }).click();
    const alert = form.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/^Error \(400\): resolution\.templates\.title_template: does not parse/);
    await screenshot(page, 'push-laptop');

    await form.getByRole('button', { name: 'Reset to defaults' }).click();
    await form.getByRole('button', { name: 'Reset', exact: true }).click();
    await form.getByText('Restored the defaults.').waitFor();
    await page.getByText('the code defaults').waitFor();
    // The form restarts from the settings the reset answered with.
    await expect.poll(() => form.getByLabel('Per user per match (at most)').inputValue()).toBe('20');
    expect((await app.request('GET', '/api/push-settings', { token: admin.token })).body.is_default).toBe(true);

    const attempts = page.locator('#attempts');
    await attempts.getByLabel('User id or email').fill(admin.email);
    await attempts.getByRole('button', { name: 'Look up' }).click();
    await attempts.getByText('No delivery attempts.').waitFor();
    await attempts.getByLabel('User id or email').fill(`nobody-${stamp}@example.com`);
    await attempts.getByRole('button', { name: 'Look up' }).click();
    await attempts.getByRole('alert').waitFor();
    expect(await attempts.getByRole('alert').textContent()).toMatch(/^Error \(404\)/);
    await context.close();

    const tablet = await signedIn(browser(), app, admin, VIEWPORTS.tablet);
    await tablet.page.goto('/admin/push');
    await tablet.page.getByRole('form', { name: 'Push settings' }).waitFor();
    await screenshot(tablet.page, 'push-tablet');
    await tablet.context.close();
  });

  it('lists feedback with the admin filters and paging', async () => {
    const match = await createMatch(app, { homeTeam: 'Feedback Home', awayTeam: 'Feedback Away', status: 'closed' });
    const players = [await registerUser(app), await registerUser(app)];
    const topics = ['wrong_result', 'unclear_question', 'other'];
    for (const [i, topic] of topics.entries()) {
      const player = players[i % 2]!;
      const iss = await insertIssuance(app, { matchId: match.id, status: 'resolved', correctAnswerIdentifier: 'home' });
      const [answer] = await app.services.database.db
        .insert(questionAnswers)
        .values({
          userId: player.id,
          questionIssuanceId: iss.id,
          matchId: match.id,
          selectedAnswerIdentifier: 'away',
          outcome: 'incorrect',
          scoredAt: new Date(),
        })
        .returning();
      const res = await app.request('POST', '/api/user-feedback', {
        token: player.token,
        body: { subject_type: 'in_game_answer', subject_id: answer!.id, topic, description: `Feedback ${i + 1}: the result looked wrong to me.` },
      });
      expect(res.status).toBe(201);
    }
    const { context, page } = await signedIn(browser(), app, admin);
    await page.goto('/admin/feedback');
    await page.getByText('1-3 of 3 feedback rows').waitFor();
    await page.getByLabel('Topic').selectOption('wrong_result');
    await page.getByText('1-1 of 1 feedback rows').waitFor();
    await page.getByLabel('Topic').selectOption('');
    await page.getByLabel('User id').fill(players[0]!.id);
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('1-2 of 2 feedback rows').waitFor();
    // One bound of the created range alone: the API's own 400.
    await page.getByLabel('Created from (UTC day)').fill(utcDay(new Date()));
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toMatch(/^Error \(400\)/);
    await page.getByLabel('Created to (UTC day, included)').fill(utcDay(new Date()));
    await page.getByText('1-2 of 2 feedback rows').waitFor();
    await screenshot(page, 'feedback-laptop');
    await context.close();

    const tablet = await signedIn(browser(), app, admin, VIEWPORTS.tablet);
    await tablet.page.goto(`/admin/feedback?match_id=${match.id}`);
    await tablet.page.getByText('1-3 of 3 feedback rows').waitFor();
    await screenshot(tablet.page, 'feedback-tablet');
    await tablet.context.close();
  });
});

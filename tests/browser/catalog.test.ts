/**
 * The catalog pages of the operator UI in a real browser: the definition
 * editor's live preview, the CSV export and dry-run-then-apply import,
 * question groups (with the API's 409), and brands with their question
 * sponsorships (without a logo bucket, and with one).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { parseString, writeToString } from 'fast-csv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createMatchDefinition, inGameDefinitionInput } from '../helpers/definitions.js';
import { createMatch } from '../helpers/factories.js';
import { startS3, type TestS3 } from '../helpers/s3-server.js';
import { createAdmin, startTestApp, type TestApp, type TestUser } from '../helpers/test-app.js';
import { chromiumAvailable, CHROMIUM, screenshot, signedIn, useBrowserApp, VIEWPORTS } from './browser.js';

if (!chromiumAvailable) console.warn(`[browser tests] skipped: no Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run does)`);

const TEMPLATE_LABEL = 'Question text template (Liquid over event, state, match, extract)';

function parseCsv(text: string): Promise<string[][]> {
  return new Promise((resolve, reject) => {
    const rows: string[][] = [];
    parseString(text)
      .on('data', (r: string[]) => rows.push(r))
      .on('error', reject)
      .on('end', () => resolve(rows));
  });
}

/** A small solid-color PNG (a visible logo for the screenshots). */
function solidPng(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const byte of buf) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe.skipIf(!chromiumAvailable)('operator UI: question catalog and brands', () => {
  const { app, admin, browser } = useBrowserApp();
  let tmp: string;

  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'qp-ui-'));
  });
  afterAll(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  const createDefinition = async (overrides: Parameters<typeof inGameDefinitionInput>[0] = {}) => {
    const res = await app.request('POST', '/api/question-definitions', { token: admin.token, query: { league: 'wc' }, body: inGameDefinitionInput(overrides) });
    if (res.status !== 201) throw new Error(`create definition failed: ${res.status} ${res.text}`);
    return res.body as { id: string; name: string };
  };

  const preview = (page: Page) => page.getByRole('complementary', { name: 'Live preview' });

  it("edits a definition and sees its live preview follow the template, and the API's 400 for a broken one", async () => {
    const def = await createDefinition({ name: 'Who scores next (preview test)' });
    const expected = await app.request('POST', '/api/question-definitions/preview', {
      token: admin.token,
      body: {
        league: 'wc',
        question_text_template: inGameDefinitionInput().question_text_template,
        choices: inGameDefinitionInput().choices,
        sample_event_type: 'score_change',
      },
    });
    expect(expected.status).toBe(200);

    const { context, page } = await signedIn(browser(), app, admin);
    await page.goto('/admin/definitions?league=wc');
    await page
      .getByRole('row', { name: /Who scores next \(preview test\)/ })
      .getByRole('button', { name: 'Edit', exact: true })
      .click();
    await page.getByRole('form', { name: `Edit ${def.name}` }).waitFor();
    expect(page.url()).toContain(`edit=${def.id}`);

    // The stored template rendered from the catalog's score_change sample.
    await preview(page).getByText(expected.body.question_text, { exact: true }).waitFor();
    await preview(page).getByText(expected.body.choices[0].label, { exact: true }).waitFor();

    // A new template: the preview follows.
    await page.getByLabel(TEMPLATE_LABEL).fill('Who wins, {{ match.home_team }} or {{ match.away_team }}?');
    await preview(page).getByText('Who wins, Brazil or Serbia?', { exact: true }).waitFor();
    await page.getByLabel('Choice 3 label template').fill('Nobody, {{ event.score.home }}-{{ event.score.away }} stands');
    await preview(page)
      .getByText(/^Nobody, \d+-\d+ stands$/)
      .waitFor();
    await screenshot(page, 'definitions-editor-laptop');

    // A broken template: the API's 400 detail, as worded.
    await page.getByLabel(TEMPLATE_LABEL).fill('Who wins, {{ match.home_team ');
    const alert = preview(page).getByRole('alert');
    await alert.waitFor();
    const detail = await alert.textContent();
    expect(detail).toContain('(400)');
    expect(detail).toContain('question_text_template');
    await screenshot(page, 'definitions-preview-error-laptop');

    // Another sample event type renders from that sample.
    await page.getByLabel(TEMPLATE_LABEL).fill('{{ event.type }} in period {{ event.period }}');
    await preview(page)
      .getByRole('combobox', { name: /^Sample event/ })
      .selectOption('corner');
    await preview(page)
      .getByText(/^corner in period \S+$/)
      .waitFor();

    // Save: the full replace reaches the API.
    await page.getByLabel(TEMPLATE_LABEL).fill('Who wins, {{ match.home_team }} or {{ match.away_team }}?');
    await page.getByRole('button', { name: 'Save definition' }).click();
    await page.getByText(/^Saved at /).waitFor();
    const stored = await app.request('GET', `/api/question-definitions/${def.id}`);
    expect(stored.body.question_text_template).toBe('Who wins, {{ match.home_team }} or {{ match.away_team }}?');
    expect(stored.body.choices[2].label_template).toBe('Nobody, {{ event.score.home }}-{{ event.score.away }} stands');
    await context.close();

    const tablet = await signedIn(browser(), app, admin, VIEWPORTS.tablet);
    await tablet.page.goto(`/admin/definitions?league=wc&edit=${def.id}`);
    await preview(tablet.page).getByText('Who wins, Brazil or Serbia?', { exact: true }).waitFor();
    await screenshot(tablet.page, 'definitions-editor-tablet');
    await tablet.context.close();
  });

  it('exports the CSV, previews a modified file as one update (dry run), applies it, and shows the change; a refused file shows its errors', async () => {
    const target = await createDefinition({ name: 'CSV target' });
    await createDefinition({ name: 'CSV bystander' });
    const { context, page } = await signedIn(browser(), app, admin);
    await page.goto('/admin/definitions?league=wc');
    await page.getByRole('row', { name: /CSV target/ }).waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('question-definitions.csv');
    const rows = await parseCsv(fs.readFileSync((await download.path())!, 'utf8'));
    const [header, ...body] = rows;
    const col = (name: string) => header!.indexOf(name);
    const row = body.find((r) => r[col('id')] === target.id)!;
    expect(row).toBeTruthy();
    row[col('description')] = 'Edited in a spreadsheet';
    const file = path.join(tmp, 'definitions.csv');
    fs.writeFileSync(file, await writeToString([header!, ...body]));

    await page.getByRole('button', { name: 'Import CSV' }).click();
    const importer = page.getByRole('region', { name: 'Import in-game definitions CSV' });
    await importer.getByLabel('CSV file').setInputFiles(file);
    await importer.getByRole('button', { name: 'Check (dry run)' }).click();
    const result = importer.getByLabel('Import result');
    await result.getByText(/^dry run:/).waitFor();
    const counts = await result.locator('.import-counts').textContent();
    expect(counts).toContain('1 to update');
    expect(counts).toContain(`${body.length - 1} unchanged`);
    expect(counts).toContain('0 to create');
    expect(counts).toContain('0 row errors');
    const updates = await result.locator('.import-rows').first().textContent();
    expect(updates).toContain('CSV target');
    expect(updates).toContain('description');
    expect((await app.request('GET', `/api/question-definitions/${target.id}`)).body.description).toBeNull();
    await screenshot(page, 'definitions-import-laptop');

    await importer.getByRole('button', { name: 'Apply' }).click();
    await result.getByText(/^applied: 0 created, 1 updated/).waitFor();
    await page
      .getByRole('row', { name: /CSV target/ })
      .getByText('Edited in a spreadsheet')
      .waitFor();
    expect((await app.request('GET', `/api/question-definitions/${target.id}`)).body.description).toBe('Edited in a spreadsheet');

    // A file the API refuses (an unknown column): 400 with its errors.
    const bad = path.join(tmp, 'bad.csv');
    fs.writeFileSync(bad, await writeToString([[...header!, 'bogus'], ...body.map((r) => [...r, 'x'])]));
    await importer.getByLabel('CSV file').setInputFiles(bad);
    await importer.getByRole('button', { name: 'Check (dry run)' }).click();
    await result.getByText(/^Refused \(400\):/).waitFor();
    expect(await result.locator('.import-errors').textContent()).toContain('bogus');
    expect(await importer.getByRole('button', { name: 'Apply' }).count()).toBe(0);
    await context.close();

    const tablet = await signedIn(browser(), app, admin, VIEWPORTS.tablet);
    await tablet.page.goto('/admin/definitions?league=wc');
    await tablet.page.getByRole('row', { name: /CSV target/ }).waitFor();
    await screenshot(tablet.page, 'definitions-tablet');
    await tablet.context.close();
  });

  it("shows the API's error instead of hanging or showing empty lists when the key exchange fails", async () => {
    const { context, page } = await signedIn(browser(), app, admin);
    // The session endpoint is down from the start: the league list cannot load, and says why.
    await page.route('**/admin/api-session', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ detail: 'session store unavailable; try again shortly' }) }),
    );
    await page.goto('/admin/definitions?league=wc');
    await page.getByRole('alert').getByText('session store unavailable; try again shortly').first().waitFor();
    await page.unroute('**/admin/api-session');

    // Signed in for real; then an upload meets an expired key and a failing exchange: the importer shows the error.
    await page.goto('/admin/definitions?league=wc');
    await page.getByRole('button', { name: 'Import CSV' }).waitFor();
    await page.route('**/api/question-definitions/import**', (route) =>
      route.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify({ detail: 'invalid or revoked API key' }) }),
    );
    await page.route('**/admin/api-session', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ detail: 'session store unavailable; try again shortly' }) }),
    );
    const file = path.join(tmp, 'any.csv');
    fs.writeFileSync(file, 'id,league,name\n');
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const importer = page.getByRole('region', { name: 'Import in-game definitions CSV' });
    await importer.getByLabel('CSV file').setInputFiles(file);
    await importer.getByRole('button', { name: 'Check (dry run)' }).click();
    await importer.getByRole('alert').getByText('session store unavailable; try again shortly').waitFor({ timeout: 10_000 });
    expect(await importer.getByLabel('CSV file').isEnabled()).toBe(true);
    await context.close();
  });

  it('keeps every filter of the definition list in the query string, clones with a name, archives, and shows the 409 of a referenced delete', async () => {
    const pivotal = await createDefinition({ name: 'Filter pivotal one', is_pivotal_moment: true });
    const { context, page } = await signedIn(browser(), app, admin);
    await page.goto('/admin/definitions?league=wc&pivotal=true&q=filter');
    await page.getByRole('row', { name: /Filter pivotal one/ }).waitFor();
    expect(await page.getByRole('row', { name: /CSV bystander/ }).count()).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    await page.getByLabel('Created from (UTC)').fill(today);
    await page.getByLabel('Created before (UTC)').fill(new Date(Date.now() + 86_400_000).toISOString().slice(0, 10));
    await page.waitForURL(/created_to=/);
    // The 400 of the moment only created_from was set goes once the list with both bounds has loaded.
    await page.getByRole('alert').waitFor({ state: 'detached' });
    await page.getByRole('row', { name: /Filter pivotal one/ }).waitFor();
    const url = new URL(page.url());
    expect(url.searchParams.get('pivotal')).toBe('true');
    expect(url.searchParams.get('created_from')).toBe(today);

    // Only one bound of a pair: the API's 400, as worded.
    await page.getByLabel('Updated from (UTC)').fill(today);
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('updated_to');
    await page.getByLabel('Updated from (UTC)').fill('');

    // Clone with a name.
    await page
      .getByRole('row', { name: /Filter pivotal one/ })
      .getByRole('button', { name: 'Clone' })
      .click();
    await page.getByLabel(/Name of the copy/).fill('Filter pivotal two');
    await page
      .getByRole('form', { name: /Clone Filter pivotal one/ })
      .getByRole('button', { name: 'Clone' })
      .click();
    await page.getByText('Cloned as "Filter pivotal two".').waitFor();
    await page.getByRole('row', { name: /Filter pivotal two/ }).waitFor();

    // Archive hides it; "include archived" shows it again with its badge; activate.
    await page
      .getByRole('row', { name: /Filter pivotal two/ })
      .getByRole('button', { name: 'Archive' })
      .click();
    await page.getByRole('row', { name: /Filter pivotal two/ }).waitFor({ state: 'detached' });
    await page.getByLabel('Include archived').check();
    await page
      .getByRole('row', { name: /Filter pivotal two/ })
      .getByText('archived')
      .waitFor();
    await page
      .getByRole('row', { name: /Filter pivotal two/ })
      .getByRole('button', { name: 'Activate' })
      .click();
    await page
      .getByRole('row', { name: /Filter pivotal two/ })
      .getByRole('button', { name: 'Archive' })
      .waitFor();

    // A definition a sponsorship slot references cannot be deleted: the API's 409 explains.
    const match = await createMatch(app);
    const brand = new FormData();
    brand.append('name', 'Slot holder');
    brand.append('primary_color', '#123456');
    const b = await app.request('POST', '/api/brands', { token: admin.token, form: brand });
    const assigned = await app.request('POST', `/api/brands/${b.body.id}/question-sponsorships`, {
      token: admin.token,
      body: { match_ids: [match.id], slots: [{ strategy: 'definition', target: pivotal.id }] },
    });
    expect(assigned.status).toBe(200);
    const row = page.getByRole('row', { name: /Filter pivotal one/ });
    await row.getByRole('button', { name: 'Delete' }).click();
    await row.getByRole('button', { name: 'Yes, delete' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const text = await alert.textContent();
    expect(text).toContain('(409)');
    expect(text).toContain('1 sponsorship slot');
    expect(text).toContain('archive it instead');
    await screenshot(page, 'definitions-laptop');
    await page.getByRole('button', { name: 'Archive "Filter pivotal one" instead' }).click();
    await page
      .getByRole('row', { name: /Filter pivotal one/ })
      .getByText('archived')
      .waitFor();
    // The row may read "archived" before the request is done (a loaded machine): the archive lands shortly.
    await expect.poll(async () => (await app.request('GET', `/api/question-definitions/${pivotal.id}`)).body.is_archived, { timeout: 15_000 }).toBe(true);

    // An unreferenced one goes.
    const clone = page.getByRole('row', { name: /Filter pivotal two/ });
    await clone.getByRole('button', { name: 'Delete' }).click();
    await clone.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByText('Deleted "Filter pivotal two".').waitFor();
    await context.close();
  });

  it('creates a Match question definition with its pre-match preview, archives it and exports the Match CSV', async () => {
    const { context, page } = await signedIn(browser(), app, admin);
    await page.goto('/admin/match-definitions?league=wc');
    await page.getByRole('button', { name: 'New definition' }).click();
    const form = page.getByRole('form', { name: 'New Match question definition' });
    await form.getByLabel('Name', { exact: true }).fill('Who wins (UI)');
    await preview(page).getByText('Brazil vs Serbia: who wins?', { exact: true }).waitFor();
    await form.getByLabel('Question text template (Liquid over match, state, extract)').fill('{{ match.home_team }} to win?');
    await form.getByLabel('Choice 3 identifier').fill('');
    await preview(page).getByText('Brazil to win?', { exact: true }).waitFor();
    await form.getByRole('button', { name: 'Remove choice 3' }).click();
    await form.getByLabel('Choice 2 identifier').fill('no');
    await form.getByLabel('Choice 2 label template').fill('No');
    await form.getByLabel('Choice 1 identifier').fill('yes');
    await form.getByLabel('Choice 1 label template').fill('Yes, {{ match.home_team }}');
    await form.getByLabel('Correct choice (JSONata over result, match)').fill('result.winner = "home" ? "yes" : "no"');
    await form.getByLabel('Issue lead (s before kick-off)').fill('7200');
    await preview(page).getByText('Yes, Brazil', { exact: true }).waitFor();
    // The fields the two kinds share: the extract renders in the preview, the flag is saved.
    await form.getByLabel("Pivotal moment (counted apart from the match's regular questions)").check();
    await form.getByLabel('issuance_state_extract (name -> JSONata over match, state; null for none)').fill('{"side": "match.home_team & \' at home\'"}');
    await form.getByLabel('Choice 1 label template').fill('Yes, {{ extract.side }}');
    await preview(page).getByText('Yes, Brazil at home', { exact: true }).waitFor();
    await screenshot(page, 'match-definitions-editor-laptop');
    await form.getByRole('button', { name: 'Create definition' }).click();
    await page.getByRole('form', { name: 'Edit Who wins (UI)' }).getByText('Created "Who wins (UI)".').waitFor();
    const list = (await app.request('GET', '/api/match-question-definitions', { query: { league: 'wc' } })).body;
    const created = list.find((d: { name: string }) => d.name === 'Who wins (UI)');
    expect(created).toMatchObject({
      issue_lead_seconds: 7200,
      is_pivotal_moment: true,
      issuance_state_extract: { side: "match.home_team & ' at home'" },
      resolution: { correct_choice: 'result.winner = "home" ? "yes" : "no"' },
      choices: [{ identifier: 'yes', label_template: 'Yes, {{ extract.side }}' }, { identifier: 'no' }],
    });
    // Left through the navigation (not the editor's own button) and opened again: the note was for the moment of creation.
    await page.getByRole('link', { name: 'Match questions', exact: true }).click();
    await page.getByLabel('League', { exact: true }).first().selectOption('wc');
    await page
      .getByRole('row', { name: /Who wins \(UI\)/ })
      .getByRole('button', { name: 'Edit' })
      .click();
    const reopened = page.getByRole('form', { name: 'Edit Who wins (UI)' });
    await reopened.getByLabel('Name', { exact: true }).waitFor();
    expect(await reopened.getByText('Created "Who wins (UI)".').count()).toBe(0);

    await page.getByRole('button', { name: 'Back to the list' }).click();
    await page
      .getByRole('row', { name: /Who wins \(UI\)/ })
      .getByRole('button', { name: 'Archive' })
      .click();
    await page.getByRole('row', { name: /Who wins \(UI\)/ }).waitFor({ state: 'detached' });
    await page.getByLabel('Include inactive (archived)').check();
    await page
      .getByRole('row', { name: /Who wins \(UI\)/ })
      .getByText('inactive')
      .waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('match-question-definitions.csv');
    expect(fs.readFileSync((await download.path())!, 'utf8')).toContain('Who wins (UI)');
    await page.getByRole('button', { name: 'Import CSV' }).click();
    await page.getByRole('region', { name: 'Import Match question definitions CSV' }).getByLabel('CSV file').waitFor();
    await screenshot(page, 'match-definitions-laptop');
    await context.close();

    const tablet = await signedIn(browser(), app, admin, VIEWPORTS.tablet);
    await tablet.page.goto(`/admin/match-definitions?league=wc&archived=true&edit=${created.id}`);
    await preview(tablet.page).getByText('Brazil to win?', { exact: true }).waitFor();
    await screenshot(tablet.page, 'match-definitions-tablet');
    await tablet.context.close();
  });

  it('opens a definition addressed under another league in its own league, for both kinds', async () => {
    const inGame = await createDefinition({ name: 'Next goal (other league test)' });
    const match = (await createMatchDefinition(app, admin, 'wc', { name: 'Who wins (other league test)' })) as { id: string; name: string };
    const { context, page } = await signedIn(browser(), app, admin);
    for (const [pagePath, def] of [
      ['/admin/definitions', inGame],
      ['/admin/match-definitions', match],
    ] as const) {
      await page.goto(`${pagePath}?league=nfl&edit=${def.id}`);
      // No editor under the NFL (its groups, samples and defaults would be the wrong ones): a pointer to the definition's league.
      await page.getByText('This definition belongs to league wc.').waitFor();
      expect(await page.getByRole('form', { name: `Edit ${def.name}` }).count()).toBe(0);
      await page.getByRole('link', { name: 'Open it there' }).click();
      await page
        .getByRole('form', { name: `Edit ${def.name}` })
        .getByLabel('Name', { exact: true })
        .waitFor();
      expect(new URL(page.url()).searchParams.get('league')).toBe('wc');
    }
    await context.close();
  });

  it('creates, edits and deletes a question group, showing the 409 while a definition uses it', async () => {
    const { context, page } = await signedIn(browser(), app, admin);
    await page.goto('/admin/groups?league=wc');
    await page.getByRole('button', { name: 'New group' }).click();
    const create = page.getByRole('form', { name: 'New question group' });
    await create.getByLabel('Slug').fill('ui-goals');
    await create.getByLabel('Name', { exact: true }).fill('Goal lane');
    await create.getByLabel('Open at once (lane width)').fill('2');
    await create.getByLabel(/Period distribution/).fill('{"1": 2, "2": 3}');
    await create.getByRole('button', { name: 'Create group' }).click();

    const edit = page.getByRole('form', { name: 'Edit group ui-goals' });
    await edit.waitFor();
    expect(await edit.getByLabel('Slug (read-only)').textContent()).toBe('ui-goals');
    expect(await edit.getByRole('textbox', { name: 'Slug' }).count()).toBe(0);
    await edit.getByLabel('Name', { exact: true }).fill('Goal lane (edited)');
    await edit.getByLabel('Points').fill('25');
    await edit.getByRole('button', { name: 'Save group' }).click();
    await edit.getByText('Saved.').waitFor();
    await page
      .getByRole('row', { name: /ui-goals/ })
      .getByText('Goal lane (edited)')
      .waitFor();

    // The API's 400 for a bad period map, as worded.
    await edit.getByLabel(/Period distribution/).fill('{"q9": 1}');
    await edit.getByRole('button', { name: 'Save group' }).click();
    await edit.getByRole('alert').waitFor();
    expect(await edit.getByRole('alert').textContent()).toContain('q9');
    await edit.getByLabel(/Period distribution/).fill('{"1": 2, "2": 3}');

    const groups = await app.request('GET', '/api/question-groups', { token: admin.token, query: { league: 'wc' } });
    const group = groups.body.find((g: { slug: string }) => g.slug === 'ui-goals');
    expect(group).toMatchObject({ name: 'Goal lane (edited)', points: 25, max_open_questions: 2, period_distribution: { '1': 2, '2': 3 } });
    const def = await createDefinition({ name: 'Uses the goal lane', group_id: group.id });

    const row = page.getByRole('row', { name: /ui-goals/ });
    await row.getByRole('button', { name: 'Delete' }).click();
    await row.getByRole('button', { name: 'Yes, delete' }).click();
    const alert = page.locator('.page > .error');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(
      "Error (409): question group 'ui-goals' is used by 1 question definition; move them to another group (or none) before deleting it",
    );
    await screenshot(page, 'groups-laptop');

    expect((await app.request('DELETE', `/api/question-definitions/${def.id}`, { token: admin.token })).status).toBe(204);
    await row.getByRole('button', { name: 'Delete' }).click();
    await row.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByText('Deleted group ui-goals.').waitFor();
    // The list reloads a moment after the notice.
    await expect.poll(() => page.getByRole('row', { name: /ui-goals/ }).count()).toBe(0);
    await context.close();

    const tablet = await signedIn(browser(), app, admin, VIEWPORTS.tablet);
    await app.request('POST', '/api/question-groups', {
      token: admin.token,
      query: { league: 'wc' },
      body: { slug: 'corners', name: 'Corner questions', description: 'After each corner', question_max_count: 3, period_distribution: { '1': 1, '2': 2 } },
    });
    await tablet.page.goto('/admin/groups?league=wc');
    await tablet.page
      .getByRole('row', { name: /corners/ })
      .getByRole('button', { name: 'Edit' })
      .click();
    await tablet.page.getByRole('form', { name: 'Edit group corners' }).waitFor();
    await screenshot(tablet.page, 'groups-tablet');
    await tablet.context.close();
  });

  it('creates, edits and deletes a brand without a logo (503 when a logo is chosen without a bucket) and assigns question sponsorships to a scheduled match', async () => {
    const match = await createMatch(app, { homeTeam: 'Sponsor Home', awayTeam: 'Sponsor Away', scheduled: new Date(Date.now() + 2 * 3600_000) });
    const day = match.scheduled.toISOString().slice(0, 10);
    const { context, page } = await signedIn(browser(), app, admin);
    await page.goto('/admin/brands');
    await page.getByRole('button', { name: 'New brand' }).click();
    const create = page.getByRole('form', { name: 'New brand' });
    await create.getByLabel('Name', { exact: true }).fill('Acme UI');
    await create.getByRole('textbox', { name: 'Primary color', exact: true }).fill('#ff5500');
    await create.getByRole('textbox', { name: 'Secondary color', exact: true }).fill('#024');
    await create.getByRole('button', { name: 'Create brand' }).click();
    const edit = page.getByRole('form', { name: 'Edit brand Acme UI' });
    await edit.getByText('Saved.').waitFor();
    await page
      .getByRole('row', { name: /Acme UI/ })
      .getByText('#ff5500 / #002244')
      .waitFor();

    await edit.getByLabel('Name', { exact: true }).fill('Acme UI Drinks');
    await edit.getByRole('textbox', { name: 'Secondary color', exact: true }).fill('');
    await edit.getByRole('button', { name: 'Save brand' }).click();
    await page.getByRole('row', { name: /Acme UI Drinks/ }).waitFor();
    const stored = (await app.request('GET', '/api/brands', { query: { q: 'Acme UI' } })).body;
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ name: 'Acme UI Drinks', primary_color: '#ff5500', secondary_color: null, logo_url: null });

    // A logo without a bucket: the API's 503, as worded; the image preview shows what was chosen.
    const form = page.getByRole('form', { name: 'Edit brand Acme UI Drinks' });
    await form.getByLabel(/^Logo/).setInputFiles({ name: 'acme.png', mimeType: 'image/png', buffer: solidPng(48, 48, [255, 255, 255]) });
    await form.locator('.brand-swatch img').waitFor();
    await form.getByRole('button', { name: 'Save brand' }).click();
    await form.getByRole('alert').waitFor();
    expect(await form.getByRole('alert').textContent()).toBe(
      'Error (503): logo storage is not configured: set S3_BUCKET (and S3_ENDPOINT, credentials) to upload or remove logos',
    );

    // A duplicate name: the API's 409.
    await page.getByRole('button', { name: 'New brand' }).click();
    const dup = page.getByRole('form', { name: 'New brand' });
    await dup.getByLabel('Name', { exact: true }).fill('acme ui drinks');
    await dup.getByRole('button', { name: 'Create brand' }).click();
    await dup.getByRole('alert').waitFor();
    expect(await dup.getByRole('alert').textContent()).toContain('(409)');
    await dup.getByRole('button', { name: 'Close' }).click();

    // Sponsorships: pick the day's scheduled match, two slots, assign.
    await page
      .getByRole('row', { name: /Acme UI Drinks/ })
      .getByRole('button', { name: 'Sponsorships' })
      .click();
    const panel = page.getByRole('region', { name: 'Question sponsorships of Acme UI Drinks' });
    await panel.getByText('This brand has no question sponsorship slots.').waitFor();
    await panel.getByLabel('Day (UTC)').fill(day);
    await panel.getByRole('checkbox', { name: /Sponsor Home - Sponsor Away/ }).check();
    await panel.getByLabel('Slot 1 target').fill('2');
    await panel.getByRole('button', { name: 'Add slot' }).click();
    await panel.getByLabel('Slot 2 strategy').selectOption('period');
    await panel.getByLabel('Slot 2 target').selectOption('2');
    await panel.getByRole('button', { name: 'Assign to 1 match' }).click();
    const result = panel.getByLabel('Assignment result');
    await result.waitFor();
    const resultRow = result.getByRole('row', { name: /Sponsor Home - Sponsor Away/ });
    expect(await resultRow.textContent()).toContain('question_number 2');
    expect(await resultRow.textContent()).toContain('period 2');
    expect((await resultRow.locator('td').nth(2).textContent())?.trim()).toBe('2');
    await panel
      .getByRole('group', { name: 'Current slots' })
      .getByRole('row', { name: /Sponsor Home - Sponsor Away.*question_number/ })
      .waitFor();
    const slots = await app.request('GET', `/api/brands/${stored[0].id}/question-sponsorships`);
    expect(slots.body.map((s: { strategy: string; target: unknown }) => [s.strategy, s.target])).toEqual([
      ['question_number', 2],
      ['period', '2'],
    ]);

    // Over the match's cap: the API's 409, as worded.
    await panel.getByText('Random percent').click();
    await panel.getByLabel('Percent (1 to 100)').fill('100');
    await panel.getByLabel("Replace this brand's existing slots on these matches").uncheck();
    await panel.getByRole('button', { name: 'Assign to 1 match' }).click();
    await panel.getByRole('alert').waitFor();
    expect(await panel.getByRole('alert').textContent()).toContain('(409)');
    await screenshot(page, 'brands-laptop');
    await context.close();

    const tablet = await signedIn(browser(), app, admin, VIEWPORTS.tablet);
    await tablet.page.goto(`/admin/brands?sponsorships=${stored[0].id}`);
    const tabletPanel = tablet.page.getByRole('region', { name: 'Question sponsorships of Acme UI Drinks' });
    await tabletPanel.getByLabel('Day (UTC)').fill(day);
    await tabletPanel.getByRole('checkbox', { name: /Sponsor Home - Sponsor Away/ }).waitFor();
    await tablet.page
      .getByRole('row', { name: /Acme UI Drinks/ })
      .getByRole('button', { name: 'Edit' })
      .click();
    await tablet.page.getByRole('form', { name: 'Edit brand Acme UI Drinks' }).waitFor();
    await screenshot(tablet.page, 'brands-tablet');

    // Delete (its slots go with it).
    const row = tablet.page.getByRole('row', { name: /Acme UI Drinks/ });
    await row.getByRole('button', { name: 'Delete' }).click();
    await row.getByRole('button', { name: 'Yes, delete' }).click();
    await tablet.page.getByText('Deleted brand "Acme UI Drinks".').waitFor();
    expect((await app.request('GET', '/api/brands', { query: { q: 'Acme UI' } })).body).toEqual([]);
    await tablet.context.close();
  });

  describe('with a logo bucket', () => {
    let s3: TestS3;
    let withS3: TestApp;
    let s3Admin: TestUser;
    beforeAll(async () => {
      s3 = await startS3();
      withS3 = await startTestApp({ config: { s3: s3.config } });
      s3Admin = await createAdmin(withS3);
    });
    afterAll(async () => {
      await withS3?.close();
      await s3?.close();
    });

    it('uploads a logo with a preview, shows it, and clears it', async () => {
      const logo = solidPng(64, 32, [11, 110, 79]);
      const { context, page } = await signedIn(browser(), withS3, s3Admin);
      await page.goto('/admin/brands');
      await page.getByRole('button', { name: 'New brand' }).click();
      const create = page.getByRole('form', { name: 'New brand' });
      await create.getByLabel('Name', { exact: true }).fill('Logo Co');
      await create.getByRole('textbox', { name: 'Primary color', exact: true }).fill('#1d2330');
      await create.getByLabel(/^Logo/).setInputFiles({ name: 'logo-co.png', mimeType: 'image/png', buffer: logo });
      await create.locator('.brand-swatch img').waitFor();
      await create.getByRole('button', { name: 'Create brand' }).click();
      const edit = page.getByRole('form', { name: 'Edit brand Logo Co' });
      await edit.getByText('Saved.').waitFor();
      const brand = (await withS3.request('GET', '/api/brands', { query: { q: 'Logo Co' } })).body[0];
      expect(brand.logo_filename).toBe('logo-co.png');
      expect(await s3.read(`brands/${brand.id}/logo-co.png`)).toEqual(logo);
      const thumb = page.getByRole('img', { name: 'Logo Co logo' });
      await thumb.waitFor();
      await page.waitForFunction("[...document.querySelectorAll('img.logo-thumb')].every((i) => i.complete && i.naturalWidth > 0)");
      await edit.getByText('logo-co.png').waitFor();
      await screenshot(page, 'brands-logo-laptop');

      await edit.getByLabel('Clear logo').check();
      await edit.getByRole('button', { name: 'Save brand' }).click();
      await page
        .getByRole('row', { name: /Logo Co/ })
        .getByText('none')
        .waitFor();
      expect((await withS3.request('GET', '/api/brands', { query: { q: 'Logo Co' } })).body[0].logo_url).toBeNull();
      await context.close();
    });
  });
});

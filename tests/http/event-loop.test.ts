/**
 * No request holds the event loop for long: hostile admin inputs (huge
 * expressions, CSV bombs, a Liquid bomb, a flood of costly previews) run
 * beside a stream of anonymous GETs, and a monitor (tests/helpers/loop-monitor.ts)
 * finds the longest stretch of this process's own work between two turns of
 * the loop. The service's target is ~50 ms; the bound here is twice that,
 * and it is measured in CPU of the loop's thread, so a loaded machine (a
 * core shared with other test files) does not count. Before the fixes of
 * issue 24 the expression cases held it for 0.4 to 0.6 s of CPU (seconds
 * of wall time) and the CSV of blank lines for longer than the test waits;
 * after them the longest stretch is 10 to 40 ms. A case over the bound is
 * run again (at most three times in all) and fails only when every run is
 * over it: a regression blocks every time, a pause of the runtime once.
 * docs/decisions.md ("Hostile input, tested") explains the method.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inGameDefinitionInput, matchDefinitionInput } from '../helpers/definitions.js';
import { describeReport, startLoopMonitor, type LoopReport } from '../helpers/loop-monitor.js';
import { MATCH_KIND } from '../helpers/definition-kinds.js';
import { useTestApp } from '../helpers/use-test-app.js';

const { app, admin } = useTestApp();

/** Twice the service's target for one stretch of work on the loop (ms of the loop thread's CPU). */
const BOUND_MS = 100;
const ATTEMPTS = 3;

/** Anonymous GETs, one after the other, until told to stop; how many were answered. */
async function getStream(stopped: () => boolean): Promise<number> {
  let answered = 0;
  while (!stopped()) {
    const res = await app.request('GET', '/api/leagues');
    expect(res.status).toBe(200);
    answered++;
  }
  return answered;
}

/**
 * Runs `hostile` beside two streams of GETs under the monitor; the streams
 * end with it, and what it threw (its own assertions) is returned, not
 * thrown: whether it held the loop is the first verdict.
 */
async function watched(hostile: () => Promise<void>): Promise<{ report: LoopReport; gets: number; failure: unknown }> {
  let done = false;
  const monitor = startLoopMonitor();
  const streams = Promise.all([getStream(() => done), getStream(() => done)]);
  let failure: unknown;
  try {
    await hostile();
  } catch (err) {
    failure = err ?? new Error('failed');
  }
  done = true;
  const report = monitor.stop();
  const gets = (await streams).reduce((a, b) => a + b, 0);
  return { report, gets, failure };
}

/**
 * Fails unless one of up to ATTEMPTS runs of `hostile` stays within the
 * bound (a run three times past it fails at once), and then with what
 * `hostile` itself asserts about the answers.
 */
async function expectNoLongHold(hostile: () => Promise<void>): Promise<void> {
  const reports: string[] = [];
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const { report, gets, failure } = await watched(hostile);
    expect(gets, 'the GETs beside it were answered').toBeGreaterThan(0);
    if (report.longest.workMs <= BOUND_MS) {
      if (failure) throw failure;
      return;
    }
    reports.push(describeReport(report));
    // No pause of the runtime is that long: a run far past the bound is the work itself.
    if (report.longest.workMs > 3 * BOUND_MS) break;
  }
  expect.fail(`held the event loop past ${BOUND_MS} ms:\n${reports.join('\n')}`);
}

const preview = (body: Record<string, unknown>) => app.request('POST', '/api/question-definitions/preview', { token: admin.token, body });
const base = { league: 'wc', question_text_template: 'x', sample_event_type: 'shot' };

/** A path of ~980 steps in ~2,000 characters: quadratic for JSONata to compile (its first step unique: no cache has it). */
const longPath = () => ['event', `k${randomUUID().replaceAll('-', '')}`, ...Array.from({ length: 978 }, () => 'a')].join('.');
/** ~`length` characters of a shape JSONata compiles in linear time, and evaluates at once. */
const longText = (length = 1980) => `$length("${randomUUID()}${'x'.repeat(length - 48)}")`;
const keyed = (n: number, make: (i: number) => string) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`e${i}`, make(i)]));

/** A CSV file upload to an import. */
function importCsv(path: string, content: string) {
  const form = new FormData();
  form.append('file', new Blob([content], { type: 'text/csv' }), 'definitions.csv');
  return app.request('POST', path, { token: admin.token, form, query: { dry_run: true } });
}

const cell = (value: unknown) => {
  const text = value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

// A run of a hostile case takes seconds on a loaded machine (the sandbox works meanwhile), and a case may run three times.
describe('no request holds the event loop for long (issue 24)', { timeout: 180_000 }, () => {
  it('a preview of 50 expressions, each a path of ~1,000 steps in 2,000 characters', async () => {
    await expectNoLongHold(async () => {
      const res = await preview({ ...base, issuance_state_extract: keyed(50, () => longPath()) });
      expect(res.status, res.text.slice(0, 200)).toBe(200);
    });
  });

  it("the issue's preview of 200 such expressions (422)", async () => {
    await expectNoLongHold(async () => {
      expect((await preview({ ...base, issuance_state_extract: keyed(200, () => longPath()) })).status).toBe(422);
    });
  });

  it('a definition of 141 expressions of 2,000 characters, 51 of them paths of ~1,000 steps', async () => {
    await expectNoLongHold(async () => {
      const body = inGameDefinitionInput({
        name: `Heavy ${randomUUID()}`,
        trigger: { event_type: 'shot', condition: longPath() },
        issuance_state_extract: keyed(50, () => longPath()),
        store_state: keyed(50, () => longText()),
        resolution: { rules: Array.from({ length: 20 }, () => ({ event_type: 'shot', condition: longText(), correct_choice: longText() })) },
      });
      const res = await app.request('POST', '/api/question-definitions', { token: admin.token, query: { league: 'wc' }, body });
      expect(res.status, res.text.slice(0, 200)).toBe(201);
    });
  });

  it('a CSV import of a header and 5,000,000 blank lines', async () => {
    const content = `${MATCH_KIND.columns.join(',')}\n${'\n'.repeat(5_000_000)}`;
    await expectNoLongHold(async () => {
      expect((await importCsv('/api/match-question-definitions/import', content)).status).toBe(400);
    });
  });

  it('a CSV import of a header of 1,000,000 columns', async () => {
    const content = `${Array.from({ length: 1_000_000 }, () => 'c').join(',')}\n`;
    await expectNoLongHold(async () => {
      expect((await importCsv('/api/match-question-definitions/import', content)).status).toBe(400);
    });
  });

  it('a CSV import (dry run) of 2,000 rows', async () => {
    const columns = MATCH_KIND.columns;
    const rows = Array.from({ length: 2000 }, (_, i) => {
      const row: Record<string, unknown> = {
        league: 'nba',
        ...matchDefinitionInput({ name: `Row ${i} ${randomUUID()}`, store_state: keyed(1, () => longText(800)) }),
      };
      return columns.map((c) => cell(row[c])).join(',');
    });
    const content = `${columns.join(',')}\n${rows.join('\n')}\n`;
    await expectNoLongHold(async () => {
      const res = await importCsv('/api/match-question-definitions/import', content);
      expect(res.status, res.text.slice(0, 200)).toBe(200);
      expect(res.body.creates).toHaveLength(2000);
    });
  });

  it('a Liquid template of 1 KB that doubles a captured variable 22 times', async () => {
    let template = '{% capture a %}x y {% endcapture %}';
    for (let i = 0; i < 22; i++) template += '{% capture a %}{{ a }}{{ a }}{% endcapture %}';
    await expectNoLongHold(async () => {
      const res = await preview({ ...base, question_text_template: `${template}{{ a }}` });
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/wrote more than 20,000 characters/);
    });
  });

  it('40 costly previews at once', async () => {
    await expectNoLongHold(async () => {
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          preview({ ...base, issuance_state_extract: { n: `$count($distinct([1..${2000 + i}]))`, r: '$contains("GOAL", /goal/i)' } }),
        ),
      );
      // Each is answered: rendered, or refused when the admin lane is full.
      for (const res of answers) expect([200, 400], res.text.slice(0, 200)).toContain(res.status);
    });
  });
});

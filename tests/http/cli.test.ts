/**
 * The command-line tools fail with one line that says what to do: wrong
 * arguments (exit 2), bad data, an unreachable database or a missing file
 * (exit 1). schedule:sync reads files whose kick-off times have no UTC offset
 * when told the offset with --utc-offset.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliFailure, UsageError } from '../../src/cli.js';
import { ConfigError } from '../../src/config.js';
import { DatabaseError, openDatabase } from '../../src/db/client.js';
import { matches } from '../../src/modules/matches/matches.table.js';
import { ImportDataError } from '../../src/engine/feed/import-error.js';

const root = path.resolve(import.meta.dirname, '../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'qp-cli-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Runs a tool as npm runs it (tsx on its script) and collects what it printed. */
function run(script: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(path.join(root, 'node_modules/.bin/tsx'), [script, ...args], {
      cwd: root,
      env: { ...process.env, DEBUG: '', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (status) => resolve({ status, stdout, stderr: stderr.replace(/^npm warn.*\n/gm, '') }));
  });
}

/** An openfootball file of a tournament played in local times the file does not offset. */
function localTimesFile(): string {
  const file = path.join(tmp, 'cup.json');
  const match = (n: number, date: string) => ({
    round: 'Matchday 1',
    date,
    time: '19:00',
    team1: `Team ${n}`,
    team2: `Team ${n + 1}`,
    score: { ft: [1, 0], ht: [0, 0] },
    goals1: [{ name: 'Scorer', minute: 50 }],
    goals2: [],
  });
  fs.writeFileSync(file, JSON.stringify({ name: 'Cup 2031', matches: [match(1, '2031-06-01'), match(3, '2031-06-02')] }));
  return file;
}

describe('CLI failures', () => {
  it('are one line with the way out, exit 2 for arguments and 1 for the rest', () => {
    expect(cliFailure('tool', new UsageError('missing --season', 'usage: tool --season <y>'))).toEqual({
      line: 'tool: missing --season (usage: tool --season <y>)',
      status: 2,
    });
    expect(cliFailure('tool', Object.assign(new TypeError("Unknown option '--sesaon'"), { code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' })).status).toBe(2);
    expect(
      cliFailure('tool', new ImportDataError("match 1: time '19:00' has no UTC offset", 'missing_utc_offset'), {
        missing_utc_offset: 'pass --utc-offset +03:00',
      }),
    ).toEqual({
      line: "tool: match 1: time '19:00' has no UTC offset; pass --utc-offset +03:00",
      status: 1,
    });
    expect(cliFailure('tool', new ConfigError('PORT must be an integer')).line).toBe('tool: PORT must be an integer');
    expect(cliFailure('tool', new DatabaseError('cannot connect to PostgreSQL at x. Check DATABASE_URL')).line).toBe(
      'tool: cannot connect to PostgreSQL at x. Check DATABASE_URL',
    );
    expect(cliFailure('tool', Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT', path: '/nope.json' })).line).toBe(
      'tool: cannot read /nope.json (ENOENT); check the path',
    );
    const bug = cliFailure('tool', new Error('boom\nat somewhere'));
    expect(bug.line).toBe('tool: unexpected error: boom at somewhere (a bug: run again with DEBUG=1 for the stack trace, and report it)');
    for (const line of [bug.line]) expect(line).not.toContain('\n');
  });
});

describe('npm run schedule:sync', () => {
  it('says to pass --utc-offset when the file writes kick-offs without one, then reads it with the offset given', async () => {
    const file = localTimesFile();
    const env = { DATA_DIR: path.join(tmp, 'db'), DATABASE_URL: '' };
    const without = await run('scripts/schedule-sync.ts', ['--openfootball', file, '--season', '2031'], env);
    expect(without.status).toBe(1);
    expect(without.stderr.trim().split('\n')).toEqual([
      "schedule:sync: openfootball match 1: time '19:00' has no UTC offset, and the file's local times need one; pass the offset of its local times, e.g. --utc-offset +03:00",
    ]);
    const withOffset = await run('scripts/schedule-sync.ts', ['--openfootball', file, '--season', '2031', '--utc-offset', '+02:00'], env);
    expect(withOffset.stderr).toBe('');
    expect(withOffset.status).toBe(0);
    expect(withOffset.stdout).toMatch(/openfootball:2031: 2 matches read, 2 written/);
  });

  it('answers wrong arguments with one line and exit 2', async () => {
    const missing = await run('scripts/schedule-sync.ts', ['--openfootball', 'x.json']);
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim()).toBe(
      'schedule:sync: missing --season (usage: npm run schedule:sync -- --openfootball <file.json> --season <e.g. 2022> [--league wc] [--utc-offset <+hh:mm>] [--feed-url-template <url with {sr_id}>])',
    );
    const offset = await run('scripts/schedule-sync.ts', ['--openfootball', 'x.json', '--season', '2031', '--utc-offset', 'noon']);
    expect(offset.status).toBe(2);
    expect(offset.stderr.trim()).toMatch(/^schedule:sync: --utc-offset 'noon' is not a UTC offset \(write it like \+03:00 or -06:00\)/);
    // An offset no place uses is refused before anything is read: kick-offs 25 h off would otherwise be written.
    for (const bad of ['+25:00', '-13:00', '+14:30']) {
      const far = await run('scripts/schedule-sync.ts', ['--openfootball', 'x.json', '--season', '2031', `--utc-offset=${bad}`]);
      expect(far.status, bad).toBe(2);
      expect(far.stderr.trim().split('\n')).toHaveLength(1);
      expect(far.stderr.trim()).toContain(`schedule:sync: --utc-offset '${bad}' is not an offset any place uses: UTC offsets run from -12:00 to +14:00`);
    }
    const unknown = await run('scripts/schedule-sync.ts', ['--sesaon', '2031']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('attaches a feed to every match with --feed-url-template, and refuses a template that builds unacceptable URLs (exit 2)', async () => {
    const file = localTimesFile();
    const dataDir = path.join(tmp, 'db-feeds');
    const env = { DATA_DIR: dataDir, DATABASE_URL: '' };
    const args = ['--openfootball', file, '--season', '2032', '--utc-offset', '+02:00'];
    for (const [template, problem] of [
      ['https://feeds.example.com/all', /must contain \{sr_id\}/],
      ['https://user:pw@feeds.example.com/{sr_id}', /user name or password/],
      ['gopher://feeds.example.com/{sr_id}', /http or https/],
    ] as const) {
      const res = await run('scripts/schedule-sync.ts', [...args, '--feed-url-template', template], env);
      expect(res.status).toBe(2);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
      expect(res.stderr).toMatch(new RegExp(`^schedule:sync: --feed-url-template .*${problem.source}`));
    }
    // Loopback is refused where private feeds are not allowed (as in production), taken in development.
    const strict = await run('scripts/schedule-sync.ts', [...args, '--feed-url-template', 'http://127.0.0.1:9000/{sr_id}'], {
      ...env,
      APP_ENV: 'staging',
      DEMO_DATA: 'false',
    });
    expect(strict.status).toBe(2);
    expect(strict.stderr).toMatch(/public host/);
    const ok = await run('scripts/schedule-sync.ts', [...args, '--feed-url-template', 'https://feeds.example.com/wc/{sr_id}'], env);
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toMatch(/2 matches read, 2 written/);
    const database = await openDatabase({ dataDir });
    try {
      const rows = await database.db.select({ srId: matches.srId, feedUrl: matches.feedUrl }).from(matches).orderBy(matches.srId);
      expect(rows.map((r) => r.feedUrl)).toEqual(rows.map((r) => `https://feeds.example.com/wc/${encodeURIComponent(r.srId)}`));
      expect(rows).toHaveLength(2);
    } finally {
      await database.close();
    }
  });

  it('names a missing file in one line', async () => {
    const res = await run('scripts/schedule-sync.ts', ['--openfootball', path.join(tmp, 'absent.json'), '--season', '2031'], {
      DATA_DIR: path.join(tmp, 'db2'),
      DATABASE_URL: '',
    });
    expect(res.status).toBe(1);
    expect(res.stderr.trim()).toBe(`schedule:sync: cannot read ${path.join(tmp, 'absent.json')} (ENOENT); check the path`);
  });
});

describe('npm run feed:serve', () => {
  it('says to pass --utc-offset too, in one line', async () => {
    const res = await run('scripts/feed-serve.ts', ['--openfootball', localTimesFile(), '--match', '1']);
    expect(res.status).toBe(1);
    expect(res.stderr.trim()).toBe(
      "feed:serve: openfootball match 1: time '19:00' has no UTC offset, and the file's local times need one; pass the offset of its local times, e.g. --utc-offset +03:00",
    );
    const far = await run('scripts/feed-serve.ts', ['--openfootball', localTimesFile(), '--match', '1', '--utc-offset', '+25:00']);
    expect(far.status).toBe(2);
    expect(far.stderr.trim()).toMatch(/^feed:serve: --utc-offset '\+25:00' is not an offset any place uses: UTC offsets run from -12:00 to \+14:00/);
  });
});

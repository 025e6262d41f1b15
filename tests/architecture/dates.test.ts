/**
 * The calendar rule (eslint.config.js, in `npm test`): the service builds
 * instants from calendar fields with utcMs() (src/domain/instants.ts),
 * never with Date.UTC or `new Date(year, month, ...)`, which read the years 0
 * to 99 as 1900 to 1999 (tests/api/calendar-years.test.ts has what that did).
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.js';

const eslint = new ESLint({ cwd: projectRoot });

async function refused(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(projectRoot, file) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-properties' || m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

describe('the calendar rule', () => {
  it('refuses Date.UTC and new Date(year, month, ...) in the service, and lets ISO text and instants through', async () => {
    expect(await refused('src/modules/x.ts', 'export const t = Date.UTC(2026, 10, 28);\n')).toEqual([expect.stringMatching(/utcMs/)]);
    expect(await refused('src/engine/x.ts', 'export const t = new Date(2026, 10, 28);\n')).toEqual([expect.stringMatching(/utcMs/)]);
    expect(
      await refused('src/modules/x.ts', "export const a = new Date('2026-11-28T00:00:00Z');\nexport const b = new Date(0);\nexport const c = new Date();\n"),
    ).toEqual([]);
    expect(await refused('tests/x.test.ts', 'export const t = Date.UTC(2026, 10, 28);\n')).toEqual([]);
  });
});

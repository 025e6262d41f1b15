/**
 * The dependency rule (eslint.config.js, run by `npm run lint` in `npm test`):
 * imports point down. These cases prove the rule refuses what it must and lets
 * through what it may, so a lint that passes means something.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.js';

const eslint = new ESLint({ cwd: projectRoot });

async function restricted(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(projectRoot, file) });
  return result!.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message);
}

async function writers(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(projectRoot, file) });
  return result!.messages.filter((m) => m.ruleId === 'layering/one-writer-per-table').map((m) => m.message);
}

describe('the dependency rule', () => {
  it('refuses any import from src/domain into the layers above it, and lets the foundation files through', async () => {
    expect(await restricted('src/domain/sports/x.ts', "import { leagues } from '../../modules/leagues/leagues.table.js';\nexport const x = leagues;\n")).toHaveLength(1);
    expect(await restricted('src/domain/x.ts', "import type { Db } from '../db/client.js';\nexport type X = Db;\n")).toHaveLength(1);
    expect(await restricted('src/domain/x.ts', "import { createServices } from '../services.js';\nexport const x = createServices;\n")).toHaveLength(1);
    expect(await restricted('src/domain/language/x.ts', "import { clip } from '../../errors.js';\nimport { lazy } from '../../lazy.js';\nimport { isTruthy } from '../language/expressions.js';\nexport const x = [clip, lazy, isTruthy];\n")).toEqual([]);
  });

  it('refuses a module importing the live engine or the live stream, types included', async () => {
    expect(await restricted('src/modules/matches/x.ts', "import { createEngineWorker } from '../../engine/start-worker.js';\nexport const x = createEngineWorker;\n")).toHaveLength(1);
    expect(await restricted('src/modules/matches/x.ts', "import { LiveBus } from '../../live/bus.js';\nexport const x = LiveBus;\n")).toHaveLength(1);
    expect(await restricted('src/modules/matches/x.ts', "import type { EngineStore } from '../../engine/store.js';\nexport type X = EngineStore;\n")).toHaveLength(1);
    expect(await restricted('src/modules/matches/x.ts', "import { isTruthy } from '../../domain/language/expressions.js';\nexport const x = isTruthy;\n")).toEqual([]);
  });

  it("refuses a table written outside its own module's repository, by drizzle or by raw SQL, and lets reads and the owner through", async () => {
    const write = "import { sql } from 'drizzle-orm';\nimport { matches } from '../../modules/matches/matches.table.js';\nexport const f = (db: any) => db.update(matches).set({ venue: null });\n";
    expect(await writers('src/engine/x.ts', write.replaceAll('../../modules', '../modules'))).toHaveLength(1);
    expect(await writers('src/modules/matches/matches.service.ts', write.replaceAll('../../modules/matches/', './'))).toHaveLength(1);
    expect(await writers('src/modules/leagues/leagues.repository.ts', write.replaceAll('../../modules/', '../'))).toHaveLength(1);
    expect(await writers('src/modules/matches/matches.repository.ts', write.replaceAll('../../modules/matches/', './'))).toEqual([]);
    const raw = "import { sql } from 'drizzle-orm';\nimport { questionSponsorships } from '../sponsorships/sponsorships.table.js';\n" +
      'export const a = (id: string) => sql`insert into ${questionSponsorships} (match_id) values (${id})`;\n' +
      "export const b = sql`update question_issuances set status = 'voided'`;\n" +
      'export const c = sql`delete from "api_keys" where true`;\n';
    expect(await writers('src/modules/match-control/x.ts', raw)).toHaveLength(3);
    // Reads, row locks and upserts' `do update` are not writes of another table.
    const reads = "import { sql } from 'drizzle-orm';\nimport { matches } from '../matches/matches.table.js';\n" +
      'export const r = (db: any) => db.select().from(matches).for(\'update\');\n' +
      'export const s = sql`select 1 from ${matches} for update skip locked`;\n' +
      'export const t = sql`on conflict do update set x = 1`;\n';
    expect(await writers('src/modules/listeners/x.ts', reads)).toEqual([]);
  });
});

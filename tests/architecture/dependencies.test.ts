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

describe('the dependency rule', () => {
  it('refuses any import from src/domain into the layers above it, and lets the foundation files through', async () => {
    expect(await restricted('src/domain/sports/x.ts', "import { leagues } from '../../modules/leagues/leagues.table.js';\nexport const x = leagues;\n")).toHaveLength(1);
    expect(await restricted('src/domain/x.ts', "import type { Db } from '../db/client.js';\nexport type X = Db;\n")).toHaveLength(1);
    expect(await restricted('src/domain/x.ts', "import { createServices } from '../services.js';\nexport const x = createServices;\n")).toHaveLength(1);
    expect(await restricted('src/domain/language/x.ts', "import { clip } from '../../errors.js';\nimport { lazy } from '../../lazy.js';\nimport { isTruthy } from '../language/expressions.js';\nexport const x = [clip, lazy, isTruthy];\n")).toEqual([]);
  });

  it('refuses a module importing code of the live engine or the live stream (types only may cross)', async () => {
    expect(await restricted('src/modules/matches/x.ts', "import { createEngineWorker } from '../../engine/start-worker.js';\nexport const x = createEngineWorker;\n")).toHaveLength(1);
    expect(await restricted('src/modules/matches/x.ts', "import { LiveBus } from '../../live/bus.js';\nexport const x = LiveBus;\n")).toHaveLength(1);
    expect(await restricted('src/modules/matches/x.ts', "import type { EngineStore } from '../../engine/store.js';\nexport type X = EngineStore;\n")).toEqual([]);
    expect(await restricted('src/modules/matches/x.ts', "import { isTruthy } from '../../domain/language/expressions.js';\nexport const x = isTruthy;\n")).toEqual([]);
  });
});

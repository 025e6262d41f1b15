/**
 * The dependency rule (eslint.config.js, run by `npm run lint` in `npm test`):
 * imports point down (and within a module, only its handlers know HTTP, and
 * they call services, not repositories); and the errors rule: errors are declared in the
 * module's `<module>.errors.ts`, never built at a throw site. These cases
 * prove the rules refuse what they must and let through what they may, so a
 * lint that passes means something.
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
    expect(
      await restricted('src/domain/sports/x.ts', "import { leagues } from '../../modules/leagues/leagues.table.js';\nexport const x = leagues;\n"),
    ).toHaveLength(1);
    expect(await restricted('src/domain/x.ts', "import type { Db } from '../db/client.js';\nexport type X = Db;\n")).toHaveLength(1);
    expect(await restricted('src/domain/x.ts', "import { createServices } from '../services.js';\nexport const x = createServices;\n")).toHaveLength(1);
    expect(
      await restricted(
        'src/domain/language/x.ts',
        "import { clip } from '../../errors.js';\nimport { lazy } from '../../lazy.js';\nimport { isTruthy } from '../language/expressions.js';\nexport const x = [clip, lazy, isTruthy];\n",
      ),
    ).toEqual([]);
  });

  it('refuses a module importing the live engine or the live stream, types included', async () => {
    expect(
      await restricted(
        'src/modules/matches/x.ts',
        "import { createEngineWorker } from '../../engine/start-worker.js';\nexport const x = createEngineWorker;\n",
      ),
    ).toHaveLength(1);
    expect(await restricted('src/modules/matches/x.ts', "import { LiveBus } from '../../live/bus.js';\nexport const x = LiveBus;\n")).toHaveLength(1);
    expect(
      await restricted('src/modules/matches/x.ts', "import type { EngineStore } from '../../engine/store.js';\nexport type X = EngineStore;\n"),
    ).toHaveLength(1);
    expect(
      await restricted('src/modules/matches/x.ts', "import { isTruthy } from '../../domain/language/expressions.js';\nexport const x = isTruthy;\n"),
    ).toEqual([]);
  });

  it('refuses HTTP in a module below its handlers, and a repository in its handlers (types included)', async () => {
    const http = "import type { UploadedFile } from '../../http/handler-types.js';\nexport type X = UploadedFile;\n";
    expect(await restricted('src/modules/definitions/definitions.service.ts', http)).toHaveLength(1);
    expect(await restricted('src/modules/definitions/definitions.repository.ts', http)).toHaveLength(1);
    expect(await restricted('src/modules/brands/brands.errors.ts', http)).toHaveLength(1);
    expect(await restricted('src/modules/brands/brands.handlers.ts', http)).toEqual([]);
    const repository = "import type { SponsorBrand } from '../sponsorships/sponsorships.repository.js';\nexport type X = SponsorBrand;\n";
    expect(await restricted('src/modules/matches/matches.handlers.ts', repository)).toHaveLength(1);
    expect(
      await restricted('src/modules/brands/brands.handlers.ts', "import { findBrand } from './brands.repository.js';\nexport const x = findBrand;\n"),
    ).toHaveLength(1);
    expect(await restricted('src/modules/matches/matches.service.ts', repository)).toEqual([]);
    expect(
      await restricted(
        'src/modules/matches/matches.handlers.ts',
        "import type { SponsorBrand } from '../sponsorships/sponsorships.table.js';\nexport type X = SponsorBrand;\n",
      ),
    ).toEqual([]);
    // The handlers keep the other rules: no engine, no error built in place.
    expect(await restricted('src/modules/matches/matches.handlers.ts', "import { x } from '../../engine/store.js';\nexport const y = x;\n")).toHaveLength(1);
    expect(
      await restricted('src/modules/matches/matches.handlers.ts', "import { AppError } from '../../errors.js';\nexport const x = AppError;\n"),
    ).toHaveLength(1);
  });

  it("refuses a table written outside its own module's repository, by drizzle or by raw SQL, and lets reads and the owner through", async () => {
    const write =
      "import { sql } from 'drizzle-orm';\nimport { matches } from '../../modules/matches/matches.table.js';\nexport const f = (db: any) => db.update(matches).set({ venue: null });\n";
    expect(await writers('src/engine/x.ts', write.replaceAll('../../modules', '../modules'))).toHaveLength(1);
    expect(await writers('src/modules/matches/matches.service.ts', write.replaceAll('../../modules/matches/', './'))).toHaveLength(1);
    expect(await writers('src/modules/leagues/leagues.repository.ts', write.replaceAll('../../modules/', '../'))).toHaveLength(1);
    expect(await writers('src/modules/matches/matches.repository.ts', write.replaceAll('../../modules/matches/', './'))).toEqual([]);
    const raw =
      "import { sql } from 'drizzle-orm';\nimport { questionSponsorships } from '../sponsorships/sponsorships.table.js';\n" +
      'export const a = (id: string) => sql`insert into ${questionSponsorships} (match_id) values (${id})`;\n' +
      "export const b = sql`update question_issuances set status = 'voided'`;\n" +
      'export const c = sql`delete from "api_keys" where true`;\n';
    expect(await writers('src/modules/match-control/x.ts', raw)).toHaveLength(3);
    // Reads, row locks and upserts' `do update` are not writes of another table.
    const reads =
      "import { sql } from 'drizzle-orm';\nimport { matches } from '../matches/matches.table.js';\n" +
      "export const r = (db: any) => db.select().from(matches).for('update');\n" +
      'export const s = sql`select 1 from ${matches} for update skip locked`;\n' +
      'export const t = sql`on conflict do update set x = 1`;\n';
    expect(await writers('src/modules/listeners/x.ts', reads)).toEqual([]);
  });
});

describe('the errors rule', () => {
  const inline =
    "import { AppError } from '../../errors.js';\nexport const f = (name: string) => { throw new AppError(409, 'brand.name_taken', `a brand named ${name} already exists`); };\n";
  const declared =
    "import { errorFactory, quote } from '../../errors.js';\nexport const brandErrors = { nameTaken: errorFactory(409, 'brand.name_taken', (name: string) => `a brand named ${quote(name)} already exists`) };\n";

  it('refuses an error built inline in a service, and accepts it declared in the errors file', async () => {
    expect(await restricted('src/modules/brands/brands.service.ts', inline)).toHaveLength(1);
    expect(await restricted('src/modules/brands/brands.errors.ts', declared)).toEqual([]);
    // Throwing the declared error, and the helpers beside the error model, are fine anywhere.
    const thrown =
      "import { isAppError, quote } from '../../errors.js';\nimport { brandErrors } from './brands.errors.js';\nexport const f = (name: string, err: unknown) => { if (isAppError(err)) throw brandErrors.nameTaken(quote(name)); };\n";
    expect(await restricted('src/modules/brands/brands.service.ts', thrown)).toEqual([]);
  });

  it('refuses every way of building one outside an errors file: AppError, a factory declared in place', async () => {
    for (const name of ['AppError', 'errorFactory']) {
      expect(
        await restricted('src/modules/brands/brands.service.ts', `import { ${name} } from '../../errors.js';\nexport const x = ${name};\n`),
        name,
      ).toHaveLength(1);
    }
    expect(
      await restricted(
        'src/http/api.ts',
        "import { AppError } from '../errors.js';\nexport const e = () => new AppError(404, 'route.not_found', 'no route');\n",
      ),
    ).toHaveLength(1);
    expect(await restricted('src/cli.ts', "import { AppError } from './errors.js';\nexport const x = AppError;\n")).toHaveLength(1);
    expect(await restricted('src/domain/sports/x.ts', "import { errorFactory } from '../../errors.js';\nexport const x = errorFactory;\n")).toHaveLength(1);
    // A type is not an error built: `import type { AppError }` for a return type is fine.
    expect(await restricted('src/modules/auth/x.ts', "import type { AppError } from '../../errors.js';\nexport type X = AppError;\n")).toEqual([]);
  });

  it('exempts no module: the definitions catalogue (both kinds, its import, the allowlists) declares its errors too', async () => {
    for (const file of [
      'src/modules/definitions/definitions.service.ts',
      'src/modules/definitions/in-game.kind.ts',
      'src/modules/definitions/definition-import.ts',
      'src/modules/definitions/allowlists.ts',
    ])
      expect(await restricted(file, inline.replaceAll('brand', 'definition')), file).toHaveLength(1);
    expect(await restricted('src/modules/definitions/definitions.errors.ts', declared.replaceAll('brand', 'definition'))).toEqual([]);
  });

  it('lets the error model and the error mapping build errors, and keeps the layering of errors files', async () => {
    expect(await restricted('src/http/error-mapping.ts', "import { AppError } from '../errors.js';\nexport const x = AppError;\n")).toEqual([]);
    expect(await restricted('src/domain/domain.errors.ts', "import { errorFactory } from '../errors.js';\nexport const x = errorFactory;\n")).toEqual([]);
    expect(await restricted('src/http/http.errors.ts', "import { errorFactory } from '../errors.js';\nexport const x = errorFactory;\n")).toEqual([]);
    // An errors file is still in its layer.
    expect(await restricted('src/modules/brands/brands.errors.ts', "import { x } from '../../engine/store.js';\nexport const y = x;\n")).toHaveLength(1);
    expect(await restricted('src/domain/domain.errors.ts', "import { x } from '../modules/brands/brands.errors.js';\nexport const y = x;\n")).toHaveLength(1);
  });
});

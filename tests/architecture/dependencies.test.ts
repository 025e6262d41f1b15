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

async function doors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(projectRoot, file) });
  return result!.messages.filter((m) => m.ruleId === 'layering/front-doors').map((m) => m.message);
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

  it('keeps threads and processes out of src/domain: the sandbox is a port there, its worker threads live in src/runtime', async () => {
    for (const name of ['node:worker_threads', 'worker_threads', 'node:child_process', 'node:cluster']) {
      expect(await restricted('src/domain/language/x.ts', `import { Worker } from '${name}';\nexport const x = Worker;\n`), name).toHaveLength(1);
    }
    expect(
      await restricted('src/domain/language/x.ts', "import { installSandbox } from '../../runtime/sandbox/sandbox.js';\nexport const x = installSandbox;\n"),
    ).toHaveLength(1);
    // The port is the domain's own; the runtime implements it, and other node: built-ins stay allowed in the domain.
    expect(
      await restricted(
        'src/domain/language/x.ts',
        "import { AsyncLocalStorage } from 'node:async_hooks';\nimport { isolate } from './isolation.js';\nexport const x = [AsyncLocalStorage, isolate];\n",
      ),
    ).toEqual([]);
    expect(
      await restricted(
        'src/runtime/sandbox/x.ts',
        "import { Worker } from 'node:worker_threads';\nimport { useSandbox } from '../../domain/language/isolation.js';\nexport const x = [Worker, useSandbox];\n",
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

describe('the front doors', () => {
  it("refuses another module's repository anywhere in src, types and re-exports included", async () => {
    const service = "import { revokeUserApiKeys } from '../auth/auth.repository.js';\nexport const x = revokeUserApiKeys;\n";
    expect(await doors('src/modules/users/users.service.ts', service)).toHaveLength(1);
    // A repository reaching into another module's repository is no better than a service doing it.
    expect(await doors('src/modules/definitions/allowlists.repository.ts', service.replace('revokeUserApiKeys', 'x'))).toHaveLength(1);
    expect(
      await doors(
        'src/modules/issuances/issuances.repository.ts',
        "import type { OpenRow } from '../answers/answers.repository.js';\nexport type X = OpenRow;\n",
      ),
    ).toHaveLength(1);
    expect(await doors('src/modules/matches/x.ts', "export { sponsorBrandColumns } from '../sponsorships/sponsorships.repository.js';\n")).toHaveLength(1);
    expect(await doors('src/modules/matches/x.ts', "export * from '../sponsorships/sponsorships.repository.js';\n")).toHaveLength(1);
    // The layers above the modules, too: the engine, the live stream, the demo, the process entry.
    expect(
      await doors('src/engine/store.ts', "import * as listeners from '../modules/listeners/listeners.repository.js';\nexport const x = listeners;\n"),
    ).toHaveLength(1);
    expect(
      await doors('src/live/x.ts', "import { matchStates } from '../modules/matches/matches.repository.js';\nexport const x = matchStates;\n"),
    ).toHaveLength(1);
    expect(await doors('src/main.ts', "export const x = () => import('./modules/leagues/leagues.repository.js');\n")).toHaveLength(1);
    // A second repository of a module (auth's login counters) is the module's own all the same.
    expect(
      await doors(
        'src/modules/account/x.ts',
        "import { deleteExpiredCounters } from '../auth/login-throttle.repository.js';\nexport const x = deleteExpiredCounters;\n",
      ),
    ).toHaveLength(1);
  });

  it('lets a module use its own repositories, and everyone use the front door, the service, the table and the mapper', async () => {
    expect(
      await doors(
        'src/modules/auth/login-throttle.ts',
        "import { deleteExpiredCounters } from './login-throttle.repository.js';\nexport const x = deleteExpiredCounters;\n",
      ),
    ).toEqual([]);
    expect(
      await doors('src/modules/users/users.service.ts', "import { findUserById } from './users.repository.js';\nexport const x = findUserById;\n"),
    ).toEqual([]);
    expect(
      await doors('src/modules/users/users.service.ts', "import { revokeUserApiKeys } from '../auth/auth.public.js';\nexport const x = revokeUserApiKeys;\n"),
    ).toEqual([]);
    expect(
      await doors(
        'src/live/x.ts',
        "import { matchStates } from '../modules/matches/matches.public.js';\nimport type { MatchRow } from '../modules/matches/matches.table.js';\n" +
          "import type { MatchesService } from '../modules/matches/matches.service.js';\nimport { toPlayerMatchDto } from '../modules/matches/matches.mapper.js';\n" +
          'export const x = [matchStates, toPlayerMatchDto];\nexport type Y = [MatchRow, MatchesService];\n',
      ),
    ).toEqual([]);
    // The front door itself is the module's own file.
    expect(await doors('src/modules/matches/matches.public.ts', "export { followsOfUser } from './matches.repository.js';\n")).toEqual([]);
  });
});

describe('the tables above the modules', () => {
  it("refuses a query of a module's table outside src/modules: the engine, the live stream, the demo ask the front door", async () => {
    // Two findings each: the table imported as a value, and queried outside a repository.
    const read = "import { matches } from '../modules/matches/matches.table.js';\nexport const f = (db: any) => db.select().from(matches);\n";
    expect(await doors('src/live/x.ts', read)).toHaveLength(2);
    expect(await doors('src/engine/x.ts', read)).toHaveLength(2);
    expect(await doors('src/demo/x.ts', read)).toHaveLength(2);
    expect(await doors('src/engine/schedule/x.ts', read.replace('../modules', '../../modules'))).toHaveLength(2);
    // Half a type import is a value import.
    expect(
      await doors(
        'src/live/x.ts',
        "import { matches, type MatchRow } from '../modules/matches/matches.table.js';\nexport const x = matches;\nexport type Y = MatchRow;\n",
      ),
    ).toHaveLength(1);
    expect(await doors('src/http/x.ts', "export * from '../modules/users/users.table.js';\n")).toHaveLength(1);
  });

  it("lets types through, the modules join each other's tables, and the schema list the tables", async () => {
    expect(await doors('src/live/x.ts', "import type { MatchRow } from '../modules/matches/matches.table.js';\nexport type X = MatchRow;\n")).toEqual([]);
    expect(
      await doors(
        'src/engine/x.ts',
        "import { type matches, type MatchRow } from '../modules/matches/matches.table.js';\nexport type X = Partial<typeof matches.$inferInsert> | MatchRow;\n",
      ),
    ).toEqual([]);
    expect(
      await doors(
        'src/modules/issuances/x.repository.ts',
        "import { matches } from '../matches/matches.table.js';\nexport const f = (db: any) => db.select().from(matches);\n",
      ),
    ).toEqual([]);
    expect(await doors('src/db/schema.ts', "export * from '../modules/users/users.table.js';\n")).toEqual([]);
  });
});

describe('SQL in repositories', () => {
  it("refuses a table queried in a service, its own or another module's, by drizzle or in a sql template", async () => {
    const service =
      "import { count, eq, sql } from 'drizzle-orm';\nimport { matches } from '../matches/matches.table.js';\nimport { listenerEvents } from '../listeners/listeners.table.js';\n" +
      "export const a = (tx: any, id: string) => tx.select().from(matches).where(eq(matches.id, id)).for('share');\n" +
      'export const b = (tx: any) => tx.select({ n: count() }).from(listenerEvents);\n' +
      'export const c = (db: any) => db.select().from(listenerEvents).innerJoin(matches, sql`true`);\n' +
      'export const d = sql`select 1 from ${matches}`;\n';
    expect(await doors('src/modules/match-control/match-control.service.ts', service)).toHaveLength(5);
    expect(
      await doors(
        'src/modules/matches/matches.service.ts',
        "import { matches } from './matches.table.js';\nexport const f = (db: any) => db.select().from(matches);\n",
      ),
    ).toHaveLength(1);
  });

  it("lets repositories query and join any table, and leaves locals that share a table's name alone", async () => {
    const join =
      "import { eq } from 'drizzle-orm';\nimport { matches } from '../matches/matches.table.js';\nimport { questionIssuances } from './issuances.table.js';\n" +
      'export const f = (db: any) => db.select().from(questionIssuances).innerJoin(matches, eq(matches.id, questionIssuances.matchId));\n';
    expect(await doors('src/modules/issuances/issuances.repository.ts', join)).toEqual([]);
    expect(await doors('src/modules/matches/matches.service.ts', 'export const f = (matches: string[]) => Array.from(matches);\n')).toEqual([]);
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
    expect(
      await restricted('src/modules/shared/domain.errors.ts', "import { errorFactory } from '../../errors.js';\nexport const x = errorFactory;\n"),
    ).toEqual([]);
    // The domain knows no HTTP statuses, not even in an errors file of its own.
    expect(await restricted('src/domain/domain.errors.ts', "import { errorFactory } from '../errors.js';\nexport const x = errorFactory;\n")).toHaveLength(1);
    expect(await restricted('src/http/http.errors.ts', "import { errorFactory } from '../errors.js';\nexport const x = errorFactory;\n")).toEqual([]);
    // An errors file is still in its layer.
    expect(await restricted('src/modules/brands/brands.errors.ts', "import { x } from '../../engine/store.js';\nexport const y = x;\n")).toHaveLength(1);
    expect(await restricted('src/domain/domain.errors.ts', "import { x } from '../modules/brands/brands.errors.js';\nexport const y = x;\n")).toHaveLength(1);
  });
});

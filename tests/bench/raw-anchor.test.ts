/**
 * The raw anchor of npm run bench stays honest: its statements are captured
 * from the service, every parameter gets a source, and the raw server answers
 * each anchored endpoint with the service's status and shape (startRawAnchor
 * throws otherwise). PostgreSQL only, like the anchor.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedLeagues } from '../../src/modules/leagues/leagues.repository.js';
import { seedHotPaths, type HotData } from '../../scripts/bench-hot.js';
import { markKept, outputColumns, sendRequest, startRawAnchor, type RawServer, type RawStatement } from '../../scripts/bench-raw.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { testDatabaseUrl } from '../helpers/pg-url.js';

describe('output columns of a captured statement', () => {
  it('names qualified columns, aliases and unnamed expressions, split at top-level commas only', () => {
    expect(outputColumns('select "a"."id", (select count(*) from "x" where "x"."a" = "a"."id"), "regular", coalesce("f"."on", false) from "a"')).toEqual([
      'a.id',
      '#1',
      'regular',
      '#3',
    ]);
    expect(outputColumns('insert into "t" ("a") values ($1) on conflict do nothing returning "id", "a", (xmax = 0)')).toEqual(['id', 'a', '#2']);
    expect(outputColumns('select count(*) as "n", \'a, b\' from "t"')).toEqual(['n', '#1']);
  });
});

describe('what the service keeps in process', () => {
  const statement = (text: string): RawStatement => ({ text, params: [], columns: [] });

  it('marks the statements a warm request leaves out, the key lookup for as long as the key cache keeps it', () => {
    const statements = [statement('key'), statement('a'), statement('b')];
    markKept(statements, ['a', 'b'], true, 10_000);
    expect(statements.map((s) => s.kept)).toEqual([{ keepMs: 10_000 }, undefined, undefined]);
    const leagues = [statement('leagues')];
    markKept(leagues, [], false, 10_000);
    expect(leagues[0]!.kept).toEqual({ keepMs: null });
  });

  it('refuses a warm request that sends what the cold one did not', () => {
    expect(() => markKept([statement('a')], ['a', 'c'], false, 0)).toThrow(/cannot do the same work/);
    expect(() => markKept([statement('a'), statement('b')], ['b', 'a'], false, 0)).toThrow(/cannot do the same work/);
  });
});

describe.skipIf(!testDatabaseUrl())('the raw anchor against the service', () => {
  let app: TestApp;
  let data: HotData;
  let raw: RawServer;

  beforeAll(async () => {
    app = await startTestApp();
    await seedLeagues({ db: app.db.database.db });
    data = await seedHotPaths(app.db.database);
    raw = await startRawAnchor({
      database: app.db.database,
      databaseUrl: app.db.url!,
      serviceBase: app.url,
      data,
      poolSize: 2,
      forgetCaches: () => {
        app.services.keyCache.flush();
        app.services.leagues.changed();
      },
      keyCacheMs: 10_000,
    });
  });

  afterAll(async () => {
    await raw?.stop();
    await app?.close();
  });

  it('captures every statement of the five endpoints with a source for each parameter', () => {
    const byId = Object.fromEntries(raw.plans.map((p) => [p.id, p]));
    expect(Object.keys(byId).sort()).toEqual(['answer', 'leagues', 'matches', 'open', 'points']);
    expect(byId.leagues!.authenticated).toBe(false);
    for (const id of ['matches', 'open', 'answer', 'points']) {
      const plan = byId[id]!;
      expect(plan.authenticated).toBe(true);
      // The caller's user id comes from the key lookup's row, never from a constant of the capture.
      expect(plan.statements.slice(1).some((s) => s.params.some((p) => p.kind === 'row' && p.statement === 0))).toBe(true);
    }
    // The same work as a warm service: the league list and every caller's key row are kept in process.
    expect(byId.leagues!.statements.every((s) => s.kept?.keepMs === null)).toBe(true);
    expect(byId.leagues!.warm).toEqual([]);
    for (const id of ['matches', 'open', 'answer', 'points']) {
      expect(byId[id]!.statements[0]!.kept).toEqual({ keepMs: 10_000 });
      expect(byId[id]!.warm.length).toBe(byId[id]!.statements.filter((s) => !s.kept).length);
    }
    expect(byId.answer!.transaction).toBe(true);
    expect(byId.answer!.statements.flatMap((s) => s.params).filter((p) => p.kind === 'body').length).toBeGreaterThanOrEqual(2);
    expect(byId.open!.statements[1]!.params.some((p) => p.kind === 'now')).toBe(true);
  });

  it("makes the service's checks: an unknown key is 401, an answer to an unknown question 404", async () => {
    expect((await sendRequest(raw.base, { method: 'GET', path: '/api/question-answers/open', token: 'qp_unknown-key-000000000000000000000000' })).status).toBe(
      401,
    );
    expect((await sendRequest(raw.base, { method: 'GET', path: '/api/users/me/points' })).status).toBe(401);
    const put = await sendRequest(raw.base, {
      method: 'PUT',
      path: '/api/question-answers',
      token: data.light.key,
      body: { question_issuance_id: '00000000-0000-4000-8000-000000000000', selected_answer_identifier: 'home' },
    });
    expect(put.status).toBe(404);
  });
});

/**
 * Prepared statements (src/db/prepared.ts and the bounded client's
 * `prepare`): the hot queries are built once per database handle and sent as
 * named server-side statements, so PostgreSQL parses and plans them once per
 * connection; inside a transaction they are built as usual; with
 * DB_PREPARED_STATEMENTS=false nothing is kept on the server.
 */
import * as drizzle from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.js';
import { compileRowMapper, prepared } from '../../src/db/prepared.js';
import { listLeagues, seedLeagues } from '../../src/modules/leagues/leagues.repository.js';
import { brands } from '../../src/modules/brands/brands.table.js';
import { leagues } from '../../src/modules/leagues/leagues.table.js';
import { listMatchViews } from '../../src/modules/matches/matches.repository.js';
import { matches } from '../../src/modules/matches/matches.table.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db.js';

/** drizzle's own row mapping (exported at run time, not in its types). */
const mapResultRow = (drizzle as unknown as { mapResultRow: (fields: never, row: unknown[], joins?: Record<string, boolean>) => unknown }).mapResultRow;

const limits = { connectTimeoutMs: 2000, statementTimeoutMs: 2000, idleInTransactionTimeoutMs: 5000 };

describe('prepared queries', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
    await seedLeagues({ db: test.database.db });
  });
  afterAll(async () => {
    await test?.drop();
  });

  it('are built once per database handle, and built afresh inside a transaction', async () => {
    let built = 0;
    const build = () => ({ n: ++built });
    const first = prepared(test.database.db, 'probe', build);
    expect(prepared(test.database.db, 'probe', build)).toBe(first);
    expect(built).toBe(1);
    await test.database.db.transaction(async (tx) => {
      expect(prepared(tx, 'probe', build)).toBeUndefined();
    });
    const again = await listLeagues({ db: test.database.db });
    expect(again.map((l) => l.slug)).toEqual([...again.map((l) => l.slug)].sort());
    expect(again.length).toBeGreaterThan(0);
  });

  describe.skipIf(!(process.env.TEST_DATABASE_URL || process.env.DATABASE_URL))('on PostgreSQL', () => {
    const serverStatements = async (db: Database) =>
      (await db.rows<{ statement: string }>(sql`select statement from pg_prepared_statements`)).map((r) => r.statement);

    it('are kept as named statements on the connection, and the same statement serves every call', async () => {
      const db = await openDatabase({ url: test.url!, migrate: false, maxConnections: 1, limits });
      try {
        for (let i = 0; i < 3; i++) await listLeagues({ db: db.db });
        const leagues = (await serverStatements(db)).filter((s) => s.includes('from "leagues"') && s.includes('order by'));
        expect(leagues).toHaveLength(1);
      } finally {
        await db.close();
      }
    });

    it('are not kept on the server with DB_PREPARED_STATEMENTS=false', async () => {
      const db = await openDatabase({ url: test.url!, migrate: false, maxConnections: 1, limits: { ...limits, preparedStatements: false } });
      try {
        for (let i = 0; i < 3; i++) await listLeagues({ db: db.db });
        expect((await serverStatements(db)).filter((s) => s.includes('from "leagues"'))).toEqual([]);
      } finally {
        await db.close();
      }
    });
  });
});

describe('the compiled row mapper', () => {
  it('maps the rows of a prepared query exactly as drizzle does (left joins that found nothing, counts, timestamps)', async () => {
    const test = await createTestDatabase();
    try {
      const { db } = test.database;
      await seedLeagues({ db });
      const [league] = await db.select().from(leagues).limit(1);
      const [brand] = await db.insert(brands).values({ name: 'Acme', primaryColor: '#112233' }).returning();
      const scheduled = new Date(Date.UTC(2030, 0, 1, 18));
      await db.insert(matches).values([
        { srId: 'm:1', leagueId: league!.id, homeTeam: 'A', awayTeam: 'B', scheduled, status: 'scheduled', sponsorBrandId: brand!.id },
        {
          srId: 'm:2',
          leagueId: league!.id,
          homeTeam: 'C',
          awayTeam: 'D',
          scheduled: new Date(scheduled.getTime() + 1000),
          status: 'live',
          homeScore: 1,
          awayScore: 0,
        },
      ]);
      const filter = { viewerId: null, scheduledFrom: scheduled, scheduledTo: new Date(scheduled.getTime() + 86_400_000), allTestMatches: true, limit: 10 };
      // Outside a transaction: prepared, mapped by the compiled mapper; inside one: built and mapped by drizzle.
      const compiled = await listMatchViews({ db, filter });
      const drizzles = await db.transaction((tx) => listMatchViews({ db: tx, filter }));
      expect(compiled).toHaveLength(2);
      expect(compiled[0]!.sponsor?.name).toBe('Acme');
      expect(compiled[1]!.sponsor).toBeNull();
      expect(compiled).toEqual(drizzles);
      // Key order too (the DTOs spread some of these objects).
      expect(JSON.stringify(compiled)).toBe(JSON.stringify(drizzles));
      const leagueRows = await listLeagues({ db });
      expect(JSON.stringify(leagueRows)).toBe(JSON.stringify(await db.transaction((tx) => listLeagues({ db: tx }))));
      expect(leagueRows[0]!.createdAt).toBeInstanceOf(Date);
    } finally {
      await test.drop();
    }
  });

  it("gives drizzle's result for nested objects, repeated keys, decoded SQL fields and joins that found nothing", () => {
    const fields = [
      { path: ['id'], field: leagues.id },
      { path: ['sponsor', 'name'], field: brands.name },
      { path: ['sponsor', 'id'], field: brands.id },
      { path: ['count'], field: sql<number>`count(*)`.mapWith(Number) },
      { path: ['league', 'slug'], field: leagues.slug },
      { path: ['league', 'created'], field: leagues.createdAt },
      // A key seen again: first place, last value.
      { path: ['id'], field: leagues.slug },
      // An object with columns of two tables is never nulled.
      { path: ['mixed', 'a'], field: brands.name },
      { path: ['mixed', 'b'], field: leagues.name },
    ];
    const rows = [
      ['l1', 'Acme', 'b1', '7', 'wc', '2030-01-01 18:00:00', 'wc-slug', 'Acme', 'World Cup'],
      ['l2', null, null, '0', null, null, 'x', null, 'League'],
      [null, null, 'b3', null, 'nl', '2031-02-03 04:05:06.789', null, null, null],
    ];
    for (const joins of [undefined, { leagues: true, brands: false }, { leagues: false, brands: false }, { leagues: true, brands: true }]) {
      const mine = compileRowMapper(fields, joins)(rows as unknown[][]);
      const theirs = rows.map((row) => mapResultRow(fields as never, row as unknown[], joins));
      expect(mine, JSON.stringify(joins)).toEqual(theirs);
      expect(JSON.stringify(mine), JSON.stringify(joins)).toBe(JSON.stringify(theirs));
    }
  });
});

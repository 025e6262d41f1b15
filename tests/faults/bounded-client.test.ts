/**
 * The bounded database client (src/db/bounded-client.ts) on PostgreSQL: a
 * statement that cannot get a connection in time fails (overload: busy) and is never sent
 * afterwards; a transaction whose statement runs out of time rolls back; the
 * errors read as "database unavailable" (503), not as failures of the request.
 */
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseBusy, isDatabaseUnavailable } from '../../src/db/availability.js';
import { openDatabase, type Database } from '../../src/db/client.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db.js';

const pg = Boolean(process.env.TEST_DATABASE_URL || process.env.DATABASE_URL);

describe.skipIf(!pg)('the bounded client', () => {
  let test: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    test = await createTestDatabase();
    await test.database.rows(sql`create table bounded_probe (n int not null)`);
    // One connection, 300 ms per statement.
    db = await openDatabase({
      url: test.url!,
      migrate: false,
      maxConnections: 1,
      limits: { connectTimeoutMs: 1000, statementTimeoutMs: 300, idleInTransactionTimeoutMs: 5000 },
    });
  });
  afterAll(async () => {
    await db?.close();
    await test?.drop();
  });

  const count = async () => Number((await test.database.rows<{ n: number }>(sql`select count(*)::int as n from bounded_probe`))[0]!.n);

  it('fails a statement that waits too long for a connection (busy: the database answers), and never sends it later', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The only connection, busy in a transaction (idle inside it, as a slow handler would be).
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const holder = db.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      entered();
      await held;
    });
    // Once the holder has the connection (a wait of 50 ms lost that race on a busy machine).
    await inside;
    const err = await db.db.execute(sql`insert into bounded_probe values (1)`).catch((e: unknown) => e);
    // Retryable as an outage is, and told apart from one: nothing was left unanswered, every connection was just in use.
    expect(isDatabaseUnavailable(err)).toBe(true);
    expect(isDatabaseBusy(err)).toBe(true);
    release();
    await holder;
    await new Promise((r) => setTimeout(r, 200));
    expect(await count()).toBe(0);
    // The connection is free again: statements run.
    await db.db.execute(sql`insert into bounded_probe values (2)`);
    expect(await count()).toBe(1);
  });

  it('rolls back a transaction whose statement ran out of time (a lock held elsewhere), with an error that reads as unavailable', async () => {
    const other = postgres(test.url!, { max: 1, onnotice: () => {} });
    try {
      await other`select pg_advisory_lock(77)`;
      const before = await count();
      const err = await db.db
        .transaction(async (tx) => {
          await tx.execute(sql`insert into bounded_probe values (3)`);
          await tx.execute(sql`select pg_advisory_lock(77)`);
        })
        .catch((e: unknown) => e);
      expect(isDatabaseUnavailable(err)).toBe(true);
      await other`select pg_advisory_unlock(77)`;
      await new Promise((r) => setTimeout(r, 200));
      expect(await count()).toBe(before);
      // And the pool works afterwards.
      await db.db.transaction(async (tx) => {
        await tx.execute(sql`insert into bounded_probe values (4)`);
      });
      expect(await count()).toBe(before + 1);
    } finally {
      await other.end({ timeout: 1 });
    }
  });
});

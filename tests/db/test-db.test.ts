/**
 * The tests' databases (tests/helpers/test-db.ts): each one a file gets is in the template's state, whatever the file
 * before did with its own. On PGlite a worker lends the same database to file after file, emptied between: its rows,
 * sequences, session settings and notification listeners are the template's again, the file before's handle refuses
 * every call, and a database whose schema a file changed is not lent again.
 */
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db.js';

const opened: TestDatabase[] = [];
afterAll(async () => {
  for (const t of opened) await t.drop();
});

async function open(): Promise<TestDatabase> {
  const t = await createTestDatabase();
  opened.push(t);
  return t;
}

/** What a file can see of the state: the rows of a seeded and of an empty table, a sequence, a session setting. */
async function state(t: TestDatabase) {
  const leagues = await t.database.rows(sql`select * from leagues order by id`);
  const [users] = await t.database.rows<{ n: number }>(sql`select count(*)::int as n from users`);
  const [sequence] = await t.database.rows<{ value: string }>(sql`select last_value::text as value from leaderboards_id_seq`);
  const [setting] = await t.database.rows<{ value: string }>(sql`select current_setting('statement_timeout') as value`);
  return { leagues, users: users!.n, sequence: sequence!.value, setting: setting!.value };
}

describe('a test database', () => {
  it("is in the template's state, whatever the file before did with its own", async () => {
    const first = await open();
    const template = await state(first);
    expect(template.leagues.length).toBeGreaterThan(0);
    expect(template.users).toBe(0);
    await first.database.rows(sql`delete from leagues where id = (select id from leagues order by id limit 1)`);
    await first.database.rows(sql`update leagues set name = 'renamed'`);
    await first.database.rows(sql`insert into users (username, email, password_hash) values ('leftover', 'leftover@example.com', 'x')`);
    await first.database.rows(sql`select nextval('leaderboards_id_seq'), nextval('leaderboards_id_seq')`);
    await first.database.rows(sql`set statement_timeout = 1234`);
    let heard = 0;
    if (first.database.kind === 'pglite') await (first.database.client as PGlite).listen('qp_test_db', () => heard++);
    expect(await state(first)).not.toEqual(template);
    await first.drop();

    const next = await open();
    expect(await state(next)).toEqual(template);
    if (next.database.kind === 'pglite') {
      // The file before's listener hears nothing of the next file's notifications, and its handle is closed.
      const client = next.database.client as PGlite;
      let heardHere = 0;
      await client.listen('qp_test_db', () => heardHere++);
      await client.query(`notify qp_test_db`);
      await expect.poll(() => heardHere).toBe(1);
      expect(heard).toBe(0);
      const refused = await first.database.rows(sql`select 1`).then(
        () => null,
        (err: Error) => err,
      );
      expect(String((refused?.cause as Error | undefined)?.message)).toMatch(/closed/);
    }
  });

  it('whose schema a file changed is not lent again', async () => {
    const first = await open();
    await first.database.rows(sql`create table qp_test_leftover (n int)`);
    await first.database.rows(sql`alter table users disable trigger all`);
    await first.drop();
    const next = await open();
    const [table] = await next.database.rows<{ name: string | null }>(sql`select to_regclass('qp_test_leftover')::text as name`);
    expect(table!.name).toBeNull();
    const [disabled] = await next.database.rows<{ n: number }>(
      sql`select count(*)::int as n from pg_trigger where tgrelid = 'users'::regclass and tgenabled = 'D'`,
    );
    expect(disabled!.n).toBe(0);
  });
});

/**
 * Bulk writes of whole rows by id: new rows (with ids chosen by the caller)
 * and replacements of existing ones in one statement per chunk, an upsert on
 * the primary key that sets every given column and `updated_at`. The CSV
 * imports write their rows this way instead of one statement per row.
 */
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';

/** Rows per statement: far under PostgreSQL's 65,535 parameters with ~25 columns. */
const CHUNK = 500;

export async function upsertById<V extends Record<string, unknown>>({
  db,
  table,
  rows,
}: {
  db: DbOrTx;
  table: PgTable;
  rows: ({ id: string } & V)[];
}): Promise<void> {
  if (!rows.length) return;
  const columns = getTableColumns(table);
  const keys = Object.keys(rows[0]!).filter((k) => k !== 'id');
  // Rows missing a column (or giving it as undefined) would take its default on insert and
  // overwrite the stored value with that default on update.
  const shape = [...keys].sort().join();
  if (
    rows.some(
      (r) =>
        Object.keys(r)
          .filter((k) => k !== 'id')
          .sort()
          .join() !== shape,
    )
  )
    throw new Error('upsertById: every row must have the same columns');
  if (rows.some((r) => Object.values(r).some((v) => v === undefined)))
    throw new Error('upsertById: a column is given as undefined (give null, or leave the column out of every row)');
  const set: Record<string, SQL> = {};
  for (const key of keys) {
    const column = columns[key];
    if (!column) throw new Error(`upsertById: ${key} is not a column of the table`);
    set[key] = sql.raw(`excluded."${column.name}"`);
  }
  if (columns.updatedAt) set.updatedAt = sql`now()`;
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db
      .insert(table)
      .values(rows.slice(i, i + CHUNK) as never)
      .onConflictDoUpdate({ target: columns.id!, set });
  }
}

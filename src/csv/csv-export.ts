/**
 * CSV exports: one header row, then one line per row, streamed through
 * fast-csv. Cells are formula-safe (a spreadsheet never runs what a player typed): a text cell starting with
 * `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'` so a
 * spreadsheet shows it as text instead of running it. An import reverses
 * this with `unneutralizeCell`, so it reads back exactly what was exported.
 * Text that already starts with quotes before such a character (`'=x`) gets
 * one more quote too, so that the two functions are exact inverses.
 */
import { Readable } from 'node:stream';
import type * as FastCsv from 'fast-csv';
import { lazyRequire } from '../lazy.js';

const fastCsv = lazyRequire<typeof FastCsv>('fast-csv');

/** A formula start, after any number of quotes (see the module comment). */
const NEEDS_QUOTE = /^'*[=+\-@\t\r]/;
const QUOTED = /^'+[=+\-@\t\r]/;

/** The text of a cell as exported: null and undefined are empty, objects and arrays JSON, text formula-safe. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return neutralizeCell(text);
}

/** `'` before a cell a spreadsheet would read as a formula. */
export const neutralizeCell = (text: string) => (NEEDS_QUOTE.test(text) ? `'${text}` : text);

/** The inverse of `neutralizeCell`, for imports of our own exports. */
export const unneutralizeCell = (text: string) => (QUOTED.test(text) ? text.slice(1) : text);

/**
 * A CSV stream of `rows` under `columns` (the header row is written even when
 * there are no rows). Each row maps column names to values, formatted by
 * `csvCell`. A failure of the row source ends the stream with that error.
 */
export function csvStream<R extends Record<string, unknown>>({
  columns,
  rows,
}: {
  columns: readonly (keyof R & string)[];
  rows: AsyncIterable<R> | Iterable<R>;
}): Readable {
  const formatter = fastCsv().format<string[], string[]>({ headers: [...columns], alwaysWriteHeaders: true, includeEndRowDelimiter: true });
  const source = Readable.from(
    (async function* () {
      for await (const row of rows) yield columns.map((c) => csvCell(row[c]));
    })(),
    { objectMode: true },
  );
  source.on('error', (err) => formatter.destroy(err));
  return source.pipe(formatter);
}

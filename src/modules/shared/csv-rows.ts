/**
 * Plumbing shared by the CSV exports and imports of the resources (question
 * definitions of both kinds, question groups): a DTO cut down to the export's
 * columns, and the JSON body an import row stands for.
 */
import type { CsvRowReader } from '../../csv/csv-import.js';

/** The export row of a DTO: its values under `columns`, in that order. */
export function pickColumns<C extends string>(dto: Record<C, unknown>, columns: readonly C[]): Record<C, unknown> {
  return Object.fromEntries(columns.map((c) => [c, dto[c]])) as Record<C, unknown>;
}

/**
 * The start of the JSON body (of a create or replace) that an import row
 * stands for. `put(field, value, empty)` sets one field from its cell's
 * value: when the file lacks the column the stored value is kept (`stored`,
 * the current resource as the API shows it; nothing on a create); an empty
 * cell (null) becomes null with `empty: 'null'` and is left out with
 * `'omit'` (a default, or "required" for the schema to report); a cell that
 * could not be read (undefined) is left out. `text(field)` is a text cell,
 * null when empty.
 */
export function csvBodyBuilder<F extends string>(r: CsvRowReader, stored: Record<F, unknown> | undefined) {
  const body: Record<string, unknown> = {};
  const put = (field: F, value: unknown, empty: 'null' | 'omit') => {
    if (!r.has(field)) {
      if (stored) body[field] = stored[field];
    } else if (value === null) {
      if (empty === 'null') body[field] = null;
    } else if (value !== undefined) {
      body[field] = value;
    }
  };
  const text = (field: F) => {
    const cell = r.text(field);
    return cell === '' ? null : cell;
  };
  return { body, put, text };
}

/** `fn` applied to each item of an async source, lazily (an export's rows as it reads them). */
export async function* mapAsync<T, U>(source: AsyncIterable<T>, fn: (item: T) => U): AsyncGenerator<U> {
  for await (const item of source) yield fn(item);
}

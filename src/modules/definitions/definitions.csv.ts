/**
 * The CSV form of a definition of either kind: the export's columns (`id`,
 * `league`, then the kind's fields in the contract's order) and the way an
 * import row turns back into the JSON body of a create or replace.
 */
import type { CsvRowReader } from '../../csv/csv-import.js';
import { csvBodyBuilder, pickColumns } from '../shared/csv-rows.js';
import type { DefinitionField, DefinitionKind, DefinitionOperations, StoredDefinition } from './definition-kind.js';
import { changedFields } from './definition-import.js';

/** What the CSV mapping uses of a kind whose stored rows are `Row`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type CsvKind<Row extends StoredDefinition> = Pick<DefinitionKind<Row, any, Record<string, unknown>, unknown, DefinitionOperations>, 'fields' | 'toDto'>;

/** The export's columns, in order (an import file may have no others). */
export const csvColumns = <Row extends StoredDefinition>(kind: CsvKind<Row>): string[] => ['id', 'league', ...kind.fields.map((f) => f.name)];

/** Columns an import file must have: the row's identity and the fields a create requires. */
export const requiredCsvColumns = <Row extends StoredDefinition>(kind: CsvKind<Row>): string[] => [
  'id',
  'league',
  ...kind.fields.filter((f) => f.required).map((f) => f.name),
];

/** A definition (with its league's slug) as an export row. */
export function toCsvRow<Row extends StoredDefinition>(
  kind: CsvKind<Row>,
  columns: readonly string[],
  row: Row & { leagueSlug: string },
): Record<string, unknown> {
  return pickColumns(kind.toDto(row, row.leagueSlug), columns);
}

/**
 * The replace (or create) body of an import row, for a replace of `current`
 * or a create. Each field's cell is read as the field declares; an empty
 * cell is null or leaves the field out (its default, or "required" for the
 * schema to report). An empty `description` keeps a stored empty text, so
 * that an export of it imports back unchanged. Fields kept apart from the
 * body (the in-game archive flag) come back in `extra`, a missing or empty
 * cell keeping the stored value.
 */
export function bodyFromCsv<Row extends StoredDefinition>(
  kind: CsvKind<Row>,
  r: CsvRowReader,
  current: Row | undefined,
): { body: Record<string, unknown>; extra: Record<string, unknown> } {
  const stored: Record<string, unknown> | undefined = current && kind.toDto(current, '');
  const { body, put, text } = csvBodyBuilder<string>(r, stored);
  const cell = (f: DefinitionField<Row>): unknown => {
    switch (f.cell) {
      case 'text':
        return text(f.name);
      case 'description':
        return text(f.name) ?? (stored?.[f.name] === '' ? '' : null);
      case 'id':
        return text(f.name)?.trim() || null;
      case 'boolean':
        return r.boolean(f.name);
      case 'number':
        return r.number(f.name);
      case 'json':
        return r.json(f.name);
    }
  };
  for (const f of kind.fields) if (!f.apart) put(f.name, cell(f), f.empty);
  const extra: Record<string, unknown> = {};
  for (const f of kind.fields) if (f.apart) extra[f.column] = cell(f) ?? current?.[f.column] ?? false;
  return { body, extra };
}

/** Contract names of the kind's fields whose stored value an import row would change. */
export const changedFieldNames = <Row extends StoredDefinition>(kind: CsvKind<Row>, current: Row, values: Record<string, unknown>): string[] =>
  changedFields(current as Record<string, unknown>, values, Object.fromEntries(kind.fields.map((f) => [f.name, f.column])));

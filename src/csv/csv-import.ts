/**
 * CSV imports of our own exports (csv-export.ts): UTF-8 text (a byte order
 * mark is tolerated), CRLF or LF line ends, a header row naming the columns,
 * one row per line (quoted cells may span lines). Cells come back through
 * `unneutralizeCell`, so a cell the export prefixed with a quote reads back as
 * the original text. Problems of the file as a whole (not UTF-8, malformed
 * CSV, a limit, the header) are a `CsvFileError`; a row whose number of
 * cells differs from the header is reported with its line and skipped.
 */
import { clip, quote } from '../errors.js';
import { unneutralizeCell } from './csv-export.js';

/** Limits of a CSV import: the file's size and its number of data rows. */
export const CSV_IMPORT_LIMITS = { maxBytes: 5 * 1024 * 1024, maxRows: 2000 } as const;

/** A problem of the import, on a line of the file (null: the file as a whole) and a column (null: none in particular). */
export interface CsvProblem {
  row: number | null;
  field: string | null;
  detail: string;
}

/** The file cannot be imported at all. */
export class CsvFileError extends Error {
  readonly problems: CsvProblem[];

  constructor(message: string, problems: CsvProblem[] = [{ row: null, field: null, detail: message }]) {
    super(message);
    this.name = 'CsvFileError';
    this.problems = problems;
  }
}

/** A data row: the line it starts on (the header is line 1) and its cells by column, unneutralized. */
export interface CsvRow {
  line: number;
  cells: Map<string, string>;
}

export interface CsvFile {
  header: string[];
  rows: CsvRow[];
  /** Rows that could not be read as rows of this header (wrong number of cells). */
  badRows: CsvProblem[];
  /** Data rows in the file (good and bad; blank lines and rows of empty cells are not rows). */
  rowCount: number;
}

export interface CsvFileSpec {
  /** Every column the file may have, in the export's order. */
  columns: readonly string[];
  /** Columns the file must have. */
  required: readonly string[];
  maxBytes: number;
  maxRows: number;
}

const fmt = (n: number) => n.toLocaleString('en-US');
const mib = (bytes: number) => (bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${fmt(bytes)} bytes`);

/** Line breaks inside a cell (CRLF, LF or CR, as the parser reads row ends). */
const lineBreaks = (text: string) => text.match(/\r\n|\r|\n/g)?.length ?? 0;

/** An uploaded file as the import reads it: its bytes, and whether it went past the upload limit (then `data` holds only its first bytes). */
export interface CsvUpload {
  data: Buffer;
  truncated: boolean;
}

/**
 * Reads an uploaded CSV file. `truncated` says the upload went past the
 * byte limit (the multipart layer cut it there).
 */
export async function readCsvFile({ data, truncated }: CsvUpload, spec: CsvFileSpec): Promise<CsvFile> {
  if (truncated || data.length > spec.maxBytes) {
    throw new CsvFileError(`the file is larger than the limit of ${mib(spec.maxBytes)} (${fmt(spec.maxBytes)} bytes); split it into smaller files`);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    throw new CsvFileError('the file is not UTF-8 text; save the CSV as UTF-8');
  }
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  if (!text.trim()) throw new CsvFileError(`the file is empty; expected a header row (${spec.columns.join(',')}) and one row per definition`);

  let header: string[] | undefined;
  const rows: CsvRow[] = [];
  const badRows: CsvProblem[] = [];
  let rowCount = 0;
  let line = 1;

  const onRecord = (cells: string[]) => {
    const start = line;
    line += 1 + cells.reduce((n, c) => n + lineBreaks(c), 0);
    // A blank line, or a row of empty cells (spreadsheets add those at the end), is not a row.
    if (cells.every((c) => c === '')) return;
    if (!header) {
      header = checkHeader(cells, spec);
      return;
    }
    rowCount++;
    if (rowCount > spec.maxRows) throw new CsvFileError(`the file has more than ${fmt(spec.maxRows)} rows (the limit); split it into smaller files`);
    if (cells.length !== header.length) {
      badRows.push({ row: start, field: null, detail: `the row has ${cells.length} cells, the header has ${header.length} columns` });
      return;
    }
    rows.push({ line: start, cells: new Map(header.map((column, i) => [column, unneutralizeCell(cells[i]!)])) });
  };

  const { parseString } = await import('fast-csv');
  await new Promise<void>((resolve, reject) => {
    let settled = false;
    const stream = parseString(text, { headers: false });
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      stream.destroy();
      reject(err);
    };
    stream
      .on('data', (cells: string[]) => {
        if (settled) return;
        try {
          onRecord(cells);
        } catch (err) {
          fail(err);
        }
      })
      .on('error', (err: Error) => {
        const detail = `malformed CSV at line ${line}: ${err.message.replace(/^Parse Error: /, '')}`;
        fail(new CsvFileError(detail, [{ row: line, field: null, detail }]));
      })
      .on('end', () => {
        if (settled) return;
        settled = true;
        resolve();
      });
  });
  if (!header) throw new CsvFileError(`the file is empty; expected a header row (${spec.columns.join(',')})`);
  return { header, rows, badRows, rowCount };
}

/** The header's column names; unknown, duplicate or missing required columns refuse the file, naming them. */
function checkHeader(cells: string[], spec: CsvFileSpec): string[] {
  const names = cells.map((c) => c.trim());
  const known = new Set(spec.columns);
  const problems: CsvProblem[] = [];
  const unknown = names.filter((n) => !known.has(n));
  const duplicates = names.filter((n, i) => known.has(n) && names.indexOf(n) !== i);
  const missing = spec.required.filter((c) => !names.includes(c));
  for (const n of unknown) problems.push({ row: 1, field: n, detail: `unknown column ${quote(n)}` });
  for (const n of new Set(duplicates)) problems.push({ row: 1, field: n, detail: `column ${quote(n)} appears more than once` });
  for (const n of missing) problems.push({ row: 1, field: n, detail: `required column '${n}' is missing` });
  if (!problems.length) return names;
  const parts = [
    unknown.length ? `unknown columns: ${unknown.map((n) => `'${n}'`).join(', ')}` : '',
    duplicates.length ? `duplicate columns: ${[...new Set(duplicates)].join(', ')}` : '',
    missing.length ? `missing required columns: ${missing.join(', ')}` : '',
  ].filter(Boolean);
  throw new CsvFileError(`the header row does not match the export's format (${parts.join('; ')}); expected columns: ${spec.columns.join(',')}`, problems);
}

/**
 * The cells of one row as JSON values. Each reader returns undefined when
 * the file has no such column, null for an empty cell, else the value; a cell
 * that cannot be read is recorded in `errors` (with its column).
 */
export class CsvRowReader {
  readonly errors: { field: string; detail: string }[] = [];

  constructor(readonly cells: Map<string, string>) {}

  has(column: string): boolean {
    return this.cells.has(column);
  }

  /** The cell's text as is ('' for an empty cell). */
  text(column: string): string | undefined {
    return this.cells.get(column);
  }

  /** `true` or `false` (in any case). */
  boolean(column: string): boolean | null | undefined {
    const cell = this.cells.get(column);
    if (cell === undefined || cell === '') return cell === undefined ? undefined : null;
    const lower = cell.trim().toLowerCase();
    if (lower === 'true' || lower === 'false') return lower === 'true';
    this.errors.push({ field: column, detail: `${column}: expected true or false, got ${quote(cell)}` });
    return undefined;
  }

  /** A decimal number (the contract's schema then says whether it must be an integer, and its range). */
  number(column: string): number | null | undefined {
    const cell = this.cells.get(column);
    if (cell === undefined || cell === '') return cell === undefined ? undefined : null;
    const trimmed = cell.trim();
    if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(trimmed)) return Number(trimmed);
    this.errors.push({ field: column, detail: `${column}: expected a number, got ${quote(cell)}` });
    return undefined;
  }

  /** A JSON text (object and array columns). */
  json(column: string): unknown {
    const cell = this.cells.get(column);
    if (cell === undefined || cell === '') return cell === undefined ? undefined : null;
    try {
      return JSON.parse(cell) as unknown;
    } catch (err) {
      this.errors.push({ field: column, detail: `${column}: malformed JSON (${clip((err as Error).message, 160)})` });
      return undefined;
    }
  }
}

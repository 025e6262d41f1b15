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
import { yieldIfBusy } from '../slices.js';
import { unneutralizeCell } from './csv-export.js';

/**
 * Limits of a CSV import: the file's size, its number of data rows, of
 * blank lines (and rows of empty cells), of cells in a row (the header's
 * included) and of characters in a row.
 */
export const CSV_IMPORT_LIMITS = { maxBytes: 5 * 1024 * 1024, maxRows: 2000, maxBlankLines: 1000, maxCells: 100, maxRowChars: 1024 * 1024 } as const;

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
  maxBlankLines: number;
  maxCells: number;
  maxRowChars: number;
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

/** Characters the parser is handed at a time (rounded up to the end of a row); the event loop turns between slices. */
const SLICE_CHARS = 16 * 1024;

/**
 * Where the rows of a CSV text end, found slice by slice with RFC 4180's
 * states (a quote opens a quoted cell only at the start of a cell, where
 * spaces before it are allowed; `""` in a quoted cell is a quote), so that
 * the parser is handed whole rows only, and a row with too many cells or
 * characters refuses the file before the parser builds it.
 */
class RowBounds {
  private state: 'start' | 'unquoted' | 'quoted' | 'quote' = 'start';
  private rowStart = 0;
  private cells = 1;
  private lines = 0;
  /** The line the current row starts on (the header is line 1). */
  private line = 1;
  private afterCr = false;
  /** The end of the last whole row seen. */
  lastRowEnd = 0;

  constructor(
    private readonly text: string,
    private readonly spec: CsvFileSpec,
  ) {}

  /** Scans up to `end`; throws CsvFileError when a row is past a limit. */
  scan(end: number, from: number): void {
    const { text } = this;
    for (let i = from; i < end; i++) {
      const c = text.charCodeAt(i);
      if (this.afterCr) {
        this.afterCr = false;
        if (c === LF && this.state !== 'quoted') {
          this.rowStart = i + 1;
          this.lastRowEnd = i + 1;
          continue;
        }
      }
      switch (this.state) {
        case 'quoted':
          if (c === QUOTE) this.state = 'quote';
          else if (c === LF || c === CR) this.lines++;
          continue;
        case 'quote':
          if (c === QUOTE) {
            this.state = 'quoted';
            continue;
          }
          break;
        case 'start':
          if (c === QUOTE) {
            this.state = 'quoted';
            continue;
          }
          if (c === SPACE || c === TAB) continue;
          break;
      }
      if (c === COMMA) {
        if (++this.cells > this.spec.maxCells) this.tooMany();
        this.state = 'start';
      } else if (c === LF || c === CR) {
        this.endRow(i);
        this.afterCr = c === CR;
      } else {
        this.state = 'unquoted';
      }
      if (i - this.rowStart > this.spec.maxRowChars) this.tooLong();
    }
    if (end - this.rowStart > this.spec.maxRowChars) this.tooLong();
  }

  private endRow(at: number): void {
    this.line += 1 + this.lines;
    this.lines = 0;
    this.cells = 1;
    this.state = 'start';
    this.rowStart = at + 1;
    this.lastRowEnd = at + 1;
  }

  private tooMany(): never {
    const what = this.line === 1 ? 'the header row' : `the row on line ${this.line}`;
    throw new CsvFileError(`${what} has more than ${fmt(this.spec.maxCells)} cells (the limit); the export's rows have ${this.spec.columns.length}`, [
      { row: this.line, field: null, detail: `more than ${fmt(this.spec.maxCells)} cells` },
    ]);
  }

  private tooLong(): never {
    const what = this.line === 1 ? 'the header row' : `the row on line ${this.line}`;
    throw new CsvFileError(`${what} is longer than ${fmt(this.spec.maxRowChars)} characters (the limit)`, [
      { row: this.line, field: null, detail: `longer than ${fmt(this.spec.maxRowChars)} characters` },
    ]);
  }
}

const [LF, CR, QUOTE, COMMA, SPACE, TAB] = [10, 13, 34, 44, 32, 9];

/**
 * Reads an uploaded CSV file. `truncated` says the upload went past the
 * byte limit (the multipart layer cut it there). The text is parsed in
 * slices of whole rows, the event loop turning between them, and every
 * limit is checked as the slices go: a file past one costs only what was
 * read up to it.
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
  let blankLines = 0;
  let line = 1;

  const onRecord = (cells: string[]) => {
    const start = line;
    line += 1 + cells.reduce((n, c) => n + lineBreaks(c), 0);
    // A blank line, or a row of empty cells (spreadsheets add those at the end), is not a row.
    if (cells.every((c) => c === '')) {
      if (++blankLines > spec.maxBlankLines)
        throw new CsvFileError(`the file has more than ${fmt(spec.maxBlankLines)} blank lines or rows of empty cells (the limit); remove them`);
      return;
    }
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

  const { parse } = await import('fast-csv');
  const stream = parse({ headers: false });
  let failure: unknown;
  const ended = new Promise<void>((resolve) => {
    stream
      .on('data', (cells: string[]) => {
        if (failure) return;
        try {
          onRecord(cells);
        } catch (err) {
          failure = err;
        }
      })
      .on('error', (err: Error) => {
        const detail = `malformed CSV at line ${line}: ${err.message.replace(/^Parse Error: /, '')}`;
        failure ??= new CsvFileError(detail, [{ row: line, field: null, detail }]);
        resolve();
      })
      .on('end', () => resolve());
  });
  // Resolves when the parser has taken the chunk's rows, or stopped (it reports its own failures as 'error', above).
  const write = (chunk: string) => Promise.race([new Promise<void>((resolve) => stream.write(chunk, () => resolve())), ended]);

  const bounds = new RowBounds(text, spec);
  let handed = 0;
  try {
    for (let scanned = 0; scanned < text.length && !failure;) {
      const end = Math.min(text.length, scanned + SLICE_CHARS);
      bounds.scan(end, scanned);
      scanned = end;
      // Whole rows only: a row the parser does not see the end of, it parses again with the next slice.
      const upTo = scanned === text.length ? text.length : bounds.lastRowEnd;
      if (upTo > handed) {
        await write(text.slice(handed, upTo));
        handed = upTo;
      }
      await yieldIfBusy();
    }
  } catch (err) {
    failure ??= err;
  }
  if (failure) {
    stream.destroy();
    throw failure;
  }
  stream.end();
  await ended;
  if (failure) throw failure;
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
  // At most a few unknown names in the message (the list of problems has them all, up to the limit of cells).
  const some = (names: string[]) =>
    `${names
      .slice(0, 5)
      .map((n) => quote(n))
      .join(', ')}${names.length > 5 ? ` and ${names.length - 5} more` : ''}`;
  const parts = [
    unknown.length ? `unknown columns: ${some(unknown)}` : '',
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

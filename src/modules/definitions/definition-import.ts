/**
 * CSV import of question definitions, both kinds (in-game and Match). A row
 * with a blank `id` creates a definition in its `league`; a row with an id
 * replaces that definition (its league must be the row's league). Each row
 * goes through exactly the checks of the JSON API: the contract's schema of
 * the create or replace body (the generated request validator), then the
 * service's own rules, then name uniqueness within the league.
 *
 * Rows are taken in file order, each checked against the state the rows
 * before it leave (as if the JSON API were called row by row): a row may take
 * a name an earlier row gave up, and two rows claiming one name is an error
 * of the later row. Names compare as the unique index does (`lower()` in the
 * database). A dry run writes nothing; an apply runs the same checks inside
 * one transaction, holding the definitions it updates locked, and writes
 * every create and update there, or nothing when any row has an error. The
 * writes are one upsert by id per 500 rows, in file order (so the unique
 * index sees them as the row-by-row checks did), not a statement per row.
 */
import { randomUUID } from 'node:crypto';
import type { ValidateFunction } from 'ajv';
import type { components, operations } from '../../../generated/api-types.js';
import { CSV_IMPORT_LIMITS, CsvFileError, CsvRowReader, readCsvFile, type CsvFile, type CsvProblem, type CsvUpload } from '../../csv/csv-import.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { formatLocation } from '../../db/sql-helpers.js';
import { isAppError, isForeignKeyViolation, isUniqueViolation, quote, type AppError } from '../../errors.js';
import { loadRequestValidators, type RequestValidators } from '../../request-validators.js';
import { yieldIfBusy } from '../../slices.js';
import { ajvErrorsToIssues } from '../../validation-issues.js';
import { definitionErrors } from './definitions.errors.js';
import { lowerCaseNames } from './definitions.repository.js';

type Schemas = components['schemas'];
export type ImportResult = Schemas['ImportResult'];
type RowAction = Schemas['ImportRowAction'];
type RowError = Schemas['ImportRowError'];

export interface ImportLeague {
  id: string;
  slug: string;
  sport: string;
}

/** What the import needs of a stored definition. */
export interface StoredDefinition {
  id: string;
  leagueId: string;
  leagueSlug: string;
  leagueSport: string;
  name: string;
}

/** One kind of definition, as the import sees it. */
export interface DefinitionImportKind<S extends StoredDefinition, B, V extends { name: string }> {
  /** 'question definition' or 'Match question definition' (in messages). */
  noun: string;
  /** The export's columns, in order; the file may have no others. */
  columns: readonly string[];
  /** Columns the file must have. */
  requiredColumns: readonly string[];
  /** The JSON API's create and replace operations, whose body validators check each row. */
  createOperation: keyof operations;
  replaceOperation: keyof operations;
  /**
   * The JSON body a row stands for (a replace of `current`, or a create):
   * an empty cell is what a JSON client leaving the field out (or sending
   * null) gets; a column the file lacks keeps the stored value. `extra` holds
   * columns that are not part of the body (the in-game archive flag).
   */
  toBody(reader: CsvRowReader, current: S | undefined): { body: Record<string, unknown>; extra?: Partial<V> };
  /**
   * The service's rules of create and replace, for the rows of one import
   * (what they look up may be read once for all rows): the columns a row
   * would write (throws AppError 400).
   */
  preparer(db: DbOrTx): (args: { body: B; league: ImportLeague }) => Promise<V>;
  /** Contract names of the fields whose stored value differs. */
  changedFields(current: S, values: V): string[];
  findByIds(args: { db: DbOrTx; ids: string[]; forUpdate: boolean }): Promise<S[]>;
  namesOfLeague(args: { db: DbOrTx; leagueId: string }): Promise<{ id: string; lowerName: string }[]>;
  /** Writes rows in bulk: new ones (with the ids given) and replacements of stored ones. */
  writeAll(args: { db: DbOrTx; rows: ({ id: string } & V)[] }): Promise<void>;
  /** Unique index on (league, lower(name)). */
  nameIndex: string;
  /** Column to blame when a foreign key refuses a write (a group or league deleted meanwhile). */
  foreignKeyField(values: V): string;
}

/** The request body validator of a JSON operation (what openapi-backend runs on `{requestBody}`). */
function bodyValidator(requestValidators: RequestValidators, operationId: keyof operations): ValidateFunction {
  const fn = requestValidators[operationId]?.[0];
  if (!fn) throw new Error(`no generated request body validator for ${operationId}; run npm run generate`);
  return fn;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The contract's schema errors of a row's body, by column. */
function schemaErrors(validate: ValidateFunction, body: Record<string, unknown>): { field: string | null; detail: string }[] {
  if (validate({ requestBody: body })) return [];
  return ajvErrorsToIssues(validate.errors ?? []).map((issue) => {
    const path = issue.loc.slice(1);
    const where = path.length ? formatLocation(path) : 'row';
    return {
      field: path.length ? String(path[0]) : null,
      detail: `${where}: ${issue.type === 'missing' ? 'a value is required (the cell is empty)' : issue.msg}`,
    };
  });
}

/** Values compared for `changed_fields`: key order and null or absent object members do not matter. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null && v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, canonical(v)]),
    );
  }
  return value ?? null;
}

/** Contract names of the fields (mapped to row keys) whose values differ. */
export function changedFields<S, V>(current: S, values: V, fields: Record<string, keyof S & keyof V>): string[] {
  return Object.entries(fields)
    .filter(([, key]) => JSON.stringify(canonical(current[key])) !== JSON.stringify(canonical(values[key])))
    .map(([name]) => name);
}

interface Plan<V> {
  rowCount: number;
  creates: RowAction[];
  updates: RowAction[];
  unchanged: RowAction[];
  errors: RowError[];
  writes: { action: RowAction; id: string | null; values: V }[];
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Problems an answer lists (the first, in file order); `error_count` says how many there were. */
export const REPORTED_ERRORS_MAX = 100;

/** The answer's `errors` (the first REPORTED_ERRORS_MAX) and `error_count` (all of them). */
const reported = (errors: RowError[]) => ({ errors: errors.slice(0, REPORTED_ERRORS_MAX), error_count: errors.length });

function resultOf<V>(plan: Plan<V>, { dryRun, applied, detail }: { dryRun: boolean; applied: boolean; detail: string }): ImportResult {
  return {
    detail,
    dry_run: dryRun,
    applied,
    row_count: plan.rowCount,
    creates: plan.creates,
    updates: plan.updates,
    unchanged: plan.unchanged,
    ...reported(plan.errors),
  };
}

const counts = <V>(p: Plan<V>) => `${p.creates.length} to create, ${p.updates.length} to update, ${p.unchanged.length} unchanged`;

/** 400 with the preview body: nothing was written. */
function refused<V>(plan: Plan<V>, dryRun: boolean): AppError {
  const creates = plan.creates.map((c) => ({ ...c, id: null }));
  const detail = `import refused, nothing was written: ${plural(plan.errors.length, 'error')} (${counts(plan)})`;
  return definitionErrors.importRefused(resultOf({ ...plan, creates }, { dryRun, applied: false, detail }));
}

function fileError(err: CsvFileError, dryRun: boolean): AppError {
  const body: ImportResult = {
    detail: err.message,
    dry_run: dryRun,
    applied: false,
    row_count: 0,
    creates: [],
    updates: [],
    unchanged: [],
    ...reported(err.problems),
  };
  return definitionErrors.importInvalidFile(body);
}

/**
 * Reads the uploaded CSV and previews (`dryRun`) or applies it. A file that
 * cannot be read gives 400 with a detail; a refused apply gives 400 with
 * the preview body.
 */
export async function importDefinitions<S extends StoredDefinition, B, V extends { name: string }>({
  db,
  kind,
  leagueBySlug,
  file,
  dryRun,
}: {
  db: Db;
  kind: DefinitionImportKind<S, B, V>;
  leagueBySlug: (slug: string, db: DbOrTx) => Promise<ImportLeague>;
  file: CsvUpload | undefined;
  dryRun: boolean;
}): Promise<ImportResult> {
  let csv: CsvFile;
  try {
    if (!file) throw new CsvFileError('no file: send the CSV as the multipart field `file`');
    csv = await readCsvFile(file, { columns: kind.columns, required: kind.requiredColumns, ...CSV_IMPORT_LIMITS });
  } catch (err) {
    if (err instanceof CsvFileError) throw fileError(err, dryRun);
    throw err;
  }

  if (dryRun) {
    const plan = await planImport({ db, kind, leagueBySlug, csv, forUpdate: false });
    const detail = `dry run: ${counts(plan)}, ${plural(plan.errors.length, 'error')}`;
    return resultOf(plan, { dryRun, applied: false, detail });
  }

  return db.transaction(async (tx) => {
    const plan = await planImport({ db: tx, kind, leagueBySlug, csv, forUpdate: true });
    if (plan.errors.length) throw refused(plan, dryRun);
    // New rows get their ids here, so one statement writes creates and updates alike.
    const rows = plan.writes.map((w) => ({ ...w.values, id: w.id ?? randomUUID() }));
    const raced = (err: unknown) => isUniqueViolation(err, kind.nameIndex) || isForeignKeyViolation(err);
    try {
      await tx.transaction((sp) => kind.writeAll({ db: sp, rows }));
    } catch (err) {
      if (!raced(err)) throw err;
      // Another request wrote a clashing name, or removed a group or league, after the
      // checks: find the row it hit, one write at a time (this slow path only runs then).
      for (const [i, write] of plan.writes.entries()) {
        try {
          await tx.transaction((sp) => kind.writeAll({ db: sp, rows: [rows[i]!] }));
        } catch (rowErr) {
          if (!raced(rowErr)) throw rowErr;
          const field = isUniqueViolation(rowErr, kind.nameIndex) ? 'name' : kind.foreignKeyField(write.values);
          const detail =
            field === 'name'
              ? `a ${kind.noun} named '${write.values.name}' was just created in league '${write.action.league}' by another request`
              : `${field}: the referenced ${field === 'league' ? 'league' : 'question group'} was just deleted by another request`;
          throw refused({ ...plan, errors: [{ row: write.action.row, field, detail }] }, dryRun);
        }
      }
      // Every row went in one at a time (the other request rolled back meanwhile): applied.
    }
    for (const [i, write] of plan.writes.entries()) if (!write.id) write.action.id = rows[i]!.id;
    const detail = `applied: ${plan.creates.length} created, ${plan.updates.length} updated, ${plan.unchanged.length} unchanged`;
    return resultOf(plan, { dryRun, applied: true, detail });
  });
}

type Owner = { id: string | null; row: number | null };

async function planImport<S extends StoredDefinition, B, V extends { name: string }>({
  db,
  kind,
  leagueBySlug,
  csv,
  forUpdate,
}: {
  db: DbOrTx;
  kind: DefinitionImportKind<S, B, V>;
  leagueBySlug: (slug: string, db: DbOrTx) => Promise<ImportLeague>;
  csv: CsvFile;
  forUpdate: boolean;
}): Promise<Plan<V>> {
  const plan: Plan<V> = { rowCount: csv.rowCount, creates: [], updates: [], unchanged: [], errors: [], writes: [] };
  const problems: CsvProblem[] = [...csv.badRows];
  const requestValidators = await loadRequestValidators();

  const ids = [...new Set(csv.rows.map((r) => (r.cells.get('id') ?? '').trim().toLowerCase()).filter((id) => UUID.test(id)))];
  const stored = new Map((await kind.findByIds({ db, ids, forUpdate })).map((s) => [s.id, s]));
  const nameCells = [...new Set(csv.rows.map((r) => (r.cells.get('name') ?? '').trim()).filter(Boolean))];
  const lowered = new Map((await lowerCaseNames({ db, names: nameCells })).map((lower, i) => [nameCells[i]!, lower]));

  const leagues = new Map<string, ImportLeague | string>();
  async function resolveLeague(slug: string): Promise<ImportLeague | string> {
    let found = leagues.get(slug);
    if (found === undefined) {
      try {
        found = await leagueBySlug(slug, db);
      } catch (err) {
        if (!isAppError(err) || err.status >= 500) throw err;
        found = `league: ${err.message}`;
      }
      leagues.set(slug, found);
    }
    return found;
  }

  // Per league: who holds each (lowercased) name, as the rows so far leave it.
  const names = new Map<string, { byName: Map<string, Owner>; nameOf: Map<string, string> }>();
  async function namesOf(leagueId: string) {
    let entry = names.get(leagueId);
    if (!entry) {
      const rows = await kind.namesOfLeague({ db, leagueId });
      entry = { byName: new Map(rows.map((r) => [r.lowerName, { id: r.id, row: null }])), nameOf: new Map(rows.map((r) => [r.id, r.lowerName])) };
      names.set(leagueId, entry);
    }
    return entry;
  }

  const prepare = kind.preparer(db);
  const seenIds = new Map<string, number>();
  for (const { line, cells } of csv.rows) {
    // Each row's checks are cheap; 2,000 of them are not: the event loop turns between slices of rows.
    await yieldIfBusy();
    const errors: { field: string | null; detail: string }[] = [];
    const idText = (cells.get('id') ?? '').trim();
    const leagueText = (cells.get('league') ?? '').trim();
    let current: S | undefined;
    let league: ImportLeague | undefined;

    if (idText) {
      const key = idText.toLowerCase();
      if (!UUID.test(idText)) {
        errors.push({ field: 'id', detail: `id ${quote(idText)} is not a UUID; leave it empty to create a definition` });
      } else if (seenIds.has(key)) {
        errors.push({ field: 'id', detail: `${kind.noun} ${key} is already on line ${seenIds.get(key)}; a definition may appear once per file` });
      } else {
        seenIds.set(key, line);
        current = stored.get(key);
        if (!current) errors.push({ field: 'id', detail: `no ${kind.noun} with id ${idText}; leave id empty to create one` });
        else if (leagueText !== current.leagueSlug) {
          errors.push({
            field: 'league',
            detail: `${kind.noun} ${current.id} belongs to league '${current.leagueSlug}'${leagueText ? `, not ${quote(leagueText)}; moving a definition to another league is not supported (leave id empty to create a copy there)` : '; the league column must name it'}`,
          });
        } else league = { id: current.leagueId, slug: current.leagueSlug, sport: current.leagueSport };
      }
    } else if (!leagueText) {
      errors.push({ field: 'league', detail: 'league: a value is required (the slug of the league to create the definition in)' });
    } else {
      const found = await resolveLeague(leagueText);
      if (typeof found === 'string') errors.push({ field: 'league', detail: found });
      else league = found;
    }

    const reader = new CsvRowReader(cells);
    const { body, extra } = kind.toBody(reader, current);
    errors.push(...reader.errors);
    if (!reader.errors.length) errors.push(...schemaErrors(bodyValidator(requestValidators, current ? kind.replaceOperation : kind.createOperation), body));

    let values: V | undefined;
    if (!errors.length && league) {
      try {
        values = { ...(await prepare({ body: body as B, league })), ...extra };
      } catch (err) {
        if (!isAppError(err) || err.status >= 500) throw err;
        const lead = /^([a-z_]+)/.exec(err.message)?.[1];
        errors.push({ field: lead && kind.columns.includes(lead) ? lead : null, detail: err.message });
      }
    }

    if (values && league) {
      const lower = lowered.get(values.name) ?? (await lowerCaseNames({ db, names: [values.name] }))[0]!;
      const held = await namesOf(league.id);
      const owner = held.byName.get(lower);
      const self = current?.id ?? null;
      if (owner && !(self && owner.id === self)) {
        errors.push({
          field: 'name',
          detail:
            owner.row !== null
              ? `line ${owner.row} of this file also uses the name '${values.name}' in league '${league.slug}'; names are unique within a league without regard to case`
              : `a ${kind.noun} named '${values.name}' already exists in league '${league.slug}'`,
        });
      } else {
        if (self) {
          const old = held.nameOf.get(self);
          if (old !== undefined && held.byName.get(old)?.id === self) held.byName.delete(old);
          held.nameOf.set(self, lower);
        }
        held.byName.set(lower, { id: self, row: line });
      }
    }

    if (errors.length || !values || !league) {
      problems.push(...errors.map((e) => ({ row: line, ...e })));
      continue;
    }
    const action: RowAction = { row: line, id: current?.id ?? null, league: league.slug, name: values.name };
    if (!current) {
      plan.creates.push(action);
      plan.writes.push({ action, id: null, values });
      continue;
    }
    const changed = kind.changedFields(current, values);
    if (!changed.length) {
      plan.unchanged.push(action);
      continue;
    }
    const update = { ...action, changed_fields: changed };
    plan.updates.push(update);
    plan.writes.push({ action: update, id: current.id, values });
  }
  plan.errors = problems.sort((a, b) => (a.row ?? 0) - (b.row ?? 0));
  return plan;
}

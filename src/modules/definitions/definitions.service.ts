/**
 * The question definitions of one kind (in-game or Match; see
 * definition-kind.ts), each kind a service of its own built by this one
 * function. Everything a definition carries is checked on save (templates and
 * expressions compile, the kind's own rules hold, choice identifiers are
 * unique, the group is the league's), so the engine never meets a definition
 * it cannot run. Names are unique per league without regard to case; the
 * unique index settles races.
 */
import type { Readable } from 'node:stream';
import { csvStream } from '../../csv/csv-export.js';
import type { CsvUpload } from '../../csv/csv-import.js';
import type { Db } from '../../db/client.js';
import { inAdminLane } from '../../runtime/sandbox/sandbox.js';
import { definitionErrorToBadRequest } from '../shared/domain.errors.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../errors.js';
import { groupInDatabase, groupsReadOnce, type GroupCheck } from '../groups/group-check.js';
import { leagueErrors } from '../leagues/leagues.errors.js';
import { findLeague } from '../leagues/leagues.public.js';
import type { LeaguesService } from '../leagues/leagues.service.js';
import { mapAsync } from '../shared/csv-rows.js';
import { scrubFromAllowlists } from './allowlists.repository.js';
import type { CommonInput, DefinitionKind, DefinitionOperations, LeagueRef, StoredDefinition, WithLeague } from './definition-kind.js';
import { importDefinitions, type DefinitionImportKind, type ImportResult } from './definition-import.js';
import { checkChoiceIdentifiers, copyName, parseDefinitionName, parseListFilter, rejectNulCharacters } from './definition-rules.js';
import { bodyFromCsv, changedFieldNames, csvColumns, requiredCsvColumns, toCsvRow } from './definitions.csv.js';
import {
  countReferences,
  definitionNamesOfLeague,
  definitionsByIds,
  definitionsForExport,
  deleteDefinition,
  findDefinition,
  insertDefinition,
  listDefinitions,
  setArchived,
  updateDefinition,
  upsertDefinitions,
} from './definitions.repository.js';

export type ListQuery = {
  league: string;
  include_inactive?: boolean;
  q?: string;
  is_pivotal_moment?: boolean;
  created_from?: string;
  created_to?: string;
  updated_from?: string;
  updated_to?: string;
};

/** What a create or full replace writes: every editable column (the in-game archive flag stays as it is). */
export type DefinitionColumns = { leagueId: string; name: string; groupId: string | null } & Record<string, unknown>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Kind<Row extends StoredDefinition, Input extends CommonInput> = DefinitionKind<Row, Input, any, any, DefinitionOperations>;

/**
 * The validation step of create and replace (the JSON API and the CSV import
 * both call it, the import inside its transaction): the columns a create or
 * full replace writes, every editable field set (omitted optional fields take
 * their defaults). Throws 400 on a rule the contract leaves to the service.
 */
export async function definitionColumns<Input extends CommonInput>({
  kind,
  input,
  league,
  isLeagueGroup,
}: {
  kind: Pick<Kind<StoredDefinition, Input>, 'rules' | 'checkSyntax' | 'errors'>;
  input: Input;
  league: LeagueRef;
  isLeagueGroup: GroupCheck;
}): Promise<DefinitionColumns> {
  rejectNulCharacters(input);
  const name = parseDefinitionName(input.name);
  const choiceIds = checkChoiceIdentifiers(input.choices);
  const own = kind.rules({ input, league, choiceIds });
  try {
    // Compiling in the sandbox (a source too costly to compile here) is the admin requests' work, not the engine's.
    await inAdminLane(async () => kind.checkSyntax(input));
  } catch (err) {
    throw definitionErrorToBadRequest(err);
  }
  const groupId = input.group_id ?? null;
  if (groupId && !(await isLeagueGroup(groupId, league.id))) throw kind.errors.unknownGroup(groupId, league.slug);
  return {
    leagueId: league.id,
    name,
    description: input.description ?? null,
    isPivotalMoment: input.is_pivotal_moment ?? false,
    isActive: input.is_active ?? true,
    groupId,
    questionTextTemplate: input.question_text_template,
    choices: input.choices.map((c) => ({ identifier: c.identifier, label_template: c.label_template })),
    issuanceStateExtract: input.issuance_state_extract ?? null,
    storeState: input.store_state ?? null,
    points: input.points ?? null,
    ...own,
  };
}

/** A failed insert or update as the contract's answer: name taken 409, group gone 400, league gone 404. */
function writeError(
  kind: Pick<Kind<StoredDefinition, CommonInput>, 'nameIndex' | 'errors'>,
  err: unknown,
  { name, leagueSlug, groupId }: { name: string; leagueSlug: string; groupId: string | null | undefined },
): unknown {
  if (isUniqueViolation(err, kind.nameIndex)) return kind.errors.nameTaken(name, leagueSlug);
  if (isForeignKeyViolation(err)) return groupId ? kind.errors.unknownGroup(groupId, leagueSlug) : leagueErrors.notFound(leagueSlug, 'in this database');
  return err;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function referencedConflict(kind: Pick<Kind<StoredDefinition, CommonInput>, 'references' | 'errors'>, id: string, counts: number[]) {
  const refs = kind.references.map((ref, i) => plural(counts[i] ?? 0, ref.noun)).join(' and ');
  return kind.errors.inUse(refs, id);
}

export type DefinitionsService<Row extends StoredDefinition, Input extends CommonInput> = ReturnType<typeof createDefinitionsService<Row, Input>>;

export function createDefinitionsService<Row extends StoredDefinition, Input extends CommonInput>(
  kind: Kind<Row, Input>,
  { db, leagues }: { db: Db; leagues: Pick<LeaguesService, 'bySlug' | 'changed'> },
) {
  const leagueSlugOf = async (leagueId: string) => (await findLeague({ db, idOrSlug: leagueId }))?.slug ?? leagueId;
  const missing = () => kind.errors.notFound();
  const columns = (input: Input, league: LeagueRef, isLeagueGroup: GroupCheck) => definitionColumns({ kind, input, league, isLeagueGroup });
  const outOfIssuance = (archived: boolean) => ({ [kind.archive.column]: archived === kind.archive.archived });
  const exportColumns = csvColumns(kind);

  /** The definitions of this kind as the CSV import sees them. */
  const importKind: DefinitionImportKind<WithLeague<Row>, Input, DefinitionColumns> = {
    noun: kind.noun,
    columns: exportColumns,
    requiredColumns: requiredCsvColumns(kind),
    createOperation: kind.operations.create,
    replaceOperation: kind.operations.replace,
    toBody: (reader, current) => bodyFromCsv(kind, reader, current),
    preparer: (dbOrTx) => {
      const isLeagueGroup = groupsReadOnce(dbOrTx);
      return ({ body, league }) => columns(body, league, isLeagueGroup);
    },
    changedFields: (current, values) => changedFieldNames(kind, current, values),
    findByIds: (args) => definitionsByIds({ ...args, kind }),
    namesOfLeague: (args) => definitionNamesOfLeague({ ...args, kind }),
    writeAll: ({ db: dbOrTx, rows }) => upsertDefinitions({ db: dbOrTx, kind, rows }),
    nameIndex: kind.nameIndex,
    foreignKeyField: (values) => (values.groupId ? 'group_id' : 'league'),
  };

  async function get(id: string): Promise<WithLeague<Row>> {
    const row = await findDefinition({ db, kind, id });
    if (!row) throw missing();
    return row;
  }

  async function setArchiveFlag(id: string, archived: boolean): Promise<Row & { leagueSlug: string }> {
    const row = await setArchived({ db, kind, id, archived });
    if (!row) throw missing();
    return { ...row, leagueSlug: await leagueSlugOf(row.leagueId) };
  }

  return {
    get,

    /** The list's items ordered by name; archived ones only with `include_inactive`. */
    async list(query: ListQuery): Promise<{ league: string; rows: Row[] }> {
      const league = await leagues.bySlug(query.league);
      const filter = { ...parseListFilter(league.id, query), isPivotalMoment: query.is_pivotal_moment };
      return { league: league.slug, rows: await listDefinitions({ db, kind, filter }) };
    },

    async create(leagueSlug: string, input: Input): Promise<Row & { leagueSlug: string }> {
      const league = await leagues.bySlug(leagueSlug);
      const values = await columns(input, league, groupInDatabase(db));
      try {
        return { ...(await insertDefinition({ db, kind, values })), leagueSlug: league.slug };
      } catch (err) {
        throw writeError(kind, err, { name: values.name, leagueSlug: league.slug, groupId: values.groupId });
      }
    },

    /** Full replace of the editable fields; league, id, the in-game archive flag and timestamps stay server-managed. */
    async replace(id: string, input: Input): Promise<Row & { leagueSlug: string }> {
      const current = await get(id);
      const league = { id: current.leagueId, slug: current.leagueSlug, sport: current.leagueSport };
      const values = await columns(input, league, groupInDatabase(db));
      let row: Row | undefined;
      try {
        row = await updateDefinition({ db, kind, id, values });
      } catch (err) {
        throw writeError(kind, err, { name: values.name, leagueSlug: league.slug, groupId: values.groupId });
      }
      if (!row) throw missing();
      return { ...row, leagueSlug: league.slug };
    },

    /** A copy in the same league, in issuance (never archived), named `name` or `<name> (copy)`. */
    async clone(id: string, name: string | undefined): Promise<Row & { leagueSlug: string }> {
      const source = await get(id);
      rejectNulCharacters(name, 'name');
      const copy = name === undefined ? copyName(source.name) : parseDefinitionName(name);
      const { id: _id, createdAt: _c, updatedAt: _u, leagueSlug, leagueSport: _s, ...fields } = source;
      try {
        return { ...(await insertDefinition({ db, kind, values: { ...fields, name: copy, ...outOfIssuance(false) } })), leagueSlug };
      } catch (err) {
        throw writeError(kind, err, { name: copy, leagueSlug, groupId: fields.groupId });
      }
    },

    archive: (id: string) => setArchiveFlag(id, true),
    activate: (id: string) => setArchiveFlag(id, false),

    /** CSV of every definition of the kind of every league, archived ones included (ordered by league and name), streamed. */
    export(): Readable {
      return csvStream({ columns: exportColumns, rows: mapAsync(definitionsForExport({ db, kind }), (row) => toCsvRow(kind, exportColumns, row)) });
    },

    /** Previews (`dryRun`) or applies a CSV of definitions; see definition-import.ts. */
    importCsv: ({ file, dryRun }: { file: CsvUpload | undefined; dryRun: boolean }): Promise<ImportResult> =>
      importDefinitions({ db, kind: importKind, leagueBySlug: (slug, dbOrTx) => leagues.bySlug(slug, dbOrTx), file, dryRun }),

    /**
     * Deletes a definition nothing references (else 409 with the counts) and
     * scrubs its id from every allowlist of its kind, in one transaction.
     */
    async delete(id: string): Promise<void> {
      try {
        await db.transaction(async (tx) => {
          // The row lock makes references being created for it wait for the outcome.
          const row = await findDefinition({ db: tx, kind, id, forUpdate: true });
          if (!row) throw missing();
          const counts = await countReferences({ db: tx, kind, id });
          if (counts.some((n) => n > 0)) throw referencedConflict(kind, id, counts);
          await scrubFromAllowlists({ db: tx, kind: kind.id, id });
          await deleteDefinition({ db: tx, kind, id });
        });
      } catch (err) {
        // A reference committed in between: the foreign key refused the delete.
        if (isForeignKeyViolation(err)) throw referencedConflict(kind, id, await countReferences({ db, kind, id }));
        throw err;
      } finally {
        // The allowlists scrubbed are leagues' rows: the process's league list is read again (the trigger tells the others).
        await leagues.changed();
      }
    },
  };
}

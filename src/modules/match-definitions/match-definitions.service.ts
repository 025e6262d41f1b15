/**
 * Match (pre-game) question definitions. `is_active` is their only archive
 * flag: archive sets it false, activate true. Templates and expressions
 * compile on save and the group must be the league's; names are unique per
 * league without regard to case (the unique index settles races).
 */
import type { Readable } from 'node:stream';
import type { components } from '../../../generated/api-types.js';
import { csvStream } from '../../csv/csv-export.js';
import type { Db } from '../../db/client.js';
import { checkMatchSyntax, definitionErrorToBadRequest } from '../../domain/question-render.js';
import { AppError, badRequest, conflict, isForeignKeyViolation, isUniqueViolation, notFound, quote } from '../../errors.js';
import { groupInDatabase, groupsReadOnce, type GroupCheck } from '../groups/group-check.js';
import type { UploadedFile } from '../../http/handler-types.js';
import { scrubFromAllowlists } from '../definitions/allowlists.repository.js';
import { bodyValidator, importDefinitions, type DefinitionImportKind, type ImportResult } from '../definitions/definition-import.js';
import { checkChoiceIdentifiers, copyName, parseDefinitionName, parseListFilter, rejectNulCharacters } from '../definitions/definition-rules.js';
import { findLeague } from '../leagues/leagues.repository.js';
import type { LeaguesService } from '../leagues/leagues.service.js';
import { mapAsync } from '../shared/csv-rows.js';
import {
  MATCH_DEFINITION_CSV_COLUMNS,
  MATCH_DEFINITION_CSV_REQUIRED,
  matchDefinitionBodyFromCsv,
  matchDefinitionChangedFields,
  toMatchDefinitionCsvRow,
} from './match-definitions.csv.js';
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
} from '../definitions/definitions.repository.js';
import { MATCH as kind } from '../definitions/match.kind.js';
import { matchQuestionDefinitions, type MatchQuestionDefinitionRow } from '../definitions/match-definitions.table.js';

type Input = components['schemas']['MatchQuestionDefinitionInput'];
type ListQuery = { league: string; include_inactive?: boolean; q?: string; is_pivotal_moment?: boolean; created_from?: string; created_to?: string; updated_from?: string; updated_to?: string };

export type MatchDefinitionWithLeague = MatchQuestionDefinitionRow & { leagueSlug: string };

/** What a create or full replace writes: every editable column. */
export type MatchDefinitionColumns = Omit<typeof matchQuestionDefinitions.$inferInsert, 'id'> & { name: string };

const unknownGroup = (groupId: string, leagueSlug: string) => badRequest('match_definition.unknown_group', `group_id: ${groupId} is not a question group of league '${leagueSlug}'`);

/**
 * The validation step of create and replace (the JSON API and the CSV import
 * both call it): every editable column (omitted optional fields take their
 * defaults); 400 on a rule the contract leaves to the service.
 */
export async function matchDefinitionColumns({ input, league, isLeagueGroup }: { input: Input; league: { id: string; slug: string }; isLeagueGroup: GroupCheck }): Promise<MatchDefinitionColumns> {
  rejectNulCharacters(input);
  const name = parseDefinitionName(input.name);
  checkChoiceIdentifiers(input.choices);
  try {
    checkMatchSyntax(input);
  } catch (err) {
    throw definitionErrorToBadRequest(err);
  }
  const groupId = input.group_id ?? null;
  if (groupId && !(await isLeagueGroup(groupId, league.id))) throw unknownGroup(groupId, league.slug);
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
    issueLeadSeconds: input.issue_lead_seconds ?? 86400,
    resolution: { correct_choice: input.resolution.correct_choice },
    points: input.points ?? null,
  };
}

/** A failed insert or update as the contract's answer: name taken 409, group gone 400, league gone 404. */
function writeError(err: unknown, { name, leagueSlug, groupId }: { name: string; leagueSlug: string; groupId: string | null | undefined }): unknown {
  if (isUniqueViolation(err, 'match_question_definitions_league_name_uq')) {
    return conflict('match_definition.name_taken', `a Match question definition named ${quote(name)} already exists in league '${leagueSlug}'`);
  }
  if (isForeignKeyViolation(err)) return groupId ? unknownGroup(groupId, leagueSlug) : new AppError(404, 'league.not_found', `league '${leagueSlug}' not found in this database`);
  return err;
}

function referencedConflict(id: string, issuances: number) {
  return conflict(
    'match_definition.in_use',
    `this definition is referenced by ${issuances} question issuance${issuances === 1 ? '' : 's'}, so it cannot be deleted; archive it instead (POST /api/match-question-definitions/${id}/archive)`,
  );
}

/** The Match question definitions as the CSV import sees them. */
const importKind: DefinitionImportKind<MatchQuestionDefinitionRow & { leagueSlug: string; leagueSport: string }, Input, MatchDefinitionColumns> = {
  noun: 'Match question definition',
  columns: MATCH_DEFINITION_CSV_COLUMNS,
  requiredColumns: MATCH_DEFINITION_CSV_REQUIRED,
  createOperation: 'createMatchQuestionDefinition',
  replaceOperation: 'replaceMatchQuestionDefinition',
  toBody: matchDefinitionBodyFromCsv,
  preparer: (db) => {
    const isLeagueGroup = groupsReadOnce(db);
    return async ({ body, league }) => matchDefinitionColumns({ input: body, league, isLeagueGroup });
  },
  changedFields: (current, values) => matchDefinitionChangedFields(current, values as Parameters<typeof matchDefinitionChangedFields>[1]),
  findByIds: (args) => definitionsByIds({ ...args, kind }),
  namesOfLeague: (args) => definitionNamesOfLeague({ ...args, kind }),
  writeAll: ({ db, rows }) => upsertDefinitions({ db, kind, rows }),
  nameIndex: 'match_question_definitions_league_name_uq',
  foreignKeyField: (values) => (values.groupId ? 'group_id' : 'league'),
};
// Fail at start, not on the first import, when the generated validators lack the operations.
bodyValidator(importKind.createOperation);
bodyValidator(importKind.replaceOperation);

export type MatchDefinitionsService = ReturnType<typeof createMatchDefinitionsService>;

export function createMatchDefinitionsService({ db, leagues }: { db: Db; leagues: Pick<LeaguesService, 'bySlug'> }) {
  const leagueSlugOf = async (leagueId: string) => (await findLeague({ db, idOrSlug: leagueId }))?.slug ?? leagueId;

  async function get(id: string): Promise<MatchDefinitionWithLeague> {
    const row = await findDefinition({ db, kind, id });
    if (!row) throw notFound('Match question definition', 'match_definition.not_found');
    return row;
  }

  async function setActiveFlag(id: string, active: boolean): Promise<MatchDefinitionWithLeague> {
    const row = await setArchived({ db, kind, id, archived: !active });
    if (!row) throw notFound('Match question definition', 'match_definition.not_found');
    return { ...row, leagueSlug: await leagueSlugOf(row.leagueId) };
  }

  return {
    get,

    /** Ordered by name; inactive ones only with `include_inactive`. */
    async list(query: ListQuery): Promise<{ league: string; rows: MatchQuestionDefinitionRow[] }> {
      const league = await leagues.bySlug(query.league);
      return { league: league.slug, rows: await listDefinitions({ db, kind, filter: { ...parseListFilter(league.id, query), isPivotalMoment: query.is_pivotal_moment } }) };
    },

    async create(leagueSlug: string, input: Input): Promise<MatchDefinitionWithLeague> {
      const league = await leagues.bySlug(leagueSlug);
      const values = await matchDefinitionColumns({ input, league, isLeagueGroup: groupInDatabase(db) });
      try {
        return { ...(await insertDefinition({ db, kind, values })), leagueSlug: league.slug };
      } catch (err) {
        throw writeError(err, { name: values.name, leagueSlug: league.slug, groupId: values.groupId });
      }
    },

    /** Full replace of the editable fields; league, id and timestamps stay server-managed. */
    async replace(id: string, input: Input): Promise<MatchDefinitionWithLeague> {
      const current = await get(id);
      const values = await matchDefinitionColumns({ input, league: { id: current.leagueId, slug: current.leagueSlug }, isLeagueGroup: groupInDatabase(db) });
      let row: MatchQuestionDefinitionRow | undefined;
      try {
        row = await updateDefinition({ db, kind, id, values });
      } catch (err) {
        throw writeError(err, { name: values.name, leagueSlug: current.leagueSlug, groupId: values.groupId });
      }
      if (!row) throw notFound('Match question definition', 'match_definition.not_found');
      return { ...row, leagueSlug: current.leagueSlug };
    },

    /** A copy in the same league, active, named `name` or `<name> (copy)`. */
    async clone(id: string, name: string | undefined): Promise<MatchDefinitionWithLeague> {
      const source = await get(id);
      rejectNulCharacters(name, 'name');
      const copy = name === undefined ? copyName(source.name) : parseDefinitionName(name);
      const { id: _id, createdAt: _c, updatedAt: _u, leagueSlug, ...fields } = source;
      try {
        return { ...(await insertDefinition({ db, kind, values: { ...fields, name: copy, isActive: true } })), leagueSlug };
      } catch (err) {
        throw writeError(err, { name: copy, leagueSlug, groupId: fields.groupId });
      }
    },

    archive: (id: string) => setActiveFlag(id, false),
    activate: (id: string) => setActiveFlag(id, true),

    /** CSV of every Match question definition of every league, inactive ones included (ordered by league and name), streamed. */
    export(): Readable {
      return csvStream({ columns: MATCH_DEFINITION_CSV_COLUMNS, rows: mapAsync(definitionsForExport({ db, kind }), toMatchDefinitionCsvRow) });
    },

    /** Previews (`dryRun`) or applies a CSV of Match question definitions; see definitions/definition-import.ts. */
    importCsv: ({ file, dryRun }: { file: UploadedFile | undefined; dryRun: boolean }): Promise<ImportResult> =>
      importDefinitions({ db, kind: importKind, leagueBySlug: (slug, dbOrTx) => leagues.bySlug(slug, dbOrTx), file, dryRun }),

    /** Deletes a definition no issuance references (else 409 with the count), scrubbing allowlists in the same transaction. */
    async delete(id: string): Promise<void> {
      try {
        await db.transaction(async (tx) => {
          const row = await findDefinition({ db: tx, kind, id, forUpdate: true });
          if (!row) throw notFound('Match question definition', 'match_definition.not_found');
          const [n = 0] = await countReferences({ db: tx, kind, id });
          if (n) throw referencedConflict(id, n);
          await scrubFromAllowlists({ db: tx, kind: 'match', id });
          await deleteDefinition({ db: tx, kind, id });
        });
      } catch (err) {
        if (isForeignKeyViolation(err)) throw referencedConflict(id, (await countReferences({ db, kind, id }))[0] ?? 0);
        throw err;
      }
    },
  };
}

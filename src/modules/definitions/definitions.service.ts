/**
 * In-game question definitions. Everything a definition carries is checked
 * on save (templates and expressions compile, event types are canonical for
 * the sport, choice identifiers are unique, the group is the league's), so the
 * live engine never meets a definition it cannot run. Names are unique per
 * league without regard to case; the unique index settles races.
 */
import type { Readable } from 'node:stream';
import type { components } from '../../../generated/api-types.js';
import { csvStream } from '../../csv/csv-export.js';
import type { Db } from '../../db/client.js';
import { checkInGameSyntax, definitionErrorToBadRequest } from '../../domain/question-render.js';
import { AppError, badRequest, conflict, isForeignKeyViolation, isUniqueViolation, notFound, quote } from '../../errors.js';
import type { UploadedFile } from '../../http/handler-types.js';
import { groupInDatabase, groupsReadOnce, type GroupCheck } from '../groups/group-check.js';
import { findLeague } from '../leagues/leagues.repository.js';
import type { LeaguesService } from '../leagues/leagues.service.js';
import { mapAsync } from '../shared/csv-rows.js';
import { scrubFromAllowlists } from './allowlists.repository.js';
import { bodyValidator, importDefinitions, type DefinitionImportKind, type ImportResult } from './definition-import.js';
import { checkChoiceIdentifiers, copyName, parseDefinitionName, parseListFilter, rejectNulCharacters } from './definition-rules.js';
import { DEFINITION_CSV_COLUMNS, DEFINITION_CSV_REQUIRED, definitionBodyFromCsv, definitionChangedFields, toDefinitionCsvRow } from './definitions.csv.js';
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
import { IN_GAME as kind } from './in-game.kind.js';
import { questionDefinitions, type QuestionDefinitionRow, type ResolutionSpec, type TriggerSpec } from './definitions.table.js';
import { isKnownEventType } from './event-types.js';

type Schemas = components['schemas'];
type Input = Schemas['QuestionDefinitionInput'];
type ListQuery = { league: string; include_inactive?: boolean; q?: string; is_pivotal_moment?: boolean; created_from?: string; created_to?: string; updated_from?: string; updated_to?: string };

/** A definition with the slug of its league (what the responses show). */
export type DefinitionWithLeague = QuestionDefinitionRow & { leagueSlug: string };

interface LeagueRef {
  id: string;
  slug: string;
  sport: string;
}

function checkEventType(field: string, type: string, sport: string): void {
  if (!type.trim()) throw badRequest('definition.invalid_event_type', `${field} must not be blank`);
  if (!isKnownEventType(sport, type)) throw badRequest('definition.unknown_event_type', `${field}: ${quote(type)} is not an event type of ${sport}; see GET /api/question-definitions/sample-catalog`);
}

/** What a create or full replace writes: every editable column (the archive flag stays as it is). */
export type DefinitionColumns = Omit<typeof questionDefinitions.$inferInsert, 'id' | 'isArchived'> & { name: string; groupId: string | null };

/**
 * The validation step of create and replace (the JSON API and the CSV import
 * both call it, the import inside its transaction): the columns a create or
 * full replace writes, every editable field set (omitted optional fields take
 * their defaults). Throws 400 on a rule the contract leaves to the service.
 */
export async function definitionColumns({ input, league, isLeagueGroup }: { input: Input; league: LeagueRef; isLeagueGroup: GroupCheck }): Promise<DefinitionColumns> {
  rejectNulCharacters(input);
  const name = parseDefinitionName(input.name);
  const identifiers = checkChoiceIdentifiers(input.choices);
  checkEventType('trigger.event_type', input.trigger.event_type, league.sport);
  input.resolution.rules.forEach((r, i) => checkEventType(`resolution.rules[${i}].event_type`, r.event_type, league.sport));
  const timeout = input.resolution.timeout ?? null;
  if (timeout && timeout.correct_choice !== null && !identifiers.has(timeout.correct_choice)) {
    throw badRequest(
      'definition.invalid_timeout_choice',
      `resolution.timeout.correct_choice '${timeout.correct_choice}' is not one of the choice identifiers (${[...identifiers].join(', ')}); use one of them, or null to void`,
    );
  }
  try {
    checkInGameSyntax(input);
  } catch (err) {
    throw definitionErrorToBadRequest(err);
  }
  const groupId = input.group_id ?? null;
  if (groupId && !(await isLeagueGroup(groupId, league.id))) {
    throw badRequest('definition.unknown_group', `group_id: ${groupId} is not a question group of league '${league.slug}'`);
  }
  const trigger: TriggerSpec = { event_type: input.trigger.event_type, condition: input.trigger.condition ?? null };
  const resolution: ResolutionSpec = {
    rules: input.resolution.rules.map((r) => ({ event_type: r.event_type, condition: r.condition ?? null, correct_choice: r.correct_choice })),
    timeout,
  };
  return {
    leagueId: league.id,
    name,
    description: input.description ?? null,
    isPivotalMoment: input.is_pivotal_moment ?? false,
    isActive: input.is_active ?? true,
    groupId,
    trigger,
    triggerEventType: trigger.event_type,
    questionTextTemplate: input.question_text_template,
    choices: input.choices.map((c) => ({ identifier: c.identifier, label_template: c.label_template })),
    issuanceStateExtract: input.issuance_state_extract ?? null,
    storeState: input.store_state ?? null,
    resolution,
    answerWindowSeconds: input.answer_window_seconds ?? null,
    points: input.points ?? null,
    probability: input.probability ?? null,
  };
}

/** A failed insert or update as the contract's answer: name taken 409, group or league gone 400/404. */
function writeError(err: unknown, { name, league, groupId }: { name: string; league: LeagueRef; groupId: string | null | undefined }): unknown {
  if (isUniqueViolation(err, 'question_definitions_league_name_uq')) {
    return conflict('definition.name_taken', `a question definition named ${quote(name)} already exists in league '${league.slug}'`);
  }
  if (isForeignKeyViolation(err)) {
    return groupId
      ? badRequest('definition.unknown_group', `group_id: ${groupId} is not a question group of league '${league.slug}'`)
      : new AppError(404, 'league.not_found', `league '${league.slug}' not found in this database`);
  }
  return err;
}

function referencedConflict(id: string, refs: { issuances: number; sponsorships: number }) {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return conflict(
    'definition.in_use',
    `this definition is referenced by ${plural(refs.issuances, 'question issuance')} and ${plural(refs.sponsorships, 'sponsorship slot')}, so it cannot be deleted; archive it instead (POST /api/question-definitions/${id}/archive)`,
  );
}

/** The in-game definitions as the CSV import sees them. */
const importKind: DefinitionImportKind<QuestionDefinitionRow & { leagueSlug: string; leagueSport: string }, Input, DefinitionColumns & { isArchived: boolean }> = {
  noun: 'question definition',
  columns: DEFINITION_CSV_COLUMNS,
  requiredColumns: DEFINITION_CSV_REQUIRED,
  createOperation: 'createQuestionDefinition',
  replaceOperation: 'replaceQuestionDefinition',
  toBody: definitionBodyFromCsv,
  preparer: (db) => {
    const isLeagueGroup = groupsReadOnce(db);
    return async ({ body, league }) => ({ ...(await definitionColumns({ input: body, league, isLeagueGroup })), isArchived: false });
  },

  changedFields: (current, values) => definitionChangedFields(current, values as Parameters<typeof definitionChangedFields>[1]),
  findByIds: (args) => definitionsByIds({ ...args, kind }),
  namesOfLeague: (args) => definitionNamesOfLeague({ ...args, kind }),
  writeAll: ({ db, rows }) => upsertDefinitions({ db, kind, rows }),
  nameIndex: 'question_definitions_league_name_uq',
  foreignKeyField: (values) => (values.groupId ? 'group_id' : 'league'),
};
// Fail at start, not on the first import, when the generated validators lack the operations.
bodyValidator(importKind.createOperation);
bodyValidator(importKind.replaceOperation);

export type DefinitionsService = ReturnType<typeof createDefinitionsService>;

export function createDefinitionsService({ db, leagues }: { db: Db; leagues: Pick<LeaguesService, 'bySlug'> }) {
  const leagueSlugOf = async (leagueId: string) => (await findLeague({ db, idOrSlug: leagueId }))?.slug ?? leagueId;

  async function get(id: string): Promise<DefinitionWithLeague & { leagueSport: string }> {
    const row = await findDefinition({ db, kind, id });
    if (!row) throw notFound('question definition');
    return row;
  }

  async function setArchiveFlag(id: string, archived: boolean): Promise<DefinitionWithLeague> {
    const row = await setArchived({ db, kind, id, archived });
    if (!row) throw notFound('question definition');
    return { ...row, leagueSlug: await leagueSlugOf(row.leagueId) };
  }

  return {
    get,

    /** Summaries ordered by name; archived ones only with `include_inactive`. */
    async list(query: ListQuery): Promise<{ league: string; rows: QuestionDefinitionRow[] }> {
      const league = await leagues.bySlug(query.league);
      const filter = { ...parseListFilter(league.id, query), isPivotalMoment: query.is_pivotal_moment };
      return { league: league.slug, rows: await listDefinitions({ db, kind, filter }) };
    },

    async create(leagueSlug: string, input: Input): Promise<DefinitionWithLeague> {
      const league = await leagues.bySlug(leagueSlug);
      const values = await definitionColumns({ input, league, isLeagueGroup: groupInDatabase(db) });
      try {
        return { ...(await insertDefinition({ db, kind, values })), leagueSlug: league.slug };
      } catch (err) {
        throw writeError(err, { name: values.name, league, groupId: values.groupId });
      }
    },

    /** Full replace of the editable fields; league, id, archive flag and timestamps stay server-managed. */
    async replace(id: string, input: Input): Promise<DefinitionWithLeague> {
      const current = await get(id);
      const league = { id: current.leagueId, slug: current.leagueSlug, sport: current.leagueSport };
      const values = await definitionColumns({ input, league, isLeagueGroup: groupInDatabase(db) });
      let row: QuestionDefinitionRow | undefined;
      try {
        row = await updateDefinition({ db, kind, id, values });
      } catch (err) {
        throw writeError(err, { name: values.name, league, groupId: values.groupId });
      }
      if (!row) throw notFound('question definition');
      return { ...row, leagueSlug: league.slug };
    },

    /** A copy in the same league, never archived, named `name` or `<name> (copy)`. */
    async clone(id: string, name: string | undefined): Promise<DefinitionWithLeague> {
      const source = await get(id);
      rejectNulCharacters(name, 'name');
      const copy = name === undefined ? copyName(source.name) : parseDefinitionName(name);
      const { id: _id, createdAt: _c, updatedAt: _u, leagueSlug, leagueSport, ...fields } = source;
      const league = { id: source.leagueId, slug: leagueSlug, sport: leagueSport };
      try {
        return { ...(await insertDefinition({ db, kind, values: { ...fields, name: copy, isArchived: false } })), leagueSlug };
      } catch (err) {
        throw writeError(err, { name: copy, league, groupId: fields.groupId });
      }
    },

    archive: (id: string) => setArchiveFlag(id, true),
    activate: (id: string) => setArchiveFlag(id, false),

    /** CSV of every definition of every league, archived ones included (ordered by league and name), streamed. */
    export(): Readable {
      return csvStream({ columns: DEFINITION_CSV_COLUMNS, rows: mapAsync(definitionsForExport({ db, kind }), toDefinitionCsvRow) });
    },

    /** Previews (`dryRun`) or applies a CSV of definitions; see definition-import.ts. */
    importCsv: ({ file, dryRun }: { file: UploadedFile | undefined; dryRun: boolean }): Promise<ImportResult> =>
      importDefinitions({ db, kind: importKind, leagueBySlug: (slug, dbOrTx) => leagues.bySlug(slug, dbOrTx), file, dryRun }),

    /**
     * Deletes a definition nothing references (else 409 with the counts) and
     * scrubs its id from every allowlist, in one transaction.
     */
    async delete(id: string): Promise<void> {
      try {
        await db.transaction(async (tx) => {
          // The row lock makes issuances and slots being created for it wait for the outcome.
          const row = await findDefinition({ db: tx, kind, id, forUpdate: true });
          if (!row) throw notFound('question definition');
          const [issuances = 0, sponsorships = 0] = await countReferences({ db: tx, kind, id });
          if (issuances || sponsorships) throw referencedConflict(id, { issuances, sponsorships });
          await scrubFromAllowlists({ db: tx, kind: 'in_game', id });
          await deleteDefinition({ db: tx, kind, id });
        });
      } catch (err) {
        // A reference committed in between: the foreign key refused the delete.
        if (isForeignKeyViolation(err)) {
          const [issuances = 0, sponsorships = 0] = await countReferences({ db, kind, id });
          throw referencedConflict(id, { issuances, sponsorships });
        }
        throw err;
      }
    },
  };
}

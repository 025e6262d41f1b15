/**
 * Question groups: league-scoped issuance lanes with optional overrides of
 * the league's question settings. The slug is unique per league (the unique
 * index settles races) and immutable.
 */
import type { Readable } from 'node:stream';
import type { components } from '../../../generated/api-types.js';
import { csvStream } from '../../csv/csv-export.js';
import type { Db } from '../../db/client.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../errors.js';
import { leagueErrors } from '../leagues/leagues.errors.js';
import { groupErrors } from './groups.errors.js';
import { periodsOfSport } from '../../domain/sports/league-registry.js';
import type { LeaguesService } from '../leagues/leagues.service.js';
import { parsePeriodDistribution } from '../leagues/period-distribution.js';
import { mapAsync } from '../shared/csv-rows.js';
import { GROUP_EXPORT_COLUMNS, toGroupExportRow } from './groups.mapper.js';
import {
  allGroupsForExport,
  countDefinitionsOfGroup,
  deleteGroup,
  findGroup,
  insertGroup,
  listGroups,
  updateGroup,
  type NewQuestionGroup,
  type QuestionGroupWithLeague,
} from './groups.repository.js';
import type { QuestionGroupRow } from './groups.table.js';

type Schemas = components['schemas'];

const SLUG = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export function parseGroupSlug(value: string): string {
  if (!SLUG.test(value)) throw groupErrors.invalidSlug(value);
  return value;
}

function parseGroupName(value: string): string {
  const name = value.trim();
  if (!name) throw groupErrors.invalidName();
  return name;
}

/** Contract fields -> columns, for the fields present (period map checked against the sport's periods). */
function groupColumns(input: Partial<Schemas['QuestionGroupPatch']>, sport: string): Partial<NewQuestionGroup> {
  const v: Partial<NewQuestionGroup> = {};
  if (input.name !== undefined) v.name = parseGroupName(input.name);
  if (input.description !== undefined) v.description = input.description;
  if (input.max_open_questions !== undefined) v.maxOpenQuestions = input.max_open_questions;
  if (input.question_max_count !== undefined) v.questionMaxCount = input.question_max_count;
  if (input.min_interval_seconds !== undefined) v.minIntervalSeconds = input.min_interval_seconds;
  if (input.period_distribution !== undefined) {
    v.periodDistribution = parsePeriodDistribution('period_distribution', input.period_distribution, periodsOfSport(sport), { nullable: true });
  }
  if (input.answer_window_seconds !== undefined) v.answerWindowSeconds = input.answer_window_seconds;
  if (input.min_answer_seconds !== undefined) v.minAnswerSeconds = input.min_answer_seconds;
  if (input.points !== undefined) v.points = input.points;
  if (input.probability !== undefined) v.probability = input.probability;
  return v;
}

export type GroupsService = ReturnType<typeof createGroupsService>;

export function createGroupsService({ db, leagues }: { db: Db; leagues: Pick<LeaguesService, 'bySlug'> }) {
  async function get(id: string): Promise<QuestionGroupWithLeague> {
    const row = await findGroup({ db, id });
    if (!row) throw groupErrors.notFound();
    return row;
  }

  return {
    get,

    /** A league's groups ordered by slug (400 unsupported league, 404 missing league). */
    async list(leagueSlug: string): Promise<{ league: string; groups: QuestionGroupRow[] }> {
      const league = await leagues.bySlug(leagueSlug);
      return { league: league.slug, groups: await listGroups({ db, leagueId: league.id }) };
    },

    async create(leagueSlug: string, input: Schemas['QuestionGroupCreate']): Promise<{ league: string; group: QuestionGroupRow }> {
      const league = await leagues.bySlug(leagueSlug);
      const slug = parseGroupSlug(input.slug);
      const values = { ...groupColumns(input, league.sport), leagueId: league.id, slug } as NewQuestionGroup;
      try {
        return { league: league.slug, group: await insertGroup({ db, values }) };
      } catch (err) {
        if (isUniqueViolation(err, 'question_groups_league_slug_uq')) throw groupErrors.slugTaken(league.slug, slug);
        // The league row went away between the lookup and the insert.
        if (isForeignKeyViolation(err)) throw leagueErrors.notFound(league.slug, 'in this database');
        throw err;
      }
    },

    /** Partial update; the slug may be sent only with its current value. */
    async update(id: string, patch: Schemas['QuestionGroupPatch']): Promise<QuestionGroupWithLeague> {
      const current = await get(id);
      if (patch.slug !== undefined && patch.slug !== current.slug) {
        throw groupErrors.slugImmutable(current.slug);
      }
      const values = groupColumns(patch, current.leagueSport);
      const row = await updateGroup({ db, id, values });
      if (!row) throw groupErrors.notFound();
      return { ...row, leagueSlug: current.leagueSlug, leagueSport: current.leagueSport };
    },

    /** Refused (409, with the count) while definitions reference the group. */
    async delete(id: string): Promise<void> {
      try {
        await db.transaction(async (tx) => {
          // The row lock makes a definition that is being pointed at this group wait for the outcome.
          const group = await findGroup({ db: tx, id, forUpdate: true });
          if (!group) throw groupErrors.notFound();
          const n = await countDefinitionsOfGroup({ db: tx, id });
          if (n > 0) throw groupErrors.inUse(group.slug, n);
          await deleteGroup({ db: tx, id });
        });
      } catch (err) {
        // A definition committed a reference in between: the foreign key refuses the delete.
        if (isForeignKeyViolation(err)) throw groupErrors.inUse(id, null);
        throw err;
      }
    },

    /** CSV of every group of every league (ordered by league and slug), streamed. */
    export(): Readable {
      return csvStream({ columns: GROUP_EXPORT_COLUMNS, rows: mapAsync(allGroupsForExport({ db }), toGroupExportRow) });
    },
  };
}

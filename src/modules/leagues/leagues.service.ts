/** Leagues and their default question configuration. */
import type { components } from '../../../generated/api-types.js';
import type { Db, DbOrTx } from '../../db/client.js';
import type { Events } from '../../events/catalogue.js';
import { periodsOfSport } from '../../domain/sports/league-registry.js';
import { supportedLeague } from '../shared/domain.errors.js';
import type { LeagueListCache } from './league-cache.js';
import { leagueErrors } from './leagues.errors.js';
import { findLeague, listLeagues, matchesOverDefaultCap, updateLeague } from './leagues.repository.js';
import type { LeagueRow } from './leagues.table.js';
import { parsePeriodDistribution } from './period-distribution.js';

type LeaguePatch = components['schemas']['LeaguePatch'];

export type LeaguesService = ReturnType<typeof createLeaguesService>;

/** Checks that allowlisted ids are definitions of the league (kind `in_game` or `match`); throws 400 otherwise. Resolves to the list to store (lowercase ids, each once). */
export type AllowlistChecker = (args: { db: DbOrTx; leagueId: string; kind: 'in_game' | 'match'; field: string; ids: string[] }) => Promise<string[]>;

export function createLeaguesService({
  db,
  checkAllowlist,
  cache,
  events,
}: {
  db: Db;
  checkAllowlist: AllowlistChecker;
  cache?: LeagueListCache;
  /** `leaguesChanged` after a change committed (src/events/catalogue.ts): the list cache's reaction drops it. */
  events?: Events;
}) {
  const changed = (): Promise<void> => events?.emit({ type: 'leaguesChanged' }) ?? Promise.resolve();
  return {
    /** Every league, by slug: from the process's copy while it is trusted (src/modules/leagues/league-cache.ts). Never to be modified. */
    async list(): Promise<readonly LeagueRow[]> {
      const cached = cache?.get();
      if (cached) return cached;
      if (!cache) return listLeagues({ db });
      const version = cache.version();
      return cache.set(await listLeagues({ db }), version);
    },

    /** This process committed a change to the leagues (the trigger tells the others on the bus): its next list reads them again. */
    changed,

    /** By id or slug; 404 when absent. */
    async get(idOrSlug: string): Promise<LeagueRow> {
      const row = await findLeague({ db, idOrSlug });
      if (!row) throw leagueErrors.notFound(idOrSlug);
      return row;
    },

    /**
     * A league named by a `league` query parameter: 400 when the service does
     * not support the slug, 404 when it does but the league is missing here.
     */
    async bySlug(slug: string, dbOrTx: DbOrTx = db): Promise<LeagueRow> {
      supportedLeague(slug);
      const row = await findLeague({ db: dbOrTx, idOrSlug: slug });
      if (!row) throw leagueErrors.notFound(slug, 'in this database');
      return row;
    },

    /** Partial update (see updateInTransaction); the process's league list is dropped once it is over. */
    async update(idOrSlug: string, patch: LeaguePatch): Promise<LeagueRow> {
      try {
        return await updateInTransaction(idOrSlug, patch);
      } finally {
        // After the commit (or the rollback): a list read while it ran is not kept, the next one reads the change.
        await changed();
      }
    },
  };

  /**
   * Partial update under a row lock on the league. A sponsorship assignment
   * reads the league's default cap under a share lock, so the slots counted
   * against a lowered default cannot change before this commits.
   */
  function updateInTransaction(idOrSlug: string, patch: LeaguePatch): Promise<LeagueRow> {
    return db.transaction(async (tx) => {
      const league = await findLeague({ db: tx, idOrSlug, lock: 'no key update' });
      if (!league) throw leagueErrors.notFound(idOrSlug);
      const values: Partial<LeagueRow> = {};
      if (patch.default_question_max_count !== undefined) {
        const cap = patch.default_question_max_count;
        if (cap < league.defaultQuestionMaxCount) {
          const { count, example } = await matchesOverDefaultCap({ db: tx, leagueId: league.id, cap });
          if (example) throw leagueErrors.capBelowSlots(cap, count, example);
        }
        values.defaultQuestionMaxCount = cap;
      }
      if (patch.default_question_min_interval_seconds !== undefined) values.defaultQuestionMinIntervalSeconds = patch.default_question_min_interval_seconds;
      if (patch.default_question_points !== undefined) values.defaultQuestionPoints = patch.default_question_points;
      if (patch.default_answer_window_seconds !== undefined) values.defaultAnswerWindowSeconds = patch.default_answer_window_seconds;
      if (patch.default_min_answer_seconds !== undefined) values.defaultMinAnswerSeconds = patch.default_min_answer_seconds;
      if (patch.default_question_probability !== undefined) values.defaultQuestionProbability = patch.default_question_probability;
      if (patch.default_question_period_distribution !== undefined) {
        values.defaultQuestionPeriodDistribution = parsePeriodDistribution(
          'default_question_period_distribution',
          patch.default_question_period_distribution,
          periodsOfSport(league.sport),
          { nullable: false },
        )!;
      }
      if (patch.question_definition_allowlist !== undefined) {
        const ids = patch.question_definition_allowlist;
        values.questionDefinitionAllowlist =
          ids && (await checkAllowlist({ db: tx, leagueId: league.id, kind: 'in_game', field: 'question_definition_allowlist', ids }));
      }
      if (patch.match_question_definition_allowlist !== undefined) {
        const ids = patch.match_question_definition_allowlist;
        values.matchQuestionDefinitionAllowlist =
          ids && (await checkAllowlist({ db: tx, leagueId: league.id, kind: 'match', field: 'match_question_definition_allowlist', ids }));
      }
      return (await updateLeague({ db: tx, id: league.id, values }))!;
    });
  }
}

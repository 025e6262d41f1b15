/** Read-only inspections of where effective question settings come from (league, group, definition, match). */
import type { components } from '../../../generated/api-types.js';
import type { Db } from '../../db/client.js';
import { matchErrors } from '../matches/matches.errors.js';
import { inheritanceErrors } from './inheritance.errors.js';
import { inGameSettings, matchLevelSettings, matchQuestionSettings } from '../../domain/settings.js';
import { toQuestionGroupDto } from '../groups/groups.mapper.js';
import { toLeagueDto } from '../leagues/leagues.mapper.js';
import type { LeaguesService } from '../leagues/leagues.service.js';
import type { LeagueRow } from '../leagues/leagues.table.js';
import type { MatchRow } from '../matches/matches.table.js';
import { findMatch } from '../issuances/issuances.public.js';
import { toIssuanceDecisionTrace } from './inheritance.mapper.js';
import { loadCatalog, loadDecisionTraces } from './inheritance.repository.js';

type Inspection = components['schemas']['QuestionInheritance'];
type MatrixRow = components['schemas']['EffectiveDefinitionSettings'];

export type InheritanceService = ReturnType<typeof createInheritanceService>;

export function createInheritanceService({ db, leagues }: { db: Db; leagues: Pick<LeaguesService, 'get'> }) {
  /** The inspection of a league, or of a match when one is given (its overrides take part). */
  async function inspect({
    league,
    match,
    kind,
    definitionId,
  }: {
    league: LeagueRow;
    match?: MatchRow;
    kind: 'in_game' | 'match';
    definitionId?: string | undefined;
  }): Promise<Inspection> {
    const catalog = await loadCatalog({ db, leagueId: league.id, kind, definitionId });
    if (definitionId && catalog.inGame.length === 0 && catalog.match.length === 0) {
      throw inheritanceErrors.definitionNotFound(kind, definitionId, league.slug);
    }
    const groupsById = new Map(catalog.groups.map((g) => [g.id, g]));
    const level = matchLevelSettings(league, match);
    const matrix: MatrixRow[] =
      kind === 'in_game'
        ? catalog.inGame.map((def) => {
            const s = inGameSettings(league, def.groupId ? groupsById.get(def.groupId) : null, def, match);
            return { definition_id: def.id, definition_name: def.name, group_id: def.groupId, ...s };
          })
        : catalog.match.map((def) => {
            const s = matchQuestionSettings(league, def.groupId ? groupsById.get(def.groupId) : null, def, match);
            // Match questions lock at kick-off and are always issued: no window, probability or lane interval.
            const none = { value: null, source: 'definition' as const };
            return {
              definition_id: def.id,
              definition_name: def.name,
              group_id: def.groupId,
              included: s.included,
              points: s.points,
              answer_window_seconds: none,
              min_answer_seconds: none,
              probability: none,
              min_interval_seconds: none,
            };
          });
    return {
      kind,
      league: toLeagueDto(league),
      match_id: match?.id ?? null,
      league_defaults: {
        question_max_count: league.defaultQuestionMaxCount,
        min_interval_seconds: league.defaultQuestionMinIntervalSeconds,
        period_distribution: league.defaultQuestionPeriodDistribution,
        points: league.defaultQuestionPoints,
        answer_window_seconds: league.defaultAnswerWindowSeconds,
        min_answer_seconds: league.defaultMinAnswerSeconds,
        probability: league.defaultQuestionProbability,
      },
      match_overrides: match
        ? {
            question_max_count: match.questionMaxCount,
            question_min_interval_seconds: match.questionMinIntervalSeconds,
            question_period_distribution: match.questionPeriodDistribution,
            question_points: match.questionPoints,
            answer_window_seconds: match.answerWindowSeconds,
            min_answer_seconds: match.minAnswerSeconds,
            question_probability: match.questionProbability,
          }
        : null,
      match_settings: level,
      groups: catalog.groups.map((g) => toQuestionGroupDto(g, league.slug)),
      definitions:
        kind === 'in_game'
          ? catalog.inGame.map((d) => ({ id: d.id, name: d.name, is_active: d.isActive, is_archived: d.isArchived, group_id: d.groupId }))
          : catalog.match.map((d) => ({ id: d.id, name: d.name, is_active: d.isActive, is_archived: false, group_id: d.groupId })),
      matrix,
      issuances: [],
    };
  }

  return {
    inspect,
    async league({ idOrSlug, kind, definitionId }: { idOrSlug: string; kind: 'in_game' | 'match'; definitionId?: string | undefined }): Promise<Inspection> {
      return inspect({ league: await leagues.get(idOrSlug), kind, definitionId });
    },

    /** The inspection of a match's league with the match's overrides, plus the decision trace of each of its issuances of `kind`. */
    async match({ matchId, kind, definitionId }: { matchId: string; kind: 'in_game' | 'match'; definitionId?: string | undefined }): Promise<Inspection> {
      const match = await findMatch({ db, id: matchId });
      if (!match) throw matchErrors.notFound();
      const inspection = await inspect({ league: await leagues.get(match.leagueId), match, kind, definitionId });
      const traces = await loadDecisionTraces({ db, matchId, kind, definitionId });
      return { ...inspection, issuances: traces.map(toIssuanceDecisionTrace) };
    },
  };
}

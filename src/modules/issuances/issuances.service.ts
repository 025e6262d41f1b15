/**
 * Reads of what the live engine wrote for a match: its issuances (in-game, Match questions or both),
 * its blocked issuance attempts and its event timeline. The engine writes
 * these tables; nothing here changes them.
 */
import type { components } from '../../../generated/api-types.js';
import type { Db } from '../../db/client.js';
import { matchErrors } from '../matches/matches.errors.js';
import type { MatchRow } from '../matches/matches.table.js';
import {
  toIssuanceDenialDto,
  toQuestionIssuanceDto,
  toQuestionResolution,
  toTimelineMarkers,
  toTimelinePoint,
  type IssuanceDenialDto,
  type QuestionIssuanceDto,
  type QuestionResolutionDto,
} from './issuances.mapper.js';
import { crowdCounts } from '../answers/answers.public.js';
import { findMatch, latestEventVersions, listDenials, listInGameIssuances, listIssuances, settlementsAfter } from './issuances.repository.js';
import { playerVisible } from '../../domain/vocabulary.js';

/**
 * What players (non-admins) see of a match's issuances: questions with an
 * outcome. Open and locked ones are live play (the open-questions endpoint),
 * and revoked ones were withdrawn by an operator and never had an outcome.
 */

export type IssuancesService = ReturnType<typeof createIssuancesService>;

export function createIssuancesService({ db }: { db: Db }) {
  async function match(matchId: string): Promise<MatchRow> {
    const row = await findMatch({ db, id: matchId });
    if (!row) throw matchErrors.notFound();
    return row;
  }

  return {
    /** Issuances of a match of one kind (or both) in issue order; all statuses for admins, the player-visible ones (resolved, voided) for others. */
    async listForMatch({ matchId, kind, isAdmin }: { matchId: string; kind: 'in_game' | 'match' | 'all'; isAdmin: boolean }): Promise<QuestionIssuanceDto[]> {
      await match(matchId);
      const rows = await listIssuances({ db, matchId, kind: kind === 'all' ? undefined : kind, statuses: isAdmin ? undefined : playerVisible });
      // One statement for the questions not settled yet; settled ones carry their crowd.
      const counts = await crowdCounts({ db, issuanceIds: rows.filter((r) => !r.crowd).map((r) => r.id) });
      return rows.map((row) => toQuestionIssuanceDto(row, row.crowd ?? counts.get(row.id) ?? {}));
    },

    /**
     * The match's settlements numbered above `after` (the caller's cursor),
     * in order, as the live stream's `resolution` messages with the
     * caller's own answer: the stream's catch-up.
     */
    async resolutionsAfter({
      matchId,
      userId,
      after,
      limit,
    }: {
      matchId: string;
      userId: string;
      after: number;
      limit: number;
    }): Promise<QuestionResolutionDto[]> {
      await match(matchId);
      const rows = await settlementsAfter({ db, matchId, userId, after, limit });
      return rows.map((row) => toQuestionResolution(row, row.answer));
    },

    /** A page of a match's blocked attempts, newest first, with the total that match the filter. */
    async denials({
      matchId,
      failedStep,
      limit,
      offset,
    }: {
      matchId: string;
      failedStep?: string | undefined;
      limit: number;
      offset: number;
    }): Promise<{ denials: IssuanceDenialDto[]; denial_count: number }> {
      await match(matchId);
      const { rows, total } = await listDenials({ db, matchId, failedStep, limit, offset });
      return { denials: rows.map(toIssuanceDenialDto), denial_count: total };
    },

    /** Events (latest versions, deletions left out, optionally of some types) and question markers: three queries whatever the size. */
    async timeline({ matchId, types }: { matchId: string; types?: readonly string[] | undefined }): Promise<components['schemas']['EventTimeline']> {
      const m = await match(matchId);
      const [events, issuances] = await Promise.all([latestEventVersions({ db, matchId }), listInGameIssuances({ db, matchId })]);
      const allPoints = events.map(toTimelinePoint);
      const wanted = types && types.length ? new Set(types) : null;
      return {
        match_id: m.id,
        home_team: m.homeTeam,
        away_team: m.awayTeam,
        points: wanted ? allPoints.filter((p) => wanted.has(p.type)) : allPoints,
        markers: toTimelineMarkers(issuances, new Map(allPoints.map((p) => [p.provider_event_id, p]))),
      };
    },
  };
}

import { isoTimestamps } from '../shared/dto-fields.js';
import type { components } from '../../../generated/api-types.js';
import { matchLevelSettings } from '../../engine/settings.js';
import type { BrandSummaryDto } from '../brands/brands.mapper.js';
import { toQuestionSponsorshipDto } from '../sponsorships/sponsorships.mapper.js';
import type { SponsorBrand } from '../sponsorships/sponsorships.repository.js';
import type { MatchView } from './matches.repository.js';
import type { FollowResult, MatchDetailView } from './matches.service.js';

export type MatchDto = components['schemas']['Match'];
export type MatchDetailDto = components['schemas']['MatchDetail'];
export type MatchFollowDto = components['schemas']['MatchFollow'];

/** Brand summaries with their public logo URL (the object store knows it). */
export type BrandSummaryOf = (brand: SponsorBrand) => BrandSummaryDto;

export function toMatchDto(v: MatchView, summary: BrandSummaryOf): MatchDto {
  const m = v.match;
  return {
    id: m.id,
    sr_id: m.srId,
    league: v.league.slug,
    league_id: m.leagueId,
    home_team: m.homeTeam,
    away_team: m.awayTeam,
    scheduled: m.scheduled.toISOString(),
    status: m.status as MatchDto['status'],
    period: m.period,
    clock_seconds: m.clockSeconds,
    home_score: m.homeScore,
    away_score: m.awayScore,
    is_test: m.isTest,
    cloned_from_match_id: m.clonedFromMatchId,
    created_by_user_id: m.createdByUserId,
    listener_events_archived: m.listenerEventsArchived,
    auto_dispatch_listener: m.autoDispatchListener,
    // The effective cap, as the engine computes it.
    question_max_count: matchLevelSettings(v.league, m).question_max_count.value,
    overrides: {
      question_max_count: m.questionMaxCount,
      question_min_interval_seconds: m.questionMinIntervalSeconds,
      question_period_distribution: m.questionPeriodDistribution,
      question_points: m.questionPoints,
      answer_window_seconds: m.answerWindowSeconds,
      question_probability: m.questionProbability,
    },
    question_definition_allowlist: m.questionDefinitionAllowlist,
    match_question_definition_allowlist: m.matchQuestionDefinitionAllowlist,
    sponsor_brand_id: m.sponsorBrandId,
    sponsor_brand: v.sponsor ? summary(v.sponsor) : null,
    sponsored_question_count: v.sponsoredQuestionCount,
    question_issuance_count: v.questionIssuanceCount,
    pivotal_moment_issuance_count: v.pivotalMomentIssuanceCount,
    is_followed: v.isFollowed,
    ...isoTimestamps(m),
  };
}

export function toMatchDetailDto(v: MatchDetailView, summary: BrandSummaryOf): MatchDetailDto {
  return { ...toMatchDto(v, summary), question_sponsorships: v.slots.map(({ slot, brand }) => toQuestionSponsorshipDto(slot, summary(brand))) };
}

export function toMatchFollowDto({ follow, refunded, followsRemainingToday }: FollowResult): MatchFollowDto {
  return {
    match_id: follow.matchId,
    user_id: follow.userId,
    following: follow.following,
    counts_toward_quota: follow.countsTowardQuota,
    quota_day: follow.quotaDay,
    refunded,
    followed_at: follow.followedAt.toISOString(),
    unfollowed_at: follow.unfollowedAt?.toISOString() ?? null,
    follows_remaining_today: followsRemainingToday,
  };
}

import { isoTimestamps } from '../shared/dto-fields.js';
import type { components } from '../../../generated/api-types.js';
import { matchLevelSettings } from '../../domain/settings.js';
import type { BrandSummaryDto } from '../brands/brands.mapper.js';
import { toQuestionSponsorshipDto } from '../sponsorships/sponsorships.mapper.js';
import type { SponsorBrand } from '../sponsorships/sponsorships.table.js';
import type { MatchView } from './matches.repository.js';
import type { FollowResult, MatchDetailView } from './matches.service.js';

export type PlayerMatchDto = components['schemas']['PlayerMatch'];
export type OperatorMatchDto = components['schemas']['OperatorMatch'];
export type MatchListItemDto = components['schemas']['MatchListItem'];
export type MatchDetailDto = components['schemas']['MatchDetail'];
export type MatchFollowDto = components['schemas']['MatchFollow'];

/** Brand summaries with their public logo URL (the object store knows it). */
export type BrandSummaryOf = (brand: SponsorBrand) => BrandSummaryDto;

/** The effective cap, as the engine computes it. */
const effectiveCap = (v: MatchView) => matchLevelSettings(v.league, v.match).question_max_count.value;

/** What players and anonymous callers see: no settings, listeners, feed or provider ids. */
export function toPlayerMatchDto(v: MatchView, summary: BrandSummaryOf): PlayerMatchDto {
  const m = v.match;
  return {
    view: 'player',
    id: m.id,
    league: v.league.slug,
    home_team: m.homeTeam,
    away_team: m.awayTeam,
    scheduled: m.scheduled.toISOString(),
    status: m.status as PlayerMatchDto['status'],
    period: m.period,
    clock_seconds: m.clockSeconds,
    home_score: m.homeScore,
    away_score: m.awayScore,
    is_test: m.isTest,
    sponsor_brand: v.sponsor ? summary(v.sponsor) : null,
    question_max_count: effectiveCap(v),
    question_issuance_count: v.questionIssuanceCount,
    pivotal_moment_issuance_count: v.pivotalMomentIssuanceCount,
    is_followed: v.isFollowed,
  };
}

export function toOperatorMatchDto(v: MatchView, summary: BrandSummaryOf): OperatorMatchDto {
  const m = v.match;
  return {
    view: 'operator',
    id: m.id,
    sr_id: m.srId,
    league: v.league.slug,
    league_id: m.leagueId,
    home_team: m.homeTeam,
    away_team: m.awayTeam,
    scheduled: m.scheduled.toISOString(),
    status: m.status as OperatorMatchDto['status'],
    period: m.period,
    clock_seconds: m.clockSeconds,
    home_score: m.homeScore,
    away_score: m.awayScore,
    is_test: m.isTest,
    cloned_from_match_id: m.clonedFromMatchId,
    created_by_user_id: m.createdByUserId,
    listener_events_archived: m.listenerEventsArchived,
    auto_dispatch_listener: m.autoDispatchListener,
    feed_url: m.feedUrl,
    question_max_count: effectiveCap(v),
    overrides: {
      question_max_count: m.questionMaxCount,
      question_min_interval_seconds: m.questionMinIntervalSeconds,
      question_period_distribution: m.questionPeriodDistribution,
      question_points: m.questionPoints,
      answer_window_seconds: m.answerWindowSeconds,
      min_answer_seconds: m.minAnswerSeconds,
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

/** The view a caller gets: admins the operator view, everyone else the player view. */
export const toMatchListItemDto = (v: MatchView, summary: BrandSummaryOf, isAdmin: boolean): MatchListItemDto =>
  isAdmin ? toOperatorMatchDto(v, summary) : toPlayerMatchDto(v, summary);

export function toMatchDetailDto(v: MatchDetailView, summary: BrandSummaryOf): MatchDetailDto {
  return { ...toOperatorMatchDto(v, summary), question_sponsorships: v.slots.map(({ slot, brand }) => toQuestionSponsorshipDto(slot, summary(brand))) };
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

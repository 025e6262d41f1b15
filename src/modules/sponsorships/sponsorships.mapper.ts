import type { components } from '../../../generated/api-types.js';
import type { BrandSummaryDto } from '../brands/brands.mapper.js';
import type { QuestionSponsorshipRow } from './sponsorships.table.js';

export type QuestionSponsorshipDto = components['schemas']['QuestionSponsorship'];

/** The slot's target from the column its strategy uses (null for next_available). */
function targetOf(row: QuestionSponsorshipRow): QuestionSponsorshipDto['target'] {
  switch (row.strategy) {
    case 'question_number':
      return row.targetNumber;
    case 'period':
      return row.targetPeriod;
    case 'definition':
      return row.targetDefinitionId;
    default:
      return null;
  }
}

export function toQuestionSponsorshipDto(row: QuestionSponsorshipRow, brand: BrandSummaryDto): QuestionSponsorshipDto {
  return {
    id: row.id,
    brand_id: row.brandId,
    match_id: row.matchId,
    strategy: row.strategy as QuestionSponsorshipDto['strategy'],
    target: targetOf(row),
    best_effort: row.bestEffort,
    question_issuance_id: row.questionIssuanceId,
    stamped_at: row.stampedAt?.toISOString() ?? null,
    brand,
    created_at: row.createdAt.toISOString(),
  };
}

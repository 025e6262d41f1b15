import type { Handlers } from '../../http/handler-types.js';
import type { Services } from '../../services.js';
import { toBrandSummary } from '../brands/brands.mapper.js';
import type { SponsorBrand } from './sponsorships.table.js';
import { toQuestionSponsorshipDto } from './sponsorships.mapper.js';

/**
 * `?match_ids=` alone arrives as one empty string: an explicitly empty list.
 * Absent, the parameter means every match.
 */
function matchIdsFilter(value: string[] | string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return (Array.isArray(value) ? value : [value]).filter((id) => id !== '');
}

export const sponsorshipHandlers = ({ sponsorships, brands }: Services) => {
  const summary = (brand: SponsorBrand) => toBrandSummary(brand, brands.publicLogoUrl(brand));
  return {
    listBrandQuestionSponsorships: async ({ params, query }) => {
      const { brand, slots } = await sponsorships.list({
        brandId: params.brand_id,
        matchIds: matchIdsFilter(query.match_ids),
        limit: query.limit,
        offset: query.offset,
      });
      const brandDto = summary(brand);
      return { status: 200, body: slots.map((s) => toQuestionSponsorshipDto(s, brandDto)) };
    },
    assignBrandQuestionSponsorships: async ({ params, body }) => {
      const result = await sponsorships.assign({ brandId: params.brand_id, input: body });
      const brandDto = summary(result.brand);
      return {
        status: 200,
        body: {
          brand_id: result.brand.id,
          matches: result.matches.map((m) => ({
            match_id: m.matchId,
            removed_count: m.removedCount,
            created_count: m.createdCount,
            slots: m.slots.map((s) => toQuestionSponsorshipDto(s, brandDto)),
          })),
        },
      };
    },
  } satisfies Partial<Handlers>;
};

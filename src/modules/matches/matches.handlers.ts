import type { Handlers } from '../../http/handler-types.js';
import { caller } from '../../http/request.js';
import type { Services } from '../../services.js';
import { toBrandSummary } from '../brands/brands.mapper.js';
import type { SponsorBrand } from '../sponsorships/sponsorships.table.js';
import { toMatchDetailDto, toMatchFollowDto, toMatchListItemDto, toPlayerMatchDto } from './matches.mapper.js';

export const matchHandlers = ({ matches, brands }: Services) => {
  const summary = (brand: SponsorBrand) => toBrandSummary(brand, brands.publicLogoUrl(brand));
  return {
    listMatches: async ({ query, auth }) => {
      const rows = await matches.list(query, auth?.user ?? null);
      const isAdmin = auth?.user.isAdmin === true;
      return { status: 200, body: rows.map((row) => toMatchListItemDto(row, summary, isAdmin)) };
    },
    getMatch: async ({ params, auth }) => {
      const found = await matches.get(params.match_id, auth?.user ?? null);
      return { status: 200, body: 'operator' in found ? toMatchDetailDto(found.operator, summary) : toPlayerMatchDto(found.player, summary) };
    },
    updateMatch: async ({ params, body, auth }) => {
      const detail = await matches.update(params.match_id, body, auth?.user.id ?? null);
      return { status: 200, body: toMatchDetailDto(detail, summary) };
    },
    deleteMatch: async ({ params }) => {
      await matches.delete(params.match_id);
      return { status: 204 };
    },
    followMatch: async (req) => ({ status: 200, body: toMatchFollowDto(await matches.follow(req.params.match_id, caller(req).user)) }),
    unfollowMatch: async (req) => ({ status: 200, body: toMatchFollowDto(await matches.unfollow(req.params.match_id, caller(req).user)) }),
  } satisfies Partial<Handlers>;
};

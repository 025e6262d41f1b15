import type { Handlers } from '../../http/handler-types.js';
import { caller } from '../../http/request.js';
import type { Services } from '../../services.js';
import { toBrandSummary } from '../brands/brands.mapper.js';
import { toMatchListenerDto } from '../listeners/listeners.mapper.js';
import { toMatchDetailDto } from '../matches/matches.mapper.js';
import type { SponsorBrand } from '../sponsorships/sponsorships.table.js';

export const matchControlHandlers = ({ matchControl, matches, brands }: Services) => {
  const summary = (brand: SponsorBrand) => toBrandSummary(brand, brands.publicLogoUrl(brand));
  return {
    cloneMatch: async (req) => {
      const actor = caller(req).user;
      const id = await matchControl.clone({
        matchId: req.params.match_id,
        actorId: actor.id,
        ...(req.body?.speed !== undefined ? { speed: req.body.speed } : {}),
        ...(req.body?.start ? { start: req.body.start } : {}),
      });
      return { status: 201, body: toMatchDetailDto(await matches.detail(id, actor.id), summary) };
    },
    startMatchListener: async ({ params, body }) => ({
      status: 202,
      body: toMatchListenerDto(await matchControl.startListener({ matchId: params.match_id, speed: body?.speed, restart: body?.restart === true })),
    }),
    stopMatchListener: async ({ params }) => {
      const { stopped, revoked } = await matchControl.stopListener(params.match_id);
      return { status: 200, body: { match_id: params.match_id, stopped_listener_ids: stopped, revoked_issuance_count: revoked } };
    },
  } satisfies Partial<Handlers>;
};

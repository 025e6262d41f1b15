import type { Handlers } from '../../http/handler-types.js';
import { caller } from '../../http/request.js';
import type { Services } from '../../services.js';

export const issuanceHandlers = ({ issuances }: Services) =>
  ({
    listMatchQuestionIssuances: async ({ params, query, auth }) => ({
      status: 200,
      body: await issuances.listForMatch({ matchId: params.match_id, kind: query.kind ?? 'in_game', isAdmin: auth?.user.isAdmin ?? false }),
    }),
    listMatchResolutions: async (req) => ({
      status: 200,
      body: await issuances.resolutionsAfter({
        matchId: req.params.match_id,
        userId: caller(req).user.id,
        after: req.query.after ?? 0,
        limit: req.query.limit ?? 100,
      }),
    }),
    listMatchQuestionIssuanceDenials: async ({ params, query }) => ({
      status: 200,
      body: await issuances.denials({ matchId: params.match_id, failedStep: query.failed_step, limit: query.limit ?? 50, offset: query.offset ?? 0 }),
    }),
    getMatchEventTimeline: async ({ params, query }) => ({
      status: 200,
      body: await issuances.timeline({ matchId: params.match_id, types: query.types }),
    }),
  }) satisfies Partial<Handlers>;

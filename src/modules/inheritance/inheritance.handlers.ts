import type { Handlers } from '../../http/handler-types.js';
import type { Services } from '../../services.js';

export const inheritanceHandlers = ({ inheritance }: Services) =>
  ({
    getLeagueQuestionInheritance: async ({ params, query }) => ({
      status: 200,
      body: await inheritance.league({ idOrSlug: params.league_id, kind: query.kind ?? 'in_game', definitionId: query.definition_id }),
    }),
    getMatchQuestionInheritance: async ({ params, query }) => ({
      status: 200,
      body: await inheritance.match({ matchId: params.match_id, kind: query.kind ?? 'in_game', definitionId: query.definition_id }),
    }),
  }) satisfies Partial<Handlers>;

import type { Handlers } from '../../http/handler-types.js';
import type { Services } from '../../services.js';
import { toLeagueDto } from './leagues.mapper.js';

export const leagueHandlers = ({ leagues }: Services) =>
  ({
    listLeagues: async () => ({ status: 200, body: (await leagues.list()).map(toLeagueDto) }),
    getLeague: async ({ params }) => ({ status: 200, body: toLeagueDto(await leagues.get(params.league_id)) }),
    updateLeague: async ({ params, body }) => ({ status: 200, body: toLeagueDto(await leagues.update(params.league_id, body)) }),
  }) satisfies Partial<Handlers>;

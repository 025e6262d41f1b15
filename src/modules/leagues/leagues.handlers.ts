import type { Handlers } from '../../http/handler-types.js';
import type { Services } from '../../services.js';
import { reusedBody } from '../../http/reused-body.js';
import { toLeagueDto, type LeagueDto } from './leagues.mapper.js';
import type { LeagueRow } from './leagues.table.js';

export const leagueHandlers = ({ leagues }: Services) => {
  /** The reply of each league list the service keeps (src/modules/leagues/league-cache.ts): mapped and serialized once. */
  const replies = new WeakMap<readonly LeagueRow[], LeagueDto[]>();
  const listBody = (rows: readonly LeagueRow[]): LeagueDto[] => {
    if (!Object.isFrozen(rows)) return rows.map(toLeagueDto);
    let body = replies.get(rows);
    if (!body) replies.set(rows, (body = reusedBody(rows.map(toLeagueDto))));
    return body;
  };
  return {
    listLeagues: async () => ({ status: 200, body: listBody(await leagues.list()) }),
    getLeague: async ({ params }) => ({ status: 200, body: toLeagueDto(await leagues.get(params.league_id)) }),
    updateLeague: async ({ params, body }) => ({ status: 200, body: toLeagueDto(await leagues.update(params.league_id, body)) }),
  } satisfies Partial<Handlers>;
};

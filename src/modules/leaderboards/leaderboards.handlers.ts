import type { Handlers } from '../../http/handler-types.js';
import { caller } from '../../http/request.js';
import type { Services } from '../../services.js';

export const leaderboardHandlers = ({ leaderboards, users }: Services) =>
  ({
    getOverallLeaderboard: async ({ query, auth }) => ({
      status: 200,
      body: await leaderboards.overall(
        { period: query.period ?? 'all_time', date: query.date, rankBy: query.rank_by, offset: query.offset ?? 0, limit: query.limit ?? 20 },
        auth?.user ?? null,
      ),
    }),
    getLeagueLeaderboard: async ({ params, query, auth }) => ({
      status: 200,
      body: await leaderboards.league(
        params.league_id,
        { period: query.period ?? 'all_time', date: query.date, rankBy: query.rank_by, offset: query.offset ?? 0, limit: query.limit ?? 20 },
        auth?.user ?? null,
      ),
    }),
    getCurrentUserLeaderboardPositions: async (req) => ({ status: 200, body: await leaderboards.positions(caller(req).user) }),
    getUserLeaderboardPositions: async ({ params }) => ({ status: 200, body: await leaderboards.positions(await users.get(params.user_id)) }),
    getMatchLeaderboard: async ({ params, query, auth }) => ({
      status: 200,
      body: await leaderboards.match(params.match_id, { rankBy: query.rank_by, offset: query.offset ?? 0, limit: query.limit ?? 20 }, auth?.user ?? null),
    }),
  }) satisfies Partial<Handlers>;

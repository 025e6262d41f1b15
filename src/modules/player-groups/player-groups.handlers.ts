import type { Handlers } from '../../http/handler-types.js';
import { caller, clientIp } from '../../http/request.js';
import type { Services } from '../../services.js';

export const playerGroupHandlers = ({ playerGroups }: Services) =>
  ({
    listPlayerGroups: async (req) => ({ status: 200, body: await playerGroups.list(caller(req).user) }),
    createPlayerGroup: async (req) => ({ status: 201, body: await playerGroups.create(caller(req).user, req.body.name) }),
    joinPlayerGroup: async (req) => ({ status: 200, body: await playerGroups.join(caller(req).user, req.body.invite_code, clientIp(req.raw)) }),
    getPlayerGroup: async (req) => ({ status: 200, body: await playerGroups.get(caller(req).user, req.params.player_group_id) }),
    renamePlayerGroup: async (req) => ({ status: 200, body: await playerGroups.rename(caller(req).user, req.params.player_group_id, req.body.name) }),
    deletePlayerGroup: async (req) => {
      await playerGroups.remove(caller(req).user, req.params.player_group_id);
      return { status: 204 };
    },
    replacePlayerGroupInviteCode: async (req) => ({ status: 200, body: await playerGroups.replaceInviteCode(caller(req).user, req.params.player_group_id) }),
    leavePlayerGroup: async (req) => {
      await playerGroups.leave(caller(req).user, req.params.player_group_id);
      return { status: 204 };
    },
    removePlayerGroupMember: async (req) => {
      await playerGroups.removeMember(caller(req).user, req.params.player_group_id, req.params.user_id);
      return { status: 204 };
    },
    getPlayerGroupLeaderboard: async (req) => ({
      status: 200,
      body: await playerGroups.leaderboard(caller(req).user, req.params.player_group_id, {
        scope: req.query.scope ?? 'overall',
        league: req.query.league,
        matchId: req.query.match_id,
        period: req.query.period ?? 'all_time',
        date: req.query.date,
        rankBy: req.query.rank_by,
      }),
    }),
  }) satisfies Partial<Handlers>;

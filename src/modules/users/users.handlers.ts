import type { Handlers } from '../../http/handler-types.js';
import { caller, clientIp } from '../../http/request.js';
import type { Services } from '../../services.js';
import { toUserDto } from './users.mapper.js';

export const userHandlers = ({ users }: Services) =>
  ({
    getCurrentUser: async (req) => ({ status: 200, body: toUserDto(caller(req).user) }),
    updateCurrentUser: async (req) => ({ status: 200, body: toUserDto(await users.updateSelf(caller(req).user, req.body, clientIp(req.raw))) }),
    listUsers: async ({ query }) => {
      const { rows, total } = await users.list({
        q: query.q,
        isAdmin: query.is_admin,
        isActive: query.is_active,
        followedMatchId: query.followed_match_id,
        sortBy: query.sort_by ?? 'created_at',
        sortDir: query.sort_dir ?? 'desc',
        offset: query.offset ?? 0,
        limit: query.limit ?? 50,
      });
      return { status: 200, body: { users: rows.map(toUserDto), user_count: total } };
    },
    createUser: async ({ body }) => ({ status: 201, body: toUserDto(await users.create(body)) }),
    getUser: async ({ params }) => ({ status: 200, body: toUserDto(await users.get(params.user_id)) }),
    updateUser: async (req) => ({
      status: 200,
      body: toUserDto(await users.adminUpdate({ actorId: caller(req).user.id, userId: req.params.user_id, patch: req.body })),
    }),
    deactivateUser: async (req) => {
      await users.deactivate({ actorId: caller(req).user.id, userId: req.params.user_id });
      return { status: 204 };
    },
  }) satisfies Partial<Handlers>;

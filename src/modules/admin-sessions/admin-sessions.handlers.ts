import type { Handlers } from '../../http/handler-types.js';
import { cookieOf } from '../../http/request.js';
import type { Services } from '../../services.js';
import { toUserDto } from '../users/users.mapper.js';
import { ADMIN_SESSION_COOKIE } from './admin-sessions.service.js';

export const adminSessionHandlers = ({ adminSessions }: Services) =>
  ({
    createAdminApiSession: async ({ headers }) => {
      const token = cookieOf({ headers }, ADMIN_SESSION_COOKIE);
      const csrf = headers['x-csrf-token'];
      const issued = await adminSessions.apiKey({ token, csrf: Array.isArray(csrf) ? csrf[0] : csrf });
      return { status: 200, body: { api_key: issued.apiKey, token_type: 'bearer' as const, user: toUserDto(issued.user) } };
    },
  }) satisfies Partial<Handlers>;

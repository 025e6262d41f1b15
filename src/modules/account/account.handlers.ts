import type { Handlers } from '../../http/handler-types.js';
import { caller, clientIp } from '../../http/request.js';
import type { Services } from '../../services.js';
import { toUserDto } from '../users/users.mapper.js';

export const accountHandlers = ({ account }: Services) =>
  ({
    requestPasswordReset: async ({ body, raw }) => {
      await account.requestPasswordReset({ email: body.email, ip: clientIp(raw) });
      return { status: 202 };
    },
    resetPassword: async ({ body }) => {
      const issued = await account.resetPassword({ token: body.token, password: body.password });
      return { status: 200, body: { api_key: issued.apiKey, token_type: 'bearer' as const, user: toUserDto(issued.user) } };
    },
    requestEmailVerification: async (req) => {
      await account.requestEmailVerification({ user: caller(req).user, ip: clientIp(req.raw) });
      return { status: 202 };
    },
    verifyEmail: async ({ body }) => {
      await account.verifyEmail(body.token);
      return { status: 204 };
    },
    exportCurrentUserData: async (req) => {
      const data = await account.exportData(caller(req).user);
      return {
        status: 200,
        body: data,
        filename: `question-play-data-${data.exported_at.slice(0, 10)}.json`,
      };
    },
    deleteCurrentUser: async (req) => {
      await account.deleteAccount({ user: caller(req).user, password: req.body.password, ip: clientIp(req.raw) });
      return { status: 204 };
    },
  }) satisfies Partial<Handlers>;

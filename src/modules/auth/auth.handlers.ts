import type { Handlers } from '../../http/handler-types.js';
import { caller, clientIp } from '../../http/request.js';
import type { Services } from '../../services.js';
import { toUserDto } from '../users/users.mapper.js';
import type { IssuedKey } from './auth.service.js';

const token = (issued: IssuedKey) => ({ api_key: issued.apiKey, token_type: 'bearer' as const, user: toUserDto(issued.user) });

export const authHandlers = ({ auth }: Services) =>
  ({
    registerUser: async ({ body, raw }) => {
      const issued = await auth.register({
        username: body.username,
        password: body.password,
        email: body.email,
        firstName: body.first_name ?? null,
        ip: clientIp(raw),
      });
      return { status: 201, body: token(issued) };
    },
    loginUser: async ({ body, raw }) => ({ status: 200, body: token(await auth.login({ login: body.username, password: body.password, ip: clientIp(raw) })) }),
    logoutUser: async (req) => {
      await auth.logout(caller(req));
      return { status: 204 };
    },
  }) satisfies Partial<Handlers>;

import { parse as parseCookies } from 'cookie';
import { unauthorized } from '../errors.js';
import type { AuthContext } from '../modules/auth/auth.service.js';

/** The caller of a secured operation (openapi-backend has already refused requests without a valid key). */
export function caller(req: { auth: AuthContext | null }): AuthContext {
  if (!req.auth) throw unauthorized();
  return req.auth;
}

/** The client's address: the peer, or with TRUST_PROXY the one the trusted proxies put in X-Forwarded-For (express's req.ip). */
export const clientIp = (req: { ip?: string | undefined; socket?: { remoteAddress?: string | undefined } }): string => req.ip ?? req.socket?.remoteAddress ?? 'unknown';

/** A cookie of the request (an express request, or a handler's headers). */
export const cookieOf = (req: { headers: { cookie?: string | undefined } }, name: string): string | undefined => parseCookies(req.headers.cookie ?? '')[name];

import type { IncomingMessage } from 'node:http';
import { parse as parseCookies } from 'cookie';
import proxyaddr from 'proxy-addr';
import { authErrors } from '../modules/auth/auth.errors.js';
import type { AuthContext } from '../modules/auth/auth.service.js';

/** The caller of a secured operation (openapi-backend has already refused requests without a valid key). */
export function caller(req: { auth: AuthContext | null }): AuthContext {
  if (!req.auth) throw authErrors.unauthorized();
  return req.auth;
}

/** The client's address: the peer, or with TRUST_PROXY the one the trusted proxies put in X-Forwarded-For (express's req.ip). */
export const clientIp = (req: { ip?: string | undefined; socket?: { remoteAddress?: string | undefined } }): string =>
  req.ip ?? req.socket?.remoteAddress ?? 'unknown';

/** A cookie of the request (an express request, or a handler's headers). */
export const cookieOf = (req: { headers: { cookie?: string | undefined } }, name: string): string | undefined => parseCookies(req.headers.cookie ?? '')[name];

/**
 * The client's address of a request express does not see (the live stream's
 * upgrade), with the same reading of X-Forwarded-For as express's `req.ip`
 * under TRUST_PROXY: only what the trusted proxies appended counts.
 */
export function upgradeClientIp(trustProxy: false | number | string[]): (req: IncomingMessage) => string {
  const trust = typeof trustProxy === 'number' ? (_addr: string, i: number) => i < trustProxy : proxyaddr.compile(trustProxy || []);
  return (req) => proxyaddr(req, trust) ?? 'unknown';
}

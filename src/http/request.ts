import { unauthorized } from '../errors.js';
import type { AuthContext } from '../modules/auth/auth.service.js';

/** The caller of a secured operation (openapi-backend has already refused requests without a valid key). */
export function caller(req: { auth: AuthContext | null }): AuthContext {
  if (!req.auth) throw unauthorized();
  return req.auth;
}

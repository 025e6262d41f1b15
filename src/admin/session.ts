/** The operator UI's view of a request's admin session (its cookie), shared by the sign-in routes and the page shell. */
import type { Request } from 'express';
import { cookieOf } from '../http/request.js';
import { ADMIN_SESSION_COOKIE, isActiveAdmin, type AdminSession } from '../modules/admin-sessions/admin-sessions.service.js';
import type { Services } from '../services.js';

/**
 * The session of a signed-in admin who may use the UI: undefined without one,
 * and also when its user is no longer an active admin (deactivated or demoted
 * since signing in), so the sign-in form and the pages agree on who is in.
 */
export async function activeAdminSession(services: Services, req: Request): Promise<AdminSession | undefined> {
  const found = await services.adminSessions.find(cookieOf(req, ADMIN_SESSION_COOKIE));
  return found && isActiveAdmin(found.user) ? found : undefined;
}

import type { FastifyInstance } from 'fastify';
import { forbidden } from '../../http/errors.js';
import { guardOf } from '../../http/guards.js';

/**
 * A user flagged must_change_password (a generated or default initial password) may use only
 * what it needs to change it: every JSON route behind a login answers 403 MUST_CHANGE_PASSWORD,
 * except reading the current user, changing the password and logging out. Runs after the guards,
 * so anonymous callers still get their 401. Pages still load: they read the flag from /auth/me.
 */
export function registerMustChangePassword(app: FastifyInstance, apiRoot: string): void {
  const allowed = new Set([`GET ${apiRoot}/auth/me`, `POST ${apiRoot}/auth/password`, `POST ${apiRoot}/auth/logout`]);
  app.addHook('onRequest', async (req) => {
    if (!req.user?.must_change_password || !req.routeOptions.url) return;
    const guard = guardOf(req, apiRoot);
    if (guard !== 'login' && guard !== 'admin') return;
    if (allowed.has(`${req.method} ${req.routeOptions.url}`)) return;
    throw forbidden('请先修改初始密码', { code: 'MUST_CHANGE_PASSWORD' });
  });
}

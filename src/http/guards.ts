import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CurrentUser } from '../modules/auth/current-user.js';
import { ALL_REGIONS_GRADE } from '../modules/auth/data-scope.js';
import { forbidden, unauthorized } from './errors.js';
import type { RouteDoc } from './openapi/route-doc.js';
import { forbiddenPage } from './pages-html.js';

/**
 * Who may call a route. JSON guards answer 401/403 envelopes; page guards redirect to the login
 * page or answer the 403 HTML page (docs/accounts.md).
 */
export type Guard = 'public' | 'login' | 'admin' | 'page-login' | 'page-super';

declare module 'fastify' {
  interface FastifyContextConfig {
    guard?: Guard;
  }
}

/**
 * The route config of an administrator's change to records of one kind: the admin guard, and the
 * operation-log entry that every such change writes (`targetType` names the kind of record).
 */
export function adminChange(targetType: string) {
  return (type: string, summary: string, doc: RouteDoc) => ({ guard: 'admin' as const, operation: { type, summary, targetType }, doc });
}

export const isAdmin = (u: CurrentUser) => u.role === 'admin' || u.grade >= ALL_REGIONS_GRADE;

/** Every `/admin/*` route needs a login unless it says otherwise (also what the OpenAPI document shows). */
export function routeGuard(explicit: Guard | undefined, url: string, apiRoot: string): Guard {
  if (explicit) return explicit;
  return url.startsWith(`${apiRoot}/admin/`) ? 'login' : 'public';
}

export function guardOf(req: FastifyRequest, apiRoot: string): Guard {
  return routeGuard(req.routeOptions.config?.guard, req.routeOptions.url ?? '', apiRoot);
}

export function loginRedirect(apiRoot: string, req: FastifyRequest): string {
  return `${apiRoot}/login?next=${encodeURIComponent(req.url)}`;
}

/** Applies a route's guard; returns false when it has already answered the request. */
export function checkGuard(req: FastifyRequest, reply: FastifyReply, guard: Guard, apiRoot: string): boolean {
  const user = req.user;
  switch (guard) {
    case 'public':
      return true;
    case 'login':
      if (!user) throw unauthorized();
      return true;
    case 'admin':
      if (!user) throw unauthorized();
      if (!isAdmin(user)) throw forbidden();
      return true;
    case 'page-login':
    case 'page-super':
      if (!user) {
        reply.redirect(loginRedirect(apiRoot, req), 302);
        return false;
      }
      if (guard === 'page-super' && user.role !== 'admin') {
        reply.status(403).type('text/html; charset=utf-8').send(forbiddenPage(apiRoot));
        return false;
      }
      return true;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function originOf(value: string): string | null {
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

/**
 * A state-changing request that carries the session cookie (or logs in) must come from this
 * origin. Browsers send Origin (or at least Referer) on such requests; clients that send neither
 * are not browsers and cannot be driven by another site.
 */
export function isCrossSite(req: FastifyRequest): boolean {
  if (SAFE_METHODS.has(req.method)) return false;
  const expected = originOf(`${req.protocol}://${req.host}`);
  const origin = req.headers.origin;
  if (typeof origin === 'string' && origin !== '') return origin === 'null' || originOf(origin) !== expected;
  const referer = req.headers.referer;
  if (typeof referer === 'string' && referer !== '') return originOf(referer) !== expected;
  return false;
}

export function registerGuards(app: FastifyInstance, apiRoot: string, hasSessionCookie: (req: FastifyRequest) => boolean) {
  app.addHook('onRequest', async (req, reply) => {
    if (!req.routeOptions.url) return; // unknown route: the 404 handler answers
    const guard = guardOf(req, apiRoot);
    const isLogin = req.routeOptions.url === `${apiRoot}/auth/login`;
    if ((guard !== 'public' || isLogin || hasSessionCookie(req)) && isCrossSite(req)) {
      throw forbidden('跨站请求被拒绝');
    }
    if (!checkGuard(req, reply, guard, apiRoot)) return reply;
  });
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import type { CurrentUser } from './current-user.js';
import { resolveSession, SESSION_IDLE_MS } from './auth.service.js';

export const SESSION_COOKIE = 'lawrisk_sid';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route answers every caller alike (the search): its session cookie is not looked up, which
     * saves two queries per request and keeps it answering while the database is away.
     */
    ignoresSession?: boolean;
  }
  interface FastifyRequest {
    user: CurrentUser | null;
    /** The raw session token from the cookie, when it named a live session. */
    sessionToken: string | null;
  }
}

export function sessionTokenOf(req: FastifyRequest): string | null {
  const v = req.cookies?.[SESSION_COOKIE];
  return typeof v === 'string' && v !== '' ? v : null;
}

export function setSessionCookie(reply: FastifyReply, ctx: AppContext, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.config.trustProxy,
    // A browser keeps the cookie a little longer than the idle expiry; the server decides validity.
    maxAge: Math.floor(SESSION_IDLE_MS / 1000),
  });
}

export function clearSessionCookie(reply: FastifyReply, ctx: AppContext): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: ctx.config.trustProxy });
}

/** Resolves the session cookie into `req.user` before any guard runs. */
export function registerSessionResolver(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionToken', null);
  app.addHook('onRequest', async (req) => {
    const token = sessionTokenOf(req);
    if (!token || req.routeOptions.config?.ignoresSession) return;
    const resolved = await resolveSession(ctx.db, token, ctx.now());
    if (resolved) {
      req.user = resolved.user;
      req.sessionToken = token;
    }
  });
}

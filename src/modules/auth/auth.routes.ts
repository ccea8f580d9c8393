import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError, unauthorized } from '../../http/errors.js';
import { asInput, readString } from '../../http/readers.js';
import { login, logout } from './auth.service.js';
import { authDocs } from './auth.openapi.js';
import { LoginBody } from './auth.schema.js';
import { presentCurrentUser } from './auth.presenter.js';
import { safeNext } from './login-page.js';
import { clearSessionCookie, sessionTokenOf, setSessionCookie } from './session-cookie.js';

const FORM_ERROR_CODES: Record<number, string> = { 400: 'missing', 401: 'credentials', 403: 'inactive', 429: 'locked' };

function isForm(req: FastifyRequest): boolean {
  return String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
}

export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { apiRoot } = ctx.config;

  // GET {api_root}/login (the page) is served with the other pages: src/pages/pages.routes.ts.

  app.post(
    `${apiRoot}/auth/login`,
    {
      schema: { body: LoginBody },
      config: {
        guard: 'public',
        operation: { type: 'login', summary: '登录', targetType: 'user' },
        doc: authDocs.login,
        rateLimit: ctx.config.loginRateLimit > 0 ? { max: ctx.config.loginRateLimit, timeWindow: 60_000 } : false,
      },
    },
    async (req, reply) => {
      const body = asInput(req.body);
      const form = isForm(req);
      const username = readString(body, 'username');
      const password = typeof body.password === 'string' ? body.password : '';
      const next = safeNext(apiRoot, readString(body, 'next'));
      req.operation.operatorUsername = username?.toLowerCase();
      req.operation.targetName = username?.toLowerCase() ?? null;
      try {
        if (!username || password === '') throw new AppError(400, '用户名和密码均不能为空');
        const result = await login(
          ctx.db,
          { username, password, ip: req.ip, userAgent: req.headers['user-agent'] ?? null, previousToken: sessionTokenOf(req) },
          ctx.now(),
        );
        req.user = result.user;
        req.operation.targetId = result.user.id;
        req.operation.summary = `用户 ${result.user.username} 登录成功`;
        setSessionCookie(reply, ctx, result.token);
        const redirect = next ?? `${apiRoot}/db_admin`;
        if (form) return reply.redirect(redirect, 303);
        return { success: true, data: { user: presentCurrentUser(result.user), redirect } };
      } catch (err) {
        req.operation.summary = `用户 ${username ?? ''} 登录失败`;
        if (!form || !(err instanceof AppError)) throw err;
        // Form logins go back to the page with an error code only: credentials never enter a URL.
        const code = FORM_ERROR_CODES[err.status] ?? 'credentials';
        const params = new URLSearchParams({ error: code });
        if (next) params.set('next', next);
        req.operation.failed = true;
        return reply.redirect(`${apiRoot}/login?${params.toString()}`, 303);
      }
    },
  );

  app.post(
    `${apiRoot}/auth/logout`,
    { config: { guard: 'public', operation: { type: 'logout', summary: '退出登录', targetType: 'user' }, doc: authDocs.logout } },
    async (req, reply) => {
      const token = sessionTokenOf(req);
      if (token) await logout(ctx.db, token);
      if (req.user) req.operation.targetId = req.user.id;
      clearSessionCookie(reply, ctx);
      return { success: true };
    },
  );

  app.get(`${apiRoot}/auth/me`, { config: { guard: 'public', doc: authDocs.me } }, async (req: FastifyRequest, _reply: FastifyReply) => {
    if (!req.user) throw unauthorized();
    return { success: true, data: { user: presentCurrentUser(req.user) } };
  });
}

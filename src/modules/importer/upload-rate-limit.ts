import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';

export function uploadRateMessage(max: number): string {
  return `上传过于频繁（每个账号每分钟最多 ${max} 次上传或重新导入），请稍后再试`;
}

/**
 * IMPORT_RATE_LIMIT: uploads and re-imports a minute per user, one counter for both (each is a
 * parse). Runs as the routes' first hook of their own, after the session and the guards, so a
 * refused request is answered (429 with Retry-After) before its body is read and changes nothing.
 * Counted per instance, like the other rate limits (docs/deploy.md). Null when the setting is 0.
 */
export function uploadRateLimiter(app: FastifyInstance, ctx: AppContext): onRequestAsyncHookHandler | null {
  const max = ctx.config.importRateLimit;
  if (max === 0) return null;
  return app.rateLimit({
    max,
    timeWindow: 60_000,
    keyGenerator: (req) => `import:${req.user?.id ?? req.ip}`,
    errorResponseBuilder: () => new AppError(429, uploadRateMessage(max)),
  });
}

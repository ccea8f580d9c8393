import { AsyncLocalStorage } from 'node:async_hooks';
import { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { isSecretKey } from '../modules/operation-log/sanitize-params.js';

const requestLog = new AsyncLocalStorage<FastifyBaseLogger>();

/**
 * The logger to use now: the current request's (its lines carry the request id) while a request
 * is being handled, else `fallback` (start-up, the change feed's polling).
 */
export function currentLogger(fallback: FastifyBaseLogger): FastifyBaseLogger {
  return requestLog.getStore() ?? fallback;
}

/**
 * Parameters holding a question: the access line has the client's address, so it must not have
 * what the client asked too (the query log keeps the questions without addresses, docs/query-log.md).
 */
const QUESTION_KEYS = new Set(['query', 'q', 'text']);

/** The URL with the values of credential-like and question parameters replaced. */
export function loggableUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  let hidden = false;
  for (const key of new Set(params.keys())) {
    if (isSecretKey(key) || QUESTION_KEYS.has(key.toLowerCase())) {
      params.set(key, '[redacted]');
      hidden = true;
    }
  }
  return hidden ? `${url.slice(0, q)}?${params.toString()}` : url;
}

function accessLine(req: FastifyRequest, statusCode: number, elapsedMs: number) {
  return {
    method: req.method,
    url: loggableUrl(req.url),
    route: req.routeOptions.url ?? null,
    statusCode,
    responseTime: Math.round(elapsedMs * 10) / 10,
    ip: req.ip,
    userId: req.user?.id ?? null,
  };
}

/**
 * Fastify's per-request log lines, replaced by one access line when the answer has left. It
 * never holds headers (so no cookie or authorization), bodies (so no password) or
 * credential-like query values. A route's `logLevel` (warn on /healthz and /metrics) silences it.
 */
export class AccessLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, req: FastifyRequest, reply: FastifyReply): void {
    const line = accessLine(req, reply.statusCode, reply.elapsedTime);
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

/**
 * Every line logged while a request is handled carries its id: services log through ctx.log,
 * which follows the request through this context. The id is also answered in X-Request-Id, so a
 * user's report or a proxy's log can be matched with these lines. Register first, so every later
 * hook and the handler run inside the context.
 */
export function registerRequestLogContext(app: FastifyInstance): void {
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    requestLog.run(req.log, done);
  });
}

import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { healthDocs } from './health.openapi.js';

export function registerHealthRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { apiRoot } = ctx.config;

  // Outside {api_root}: for load balancers and orchestration. Alive while the database answers,
  // loading or not (an orchestrator must not restart an instance that is loading its index).
  app.get('/healthz', { config: { guard: 'public', doc: healthDocs.healthz }, logLevel: 'warn' }, async (_req, reply) => {
    try {
      await sql`select 1`.execute(ctx.db);
      return { status: 'ok', database: ctx.dbh.kind, ready: ctx.notReadyReasons.every((reason) => reason() === null) };
    } catch {
      return reply.status(503).send({ status: 'unavailable', message: '数据库暂时不可用' });
    }
  });

  // Readiness, for load balancers: whether this instance can answer searches — its search index
  // loaded. Not the database: the search goes on answering from memory while the database is away
  // (docs/reliability.md), which /healthz reports.
  app.get('/readyz', { config: { guard: 'public', doc: healthDocs.readyz }, logLevel: 'warn' }, async (_req, reply) => {
    const waiting = ctx.notReadyReasons.map((reason) => reason()).filter((r): r is string => r !== null);
    if (waiting.length > 0)
      return reply
        .status(503)
        .header('retry-after', '5')
        .send({ status: 'loading', message: waiting.join('；') });
    return { status: 'ready' };
  });

  app.get(`${apiRoot}/test-simple`, { config: { guard: 'public', doc: healthDocs.testSimple }, logLevel: 'warn' }, async () => ({ status: 'ok' }));

  app.get(`${apiRoot}/admin/test`, { config: { guard: 'public', doc: healthDocs.adminTest } }, async () => ({ success: true, message: 'Test route works!' }));
}

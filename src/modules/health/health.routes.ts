import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { healthDocs } from './health.openapi.js';

export function registerHealthRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { apiRoot } = ctx.config;

  // Outside {api_root}: for load balancers and orchestration.
  app.get('/healthz', { config: { guard: 'public', doc: healthDocs.healthz }, logLevel: 'warn' }, async (_req, reply) => {
    try {
      await sql`select 1`.execute(ctx.db);
      return { status: 'ok', database: ctx.dbh.kind };
    } catch {
      return reply.status(503).send({ status: 'unavailable', message: '数据库暂时不可用' });
    }
  });

  app.get(`${apiRoot}/test-simple`, { config: { guard: 'public', doc: healthDocs.testSimple }, logLevel: 'warn' }, async () => ({ status: 'ok' }));

  app.get(`${apiRoot}/admin/test`, { config: { guard: 'public', doc: healthDocs.adminTest } }, async () => ({
    success: true,
    message: 'Test route works!',
  }));
}

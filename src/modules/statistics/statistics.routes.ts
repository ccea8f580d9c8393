import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { regionScope } from '../auth/data-scope.js';
import { statisticsDocs } from './statistics.openapi.js';
import { catalogueStatistics } from './statistics.repository.js';

/** GET /admin/statistics: the dashboard's totals, within the caller's data scope. */
export function registerStatisticsRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(`${ctx.config.apiRoot}/admin/statistics`, { config: { failureMessage: '统计数据加载失败', doc: statisticsDocs.totals } }, async (req) => ({
    success: true,
    data: await catalogueStatistics(ctx.readDb, regionScope(req.user)),
  }));
}

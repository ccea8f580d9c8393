import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { asInput } from '../../http/readers.js';
import { sendAttachment, XLSX_TYPE } from '../../http/attachment.js';
import { searchAnalyticsDocs } from './search-analytics.openapi.js';
import { EXPORT_ROWS, readAnalyticsRequest, searchAnalytics, searchAnalyticsWorkbook } from './search-analytics.service.js';

/** The query log's analytics (docs/search-analytics.md): administrators only, as figures or as a workbook. */
export function registerSearchAnalyticsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const root = `${ctx.config.apiRoot}/admin/search-analytics`;
  app.get(root, { config: { guard: 'admin', failureMessage: '搜索分析加载失败', doc: searchAnalyticsDocs.report } }, async (req) => ({
    success: true,
    data: await searchAnalytics(ctx, await readAnalyticsRequest(ctx, asInput(req.query), 20, 100)),
  }));
  app.get(`${root}/export`, { config: { guard: 'admin', failureMessage: '搜索分析导出失败', doc: searchAnalyticsDocs.export } }, async (req, reply) => {
    const request = await readAnalyticsRequest(ctx, asInput(req.query), EXPORT_ROWS, EXPORT_ROWS);
    const workbook = await searchAnalyticsWorkbook(await searchAnalytics(ctx, request));
    return sendAttachment(reply, `搜索分析-${request.from}-${request.to}.xlsx`, XLSX_TYPE, workbook);
  });
}

import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { isAdmin } from '../../http/guards.js';
import { asInput, readInt, readString } from '../../http/readers.js';
import { listOperationLogs } from './operation-log.repository.js';
import { operationLogDocs } from './operation-log.openapi.js';
import { presentOperationLog } from './operation-log.presenter.js';

/**
 * GET /admin/operation-logs: newest first, filtered by operator and type.
 * Data scope: a user below grade 90 sees only its own entries; administrators (role admin or
 * grade 90 and above, as the admin guard) see all. Read from the primary: an entry written a
 * moment ago must be listed.
 */
export function registerOperationLogRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(`${ctx.config.apiRoot}/admin/operation-logs`, { config: { failureMessage: '操作日志加载失败', doc: operationLogDocs.list } }, async (req) => {
    const q = asInput(req.query);
    const limit = readInt(q, 'limit', { def: 50, min: 1, max: 500 });
    const offset = readInt(q, 'offset', { def: 0, min: 0 });
    const { rows, total } = await listOperationLogs(ctx.db, {
      operator: readString(q, 'operator'),
      operationType: readString(q, 'operation_type', 'type'),
      operatorId: isAdmin(req.user!) ? undefined : req.user!.id,
      limit,
      offset,
    });
    return { success: true, data: { logs: rows.map(presentOperationLog), total, limit, offset } };
  });
}

import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { AppContext } from '../../context.js';
import { isAdmin } from '../../http/guards.js';
import { asInput, readInt, readString } from '../../http/readers.js';
import { listOperationLogs } from './operation-log.repository.js';
import type { OperationLogsTable } from './operation-log.table.js';
import { operationLogDocs, type OperationLogEntry } from './operation-log.openapi.js';

type LogRow = Selectable<OperationLogsTable>;

function parsedParams(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text; // written by an older version or by hand: shown as it is
  }
}

/** One entry as the API shows it: operator and target grouped, parameters as JSON, ids as strings. */
export function presentOperationLog(row: LogRow): Static<typeof OperationLogEntry> {
  return {
    id: String(row.id),
    created_at: row.created_at,
    operator: {
      id: row.operator_id === null ? null : String(row.operator_id),
      username: row.operator_username,
      display_name: row.operator_name,
    },
    operation_type: row.operation_type,
    target: { type: row.target_type, id: row.target_id, name: row.target_name },
    summary: row.summary,
    params: parsedParams(row.params),
    outcome: row.outcome,
    error_message: row.error_message,
    duration_ms: row.duration_ms,
    client_ip: row.client_ip,
    request_id: row.request_id,
  };
}

/**
 * GET /admin/operation-logs (interface 4.7): newest first, filtered by operator and type.
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

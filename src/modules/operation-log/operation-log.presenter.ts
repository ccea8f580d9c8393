import type { Static } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import { recordIdText } from '../../http/record-id.js';
import type { OperationLogEntry } from './operation-log.openapi.js';
import type { OperationLogsTable } from './operation-log.table.js';

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
    operator: { id: recordIdText(row.operator_id), username: row.operator_username, display_name: row.operator_name },
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

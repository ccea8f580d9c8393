import type { Generated } from 'kysely';

export interface OperationLogsTable {
  id: Generated<number>;
  created_at: string;
  operator_id: number | null;
  operator_username: string | null;
  operator_name: string | null;
  operation_type: string;
  target_type: string | null;
  target_id: string | null;
  target_name: string | null;
  summary: string;
  /** JSON of the request parameters with passwords and file contents removed. */
  params: string | null;
  outcome: string;
  error_message: string | null;
  duration_ms: number | null;
  client_ip: string | null;
  request_id: string | null;
}

export interface Tables {
  operation_logs: OperationLogsTable;
}

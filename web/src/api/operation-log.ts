import type { Static } from '@sinclair/typebox';
import type { OperationLogList } from '../../../src/modules/operation-log/operation-log.openapi.ts';
import { api, type CallOptions } from '../shared/api';

export type OperationLogListPayload = Static<typeof OperationLogList>;
export type OperationLogEntryPayload = OperationLogListPayload['logs'][number];

/** One page of the log, newest first; operator and type filter it when given. */
export const fetchOperationLogs = (query: { operator?: string; operation_type?: string; limit: number; offset?: number }, opts?: CallOptions) =>
  api.get<OperationLogListPayload>('/admin/operation-logs', query, opts);

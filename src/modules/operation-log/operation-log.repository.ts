import type { Insertable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { OperationLogsTable } from './operation-log.table.js';

export type OperationLogInsert = Insertable<OperationLogsTable>;

export async function insertOperationLog(db: Executor, row: OperationLogInsert): Promise<void> {
  await db.insertInto('operation_logs').values(row).execute();
}

export interface LogFilter {
  operator?: string;
  operationType?: string;
  /** Data scope: only the entries of this operator (users below grade 90 see their own). */
  operatorId?: number;
  limit: number;
  offset: number;
}

export async function listOperationLogs(db: Executor, f: LogFilter) {
  let q = db.selectFrom('operation_logs');
  if (f.operator) {
    const op = f.operator;
    // Usernames are stored lower-cased, so the username matches whatever case was typed.
    q = q.where((eb) => eb.or([eb('operator_username', '=', op.toLowerCase()), eb('operator_name', '=', op)]));
  }
  if (f.operationType) q = q.where('operation_type', '=', f.operationType);
  if (f.operatorId !== undefined) q = q.where('operator_id', '=', f.operatorId);
  const [rows, total] = await Promise.all([
    q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(f.limit).offset(f.offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

import type { Executor } from '../../db/database.js';
import { chunked, ID_CHUNK, INSERT_CHUNK } from '../../db/batch.js';

/**
 * Ids of the approval departments with the given names, creating the missing ones (names are
 * unique; blank names are skipped). Used wherever permits are (re)linked to departments by name.
 */
export async function ensureApprovalDepartmentIds(db: Executor, names: string[]): Promise<Map<string, number>> {
  const wanted = [...new Set(names.map((n) => n.trim()).filter((n) => n !== ''))];
  const ids = new Map<string, number>();
  const load = async (list: string[]) => {
    for (const part of chunked(list, ID_CHUNK)) {
      const rows = await db.selectFrom('approval_departments').select(['id', 'name']).where('name', 'in', part).execute();
      for (const r of rows) ids.set(r.name, r.id);
    }
  };
  await load(wanted);
  const missing = wanted.filter((n) => !ids.has(n));
  for (const part of chunked(missing, INSERT_CHUNK)) {
    await db
      .insertInto('approval_departments')
      .values(part.map((name) => ({ name, service_department_id: null })))
      .execute();
  }
  if (missing.length > 0) await load(missing);
  return ids;
}

export function listApprovalDepartmentRows(db: Executor) {
  return db.selectFrom('approval_departments').select(['id', 'name', 'service_department_id']).orderBy('name').orderBy('id').execute();
}

export function listServiceDepartmentNames(db: Executor) {
  return db.selectFrom('service_departments').select(['id', 'name']).execute();
}

/** Points the given approval departments at one service department (null clears the link). */
export async function setServiceDepartment(db: Executor, approvalIds: number[], serviceDepartmentId: number | null): Promise<void> {
  for (const part of chunked(approvalIds, ID_CHUNK)) {
    await db.updateTable('approval_departments').set({ service_department_id: serviceDepartmentId }).where('id', 'in', part).execute();
  }
}

import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { ServiceDepartmentsTable } from './departments.table.js';

export type DepartmentRow = Selectable<ServiceDepartmentsTable>;

export function listDepartmentRows(db: Executor): Promise<DepartmentRow[]> {
  return db.selectFrom('service_departments').selectAll().orderBy('id').execute();
}

export function findDepartmentById(db: Executor, id: number): Promise<DepartmentRow | undefined> {
  return db.selectFrom('service_departments').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findDepartmentByCode(db: Executor, code: string): Promise<DepartmentRow | undefined> {
  return db.selectFrom('service_departments').selectAll().where('code', '=', code).executeTakeFirst();
}

export function findDepartmentByName(db: Executor, name: string): Promise<DepartmentRow | undefined> {
  return db.selectFrom('service_departments').selectAll().where('name', '=', name).executeTakeFirst();
}

export function listChildRows(db: Executor, parentId: number): Promise<DepartmentRow[]> {
  return db.selectFrom('service_departments').selectAll().where('parent_id', '=', parentId).execute();
}

export async function countChildren(db: Executor, id: number): Promise<number> {
  const r = await db
    .selectFrom('service_departments')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('parent_id', '=', id)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export function insertDepartment(db: Executor, row: Insertable<ServiceDepartmentsTable>): Promise<DepartmentRow> {
  return db.insertInto('service_departments').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateDepartmentRow(db: Executor, id: number, patch: Updateable<ServiceDepartmentsTable>): Promise<void> {
  await db.updateTable('service_departments').set(patch).where('id', '=', id).execute();
}

/** Number of rows deleted (0 when the department did not exist). */
export async function deleteDepartmentRow(db: Executor, id: number): Promise<number> {
  const r = await db.deleteFrom('service_departments').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/**
 * The chain from a department up to its root, the department first. Stops at a repeated id, so a
 * damaged tree (a cycle written outside this service) cannot loop forever.
 */
export async function ancestorChain(db: Executor, id: number): Promise<DepartmentRow[]> {
  const chain: DepartmentRow[] = [];
  const seen = new Set<number>();
  let next: number | null = id;
  while (next !== null && !seen.has(next)) {
    seen.add(next);
    const row = await findDepartmentById(db, next);
    if (!row) break;
    chain.push(row);
    next = row.parent_id;
  }
  return chain;
}

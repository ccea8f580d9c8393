import type { Executor } from '../../db/database.js';
import type { UsersTable } from './users.table.js';
import type { Insertable, Selectable, Updateable } from 'kysely';

export type UserRow = Selectable<UsersTable>;

export function findUserByUsername(db: Executor, username: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
}

export function findUserById(db: Executor, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertUser(db: Executor, row: Insertable<UsersTable>): Promise<UserRow> {
  return db.insertInto('users').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Inserts the account unless its username is taken (by another instance a moment before): the new row, or undefined. */
export async function insertUserIfAbsent(db: Executor, row: Insertable<UsersTable>): Promise<UserRow | undefined> {
  return db
    .insertInto('users')
    .values(row)
    .onConflict((oc) => oc.column('username').doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function updateUser(db: Executor, id: number, patch: Updateable<UsersTable>): Promise<void> {
  await db.updateTable('users').set(patch).where('id', '=', id).execute();
}

export async function countActiveAdmins(db: Executor): Promise<number> {
  const r = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role', '=', 'admin')
    .where('is_active', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** A user row with the few fields of its department the API shows (one left join). */
export type UserWithDepartment = UserRow & { department_name: string | null; department_code: string | null; department_region_id: number | null };

function selectUsersWithDepartment(db: Executor) {
  return db
    .selectFrom('users as u')
    .leftJoin('service_departments as d', 'd.id', 'u.service_department_id')
    .selectAll('u')
    .select(['d.name as department_name', 'd.code as department_code', 'd.region_id as department_region_id']);
}

export function listUsersWithDepartment(db: Executor, opts: { includeInactive: boolean }): Promise<UserWithDepartment[]> {
  let q = selectUsersWithDepartment(db);
  if (!opts.includeInactive) q = q.where('u.is_active', '=', 1);
  return q.orderBy('u.id').execute();
}

export function findUserWithDepartment(db: Executor, id: number): Promise<UserWithDepartment | undefined> {
  return selectUsersWithDepartment(db).where('u.id', '=', id).executeTakeFirst();
}

/** Number of rows deleted (0 when the user did not exist); the user's sessions go with it (FK cascade). */
export async function deleteUserRow(db: Executor, id: number): Promise<number> {
  const r = await db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** The role and grade of every account bound to a department. */
export function listDepartmentUserPrivileges(db: Executor, departmentId: number): Promise<{ role: string; grade: number }[]> {
  return db.selectFrom('users').select(['role', 'grade']).where('service_department_id', '=', departmentId).execute();
}

/** Unbinds every user of a department; returns how many were unbound. */
export async function unbindDepartmentUsers(db: Executor, departmentId: number, now: string): Promise<number> {
  const r = await db
    .updateTable('users')
    .set({ service_department_id: null, updated_at: now })
    .where('service_department_id', '=', departmentId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

import type { Executor } from '../../db/database.js';
import type { CurrentUser } from './current-user.js';

/** The current-user object for an active user id, with its department's region (one query). */
export async function loadCurrentUser(db: Executor, id: number): Promise<CurrentUser | null> {
  const row = await db
    .selectFrom('users as u')
    .leftJoin('service_departments as d', 'd.id', 'u.service_department_id')
    .select(['u.id', 'u.username', 'u.display_name', 'u.role', 'u.grade', 'u.service_department_id', 'u.is_active', 'u.must_change_password', 'd.region_id'])
    .where('u.id', '=', id)
    .executeTakeFirst();
  if (!row || !row.is_active) return null;
  return {
    id: row.id,
    username: row.username,
    display_name: row.display_name,
    role: row.role,
    grade: row.grade,
    department: row.service_department_id === null ? null : { id: String(row.service_department_id) },
    region_id: row.region_id ?? null,
    must_change_password: row.must_change_password === 1,
  };
}

import type { Executor } from '../../src/db/database.js';
import { nowIso } from '../../src/db/dialect.js';
import { hashPassword } from '../../src/modules/auth/password.js';

export async function createRegion(db: Executor, name: string, code: string | null = null): Promise<number> {
  const r = await db.insertInto('regions').values({ name, code, created_at: nowIso() }).returning('id').executeTakeFirstOrThrow();
  return r.id;
}

export async function createDepartment(
  db: Executor,
  v: { name: string; code: string; region_id?: number | null; parent_id?: number | null; grade?: number },
): Promise<number> {
  const now = nowIso();
  const r = await db
    .insertInto('service_departments')
    .values({
      name: v.name,
      code: v.code,
      phone: null,
      parent_id: v.parent_id ?? null,
      region_id: v.region_id ?? null,
      description: null,
      grade: v.grade ?? 0,
      unit_level: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function createUser(
  db: Executor,
  v: { username: string; password: string; role?: string; grade?: number; department_id?: number | null; active?: boolean; display_name?: string },
): Promise<number> {
  const now = nowIso();
  const r = await db
    .insertInto('users')
    .values({
      username: v.username,
      password_hash: await hashPassword(v.password),
      display_name: v.display_name ?? null,
      role: v.role ?? 'department_admin',
      grade: v.grade ?? 50,
      service_department_id: v.department_id ?? null,
      department_role: null,
      is_active: v.active === false ? 0 : 1,
      must_change_password: 0,
      created_at: now,
      updated_at: now,
      last_login_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

import type { Static } from '@sinclair/typebox';
import { recordIdText } from '../../http/record-id.js';
import type { DepartmentRef, User } from './accounts.openapi.js';
import type { UserWithDepartment } from './users.repository.js';

/** The short form embedded in a user and in child listings. */
export function presentDepartmentRef(d: { id: number; name: string; code: string; region_id: number | null }): Static<typeof DepartmentRef> {
  return { id: String(d.id), name: d.name, code: d.code, region_id: recordIdText(d.region_id) };
}

/** Who an account is and what it may do: how every shape of an account (a listed user, the current user) opens. */
export function presentAccountIdentity(u: { id: number; username: string; display_name: string | null; role: string; grade: number }) {
  return { id: String(u.id), username: u.username, display_name: u.display_name, role: u.role, grade: u.grade };
}

/** The API shape of a user account: ids as strings, booleans as booleans, never the password hash. */
export function presentUser(u: UserWithDepartment): Static<typeof User> {
  const department =
    u.service_department_id !== null && u.department_name !== null && u.department_code !== null
      ? presentDepartmentRef({ id: u.service_department_id, name: u.department_name, code: u.department_code, region_id: u.department_region_id })
      : null;
  return {
    ...presentAccountIdentity(u),
    service_department_id: recordIdText(u.service_department_id),
    department_role: u.department_role,
    is_active: u.is_active === 1,
    must_change_password: u.must_change_password === 1,
    department,
    created_at: u.created_at,
    updated_at: u.updated_at,
    last_login_at: u.last_login_at,
  };
}

export type UserPayload = Static<typeof User>;

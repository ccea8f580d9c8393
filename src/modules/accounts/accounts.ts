import type { Executor } from '../../db/database.js';
import { badRequest } from '../../http/errors.js';
import type { UsersTable } from './users.table.js';
import { findUserByUsername, insertUser, type UserRow } from './users.repository.js';

/** A new account, its password already hashed (hashing happens before any transaction opens). */
export type NewAccount = Pick<UsersTable, 'username' | 'password_hash' | 'display_name' | 'role' | 'grade' | 'service_department_id' | 'department_role'> & {
  must_change_password: boolean;
};

/**
 * The one way an account is added (user endpoint and department endpoint alike): a taken
 * username is a 400 with a clear message rather than a constraint error.
 */
export async function addAccount(db: Executor, a: NewAccount, now: string): Promise<UserRow> {
  if (await findUserByUsername(db, a.username)) throw badRequest(`用户名 ${a.username} 已存在`);
  return insertUser(db, {
    username: a.username,
    password_hash: a.password_hash,
    display_name: a.display_name,
    role: a.role,
    grade: a.grade,
    service_department_id: a.service_department_id,
    department_role: a.department_role,
    is_active: 1,
    must_change_password: a.must_change_password ? 1 : 0,
    created_at: now,
    updated_at: now,
    last_login_at: null,
  });
}

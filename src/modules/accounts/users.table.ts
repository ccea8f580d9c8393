import type { Generated } from 'kysely';

export interface UsersTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  display_name: string | null;
  role: string;
  grade: number;
  service_department_id: number | null;
  department_role: string | null;
  is_active: number;
  must_change_password: number;
  created_at: string;
  updated_at: string;
  last_login_at: string | null;
}

export interface Tables {
  users: UsersTable;
}

import { Type } from '@sinclair/typebox';
import { badRequest } from '../../http/errors.js';
import { readNullableString, readString, type Input } from '../../http/readers.js';
import { Flag, Scalar, Text } from '../../http/body-fields.js';
import { givenFields } from '../../http/partial-update.js';
import { readPassword } from '../auth/password-input.js';
import { checkRole, DEFAULT_ROLE, DEFAULT_USER_GRADE, readGrade, readStrictFlag } from './users.rules.js';

const accountFields = {
  password: Text(256, 'Password (stored hashed); required on creation.'),
  display_name: Text(100, 'Display name; on creation also the name of an auto-created department (else the username).'),
  role: Text(32, '`admin` or `department_admin` (default on creation).'),
  grade: Scalar(16, 'Integer 0–100 (default 50 on creation); 100 super administrator, 90 and above see all regions.'),
  service_department_id: Scalar(20, 'Bound department. Blank on creation: a department is created or reused; blank on update: the binding is cleared.'),
  department_role: Text(32, 'Role within the department, e.g. `admin`.'),
  must_change_password: Flag('Whether the user must change its password at next login (true, false, 1, 0).'),
};

export const CreateUserBody = Type.Object(
  {
    ...accountFields,
    username: Text(64, 'Required; trimmed and lower-cased; 2–64 letters, digits, Chinese characters or . _ - @; unique.'),
    parent_department_id: Scalar(20, 'Parent of an auto-created department.'),
    region_id: Scalar(100, 'Region of an auto-created department (id, code or name); inherited from the parent when blank.'),
    department_phone: Text(50, 'Phone of an auto-created department.'),
  },
  { additionalProperties: false },
);

export const UpdateUserBody = Type.Object(
  { ...accountFields, is_active: Flag('Active or not (an inactive account cannot log in).') },
  { additionalProperties: false },
);

export interface CreateUserInput {
  username: string;
  password: string;
  display_name: string | null;
  role: string;
  grade: number;
  /** Given: bind to it. Absent: a department is created (or reused) from the fields below. */
  service_department_id?: string;
  parent_department_id?: string;
  region_id?: string;
  department_phone: string | null;
  department_role: string | null;
  must_change_password: boolean;
}

/** POST /admin/users, checked in the order the messages are most useful (blank credentials first). */
export function readCreateUserInput(body: Input): CreateUserInput {
  const username = readString(body, 'username');
  const password = readPassword(body, 'password');
  if (!username || !password) throw badRequest('用户名和密码均不能为空');
  return {
    username,
    password,
    display_name: readString(body, 'display_name') ?? null,
    role: checkRole(readString(body, 'role') ?? DEFAULT_ROLE),
    grade: readGrade(body) ?? DEFAULT_USER_GRADE,
    service_department_id: readString(body, 'service_department_id'),
    parent_department_id: readString(body, 'parent_department_id'),
    region_id: readString(body, 'region_id'),
    department_phone: readString(body, 'department_phone') ?? null,
    department_role: readString(body, 'department_role') ?? null,
    must_change_password: readStrictFlag(body, 'must_change_password') ?? false,
  };
}

/** PATCH /admin/users/<id>: only what was given; `null` clears (department binding, names). */
export interface UpdateUserInput {
  password?: string;
  service_department_id?: string | null;
  display_name?: string | null;
  role?: string;
  grade?: number;
  department_role?: string | null;
  is_active?: boolean;
  must_change_password?: boolean;
}

export function readUpdateUserInput(body: Input): UpdateUserInput {
  const role = readString(body, 'role');
  const input: UpdateUserInput = {
    password: readPassword(body, 'password'),
    service_department_id: readNullableString(body, 'service_department_id'),
    display_name: readNullableString(body, 'display_name'),
    role: role === undefined ? undefined : checkRole(role),
    grade: readGrade(body),
    department_role: readNullableString(body, 'department_role'),
    is_active: readStrictFlag(body, 'is_active'),
    must_change_password: readStrictFlag(body, 'must_change_password'),
  };
  return givenFields(input);
}

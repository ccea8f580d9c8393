import { Type } from '@sinclair/typebox';
import { Component, Id, Nullable, Timestamp } from '../../http/openapi/shapes.js';

// How an account is shown, with its department in short: the users' list, a department's new
// account and the current user all show accounts, so the shapes live with them.

export const refFields = { id: Id(), name: Type.String(), code: Type.String({ description: 'Upper-case code.' }), region_id: Nullable(Id()) };

/** The short form of a department embedded in a user. */
export const DepartmentRef = Component('DepartmentRef', 'A service department, in short.', refFields);

/** What every view of an account shows (the user list and the current user). */
export const accountFields = {
  id: Id(),
  username: Type.String(),
  display_name: Nullable(Type.String()),
  role: Type.String({ description: '`admin` or `department_admin`.' }),
  grade: Type.Integer({ description: '0–100; 100 super administrator, 90 and above see all regions.' }),
};

/** A user account (presentUser): never its password. */
export const User = Component('User', 'A user account.', {
  ...accountFields,
  service_department_id: Nullable(Id(), 'The bound department.'),
  department_role: Nullable(Type.String()),
  is_active: Type.Boolean(),
  must_change_password: Type.Boolean(),
  department: Nullable(DepartmentRef, 'The bound department, in short.'),
  created_at: Timestamp(),
  updated_at: Timestamp(),
  last_login_at: Nullable(Timestamp()),
});

import { Type, type Static } from '@sinclair/typebox';
import { Id, Nullable, Shape, Timestamp } from '../../http/openapi/shapes.js';
import { refFields } from '../accounts/accounts.openapi.js';
import type { DepartmentRow } from './departments.repository.js';

// The shapes below are the OpenAPI description of what these presenters return (a user embeds a
// department in short: DepartmentRef, with the accounts).

export const unitLevel = Type.String({ description: '`unit` when empty.' });

export const departmentFields = {
  ...refFields,
  phone: Nullable(Type.String()),
  parent_id: Nullable(Id(), 'The parent department (forms the tree).'),
  description: Nullable(Type.String()),
  grade: Type.Integer({ description: 'Permission grade 0–100.' }),
  unit_level: unitLevel,
  created_at: Timestamp(),
  updated_at: Timestamp(),
};

/** A service department (interface 2.1). */
export const Department = Shape(departmentFields, { $id: 'Department', description: 'A service department.' });

const idText = (id: number | null): string | null => (id === null ? null : String(id));

/** The API shape of a service department (interface 2.1); `unit_level` is `unit` when empty. */
export function presentDepartment(d: DepartmentRow): Static<typeof Department> {
  return {
    id: String(d.id),
    name: d.name,
    code: d.code,
    phone: d.phone,
    parent_id: idText(d.parent_id),
    region_id: idText(d.region_id),
    description: d.description,
    grade: d.grade,
    unit_level: d.unit_level || 'unit',
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

export type DepartmentPayload = Static<typeof Department>;

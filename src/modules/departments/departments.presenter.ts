import { Type, type Static } from '@sinclair/typebox';
import { Id, Nullable, Shape, Timestamp } from '../../http/openapi/shapes.js';
import type { DepartmentRow } from './departments.repository.js';

// The shapes below are the OpenAPI description of what these presenters return (users embed them too).

export const refFields = {
  id: Id(),
  name: Type.String(),
  code: Type.String({ description: 'Upper-case code.' }),
  region_id: Nullable(Id()),
};

/** The short form of a department embedded in a user. */
export const DepartmentRef = Shape(refFields, { $id: 'DepartmentRef', description: 'A service department, in short.' });

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

/** The short form embedded in a user and in child listings. */
export function presentDepartmentRef(d: { id: number; name: string; code: string; region_id: number | null }): Static<typeof DepartmentRef> {
  return { id: String(d.id), name: d.name, code: d.code, region_id: idText(d.region_id) };
}

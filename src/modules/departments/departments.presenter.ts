import type { DepartmentRow } from './departments.repository.js';

const idText = (id: number | null): string | null => (id === null ? null : String(id));

/** The API shape of a service department (interface 2.1); `unit_level` is `unit` when empty. */
export function presentDepartment(d: DepartmentRow) {
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

export type DepartmentPayload = ReturnType<typeof presentDepartment>;

/** The short form embedded in a user and in child listings. */
export function presentDepartmentRef(d: { id: number; name: string; code: string; region_id: number | null }) {
  return { id: String(d.id), name: d.name, code: d.code, region_id: idText(d.region_id) };
}

import { Type, type Static } from '@sinclair/typebox';
import { Component, Id, Nullable, Timestamp } from '../../http/openapi/shapes.js';
import { recordIdText } from '../../http/record-id.js';
import { refFields } from '../accounts/accounts.openapi.js';
import { presentDepartmentRef } from '../accounts/accounts.presenter.js';
import type { TreeNode } from './department-tree.js';
import type { ChildUnit, DepartmentListItem, DepartmentTreeNode } from './departments.openapi.js';
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

/** A service department. */
export const Department = Component('Department', 'A service department.', departmentFields);

/** A department that never had a level set is a unit. */
const unitLevelOf = (d: Pick<DepartmentRow, 'unit_level'>): string => d.unit_level || 'unit';

/** The API shape of a service department; `unit_level` is `unit` when empty. */
export function presentDepartment(d: DepartmentRow): Static<typeof Department> {
  return {
    id: String(d.id),
    name: d.name,
    code: d.code,
    phone: d.phone,
    parent_id: recordIdText(d.parent_id),
    region_id: recordIdText(d.region_id),
    description: d.description,
    grade: d.grade,
    unit_level: unitLevelOf(d),
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

export type DepartmentPayload = Static<typeof Department>;

/** A department of the flat list, with its depth in the tree (1 for a root). */
export function presentListedDepartment(d: DepartmentRow, depth: number): Static<typeof DepartmentListItem> {
  return { ...presentDepartment(d), depth };
}

/** A department of the tree, with its children below it. */
export function presentDepartmentNode(node: TreeNode<DepartmentRow>, depth: number): Static<typeof DepartmentTreeNode> {
  return { ...presentDepartment(node.item), depth, children: node.children.map((c) => presentDepartmentNode(c, depth + 1)) };
}

/** A direct child of a department: the short form and its level. */
export function presentChildUnit(d: DepartmentRow): Static<typeof ChildUnit> {
  return { ...presentDepartmentRef(d), unit_level: unitLevelOf(d) };
}

import type { Static } from '@sinclair/typebox';
import type { CreatedDepartment, DepartmentTreeNode, UpdatedDepartment } from '../../../src/modules/departments/departments.openapi.ts';
import type { Department } from '../../../src/modules/departments/departments.presenter.ts';
import type { CreateDepartmentBody, UpdateDepartmentBody } from '../../../src/modules/departments/departments.schema.ts';
import { api, type CallOptions } from '../shared/api';

export type DepartmentPayload = Static<typeof Department>;
export type DepartmentNodePayload = Static<typeof DepartmentTreeNode>;

const departmentPath = (id: string) => `/admin/service-departments/${encodeURIComponent(id)}`;

/** The department tree (administrators only). */
export const fetchDepartmentTree = async (opts: { silent?: boolean } = {}) =>
  (await api.get<{ tree: DepartmentNodePayload[] }>('/admin/service-departments/tree', undefined, opts)).tree;

/** A new department with its administrator account and that account's one-time initial password. */
export const createDepartment = (body: Static<typeof CreateDepartmentBody>) => api.post<Static<typeof CreatedDepartment>>('/admin/service-departments', body);

/** Only the fields given change; the answer's message says which did. */
export const updateDepartment = (id: string, body: Static<typeof UpdateDepartmentBody>) =>
  api.patch<Static<typeof UpdatedDepartment>>(departmentPath(id), body);

/** `force` unbinds the department's accounts first; without it a department with accounts is refused (HAS_BOUND_USERS). */
export const deleteDepartment = (id: string, force: boolean, opts?: CallOptions) => api.delete(departmentPath(id), force ? { force: true } : undefined, opts);

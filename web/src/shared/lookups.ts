import { api } from './api';
import type { DepartmentNode, Region, ThemeRef, User } from './types';

export interface RegionWithUsage extends Region {
  permit_count: number;
  department_count: number;
}

export interface FilterOptions {
  regions: Region[];
  themes: ThemeRef[];
  departments: { id: string; name: string; permit_count: number }[];
}

/** The regions the user may see, with what uses each (GET /admin/regions). */
export async function fetchRegions(): Promise<RegionWithUsage[]> {
  return (await api.get<{ regions: RegionWithUsage[] }>('/admin/regions')).regions;
}

/** What the advanced filter can choose from (GET /admin/permits/filter-options). */
export function fetchFilterOptions(regionId?: string): Promise<FilterOptions> {
  return api.get<FilterOptions>('/admin/permits/filter-options', { region_id: regionId });
}

/** The department tree (GET /admin/service-departments/tree, admin only). */
export async function fetchDepartmentTree(opts: { silent?: boolean } = {}): Promise<DepartmentNode[]> {
  return (await api.get<{ tree: DepartmentNode[] }>('/admin/service-departments/tree', undefined, opts)).tree;
}

export async function fetchUsers(includeInactive = true): Promise<User[]> {
  return (await api.get<{ users: User[] }>('/admin/users', { include_inactive: includeInactive })).users;
}

/** `{value, label, children}` for tree selects, each department labelled with its code. */
export interface DepartmentOption {
  value: string;
  label: string;
  disabled?: boolean;
  children?: DepartmentOption[];
}

export function departmentOptions(nodes: DepartmentNode[], disabledId?: string): DepartmentOption[] {
  return nodes.map((n) => ({
    value: n.id,
    label: `${n.name}（${n.code}）`,
    disabled: n.id === disabledId,
    // A department cannot move below itself or its own descendants.
    children: n.children.length ? departmentOptions(n.children, n.id === disabledId ? n.id : disabledId).map((c) => (n.id === disabledId ? { ...c, disabled: true } : c)) : undefined,
  }));
}

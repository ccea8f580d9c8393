import type { DepartmentNode } from './types';

// The look-ups several views share: regions, filter options, departments and users.
export { fetchRegions, type RegionWithUsagePayload as RegionWithUsage } from '../api/regions';
export { fetchFilterOptions, type FilterOptionsPayload as FilterOptions } from '../api/permits';
export { fetchDepartmentTree } from '../api/departments';
export { fetchUsers } from '../api/users';

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
    children: n.children.length
      ? departmentOptions(n.children, n.id === disabledId ? n.id : disabledId).map((c) => (n.id === disabledId ? { ...c, disabled: true } : c))
      : undefined,
  }));
}

import type { DepartmentRow } from './departments.repository.js';

/**
 * Grade of a department by its depth in the tree: root 90, second level 80,
 * third 70, fourth or deeper 60. Used for departments the user endpoint creates on its own.
 */
export function gradeForDepth(depth: number): number {
  if (depth <= 1) return 90;
  if (depth === 2) return 80;
  if (depth === 3) return 70;
  return 60;
}

/** Names in code-point order: the same on SQLite and on PostgreSQL whatever its collation. */
export function byName<T extends { name: string }>(a: T, b: T): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Depth of every department (root = 1). A department caught in a cycle counts from where the cycle closes. */
export function depthsOf(rows: DepartmentRow[]): Map<number, number> {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const depth = new Map<number, number>();
  const walk = (id: number, seen: Set<number>): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    const row = byId.get(id);
    const parent = row?.parent_id ?? null;
    seen.add(id);
    const d = parent === null || !byId.has(parent) || seen.has(parent) ? 1 : walk(parent, seen) + 1;
    depth.set(id, d);
    return d;
  };
  for (const r of rows) walk(r.id, new Set());
  return depth;
}

export interface TreeNode<T> {
  item: T;
  children: TreeNode<T>[];
}

/**
 * Nests departments under their parents, children ordered by name. Every row appears exactly
 * once: rows whose parent is missing, or that sit in a cycle, are placed at the top level.
 */
export function nestDepartments(rows: DepartmentRow[]): TreeNode<DepartmentRow>[] {
  const sorted = [...rows].sort(byName);
  const childrenOf = new Map<number | null, DepartmentRow[]>();
  const ids = new Set(rows.map((r) => r.id));
  for (const r of sorted) {
    const key = r.parent_id !== null && ids.has(r.parent_id) ? r.parent_id : null;
    const list = childrenOf.get(key);
    if (list) list.push(r);
    else childrenOf.set(key, [r]);
  }
  const placed = new Set<number>();
  const build = (r: DepartmentRow): TreeNode<DepartmentRow> => {
    placed.add(r.id);
    const kids = (childrenOf.get(r.id) ?? []).filter((c) => !placed.has(c.id));
    return { item: r, children: kids.map(build) };
  };
  const roots = (childrenOf.get(null) ?? []).map(build);
  for (const r of sorted) if (!placed.has(r.id)) roots.push(build(r));
  return roots;
}

import type { Executor } from '../../db/database.js';
import { badRequest } from '../../http/errors.js';
import { parseRecordId } from '../../http/record-id.js';
import { findRegionByToken } from '../regions/regions.repository.js';
import { ancestorChain, findDepartmentByCode, findDepartmentById, findDepartmentByName, type DepartmentRow } from './departments.repository.js';

/** Where a department sits: its parent and its region (inherited from the parent when none is given). */
export interface Placement {
  parent: DepartmentRow | null;
  regionId: number | null;
  /** Depth the department will have (root = 1). */
  depth: number;
}

export async function findParentDepartment(db: Executor, token: string): Promise<DepartmentRow> {
  const id = parseRecordId(token);
  const parent = id === null ? undefined : await findDepartmentById(db, id);
  if (!parent) throw badRequest('上级部门不存在');
  return parent;
}

/** A region named by id, code or name; unknown is a 400. */
export async function findRegionId(db: Executor, token: string): Promise<number> {
  const region = await findRegionByToken(db, token);
  if (!region) throw badRequest(`区域不存在：${token}`);
  return region.id;
}

export async function resolvePlacement(db: Executor, parentToken?: string, regionToken?: string): Promise<Placement> {
  const parent = parentToken ? await findParentDepartment(db, parentToken) : null;
  const regionId = regionToken ? await findRegionId(db, regionToken) : (parent?.region_id ?? null);
  const depth = parent ? (await ancestorChain(db, parent.id)).length + 1 : 1;
  return { parent, regionId, depth };
}

/** Code and name are each unique; say which one is taken instead of a bare constraint error. */
export async function assertNewDepartmentFree(db: Executor, code: string, name: string): Promise<void> {
  if (await findDepartmentByCode(db, code)) throw badRequest(`部门编码 ${code} 已存在`);
  await assertNameFree(db, name, null);
}

export async function assertNameFree(db: Executor, name: string, exceptId: number | null): Promise<void> {
  const other = await findDepartmentByName(db, name);
  if (other && other.id !== exceptId) throw badRequest(`服务部门名称 ${name} 已存在`);
}

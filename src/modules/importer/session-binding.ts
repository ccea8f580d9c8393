import type { Executor } from '../../db/database.js';
import { badRequest, forbidden } from '../../http/errors.js';
import { parseRecordId } from '../../http/record-id.js';
import type { CurrentUser } from '../auth/current-user.js';
import { ALL_REGIONS_GRADE } from '../auth/data-scope.js';
import { findDepartmentById } from '../departments/departments.repository.js';

export type BindingMode = 'auto' | 'department';

/** Where rows without a region go: `department` binds the session to one department's region. */
export interface Binding {
  mode: BindingMode;
  departmentId: number | null;
}

const BAD_MODE = 'binding_mode 只能是 auto 或 department';

function departmentIdOf(raw: string | undefined): number | null {
  if (raw === undefined || raw.trim() === '') return null;
  const id = parseRecordId(raw);
  if (id === null) throw badRequest(`部门不存在：${raw.trim()}`);
  return id;
}

/**
 * The binding an upload asks for (form fields `binding_mode`, `department_id`). Below grade 90
 * a session is always bound to the user's own department, so its rows land in the user's region.
 */
export async function uploadBinding(db: Executor, user: CurrentUser, fields: Record<string, string>): Promise<Binding> {
  const rawMode = (fields.binding_mode ?? '').trim().toLowerCase();
  if (rawMode !== '' && rawMode !== 'auto' && rawMode !== 'department') throw badRequest(BAD_MODE);
  const departmentId = departmentIdOf(fields.department_id);
  if (user.grade < ALL_REGIONS_GRADE) {
    const own = user.department ? Number(user.department.id) : null;
    if (departmentId !== null && departmentId !== own) throw forbidden('只能绑定本账号所属的部门');
    return own === null ? { mode: 'auto', departmentId: null } : { mode: 'department', departmentId: own };
  }
  if (rawMode !== 'department') return { mode: 'auto', departmentId: null };
  if (departmentId === null) throw badRequest('binding_mode 为 department 时必须提供 department_id');
  if (!(await findDepartmentById(db, departmentId))) throw badRequest(`部门不存在：${departmentId}`);
  return { mode: 'department', departmentId };
}

/** A re-import: role `admin` re-imports unbound; anyone else into its own department, which it must have. */
export function reimportBinding(user: CurrentUser): Binding {
  if (user.role === 'admin') return { mode: 'auto', departmentId: null };
  if (!user.department) throw forbidden('该账号未绑定服务部门,无法执行重新导入');
  return { mode: 'department', departmentId: Number(user.department.id) };
}

import type { Static } from '@sinclair/typebox';
import type { Updateable } from 'kysely';
import type { AppContext } from '../../context.js';
import { nowIso } from '../../db/dialect.js';
import { badRequest, notFound } from '../../http/errors.js';
import { parseRecordId } from '../../http/record-id.js';
import type { CurrentUser } from '../auth/current-user.js';
import { assertMayGrant, assertMayManage } from '../auth/privilege-ceiling.js';
import { listDepartmentUserPrivileges, unbindDepartmentUsers } from '../accounts/users.repository.js';
import { assertNameFree, findParentDepartment, findRegionId } from './department-placement.js';
import { ancestorChain, countChildren, deleteDepartmentRow, findDepartmentById, updateDepartmentRow } from './departments.repository.js';
import { presentDepartment } from './departments.presenter.js';
import type { UpdateDepartmentInput } from './departments.schema.js';
import type { DeletedDepartment as DeletedDepartmentSchema, UpdatedDepartment as UpdatedDepartmentSchema } from './departments.openapi.js';
import type { ServiceDepartmentsTable } from './departments.table.js';

const NOT_FOUND = '服务部门不存在';

export type UpdatedDepartment = Static<typeof UpdatedDepartmentSchema>;

/** The rules of a department change, plus refusing a parent below the department itself (a cycle). */
export async function updateDepartment(ctx: AppContext, actor: CurrentUser, rawId: string, input: UpdateDepartmentInput): Promise<UpdatedDepartment> {
  if (input.parent_id && input.parent_id === rawId.trim()) throw badRequest('部门不能设置为自己的下级');
  const id = parseRecordId(rawId);
  if (id === null) throw notFound(NOT_FOUND);
  const now = nowIso(ctx.now);
  return ctx.db.transaction().execute(async (trx) => {
    const before = await findDepartmentById(trx, id);
    if (!before) throw notFound(NOT_FOUND);
    const patch: Updateable<ServiceDepartmentsTable> = { updated_at: now };
    if (input.name !== undefined) {
      if (input.name === null) throw badRequest('服务部门名称不能为空');
      await assertNameFree(trx, input.name, id);
      patch.name = input.name;
    }
    if (input.parent_id !== undefined) {
      const parent = input.parent_id === null ? null : await findParentDepartment(trx, input.parent_id);
      if (parent?.id === id) throw badRequest('部门不能设置为自己的下级');
      if (parent && (await ancestorChain(trx, parent.id)).some((d) => d.id === id)) {
        throw badRequest('部门不能设置为自己下级部门的下级（会形成循环）');
      }
      patch.parent_id = parent?.id ?? null;
    }
    if (input.region_id !== undefined) patch.region_id = input.region_id === null ? null : await findRegionId(trx, input.region_id);
    if (input.phone !== undefined) patch.phone = input.phone;
    if (input.description !== undefined) patch.description = input.description;
    if (input.grade !== undefined && input.grade !== before.grade) {
      assertMayGrant(actor, { grade: input.grade });
      patch.grade = input.grade;
    }
    await updateDepartmentRow(trx, id, patch);
    const after = (await findDepartmentById(trx, id))!;
    const message =
      after.parent_id !== before.parent_id ? '层级关系已更新' : after.grade !== before.grade ? `权限等级已更新为${after.grade}` : '部门信息已更新';
    return { department: presentDepartment(after), message };
  });
}

export type DeletedDepartment = Static<typeof DeletedDepartmentSchema>;

/**
 * The rules of a department deletion: refused (400) for an unknown department, one with children, or
 * one with bound accounts unless `force`, which unbinds them first.
 */
export async function deleteDepartment(ctx: AppContext, actor: CurrentUser, rawId: string, force: boolean): Promise<DeletedDepartment> {
  const id = parseRecordId(rawId);
  if (id === null) throw badRequest(NOT_FOUND);
  return ctx.db.transaction().execute(async (trx) => {
    const dept = await findDepartmentById(trx, id);
    if (!dept) throw badRequest(NOT_FOUND);
    const children = await countChildren(trx, id);
    if (children > 0) throw badRequest(`该部门下还有 ${children} 个下级部门，请先删除或移走下级部门`);
    const accounts = await listDepartmentUserPrivileges(trx, id);
    const bound = accounts.length;
    if (bound > 0 && !force) {
      throw badRequest(`该部门仍绑定 ${bound} 个账号，请先解绑，或使用强制删除（force=true）`, { code: 'HAS_BOUND_USERS' });
    }
    // Unbinding changes each account: the actor must be allowed to change every one of them.
    for (const account of accounts) assertMayManage(actor, account);
    const unbound = bound > 0 ? await unbindDepartmentUsers(trx, id, nowIso(ctx.now)) : 0;
    const deleted = (await deleteDepartmentRow(trx, id)) > 0;
    if (!deleted) throw badRequest('部门删除失败');
    return { deleted, department: presentDepartment(dept), unbound_users: unbound };
  });
}

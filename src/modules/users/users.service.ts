import type { Updateable } from 'kysely';
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { nowIso } from '../../db/dialect.js';
import { badRequest, notFound } from '../../http/errors.js';
import { parseRecordId } from '../../http/record-id.js';
import { sessionIdOf } from '../auth/auth.service.js';
import type { Actor } from '../auth/actor.js';
import { forgetChangedInitialPassword } from '../auth/bootstrap-admin.js';
import { hashPassword } from '../auth/password.js';
import { assertPasswordPolicy } from '../auth/password-policy.js';
import { assertMayGrant, assertMayManage, assertNotOwnPrivileges } from '../auth/privilege-ceiling.js';
import { presentDepartment, type DepartmentPayload } from '../departments/departments.presenter.js';
import { findDepartmentById } from '../departments/departments.repository.js';
import { departmentForNewUser } from '../departments/departments.service.js';
import { deleteUserSessions } from '../sessions/sessions.repository.js';
import { addAccount } from '../accounts/accounts.js';
import { presentUser, type UserPayload } from '../accounts/accounts.presenter.js';
import {
  countActiveAdmins,
  deleteUserRow,
  findUserById,
  findUserByUsername,
  findUserWithDepartment,
  listUsersWithDepartment,
  updateUser as updateUserRow,
  type UserRow,
} from '../accounts/users.repository.js';
import { normalizeUsername } from '../accounts/username.js';
import type { CreateUserInput, UpdateUserInput } from './users.schema.js';
import type { UsersTable } from '../accounts/users.table.js';

const NOT_FOUND = '用户不存在';

export async function listUsers(db: Executor, includeInactive: boolean): Promise<UserPayload[]> {
  return (await listUsersWithDepartment(db, { includeInactive })).map(presentUser);
}

async function loadUser(db: Executor, id: number): Promise<UserPayload> {
  const row = await findUserWithDepartment(db, id);
  if (!row) throw notFound(NOT_FOUND);
  return presentUser(row);
}

async function boundDepartment(db: Executor, token: string): Promise<number> {
  const id = parseRecordId(token);
  if (id === null || !(await findDepartmentById(db, id))) throw badRequest(`服务部门不存在：${token}`);
  return id;
}

export interface CreatedUser {
  user: UserPayload;
  department: DepartmentPayload | null;
}

/** POST /admin/users: the account, bound to the named department or to one created (or reused) for it. */
export async function createUser(ctx: AppContext, actor: Actor, input: CreateUserInput): Promise<CreatedUser> {
  assertMayGrant(actor.user, { role: input.role, grade: input.grade });
  const username = normalizeUsername(input.username);
  const passwordHash = await hashPassword(input.password);
  const now = nowIso(ctx.now);
  const created = await ctx.db.transaction().execute(async (trx) => {
    if (await findUserByUsername(trx, username)) throw badRequest(`用户名 ${username} 已存在`);
    const department = input.service_department_id
      ? null
      : await departmentForNewUser(
          trx,
          { username, name: input.display_name ?? username, parent: input.parent_department_id, region: input.region_id, phone: input.department_phone },
          now,
        );
    const departmentId = department?.id ?? (await boundDepartment(trx, input.service_department_id!));
    // Last of the checks: a request wrong in several ways is told of its other mistakes first.
    assertPasswordPolicy(input.password, input.role === 'admin');
    const row = await addAccount(
      trx,
      {
        username,
        password_hash: passwordHash,
        display_name: input.display_name,
        role: input.role,
        grade: input.grade,
        service_department_id: departmentId,
        department_role: input.department_role,
        must_change_password: input.must_change_password,
      },
      now,
    );
    return { id: row.id, department };
  });
  return { user: await loadUser(ctx.db, created.id), department: created.department ? presentDepartment(created.department) : null };
}

/** The last active administrator keeps the service administrable: it is never removed, demoted or deactivated. */
async function assertNotLastAdmin(db: Executor, target: UserRow, action: string): Promise<void> {
  if (target.role !== 'admin' || target.is_active !== 1) return;
  if ((await countActiveAdmins(db)) <= 1) throw badRequest(`不能${action}最后一个启用的超级管理员账号`);
}

/**
 * Every rule a PATCH must pass, in this order: oneself; whom the actor may change (403); the last
 * administrator (400, as the interface words it when an administrator attempts it); what the
 * actor may give and its own role and grade (403). Run before the password is hashed and again
 * inside the transaction.
 */
async function assertPatchAllowed(db: Executor, actor: Actor, target: UserRow, input: UpdateUserInput): Promise<void> {
  if (input.is_active === false && target.id === actor.user.id) throw badRequest('不能停用当前登录的账号');
  assertMayManage(actor.user, target);
  if (input.role !== undefined && input.role !== 'admin') await assertNotLastAdmin(db, target, '降级');
  if (input.is_active === false) await assertNotLastAdmin(db, target, '停用');
  assertMayGrant(actor.user, { role: input.role, grade: input.grade });
  assertNotOwnPrivileges(actor.user, target.id, target, { role: input.role, grade: input.grade });
  if (input.password !== undefined) assertPasswordPolicy(input.password, (input.role ?? target.role) === 'admin');
}

/** PATCH /admin/users/<id>: any of the given fields, once every rule passed. */
export async function updateUser(ctx: AppContext, actor: Actor, rawId: string, input: UpdateUserInput): Promise<UserPayload> {
  const id = parseRecordId(rawId);
  const existing = id === null ? undefined : await findUserById(ctx.db, id);
  if (id === null || !existing) throw notFound(NOT_FOUND);
  await assertPatchAllowed(ctx.db, actor, existing, input);
  const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password);
  const self = id === actor.user.id;
  await ctx.db.transaction().execute(async (trx) => {
    const target = await findUserById(trx, id);
    if (!target) throw notFound(NOT_FOUND);
    await assertPatchAllowed(trx, actor, target, input); // the account may have changed meanwhile
    const patch: Updateable<UsersTable> = { updated_at: nowIso(ctx.now) };
    if (passwordHash !== undefined) patch.password_hash = passwordHash;
    if (input.service_department_id !== undefined) {
      patch.service_department_id = input.service_department_id === null ? null : await boundDepartment(trx, input.service_department_id);
    }
    if (input.display_name !== undefined) patch.display_name = input.display_name;
    if (input.role !== undefined) patch.role = input.role;
    if (input.grade !== undefined) patch.grade = input.grade;
    if (input.department_role !== undefined) patch.department_role = input.department_role;
    if (input.is_active !== undefined) patch.is_active = input.is_active ? 1 : 0;
    if (input.must_change_password !== undefined) patch.must_change_password = input.must_change_password ? 1 : 0;
    await updateUserRow(trx, id, patch);
    // A new password or a deactivation ends the user's sessions (the actor's own current one survives).
    if (passwordHash !== undefined || input.is_active === false) {
      await deleteUserSessions(trx, id, self && actor.sessionToken ? sessionIdOf(actor.sessionToken) : undefined);
    }
  });
  if (passwordHash !== undefined) await forgetChangedInitialPassword(ctx);
  return loadUser(ctx.db, id);
}

/** DELETE /admin/users/<id>: never oneself (it would end the session mid-work), never the last administrator. */
export async function deleteUser(ctx: AppContext, actor: Actor, rawId: string): Promise<UserRow> {
  const id = parseRecordId(rawId);
  if (id === null) throw notFound(NOT_FOUND);
  return ctx.db.transaction().execute(async (trx) => {
    const target = await findUserById(trx, id);
    if (!target) throw notFound(NOT_FOUND);
    if (id === actor.user.id) throw badRequest('不能删除当前登录的账号');
    assertMayManage(actor.user, target);
    await assertNotLastAdmin(trx, target, '删除');
    await deleteUserRow(trx, id);
    return target;
  });
}

/** Readable list of what a PATCH changed, for the operation log (never the password itself). */
export function describeUserChanges(input: UpdateUserInput): string {
  const parts: string[] = [];
  if (input.password !== undefined) parts.push('重置密码');
  if (input.service_department_id !== undefined) {
    parts.push(input.service_department_id === null ? '解除部门绑定' : `绑定部门 ${input.service_department_id}`);
  }
  if (input.display_name !== undefined) parts.push(`显示名称改为 ${input.display_name ?? '（空）'}`);
  if (input.role !== undefined) parts.push(`角色改为 ${input.role}`);
  if (input.grade !== undefined) parts.push(`权限等级改为 ${input.grade}`);
  if (input.department_role !== undefined) parts.push(`部门角色改为 ${input.department_role ?? '（空）'}`);
  if (input.is_active !== undefined) parts.push(input.is_active ? '启用账号' : '停用账号');
  if (input.must_change_password !== undefined) parts.push(input.must_change_password ? '要求下次登录修改密码' : '取消强制修改密码');
  return parts.join('、');
}

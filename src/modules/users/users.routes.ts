import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { adminChange } from '../../http/guards.js';
import { asInput, readFlag } from '../../http/readers.js';
import { CreateUserBody, readCreateUserInput, readUpdateUserInput, UpdateUserBody } from './users.schema.js';
import { userDocs } from './users.openapi.js';
import { actorOf } from '../auth/actor.js';
import { createUser, deleteUser, describeUserChanges, listUsers, updateUser } from './users.service.js';

const operation = adminChange('user');

type WithUserId = FastifyRequest<{ Params: { user_id: string } }>;

/** Users: admin guard, JSON errors, every change in the operation log. */
export function registerUsersRoutes(app: FastifyInstance, ctx: AppContext): void {
  const base = `${ctx.config.apiRoot}/admin/users`;

  app.get(base, { config: { guard: 'admin', doc: userDocs.list } }, async (req) => {
    const users = await listUsers(ctx.db, readFlag(asInput(req.query), 'include_inactive', true));
    return { success: true, data: { users } };
  });

  app.post(base, { schema: { body: CreateUserBody }, config: operation('create', '创建用户', userDocs.create) }, async (req) => {
    const input = readCreateUserInput(asInput(req.body));
    req.operation.targetName = input.username.toLowerCase();
    const result = await createUser(ctx, actorOf(req), input);
    req.operation.targetId = result.user.id;
    req.operation.summary = result.department
      ? `创建用户 ${result.user.username}，所属部门 ${result.department.name}（编码 ${result.department.code}）`
      : `创建用户 ${result.user.username}`;
    return { success: true, message: '用户已创建', data: result };
  });

  app.patch(`${base}/:user_id`, { schema: { body: UpdateUserBody }, config: operation('update', '修改用户', userDocs.update) }, async (req: WithUserId) => {
    req.operation.targetId = req.params.user_id;
    const input = readUpdateUserInput(asInput(req.body));
    const user = await updateUser(ctx, actorOf(req), req.params.user_id, input);
    req.operation.targetName = user.username;
    req.operation.summary = `修改用户 ${user.username}：${describeUserChanges(input)}`;
    return { success: true, message: '用户已更新', data: { user } };
  });

  app.delete(`${base}/:user_id`, { config: operation('delete', '删除用户', userDocs.remove) }, async (req: WithUserId) => {
    req.operation.targetId = req.params.user_id;
    const removed = await deleteUser(ctx, actorOf(req), req.params.user_id);
    req.operation.targetName = removed.username;
    req.operation.summary = `删除用户 ${removed.username}`;
    return { success: true, message: '用户已删除' };
  });
}

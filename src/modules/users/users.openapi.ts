import { Type } from '@sinclair/typebox';
import { failure, fields, FORM_OR_JSON, json, ok, okBody, pathParams, routeDocs } from '../../http/openapi/route-doc.js';
import { Nullable, Shape } from '../../http/openapi/shapes.js';
import { User } from '../accounts/accounts.openapi.js';
import { Department } from '../departments/departments.presenter.js';

const params = pathParams({ user_id: 'The user id.' });

export const userDocs = routeDocs('users', {
  list: {
    summary: 'User accounts',
    querystring: fields({
      include_inactive: Type.Optional(Type.String({ default: 'true', description: 'Include inactive accounts: one of 1, true, yes, on; default true.' })),
    }),
    responses: { 200: ok('The users.', Shape({ users: Type.Array(User) })) },
  },
  create: {
    summary: 'Create a user account',
    bodyRequired: true,
    description:
      'With a blank `service_department_id` the account is bound to the department whose code is the upper-cased ' +
      'username, created when there is none (named after `display_name`, else the username; graded by its depth). ' +
      'Account and department are written in one transaction.',
    consumes: FORM_OR_JSON,
    responses: {
      200: ok(
        'Created.',
        Shape({ user: User, department: Nullable(Department, 'The department created or reused; null when `service_department_id` was given.') }),
        Type.Literal('用户已创建'),
      ),
      400: failure('用户名和密码均不能为空, 用户名 … 已存在, 创建单位失败：…, 服务部门不存在：…, 角色无效…, 权限等级必须是 0 到 100 之间的整数, 用户名须为 …'),
    },
  },
  update: {
    summary: 'Change a user account',
    bodyRequired: true,
    description: "A new password or a deactivation ends the user's sessions. The last active administrator cannot be demoted or deactivated.",
    params,
    consumes: FORM_OR_JSON,
    responses: {
      200: ok('Changed.', Shape({ user: User }), Type.Literal('用户已更新')),
      400: failure('没有需要更新的字段, 不能停用当前登录的账号, 不能降级最后一个启用的超级管理员账号, a rejected value'),
      404: failure('用户不存在'),
    },
  },
  remove: {
    summary: 'Delete a user account',
    params,
    responses: {
      200: json('Deleted.', okBody({ message: Type.Literal('用户已删除') })),
      400: failure('不能删除当前登录的账号, 不能删除最后一个启用的超级管理员账号'),
      404: failure('用户不存在'),
    },
  },
});

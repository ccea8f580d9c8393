import { Type } from '@sinclair/typebox';
import { failure, fields, FORM_OR_JSON, ok, pathParams, routeDocs } from '../../http/openapi/route-doc.js';
import { Component, Count, Shape } from '../../http/openapi/shapes.js';
import { refFields, User } from '../accounts/accounts.openapi.js';
import { Department, departmentFields, unitLevel } from './departments.presenter.js';

const depth = Type.Integer({ minimum: 1, description: 'Depth in the tree (root = 1).' });

export const DepartmentListItem = Component('DepartmentListItem', 'A department of the flat list.', { ...departmentFields, depth });

export const DepartmentTreeNode = Type.Recursive((Node) => Shape({ ...departmentFields, depth, children: Type.Array(Node, { description: 'By name.' }) }), {
  $id: 'DepartmentTreeNode',
  description: 'A department with its children.',
});

export const ChildUnit = Component('ChildUnit', 'A direct child department.', { ...refFields, unit_level: unitLevel });

export const CreatedDepartment = Component('CreatedDepartment', 'A department with its administrator account.', {
  department: Department,
  user: User,
  default_password: Type.String({ description: "The department account's initial password: the code followed by 123456 (it must be changed at first login)." }),
});

export const UpdatedDepartment = Component('UpdatedDepartment', 'A changed department.', {
  department: Department,
  message: Type.String({ description: 'What changed.' }),
});

export const DeletedDepartment = Component('DeletedDepartment', 'A deleted department.', {
  deleted: Type.Literal(true),
  department: Department,
  unbound_users: Count('Accounts unbound by `force`.'),
});

const params = pathParams({ dept_id: 'The department id.' });

export const departmentDocs = routeDocs('departments', {
  list: { summary: 'Service departments (flat list)', responses: { 200: ok('The departments.', Shape({ departments: Type.Array(DepartmentListItem) })) } },
  tree: {
    summary: 'Service departments as a tree',
    description: 'Children by name. A department whose parent is missing, or that sits in a cycle, is placed at the top.',
    responses: { 200: ok('The roots.', Shape({ tree: Type.Array(DepartmentTreeNode) })) },
  },
  children: {
    summary: 'The direct children of a department',
    querystring: fields({ parent_id: Type.Optional(Type.String({ description: 'The parent department id; required.' })) }),
    responses: { 200: ok('The children, by name (an unknown parent has none).', Shape({ units: Type.Array(ChildUnit) })), 400: failure('parent_id 不能为空') },
  },
  create: {
    summary: 'Create a department and its administrator account',
    bodyRequired: true,
    description:
      'The account: username the code as supplied (lower-cased), display name the department name followed by 管理员, role ' +
      "`department_admin`, the department's grade, `department_role` `admin`. The department stays when the account is refused.",
    consumes: FORM_OR_JSON,
    responses: {
      200: ok('Created.', CreatedDepartment, Type.Literal('服务部门已创建')),
      400: failure(
        '服务部门名称不能为空, 部门编码 … 已存在, 服务部门名称 … 已存在, 上级部门不存在, 区域不存在：…, 权限等级必须在 0 到 100 之间; ' +
          '部门创建成功,但账号创建失败：… (with the department that was created)',
        Shape({ department: Department }),
      ),
    },
  },
  update: {
    summary: 'Change a department',
    bodyRequired: true,
    description:
      'Blank fields become null. `message`: 层级关系已更新 when the parent changed, else 权限等级已更新为<grade> when the grade ' +
      'changed, else 部门信息已更新.',
    params,
    consumes: FORM_OR_JSON,
    responses: {
      200: ok('Changed.', UpdatedDepartment, Type.String({ description: 'The same as `data.message`.' })),
      400: failure(
        '部门不能设置为自己的下级, 部门不能设置为自己下级部门的下级（会形成循环）, 权限等级必须是数字, 没有需要更新的字段, 服务部门名称不能为空, an unknown parent or region',
      ),
      404: failure('服务部门不存在'),
    },
  },
  remove: {
    summary: 'Delete a department',
    description: 'With `force` the accounts bound to it are unbound first (they stay, without a department).',
    params,
    querystring: fields({ force: Type.Optional(Type.String({ description: 'true, 1 or yes: unbind bound accounts first.' })) }),
    responses: {
      200: ok('Deleted.', DeletedDepartment, Type.Literal('部门删除成功')),
      400: failure(
        '服务部门不存在; 该部门下还有 N 个下级部门…; 该部门仍绑定 N 个账号，请先解绑，或使用强制删除（force=true） (`code: HAS_BOUND_USERS`); 部门删除失败',
      ),
    },
  },
});

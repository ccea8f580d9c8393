import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { badRequest } from '../../http/errors.js';
import { adminChange } from '../../http/guards.js';
import { asInput, readFlag, readString } from '../../http/readers.js';
import { parseRecordId } from '../../http/record-id.js';
import { deleteDepartment, updateDepartment } from './department-changes.service.js';
import { CreateDepartmentBody, readCreateDepartmentInput, readUpdateDepartmentInput, UpdateDepartmentBody } from './departments.schema.js';
import { departmentDocs } from './departments.openapi.js';
import { createDepartment, departmentTree, listChildUnits, listDepartments } from './departments.service.js';

type WithDeptId = FastifyRequest<{ Params: { dept_id: string } }>;

const operation = adminChange('service_department');

/** Service departments: admin guard, JSON errors, every change in the operation log. */
export function registerDepartmentsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { apiRoot } = ctx.config;
  const base = `${apiRoot}/admin/service-departments`;

  app.get(base, { config: { guard: 'admin', doc: departmentDocs.list } }, async () => ({
    success: true,
    data: { departments: await listDepartments(ctx.db) },
  }));

  app.get(`${base}/tree`, { config: { guard: 'admin', doc: departmentDocs.tree } }, async () => ({
    success: true,
    data: { tree: await departmentTree(ctx.db) },
  }));

  app.get(`${apiRoot}/admin/departments/children`, { config: { guard: 'admin', doc: departmentDocs.children } }, async (req) => {
    const parent = readString(asInput(req.query), 'parent_id');
    if (!parent) throw badRequest('parent_id 不能为空');
    return { success: true, data: { units: await listChildUnits(ctx.db, parseRecordId(parent)) } };
  });

  app.post(base, { schema: { body: CreateDepartmentBody }, config: operation('create', '创建服务部门', departmentDocs.create) }, async (req) => {
    const input = readCreateDepartmentInput(asInput(req.body));
    req.operation.targetName = input.name;
    // Noted as soon as the department exists: it stays even when its account is then refused.
    const result = await createDepartment(ctx, req.user!, input, (d) => {
      req.operation.targetId = d.id;
      req.operation.summary = `创建服务部门 ${d.name}（编码 ${d.code}）`;
    });
    req.operation.summary += `，并创建部门账号 ${result.user.username}`;
    return { success: true, message: '服务部门已创建', data: result };
  });

  app.patch(
    `${base}/:dept_id`,
    { schema: { body: UpdateDepartmentBody }, config: operation('update', '修改服务部门', departmentDocs.update) },
    async (req: WithDeptId) => {
      req.operation.targetId = req.params.dept_id;
      const result = await updateDepartment(ctx, req.user!, req.params.dept_id, readUpdateDepartmentInput(asInput(req.body)));
      req.operation.targetName = result.department.name;
      req.operation.summary = `修改服务部门 ${result.department.name}：${result.message}`;
      return { success: true, message: result.message, data: result };
    },
  );

  app.delete(`${base}/:dept_id`, { config: operation('delete', '删除服务部门', departmentDocs.remove) }, async (req: WithDeptId) => {
    req.operation.targetId = req.params.dept_id;
    const force = readFlag(asInput(req.query), 'force', false);
    const result = await deleteDepartment(ctx, req.user!, req.params.dept_id, force);
    req.operation.targetName = result.department.name;
    req.operation.summary =
      result.unbound_users > 0
        ? `强制删除服务部门 ${result.department.name}，解除 ${result.unbound_users} 个账号的绑定`
        : `删除服务部门 ${result.department.name}`;
    return { success: true, data: result, message: '部门删除成功' };
  });
}

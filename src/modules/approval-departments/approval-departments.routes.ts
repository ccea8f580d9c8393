import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { approvalDepartmentDocs } from './approval-departments.openapi.js';
import { setupApprovalDepartments } from './approval-departments.service.js';
import { adminChange } from '../../http/guards.js';

export function registerApprovalDepartmentRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { apiRoot } = ctx.config;

  app.post(
    `${apiRoot}/admin/approval-departments/setup`,
    { config: adminChange('approval_department')('setup', '建立审批部门与服务部门的对应关系', approvalDepartmentDocs.setup) },
    async (req) => {
      const result = await setupApprovalDepartments(ctx.db);
      req.operation.summary = `审批部门对应关系：已关联 ${result.linked.length} 个，未匹配 ${result.unmatched.length} 个（共 ${result.total} 个）`;
      return { success: true, data: result };
    },
  );
}

import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { asInput, readString } from '../../http/readers.js';
import { Scalar } from '../../http/body-fields.js';
import { filterPermits } from './permits-filter.service.js';
import { permitDocs } from './permits.openapi.js';

const PermitFilterBody = Type.Union([
  Type.Object(
    {
      municipal_dept_id: Scalar(20, 'A service department: permits whose approval departments it covers.'),
      district_dept_id: Scalar(20, 'A narrower service department; replaces `municipal_dept_id` when given.'),
      region: Scalar(100, 'Region id, code or name.'),
      search_text: Scalar(200, 'Substring of the permit name.'),
    },
    { additionalProperties: false },
  ),
  Type.Null(),
]);

/** POST /admin/permits/filter: login guard, results within the caller's data scope. */
export function registerPermitsFilterRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post(
    `${ctx.config.apiRoot}/admin/permits/filter`,
    { schema: { body: PermitFilterBody }, config: { guard: 'login', doc: permitDocs.departmentFilter } },
    async (req) => {
      const body = asInput(req.body);
      const data = await filterPermits(ctx.readDb, req.user!, {
        municipal_dept_id: readString(body, 'municipal_dept_id'),
        district_dept_id: readString(body, 'district_dept_id'),
        region: readString(body, 'region'),
        search_text: readString(body, 'search_text'),
      });
      return { success: true, data };
    },
  );
}

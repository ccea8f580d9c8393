import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { badRequest } from '../../http/errors.js';
import { asInput, isBlank, readNullableString, readString } from '../../http/readers.js';
import { defaultEditor } from '../auth/current-user.js';
import { regionScope } from '../auth/data-scope.js';
import { deletePermit } from './permit-delete.service.js';
import { readPermitEdit } from './permit-edit.input.js';
import { editPermit } from './permit-edit.service.js';
import { browseRegionPermits, permitDetails } from './permits-browse.service.js';
import { permitDocs } from './permits.openapi.js';

/** The 4.6 reads answer every failure with `data: {}` beside the message. */
const READ_CONFIG = { failureExtra: { data: {} } };

/** A permit's edit carries its whole risk list: up to 500 risks of a few kB each. */
const EDIT_BODY_LIMIT = 4 * 1024 * 1024;

/** Query string overlaid by the non-blank fields of a JSON or form body ("JSON, form or query"). */
function queryAndBody(req: FastifyRequest): Record<string, unknown> {
  const merged = { ...asInput(req.query) };
  for (const [k, v] of Object.entries(asInput(req.body))) if (!isBlank(v)) merged[k] = v;
  return merged;
}

/** Permit browsing, details and deletion. Hidden permits are shown: this is administration. */
export function registerPermitRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { apiRoot } = ctx.config;

  app.get(`${apiRoot}/admin/permits`, { config: { ...READ_CONFIG, doc: permitDocs.browse } }, async (req) => {
    const q = asInput(req.query);
    const region = readString(q, 'region', 'region_id');
    if (!region) throw badRequest('region is required');
    const data = await browseRegionPermits(ctx.readDb, regionScope(req.user), region, readString(q, 'theme', 'theme_id'));
    return { success: true, data };
  });

  app.get(`${apiRoot}/admin/permit-details`, { config: { ...READ_CONFIG, doc: permitDocs.details } }, async (req) => {
    const q = asInput(req.query);
    const region = readString(q, 'region', 'region_id');
    const permit = readString(q, 'permit', 'permit_id');
    if (!region || !permit) throw badRequest('region and permit are required');
    const theme = readString(q, 'theme', 'theme_id');
    return { success: true, data: await permitDetails(ctx.readDb, regionScope(req.user), { region, permit, theme }) };
  });

  app.patch(
    `${apiRoot}/admin/permits/:permit_id`,
    { bodyLimit: EDIT_BODY_LIMIT, config: { operation: { type: 'update', summary: '修改许可事项', targetType: 'permit' }, doc: permitDocs.edit } },
    async (req: FastifyRequest<{ Params: { permit_id: string } }>) => {
      req.operation.targetId = req.params.permit_id;
      const edit = readPermitEdit(asInput(req.body));
      const result = await editPermit(ctx, regionScope(req.user), req.params.permit_id, edit, edit.editedBy ?? defaultEditor(req.user));
      const name = result.permit.name;
      req.operation.targetName = name;
      req.operation.summary = result.changes
        ? `修改许可事项 ${name}：${result.changes}（修改前的内容已保存为快照批次 #${result.snapshot_batch_id}）`
        : `修改许可事项 ${name}：没有改动`;
      return { success: true, message: result.changes ? '许可事项已保存' : '没有需要保存的修改', data: result };
    },
  );

  app.delete(
    `${apiRoot}/admin/permits`,
    { config: { operation: { type: 'delete', summary: '删除许可事项', targetType: 'permit' }, doc: permitDocs.remove } },
    async (req) => {
      const input = queryAndBody(req);
      const result = await deletePermit(ctx, regionScope(req.user), {
        region: readString(input, 'region_id', 'region'),
        permit: readString(input, 'permit_id', 'permit'),
        theme: readString(input, 'theme_id', 'theme'),
        editedBy: readString(input, 'edited_by') ?? defaultEditor(req.user),
        changeSummary: readNullableString(input, 'change_summary') ?? null,
      });
      Object.assign(req.operation, {
        targetId: result.permit_id,
        targetName: result.permit_name,
        summary: `删除许可事项 ${result.permit_name}（${result.risk_count} 条风险，已保存为快照批次 #${result.snapshot_batch_id}）`,
      });
      return { success: true, data: result };
    },
  );
}
